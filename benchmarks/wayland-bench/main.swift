// wayland-bench: the end-to-end cost of routing (issues 8 and 17). Each event kind from
// `server.handle(_:)` to the protocol events on a real client's socket, against the raw
// protocol cost of the same events (EndToEnd.swift); where routed motion spends its
// instructions (Profile.swift); and latency under load, with a client that stopped reading
// (Load.swift). Goal: routed / raw ≤ 1.15x in time and in instructions.
//
//   wayland-bench                          the tables (release build: `make bench`)
//   wayland-bench --only KIND routed|raw N  send N events of KIND one way and exit (callgrind)
//   wayland-bench --profile KIND            the per-function profile of KIND alone (callgrind)
//   wayland-bench --no-callgrind --no-load --no-allocations
//   wayland-bench --check-allocations       routed events allocate no more than raw ones (exit 1 if they do)
import CWaylandServer
import Foundation
import InputRouter
import WaylandServer
import WireClient

let args = CommandLine.arguments
func progress(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }
func ns(_ v: Double) -> String { v >= 10_000 ? String(format: "%.1f µs", v / 1000) : String(format: "%.0f ns", v) }

if args.contains("--check-allocations") {
    exit(AllocationCheck.run(try EndToEnd()) ? 0 : 1)
}

if let i = args.firstIndex(of: "--only"), i + 3 < args.count, let kind = Scenario.allCases.first(where: { $0.short == args[i + 1] }),
    let n = Int(args[i + 3])
{
    let bench = try EndToEnd()
    bench.prepare(kind)
    let routedWay = args[i + 2] == "routed"
    for _ in 0..<n { if routedWay { bench.routed(kind) } else { bench.raw(kind) } }
    exit(0)
}

if let i = args.firstIndex(of: "--profile"), i + 1 < args.count, let kind = Scenario.allCases.first(where: { $0.short == args[i + 1] }) {
    let n = kind == .click ? 400 : 2_000
    Callgrind.profile(kind.short, short: n, long: n * 11, top: 15)
    exit(0)
}

let bench = try EndToEnd()
var rows: [(String, String)] = []
var failed = false
var ratios: [Scenario: (time: Double, routed: Double, raw: Double)] = [:]

// Alternating runs, so both ways see the same machine; medians of 7.
for kind in Scenario.allCases {
    bench.prepare(kind)
    let routedBytes = bench.measureBytesPerEvent(kind, routedWay: true)
    let rawBytes = bench.measureBytesPerEvent(kind, routedWay: false)
    guard routedBytes == rawBytes, routedBytes > 0 else {
        print("FAIL: \(kind.short): routed events put \(routedBytes) bytes per event on the socket, raw ones \(rawBytes)")
        failed = true
        bench.finish(kind)
        continue
    }
    let events = kind == .click ? 10_000 : 50_000
    progress("end to end, \(kind.short): \(events) events each way, 7 alternating runs...")
    _ = bench.run(kind, events, routedWay: true, bytesPerEvent: routedBytes)
    _ = bench.run(kind, events, routedWay: false, bytesPerEvent: rawBytes)
    var routedTimes: [Double] = [], rawTimes: [Double] = []
    for _ in 0..<7 {
        routedTimes.append(bench.run(kind, events, routedWay: true, bytesPerEvent: routedBytes))
        rawTimes.append(bench.run(kind, events, routedWay: false, bytesPerEvent: rawBytes))
    }
    bench.finish(kind)
    let r = routedTimes.sorted()[3], w = rawTimes.sorted()[3]
    ratios[kind] = (r / w, r, w)
    progress("  \(ns(r)) / \(ns(w)) (\(routedBytes) bytes per event)")
}

// Instructions per event under callgrind: the difference between two run lengths, so the
// setup (keymap, clients, mapping) cancels out. Each length is run three times and the
// median taken: glibc's cost for libwayland's per-message calloc and free follows the
// heap's layout, which follows Swift's per-process hash seed (presumably via the setup's hashing).
// Five runs of motion's longer length ranged over 13 million instructions (665 per
// event, a tenth of the event); with SWIFT_DETERMINISTIC_HASHING=1, three runs agreed.
func medianInstructions(_ arguments: [String]) -> Double? {
    let runs = (0..<3).compactMap { _ in Callgrind.instructions(arguments) }.sorted()
    return runs.count == 3 ? runs[1] : nil
}
var instructionRatios: [Scenario: (routed: Double, raw: Double)] = [:]
let callgrind = !args.contains("--no-callgrind") && FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind")
if callgrind {
    progress("callgrind...")
    for kind in Scenario.allCases {
        let n = kind == .click ? 400 : 2_000
        if let r1 = medianInstructions(["--only", kind.short, "routed", "\(n)"]),
            let r2 = medianInstructions(["--only", kind.short, "routed", "\(n * 11)"]),
            let w1 = medianInstructions(["--only", kind.short, "raw", "\(n)"]),
            let w2 = medianInstructions(["--only", kind.short, "raw", "\(n * 11)"])
        {
            instructionRatios[kind] = ((r2 - r1) / Double(n * 10), (w2 - w1) / Double(n * 10))
        }
    }
}

for kind in Scenario.allCases {
    guard let t = ratios[kind] else { continue }
    var text = String(format: "time %@ / %@ = %.2fx", ns(t.routed), ns(t.raw), t.time)
    if let i = instructionRatios[kind] {
        text += String(format: "; instructions %.0f / %.0f = %.2fx", i.routed, i.raw, i.routed / i.raw)
    }
    rows.append(("end to end, routed / raw: \(kind.rawValue)", text))
}

if !args.contains("--no-allocations") {
    progress("allocations...")
    let (allocationRows, ok) = AllocationCheck.rows(AllocationCheck.measure(bench))
    rows += allocationRows
    if !ok { failed = true }
}

print("\nInputRouter end-to-end benchmark (release; times are medians of 7 runs; instructions are user space,")
print("from callgrind, the median of three runs at each of two lengths, the kernel's sendmsg not counted; goal: routed / raw ≤ 1.15x)\n")
print("| what | result |\n|---|---|")
for (what, value) in rows { print("| \(what) | \(value) |") }
bench.counter.stop.store(true, ordering: .relaxed)

if callgrind {
    for kind in Scenario.allCases {
        progress("profile, \(kind.short)...")
        let n = kind == .click ? 400 : 2_000
        Callgrind.profile(kind.short, short: n, long: n * 11, top: 15)
    }
}
if !args.contains("--no-load") {
    progress("under load...")
    try LoadBench.runAndPrint()
}
if failed { exit(1) }
