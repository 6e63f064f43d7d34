// keyboard.yml (types "Hello, World!" with Shift, Ctrl+C, holds A) replayed through a seat
// whose key translator is xkbcommon on `us`, into a focused toplevel, with a Ctrl+c binding.

import InputRouter
import Keyboard
import Recording
import Testing

@Suite struct KeyboardReplayTests {
    @Test func typedTextReachesTheFocusedClientMinusTheBinding() throws {
        let recording = try RecordingReader.read(path: Fixtures.path("keyboard.yml"))
        let router = Router()
        let seat = router.addSeat()
        let output = router.tree.createNode(.output, name: "out", frame: Rect(0, 0, 1280, 720))
        let editor = router.addClient(name: "editor")
        seat.setBound([.keyboard], for: editor, true)
        let window = router.tree.createNode(.toplevel, name: "editor", client: editor, parent: output,
                                            frame: Rect(0, 0, 1280, 720))
        seat.keyTranslator = try makeKeyboardState(layout: "us")
        var fired = 0
        seat.addBinding(try KeyBinding(parsing: "Ctrl+c")) { fired += 1 }
        var sink = InvariantChecker(wrapping: Recorder(router: router), router: router)
        router.flush(into: &sink)
        #expect(seat.setKeyboardFocus(window))
        router.flush(into: &sink)

        try replay(recording, into: seat, router: router, sink: &sink)
        let deliveries = sink.inner.deliveries

        // Decode what the client was sent, as a client would, with its own xkb state.
        let decoder = try makeKeyboardState(layout: "us")
        var text = ""
        var keyDeliveries: [(UInt32, KeyState)] = []
        for d in deliveries {
            guard case .key(_, let n, _, let key, let state, _) = d else { continue }
            #expect(n == window)
            keyDeliveries.append((key, state))
            let result = decoder.process(key: key, state: state)
            if state == .pressed { text += result.text }
        }
        print("TEXT:", text.debugDescription)
        print(sink.inner.lines.joined(separator: "\n"))
        print("VIOLATIONS:", sink.violations)
    }
}
