// The recorded fixtures cut at several points: the scene snapshot taken at the cut, read
// back as text and rebuilt with no client, replays the rest of the recording to the trace
// the uncut live run produced after the cut (real xkbcommon keyboard, a key binding, a
// popup chain open on the right-hand client).

import InputRouter
import InputRouterKeyboard
import InputRouterRecording
import Testing

@Suite struct SnapshotFixtureTests {
    struct Lines: DeliverySink {
        let router: Router
        var lines: [String] = []
        mutating func deliver(_ d: Delivery, from queue: DeliveryQueue) {
            lines.append(TraceSink.line(d, queue: queue, router: router))
        }
    }

    /// SideBySide's scene with a popup chain on "right" and Super+Return bound.
    static func liveScene(popups: Bool) throws -> SideBySide {
        let scene = SideBySide()
        scene.seat.keyTranslator = try makeKeyboardState()
        scene.seat.keymapNames = ["layout": "us"]
        scene.seat.addBinding(KeyBinding(keysym: 0xff0d, modifiers: .superKey), name: "terminal") {}
        scene.seat.setKeyboardFocus(scene.left)
        if popups {
            let tree = scene.router.tree
            let menu = tree.createNode(
                .popup, name: "menu", client: scene.beta, parent: scene.right, frame: Rect(20, 20, 200, 300))
            tree.setNextResponder(menu, scene.right)
            let sub = tree.createNode(.popup, client: scene.beta, parent: menu, frame: Rect(180, 40, 160, 120))
            tree.setNextResponder(sub, menu)
            scene.seat.beginPopupGrab(menu)
            scene.seat.beginPopupGrab(sub)
        }
        scene.router.flush(into: &scene.sink)
        return scene
    }

    @Test(arguments: ["mouse.yml", "keyboard.yml", "touchscreen.yml", "multi.yml", "switches.yml"], [false, true])
    func fixtureCutAnywhereReplaysToTheLiveTrace(fixture: String, popups: Bool) throws {
        let events = try RecordingReader.read(path: Fixtures.path(fixture)).events
        var cutsWithSomethingHeld = 0
        for part in 1..<8 {
            let cut = events.count * part / 8
            let scene = try Self.liveScene(popups: popups)
            var live = Lines(router: scene.router)
            for e in events[..<cut] {
                scene.seat.handle(e)
                scene.router.flush(into: &live)
            }
            let state = scene.router.captureScene()
            let s = state.seats[0]
            if !s.heldKeys.isEmpty || !s.heldButtons.isEmpty || !s.touchPoints.isEmpty { cutsWithSomethingHeld += 1 }
            let text = SceneSnapshot.write(state)
            live.lines.removeAll()
            for e in events[cut...] {
                scene.seat.handle(e)
                scene.router.flush(into: &live)
            }
            let read = try SceneSnapshot.read(text, file: "\(fixture)@\(cut)")
            let rebuilt = try SceneSnapshot.rebuild(read) { _ in try makeKeyboardState() }
            let replayed = SceneSnapshot.replay(Array(events[cut...]), through: rebuilt)
            if let i = SceneSnapshot.firstDifference(expected: live.lines, actual: replayed) {
                Issue.record(
                    """
                    \(fixture) cut at event \(cut) of \(events.count): differs at line \(i + 1)
                    live:     \(i < live.lines.count ? live.lines[i] : "(end)")
                    replayed: \(i < replayed.count ? replayed[i] : "(end)")
                    """)
                return
            }
            #expect(!live.lines.isEmpty || cut == events.count)
        }
        if fixture == "keyboard.yml" || fixture == "mouse.yml" || fixture == "touchscreen.yml" {
            #expect(cutsWithSomethingHeld > 0, "no cut of \(fixture) fell while something was held")
        }
    }
}
