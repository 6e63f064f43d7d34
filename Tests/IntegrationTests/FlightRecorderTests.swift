// The flight recorder on the recorded fixtures: the bundle it writes at the end of a live
// run (snapshot when its window began, the input since, the trace since) replays through a
// rebuilt scene to the live run's trace, in-process and through the `ir-replay` program.

import Foundation
import InputRouter
import InputRouterKeyboard
import InputRouterRecording
import TestSupport
import Testing

@Suite struct FlightRecorderTests {
    struct Lines: DeliverySink {
        let router: Router
        var lines: [String] = []
        mutating func deliver(_ d: Delivery, from queue: DeliveryQueue) {
            lines.append(TraceSink.line(d, queue: queue, router: router))
        }
    }

    /// Runs `fixture` live through SideBySide with a recorder whose window is a fifth of
    /// the recording (so it keeps a fifth to two fifths of it) and writes the bundle into a
    /// fresh directory; returns it and how many trace lines the live run made before the
    /// bundle's window.
    static func liveRun(_ fixture: String) throws -> (directory: String, skipped: Int) {
        let scene = try SnapshotFixtureTests.liveScene(popups: fixture == "mouse.yml")
        let events = try RecordingReader.read(path: Fixtures.path(fixture)).events
        let window = ((events.last?.time ?? 0) - (events.first?.time ?? 0)) / 5
        let recorder = FlightRecorder(router: scene.router, window: window)
        var live = Lines(router: scene.router)
        // The trace's mark is its line count, read through a box (the sink is a value).
        final class Count { var n = 0 }
        let count = Count()
        recorder.traceMark = { UInt64(count.n) }
        recorder.restart()
        for e in events {
            recorder.record(e)
            scene.seat.handle(e)
            scene.router.flush(into: &live)
            count.n = live.lines.count
        }
        let directory = NSTemporaryDirectory() + "ir-bundle-\(fixture)-\(UInt32.random(in: 0...UInt32.max))"
        let trace = live.lines[Int(recorder.startTraceMark)...].map { $0 + "\n" }.joined()
        try recorder.writeBundle(to: directory, trace: trace)
        return (directory, Int(recorder.startTraceMark))
    }

    /// What ir-replay does, in-process.
    static func replayBundle(_ directory: String) throws -> (replayed: [String], recorded: [String]) {
        let read = try SceneSnapshot.read(path: directory + "/scene.jsonl")
        let router = try SceneSnapshot.rebuild(read) { _ in try makeKeyboardState() }
        let input = try String(contentsOfFile: directory + "/input.yml", encoding: .utf8)
        let recording = try RecordingReader.parse(
            input, file: "input.yml", deviceIDBase: FlightRecorder.deviceBase(ofInput: input))
        let replayed = SceneSnapshot.replay(recording.events, through: router)
        let recorded = try String(contentsOfFile: directory + "/trace.txt", encoding: .utf8)
            .split(separator: "\n").map(String.init)
        return (replayed, recorded)
    }

    @Test(arguments: ["mouse.yml", "keyboard.yml", "touchscreen.yml", "multi.yml"])
    func aBundleReplaysToTheTraceTheLiveRunMade(fixture: String) throws {
        let (directory, skipped) = try Self.liveRun(fixture)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (replayed, recorded) = try Self.replayBundle(directory)
        #expect(skipped > 0, "the window never moved: the bundle is the whole run")
        #expect(recorded.count > 5)
        #expect(SceneSnapshot.firstDifference(expected: recorded, actual: replayed) == nil)
    }

    /// A window made before the first event (a client that mapped after the recorder was
    /// made) is in the window's scene: the scene is captured at the window's first event.
    @Test func theWindowsSceneIsTheSceneAtItsFirstEvent() {
        let router = Router()
        let seat = router.addSeat()
        let output = router.tree.createNode(.output, name: "out", frame: Rect(0, 0, 800, 600))
        let recorder = FlightRecorder(router: router, window: 1_000_000)
        let client = router.addClient(name: "late")
        seat.setBound(.pointer, for: client, true)
        router.tree.createNode(.toplevel, name: "late", client: client, parent: output, frame: Rect(0, 0, 100, 100))
        let motion = InputEvent(
            time: 5, device: DeviceID(0), .pointerMotion(dx: 1, dy: 1, unacceleratedDX: 1, unacceleratedDY: 1))
        recorder.record(motion)
        seat.handle(motion)
        #expect(recorder.startScene.nodes.map(\.name) == ["out", "late"])
        #expect(recorder.startScene.clients.map(\.name) == ["late"])
        #expect(recorder.events.count == 1)
    }

    static let irReplay: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../.build/debug/ir-replay").standardized.path
    }()

    static func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let result = try ChildProcess.run(irReplay, arguments)
        return (result.status, result.output, result.error)
    }

    @Test func irReplaySaysIdenticalOrNamesTheFirstDifferentLine() throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.irReplay), "build ir-replay first: \(Self.irReplay)")
        let (directory, _) = try Self.liveRun("keyboard.yml")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let good = try Self.run([directory])
        #expect(good.status == 0)
        let recorded = try String(contentsOfFile: directory + "/trace.txt", encoding: .utf8)
        #expect(good.out == recorded)
        #expect(good.err.hasSuffix("ir-replay: identical (\(recorded.split(separator: "\n").count) lines)\n"))

        // The recorded trace edited on its third line: ir-replay names that line.
        var lines = recorded.split(separator: "\n").map(String.init)
        try #require(lines.count > 3)
        let original = lines[2]
        lines[2] = "seat0 keyboard.key \"left\" 99 pressed"
        try (lines.joined(separator: "\n") + "\n").write(
            toFile: directory + "/trace.txt", atomically: true, encoding: .utf8)
        let bad = try Self.run(["--quiet", directory])
        #expect(bad.status == 1)
        #expect(bad.out == "")
        #expect(
            bad.err == """
                ir-replay: differs from \(directory)/trace.txt at line 3
                  recorded: seat0 keyboard.key "left" 99 pressed
                  replayed: \(original)

                """)
    }

    /// A bundle ir-compositor wrote on another machine, committed as it came out: the
    /// CompositorFlightRecorderTests scene (two wl-probe windows with title bars, a GTK 3
    /// entry, mouse.yml's clicks that raise and focus, then flight-print.yml's
    /// Super+Shift+Print), made at e188d0c on 6 December 2026. Replayed here, with no client
    /// and none of that machine's state, it must give the trace that compositor wrote.
    @Test func aBundleWrittenElsewhereReplaysIdentically() throws {
        let bundle = Fixtures.path("bundles/title-bars-gtk3")
        let recorded = try String(contentsOfFile: bundle + "/trace.txt", encoding: .utf8)
        #expect(recorded.contains("seat0 handled pointer.enter by \"title bar\""))
        let r = try Self.run([bundle])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == recorded)
        #expect(r.err == "ir-replay: identical (\(recorded.split(separator: "\n").count) lines)\n")
    }

    @Test func irReplayTakesASnapshotAndADebugEventsPaste() throws {
        let (directory, _) = try Self.liveRun("mouse.yml")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let r = try Self.run([directory + "/scene.jsonl", Fixtures.path("debug-events/mouse.txt")])
        #expect(r.status == 0)
        #expect(r.out.contains("pointer.motion"))
        #expect(r.out.contains("pointer.button"))
        let broken = try Self.run([directory + "/input.yml", Fixtures.path("debug-events/mouse.txt")])
        #expect(broken.status == 2)
        #expect(broken.err.hasPrefix("ir-replay: \(directory)/input.yml:1:1: not a JSON object"))
    }
}
