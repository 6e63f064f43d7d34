// Replaying input on a rebuilt scene and comparing the trace with the one recorded: what
// `ir-replay` does with a bug-report bundle (docs/bug-reports.md), as library calls so
// tests and embedders share it.

import InputRouter

/// A bug-report bundle's files, by the names the flight recorder gives them.
public enum ReportBundle {
    /// The scene snapshot taken at the start of the window (SceneSnapshot).
    public static let sceneFile = "scene.jsonl"
    /// The input since, as a `libinput record` file.
    public static let inputFile = "input.yml"
    /// The trace the compositor produced for that input (docs/trace.md).
    public static let traceFile = "trace.txt"
    /// The scene's edits and handler answers during the window (SceneJournalText).
    public static let journalFile = "journal.jsonl"
}

extension SceneSnapshot {
    /// Routes `events` through `router`'s first seat (or the seat each device's events
    /// went to: all to the first here, as a recording names no seat) and returns the trace.
    /// With `edits` (a bundle's journal), each is redone before the event it came before,
    /// and every handler the routing calls answers as the recorded one did; the router
    /// should be rebuilt with a `SceneHandlers.fallbackHandler`, so that each node with a
    /// handler still has one to ask.
    public static func replay(
        _ events: [InputEvent], through router: Router, edits: [SceneEdit]? = nil,
        handlers: SceneHandlers = SceneHandlers()
    ) -> [String] {
        struct Lines: DeliverySink {
            let router: Router
            var lines: [String] = []
            mutating func deliver(_ d: Delivery, from queue: DeliveryQueue) {
                lines.append(TraceSink.line(d, queue: queue, router: router))
            }
        }
        var sink = Lines(router: router)
        guard let seat = router.seats.first else { return [] }
        let journal = edits.map { SceneJournal(replaying: $0) }
        if let journal { router.follow(journal, handlers: handlers) }
        for (k, e) in events.enumerated() {
            if let journal {
                journal.applyEdits(before: UInt64(k))
                router.flush(into: &sink)
            }
            seat.handle(e)
            router.flush(into: &sink)
        }
        // What the embedder did after the last event, until the bundle was written.
        journal?.applyEdits(before: UInt64(events.count))
        router.flush(into: &sink)
        return sink.lines
    }

    /// The first line (0-based) where `actual` differs from `expected`, nil when they are the
    /// same lines. A trace that stops early differs at its end.
    public static func firstDifference(expected: [String], actual: [String]) -> Int? {
        for i in 0..<max(expected.count, actual.count) {
            if i >= expected.count || i >= actual.count || expected[i] != actual[i] { return i }
        }
        return nil
    }
}
