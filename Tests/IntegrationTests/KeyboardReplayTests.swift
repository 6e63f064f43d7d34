// keyboard.yml (types "Hello, World!" with Shift, Ctrl+C, holds A) replayed through a seat
// whose key translator is xkbcommon on `us`, into a focused toplevel, with a Ctrl+c binding.

import InputRouter
import InputRouterKeyboard
import InputRouterRecording
import Testing

@Suite struct KeyboardReplayTests {
    @Test func typedTextReachesTheFocusedClientMinusTheBinding() throws {
        let recording = try RecordingReader.read(path: Fixtures.path("keyboard.yml"))
        let router = Router()
        let seat = router.addSeat()
        let output = router.tree.createNode(.output, name: "out", frame: Rect(0, 0, 1280, 720))
        let editor = router.addClient(name: "editor")
        seat.setBound([.keyboard], for: editor, true)
        let window = router.tree.createNode(
            .toplevel, name: "editor", client: editor, parent: output,
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
        // The fixture types "Hello, World!", Ctrl+C, holds A, then Return; the C of Ctrl+C
        // went to the binding, so the client never saw it (its text would be "\u{3}").
        #expect(text == "Hello, World!a\r")
        #expect(fired == 1)
        #expect(deliveries.filter { if case .binding(_, 0, 46) = $0 { true } else { false } }.count == 1)
        // The recording does press and release KEY_C (46); neither reached the client.
        let recordedC = recording.events.filter { if case .keyboardKey(46, _) = $0.kind { true } else { false } }
        #expect(recordedC.count == 2)
        #expect(!keyDeliveries.contains { $0.0 == 46 })
        // Every press the client got was released to it (nothing stuck).
        let presses = keyDeliveries.filter { $0.1 == .pressed }.map(\.0)
        let releases = keyDeliveries.filter { $0.1 == .released }.map(\.0)
        #expect(presses.sorted() == releases.sorted())
        // Modifiers reached the client even around the consumed key: Shift and Control.
        let mods = deliveries.compactMap { d -> Modifiers? in
            if case .modifiers(_, let n, let m, _) = d, n == window { return m }
            return nil
        }
        #expect(mods.contains { $0.depressed == 1 })
        #expect(mods.contains { $0.depressed == 4 })
        #expect(mods.last == Modifiers.none)
        // Control is held (4) when the binding fires, and released (0) after it.
        if let b = deliveries.firstIndex(where: { if case .binding = $0 { true } else { false } }) {
            let before = deliveries[..<b].compactMap { d -> Modifiers? in
                if case .modifiers(_, _, let m, _) = d { return m } else { return nil }
            }
            #expect(before.last?.depressed == 4)
            let after = deliveries[b...].compactMap { d -> Modifiers? in
                if case .modifiers(_, _, let m, _) = d { return m } else { return nil }
            }
            #expect(after.first?.depressed == 0)
        }
        #expect(seat.modifiers == .none)
        #expect(sink.violations == [])
    }
}
