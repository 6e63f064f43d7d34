// mouse.yml, touchscreen.yml and multi.yml replayed through a scene of two clients'
// toplevels side by side on a 1280×720 output, checked by the InvariantChecker.

import InputRouter
import InputRouterKeyboard
import InputRouterRecording
import Testing

/// Output 1280×720; "left" (client "alpha") and "right" (client "beta") split it in two.
final class SideBySide {
    let router = Router()
    let seat: Seat
    let output: NodeID
    let alpha: ClientID, beta: ClientID
    let left: NodeID, right: NodeID
    var sink: InvariantChecker<TraceSink>

    init() {
        seat = router.addSeat()
        output = router.tree.createNode(.output, name: "out", frame: Rect(0, 0, 1280, 720))
        alpha = router.addClient(name: "alpha")
        beta = router.addClient(name: "beta")
        seat.setBound([.pointer, .keyboard, .touch], for: alpha, true)
        seat.setBound([.pointer, .keyboard, .touch], for: beta, true)
        left = router.tree.createNode(
            .toplevel, name: "left", client: alpha, parent: output, frame: Rect(0, 0, 640, 720))
        right = router.tree.createNode(
            .toplevel, name: "right", client: beta, parent: output,
            frame: Rect(640, 0, 640, 720))
        sink = InvariantChecker(wrapping: TraceSink(router: router), router: router)
        router.flush(into: &sink)
        sink.inner.removeAll()
    }

    /// Replays a fixture and returns its trace lines.
    func replay(_ name: String) throws -> [String] {
        let recording = try RecordingReader.read(path: Fixtures.path(name))
        try IntegrationTests.replay(recording, into: seat, router: router, sink: &sink)
        return sink.inner.lines
    }
}

@Suite struct PointerTouchReplayTests {
    @Test func mouseButtonsArePairedPerSurface() throws {
        let scene = SideBySide()
        let recording = try RecordingReader.read(path: Fixtures.path("mouse.yml"))
        let lines = try scene.replay("mouse.yml")
        #expect(scene.sink.violations == [])

        // Trace lines: `seat0 pointer.button "<surface>" <BUTTON> pressed|released`.
        var pressed: [String: [String: Int]] = [:]
        var released: [String: [String: Int]] = [:]
        for line in lines where line.hasPrefix("seat0 pointer.button ") {
            let f = line.split(separator: " ").map(String.init)
            let (surface, button, state) = (f[2], f[3], f[4])
            if state == "pressed" {
                pressed[surface, default: [:]][button, default: 0] += 1
            } else {
                released[surface, default: [:]][button, default: 0] += 1
            }
        }
        // The recording clicks left twice, right once, middle once, all over "left".
        let recorded = recording.events.filter { if case .pointerButton = $0.kind { true } else { false } }
        #expect(recorded.count == 8)
        #expect(pressed == ["\"left\"": ["BTN_LEFT": 2, "BTN_RIGHT": 1, "BTN_MIDDLE": 1]])
        #expect(released == pressed)
        #expect(!lines.contains { $0.contains("\"right\"") })
        #expect(!lines.contains { $0.contains("dropped") })
        // Every button delivery is followed by a frame for its client.
        for (i, line) in lines.enumerated() where line.contains("pointer.button") {
            #expect(i + 1 < lines.count && lines[i + 1] == "seat0 pointer.frame client1(\"alpha\")")
        }
    }

