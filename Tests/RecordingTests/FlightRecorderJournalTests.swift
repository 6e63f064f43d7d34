// A bundle's scene journal (journal.jsonl, docs/bug-reports.md): what a flight recorder
// keeps of the embedder's edits and handler answers, the text it is written as, and a
// replay that redoes it to the live trace. Broken journals are errors naming their line.

import Foundation
import InputRouter
import InputRouterRecording
import Testing

@Suite struct FlightRecorderJournalTests {
    /// A live run: a client window under the pointer's path, and a compositor "bar" above
    /// it whose handler takes the pointer and, on a press, raises and focuses the window
    /// (an edit inside routing). Between events the embedder maps a second window over the
    /// path and moves the first. Returns the recorder, the live trace since its window
    /// began, and the events.
    static func liveRun(windowLength: UInt64 = 10_000_000) -> (FlightRecorder, [String], [InputEvent]) {
        let router = Router()
        let a = router.addClient(name: "a")
        let seat = router.addSeat()
        seat.notifyDeviceAdded(DeviceID(1), capabilities: [.pointer])
        seat.setBound([.pointer, .keyboard], for: a, true)
        let tree = router.tree
        let out = tree.createNode(.output, name: "out", frame: Rect(0, 0, 800, 600))
        let window = tree.createNode(.toplevel, name: "one", client: a, parent: out, frame: Rect(0, 40, 300, 200))
        let bar = tree.createNode(.compositor, name: "bar", parent: out, frame: Rect(0, 0, 300, 40))
        tree.setHandler(bar, name: "bar") { event in
            if case .pointerButton(_, .pressed, _) = event {
                tree.raiseToTop(window)
                seat.setKeyboardFocus(window)
            }
            return .handled
        }
        struct Lines: DeliverySink {
            let router: Router
            var lines: [String] = []
            mutating func deliver(_ d: Delivery, from queue: DeliveryQueue) {
                lines.append(TraceSink.line(d, queue: queue, router: router))
            }
        }
        var sink = Lines(router: router)
        // What the scene's making queued was told before the window: not in its trace.
        router.flush(into: &sink)
        sink.lines = []
        let recorder = FlightRecorder(router: router, window: windowLength)
        recorder.traceMark = { UInt64(sink.lines.count) }
        recorder.restart()
        var events: [InputEvent] = []
        var time: UInt64 = 1000
        func route(_ kind: InputEvent.Kind) {
            let e = InputEvent(time: time, device: DeviceID(1), kind)
            time += 10_000
            recorder.record(e)
            events.append(e)
            seat.handle(e)
            router.flush(into: &sink)
        }
        for _ in 0..<4 { route(.pointerMotion(dx: 5, dy: 5, unacceleratedDX: 5, unacceleratedDY: 5)) }
        route(.pointerButton(button: 0x110, state: .pressed))
        route(.pointerButton(button: 0x110, state: .released))
        // The embedder's edits between two events: a second window over the path, a move.
        let two = tree.createNode(.toplevel, name: "two", client: a, parent: out, frame: Rect(0, 0, 100, 100))
        tree.setMapped(two, true)
        tree.move(window, to: (10, 50))
        router.flush(into: &sink)
        for _ in 0..<12 { route(.pointerMotion(dx: 10, dy: 10, unacceleratedDX: 10, unacceleratedDY: 10)) }
        // The window's trace and events: since its scene (all of them unless it rotated).
        let kept = recorder.events.count
        return (recorder, Array(sink.lines.dropFirst(Int(recorder.startTraceMark))), Array(events.suffix(kept)))
    }

    /// Rebuilds the bundle's scene from its text and replays its input, with or without
    /// its journal (read back from its text).
    static func replay(_ recorder: FlightRecorder, _ events: [InputEvent], journal: Bool) throws -> [String] {
        let (sceneText, _) = recorder.bundle()
        var handlers = SceneHandlers()
        handlers.fallbackHandler = { _ in .notHandled }
        let router = try SceneSnapshot.rebuild(try SceneSnapshot.read(sceneText), handlers: handlers)
        let edits = journal ? try SceneJournalText.read(SceneJournalText.write(recorder.edits)) : nil
        return SceneSnapshot.replay(events, through: router, edits: edits, handlers: handlers)
    }

