// Heap allocations per event in steady state, routed against raw (issue 17): libwayland
// allocates for every event it sends (a closure per message), the same on both ways, so a
// routed event must allocate exactly as often as the same events posted raw. Counted with
// CAllocCounter (malloc and friends interposed, every thread) around paced runs, after
// a warm-up so that buffers have reached their size; click covers a raise and focus
// change (keyboard leave and enter with keys, configures), key and touch the rest.
import CAllocCounter

enum AllocationCheck {
    /// Allocations per event of each kind, routed and raw.
    static func measure(_ bench: EndToEnd) -> [(kind: Scenario, routed: Double, raw: Double)] {
        Scenario.allCases.map { kind in
            bench.prepare(kind)
            let bytes = bench.measureBytesPerEvent(kind, routedWay: true)
            let n = kind == .click ? 2_000 : 10_000
            func perEvent(routed: Bool) -> Double {
                // warm-up (even: the click ends in A)
                _ = bench.run(kind, 1_000, routedWay: routed, bytesPerEvent: bytes)
                let before = ir_allocation_count()
                _ = bench.run(kind, n, routedWay: routed, bytesPerEvent: bytes)
                return Double(ir_allocation_count() - before) / Double(n)
            }
            let routed = perEvent(routed: true)
            let raw = perEvent(routed: false)
            bench.finish(kind)
            return (kind, routed, raw)
        }
    }

    /// The table's rows, and false when a routed kind allocates more often than its raw twin.
    static func rows(_ counts: [(kind: Scenario, routed: Double, raw: Double)]) -> (rows: [(String, String)], ok: Bool)
    {
        let rows = counts.map { c in
            (
                "heap allocations per event in steady state, routed / raw: \(c.kind.rawValue)",
                String(
                    format: "%.3f / %.3f (libwayland's own)%@", c.routed, c.raw,
                    c.routed <= c.raw ? "" : " FAIL: routing allocates")
            )
        }
        return (rows, counts.allSatisfy { $0.routed <= $0.raw })
    }

    /// `--check-allocations`: the rows printed, and whether every kind passed.
    static func run(_ bench: EndToEnd) -> Bool {
        let (rows, ok) = rows(measure(bench))
        for (what, value) in rows { print("\(what): \(value)") }
        return ok
    }
}