    @Test func touchDownsEndPerClientAndGoldenTrace() throws {
        let scene = SideBySide()
        let lines = try scene.replay("touchscreen.yml")
        #expect(scene.sink.violations == [])

        // Every touch.down is matched by a touch.up of the same slot on a surface of the
        // same client, or by a touch.cancel to that client.
        let clientOfSurface = ["\"left\"": "client1(\"alpha\")", "\"right\"": "client2(\"beta\")"]
        var open: [String: Set<String>] = [:]
        var downs: [String: Int] = [:]
        for line in lines {
            let f = line.split(separator: " ").map(String.init)
            switch f[1] {
            case "touch.down": // seat0 touch.down "<surface>" slot <n> at x,y
                let c = try #require(clientOfSurface[f[2]])
                #expect(open[c]?.contains(f[4]) != true, "slot \(f[4]) down twice for \(c)")
                open[c, default: []].insert(f[4])
                downs[c, default: 0] += 1
            case "touch.up": // seat0 touch.up "<surface>" slot <n>
                let c = try #require(clientOfSurface[f[2]])
                #expect(open[c]?.remove(f[4]) != nil, "up without down: slot \(f[4]) for \(c)")
            case "touch.cancel": // seat0 touch.cancel <client>
                open[f[2]] = []
            default: break
            }
        }
        #expect(open.values.allSatisfy { $0.isEmpty })
        #expect(downs == ["client1(\"alpha\")": 3, "client2(\"beta\")": 1])

        // Golden: the first touch (slot 0 at 75.62,50.31 mm of a 256×144 mm screen → 0.2954,
        // 0.3494 → 378.1,251.55 on the 1280×720 output, inside "left"), a jitter, its
        // release, and the start of a second touch.
        #expect(
            Array(lines.prefix(30)) == [
                "seat0 touch.down \"left\" slot 0 at 378.1015625,251.55078125",
                "seat0 touch.frame client1(\"alpha\")",
                "seat0 touch.motion \"left\" slot 0 at 378.44921875,251.55078125",
                "seat0 touch.frame client1(\"alpha\")",
                "seat0 touch.motion \"left\" slot 0 at 378.1015625,251.55078125",
                "seat0 touch.frame client1(\"alpha\")",
                "seat0 touch.motion \"left\" slot 0 at 378.44921875,251.25",
                "seat0 touch.frame client1(\"alpha\")",
                "seat0 touch.motion \"left\" slot 0 at 378.1015625,251.55078125",
                "seat0 touch.frame client1(\"alpha\")",
                "seat0 touch.motion \"left\" slot 0 at 378.44921875,251.25",
                "seat0 touch.frame client1(\"alpha\")",
                "seat0 touch.motion \"left\" slot 0 at 378.44921875,251.55078125",
                "seat0 touch.frame client1(\"alpha\")",
                "seat0 touch.motion \"left\" slot 0 at 378.1015625,251.55078125",
                "seat0 touch.frame client1(\"alpha\")",
                "seat0 touch.motion \"left\" slot 0 at 378.44921875,251.55078125",
                "seat0 touch.frame client1(\"alpha\")",
                "seat0 touch.up \"left\" slot 0",
                "seat0 touch.frame client1(\"alpha\")",
                "seat0 touch.down \"left\" slot 0 at 256.25,475",
                "seat0 touch.frame client1(\"alpha\")",
                "seat0 touch.motion \"left\" slot 0 at 256.25,475.30078125",
                "seat0 touch.frame client1(\"alpha\")",
                "seat0 touch.motion \"left\" slot 0 at 255.94921875,475.30078125",
                "seat0 touch.frame client1(\"alpha\")",
                "seat0 touch.motion \"left\" slot 0 at 273.1015625,470.30078125",
                "seat0 touch.frame client1(\"alpha\")",
                "seat0 touch.motion \"left\" slot 0 at 290,466.25",
                "seat0 touch.frame client1(\"alpha\")",
            ])
        // The two-finger touch later spans both clients: "right" gets slot 1, surface-local.
        #expect(lines.contains("seat0 touch.down \"right\" slot 1 at 150.6015625,387.5"))
        #expect(lines.filter { $0.contains("touch.down") }.count == 4)
        #expect(lines.filter { $0.contains("touch.up") }.count == 4)
    }

    @Test func shiftClickDeliversButtonWithShiftHeld() throws {
        let scene = SideBySide()
        scene.seat.keyTranslator = try makeKeyboardState(layout: "us")
        #expect(scene.seat.setKeyboardFocus(scene.left)) // the pointer is over "left" too
        scene.router.flush(into: &scene.sink)
        scene.sink.inner.removeAll()
        let recording = try RecordingReader.read(path: Fixtures.path("multi.yml"))
        var replayer = try Replayer(events: recording.events, speed: .asFastAsPossible)
        replayer.start(at: 0)
        var modifiersAtPresses: [ModifierMask] = []
        var lines: [String] = []
        while let event = replayer.next() {
            scene.seat.handle(event)
            scene.router.flush(into: &scene.sink)
            if case .pointerButton(_, .pressed) = event.kind {
                modifiersAtPresses.append(scene.seat.modifiers.effective)
            }
            lines += scene.sink.inner.lines
            scene.sink.inner.removeAll()
        }
        #expect(scene.sink.violations == [])
        // multi.yml: Shift+click, Ctrl+wheel, Super+drag, then typing and Alt+motion.
        #expect(modifiersAtPresses == [.shift, .superKey])
        let press = try #require(lines.firstIndex(of: "seat0 pointer.button \"left\" BTN_LEFT pressed"))
        let shiftDown = try #require(lines.firstIndex(of: "seat0 keyboard.key \"left\" 42 pressed"))
        #expect(shiftDown < press)
        // The last modifiers the client saw before the button: Shift depressed.
        let lastMods = lines[..<press].last { $0.contains("keyboard.modifiers") }
        #expect(lastMods == "seat0 keyboard.modifiers \"left\" 1,0,0,0")
        let release = try #require(lines.firstIndex(of: "seat0 pointer.button \"left\" BTN_LEFT released"))
        let shiftUp = try #require(lines.firstIndex(of: "seat0 keyboard.key \"left\" 42 released"))
        #expect(press < release && release < shiftUp)
        // Nothing was dropped: the focused client took every key.
        #expect(!lines.contains { $0.contains("dropped") })
        #expect(scene.seat.modifiers == .none)
    }
}