    @Test func aReplayThatRedoesTheJournalGivesTheLiveTrace() throws {
        let (recorder, live, events) = Self.liveRun()
        #expect(live.contains { $0.hasPrefix("seat0 handled pointer.button by \"bar\"") })
        #expect(live.contains { $0.hasPrefix("seat0 pointer.enter \"two\"") })
        #expect(live.contains { $0.hasPrefix("seat0 pointer.enter \"one\" at 90,50") })
        let replayed = try Self.replay(recorder, events, journal: true)
        let at = SceneSnapshot.firstDifference(expected: live, actual: replayed)
        #expect(
            at == nil,
            "line \(at ?? 0): \(at.map { Array(live[$0...].prefix(2)) } ?? []) vs \(at.map { Array(replayed[$0...].prefix(2)) } ?? [])"
        )
        // The journal is what makes it so: the same bundle without it parts from the live run.
        #expect(try Self.replay(recorder, events, journal: false) != live)
    }

    /// A window of 60 ms (events 10 ms apart) rotates at events 6 and 12: the bundle's scene
    /// is the one at event 6, which holds the edits made just before it (they are not
    /// redone), and its replay gives the trace since.
    @Test func aRotatedWindowKeepsTheEditsSinceItsScene() throws {
        let (recorder, live, events) = Self.liveRun(windowLength: 60_000)
        #expect(events.count == 12)
        #expect(!recorder.edits.contains { $0.op == .createNode || $0.op == .move })
        #expect(recorder.startScene.nodes.contains { $0.name == "two" })
        let replayed = try Self.replay(recorder, events, journal: true)
        #expect(SceneSnapshot.firstDifference(expected: live, actual: replayed) == nil, "\(live)\n\(replayed)")
    }

    @Test func theJournalHoldsTheEditsInOrderWithTheEvents() {
        let (recorder, _, _) = Self.liveRun()
        let ops = recorder.edits.map { "\($0.at) \($0.op)" }
        // The bar's handler answers each call; its press raised and focused the window.
        #expect(ops.contains("5 call"))
        let press = ops.firstIndex(of: "5 raise")
        #expect(press != nil && ops[press! + 1] == "5 keyboardFocus" && ops[press! + 2] == "5 answer")
        // After the release (event 5), before event 6.
        let created = ops.firstIndex(of: "6 createNode")
        #expect(created != nil && Array(ops[created!...].prefix(3)) == ["6 createNode", "6 setMapped", "6 move"])
    }

    func error(_ text: String) -> String {
        do {
            _ = try SceneJournalText.read(text, file: "journal.jsonl")
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func brokenJournalsNameTheLine() {
        let header = #"{"format":"inputrouter-journal","version":1}"#
        let move = #"{"at":1,"edit":"move","node":[3,0],"values":[10,20]}"#
        #expect(error(header + "\n" + move + "\n" + #"{"edits":1,"end":true}"# + "\n") == "no error")
        #expect(
            error(#"{"format":"inputrouter-journal","version":2}"#)
                == "journal.jsonl:1:1: unknown journal version 2 (this reader knows version 1)")
        #expect(
            error(header + "\n" + #"{"at":1,"edit":"teleport"}"# + "\n")
                == "journal.jsonl:2:1: unknown edit 'teleport'")
        #expect(
            error(header + "\n" + #"{"at":1,"edit":"move","node":[3,0]}"# + "\n")
                == "journal.jsonl:2:1: move: missing key 'values'")
        #expect(
            error(header + "\n" + #"{"at":3,"edit":"raise","node":[3,0]}"# + "\n" + move + "\n")
                == "journal.jsonl:3:1: 'at' 1 goes back (the line before is at 3)")
        #expect(
            error(header + "\n" + move + "\n")
                == "journal.jsonl:2:1: the journal stops before its end line (cut short?)")
        #expect(
            error(header + "\n" + move + "\n" + #"{"edits":2,"end":true}"# + "\n")
                == "journal.jsonl:3:1: the end line counts 2 edits, the journal has 1")
        #expect(
            error(header + "\n" + #"{"at":1,"edit":"answer","flag":true}"# + "\n")
                == "journal.jsonl:2:1: an answer with no call before it")
        #expect(
            error(header + "\n" + "{\"at\":1,\"edit\"") == "journal.jsonl:2:1: not a JSON object (truncated or edited?)"
        )
    }

    @Test func everyCutOfARealJournalIsAnErrorOrTheSameEdits() throws {
        let (recorder, _, _) = Self.liveRun()
        let text = SceneJournalText.write(recorder.edits)
        #expect(try SceneJournalText.read(text) == recorder.edits)
        // Cut anywhere (every 7th character), it is an error, never a crash.
        let chars = Array(text)
        for cut in stride(from: 0, to: chars.count - 1, by: 7) {
            #expect(throws: RecordingError.self) { try SceneJournalText.read(String(chars[..<cut])) }
        }
    }
}
