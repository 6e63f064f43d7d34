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
}

extension SceneSnapshot {
    /// Routes `events` through `router`'s first seat (or the seat each device's events
    /// went to: all to the first here, as a recording names no seat) and returns the trace.
    public static func replay(_ events: [InputEvent], through router: Router) -> [String] {
        struct Lines: DeliverySink {
            let router: Router
            var lines: [String] = []
            mutating func deliver(_ d: Delivery, from queue: DeliveryQueue) {
                lines.append(TraceSink.line(d, queue: queue, router: router))
            }
        }
        var sink = Lines(router: router)
        guard let seat = router.seats.first else { return [] }
        for e in events {
            seat.handle(e)
            router.flush(into: &sink)
        }
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
