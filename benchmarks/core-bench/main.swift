// core-bench: how fast the routing core is, in release mode (`make bench`).
//
//   core-bench                      everything, printed as one table
//   core-bench --check-allocations  only the allocation check (make test): exit 1 unless
//                                   routing every kind below allocates nothing
//   core-bench --route KIND N       route N events of KIND and exit (for callgrind)
//   core-bench --hit-test SCENE N   N hit-tests of SCENE's points (wlroots, desktop or
//                                   stress) and exit (for callgrind); with --write-scene
//                                   FILE, first writes the scene for `wlr-bench FILE N`
//
// Options: --wlr PATH (the wlroots harness, default .build/wlr-bench), --scaling-data FILE
// (hit-test time against tree size, for the plot), --no-callgrind, --hit-tests-only.
import CAllocCounter
import Foundation
import InputRouter

let args = CommandLine.arguments
func option(_ name: String) -> String? {
    args.firstIndex(of: name).flatMap { $0 + 1 < args.count ? args[$0 + 1] : nil }
}

func countAllocations(_ bench: RoutingBench, _ kind: EventKind, events: Int) -> UInt64 {
    for i in 0..<events { bench.route(kind, i) } // warm-up: queues and tables at size
    let before = ir_allocation_count()
    for i in 0..<events { bench.route(kind, i) }
    return ir_allocation_count() - before
}

if let i = args.firstIndex(of: "--route"), i + 2 < args.count,
    let kind = EventKind.allCases.first(where: { "\($0)" == args[i + 1] }),
    let n = Int(args[i + 2])
{
    let bench = try RoutingBench(windows: kind == .clickFew ? 8 : 30)
    for e in 0..<n { bench.route(kind, e) }
    exit(0)
}

if let i = args.firstIndex(of: "--hit-test"), i + 2 < args.count, let n = Int(args[i + 2]) {
    let scenes = ["wlroots": wlrootsScene, "desktop": desktopScene, "stress": stressScene]
    guard let make = scenes[args[i + 1]] else {
        print("unknown scene \(args[i + 1])")
        exit(2)
    }
    let scene = make()
    if let file = option("--write-scene") { try scene.text.write(toFile: file, atomically: true, encoding: .utf8) }
    let (tree, _, _) = scene.build()
    let points = scene.points
    var sink = 0
    for q in 0..<n where tree.hitTest(points[q % points.count]) != nil { sink &+= 1 }
    print(sink)
    exit(0)
}

if args.contains("--check-allocations") {
    let bench = try RoutingBench()
    let few = try RoutingBench(windows: 8)
    var failed = false
    for kind in EventKind.allCases {
        let n = countAllocations(kind == .clickFew ? few : bench, kind, events: 100_000)
        print("heap allocations routing 100,000 x \(kind.rawValue): \(n)")
        failed = failed || n != 0
    }
    // The flight recorder keeps each event in its ring before it is routed (FlightRecorder.swift):
    // once its ring is in place that writes in place. (Once a window it captures the scene,
    // which allocates: the window here is longer than the run, as a user's 10 s are.)
    let recorder = FlightRecorder(
        router: bench.router, window: UInt64.max / 2, capacity: 1 << 18, journalCapacity: 1 << 19)
    let recorded: [InputEvent.Kind] = [
        .pointerMotion(dx: 1, dy: 0.5, unacceleratedDX: 1, unacceleratedDY: 0.5),
        .keyboardKey(key: 30, state: .pressed), .keyboardKey(key: 30, state: .released),
        .touchDown(slot: 0, x: 0.5, y: 0.5), .touchFrame, .pointerButton(button: 0x110, state: .pressed),
    ]
    // The window's first event captures the scene: warm up past it.
    recorder.record(InputEvent(time: 0, device: DeviceID(0), .touchFrame))
    let beforeRecording = ir_allocation_count()
    for i in 0..<100_000 {
        recorder.record(InputEvent(time: UInt64(i) * 1000, device: DeviceID(0), recorded[i % recorded.count]))
    }
    let recordingAllocations = ir_allocation_count() - beforeRecording
    print("heap allocations recording 100,000 events in the flight recorder: \(recordingAllocations)")
    failed = failed || recordingAllocations != 0
    // With the recorder's journal attached (SceneJournal.swift), routing marks what it changes
    // as its own and every handler call is journaled; the embedder's edits between events
    // (a raise, a move, a map, a focus: focus on click) are kept in the journal's ring.
    for kind in EventKind.allCases where kind != .clickFew {
        let n = countAllocations(bench, kind, events: 100_000)
        print("heap allocations routing 100,000 x \(kind.rawValue) with the journal: \(n)")
        failed = failed || n != 0
    }
    let tops = bench.tops
    let tree = bench.router.tree
    func edit(_ i: Int) {
        let top = tops[i % tops.count]
        tree.raiseToTop(top)
        tree.move(top, to: (Int32(i % 200), 10))
        tree.setMapped(top, true)
        bench.seat.setKeyboardFocus(top)
        bench.router.flush(into: &bench.sink)
    }
    for i in 0..<1000 { edit(i) }
    let beforeEdits = ir_allocation_count()
    for i in 0..<100_000 { edit(i) }
    let editAllocations = ir_allocation_count() - beforeEdits
    print("heap allocations journaling 100,000 x 4 scene edits: \(editAllocations)")
    failed = failed || editAllocations != 0
    if failed {
        print("FAIL: routing allocated")
        exit(1)
    }
    exit(0)
}

let harness = option("--wlr") ?? ".build/wlr-bench"
var rows: [(String, String)] = []
/// Progress goes to stderr as it happens; the table goes to stdout at the end.
func progress(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }
@MainActor func row(_ what: String, _ value: String) {
    rows.append((what, value))
    progress("  \(what): \(value)")
}

// 1. Hit-testing against wlr_scene_node_at.
progress("hit-testing against wlr_scene_node_at...")
var disagreements = 0
for scene in [wlrootsScene(), desktopScene(), stressScene()] {
    let r = compare(scene, harness: harness)
    var text = ns(r.inputRouter)
    if let w = r.wlroots {
        text += " vs wlr_scene \(ns(w)): \(String(format: "%.1f", w / r.inputRouter))x faster"
        if r.agree == false {
            text += " (RESULTS DIFFER)"
            disagreements += 1
        } else {
            text += ", same hits"
        }
    } else {
        text += " (wlr_scene harness not built: make bench builds it)"
    }
    row("hit-test, \(r.name) (\(r.surfaces) surfaces, \(scene.nodes.count) nodes)", text)
}

// The price of the caches: a hit-test right after one surface moved (its box, its
// parent's union and, in a wide list, the parent's grid are recomputed first).
for scene in [desktopScene(), stressScene()] {
    let (tree, _, nodes) = scene.build()
    let ids = nodes.indices.filter { scene.nodes[$0].w > 0 && scene.nodes[$0].w < 1920 }.map { nodes[$0] }
    let points = scene.points
    var sink = 0
    let t = measure(count: 1024) { i in
        let id = ids[(i &* 7919) % ids.count]
        tree.move(id, to: (Int32(i & 1023), Int32((i >> 3) & 511)))
        if tree.hitTest(points[i & 4095]) != nil { sink &+= 1 }
    }
    if sink == -1 { print("") }
    row("move one surface, then hit-test, \(scene.name) (\(scene.surfaces) surfaces)", ns(t))
}

// 2. Scaling: hit-test time against tree size.
progress("scaling...")
var scaling = "# surfaces depth nested_ns flat_ns wlr_nested_ns wlr_flat_ns\n"
for count in [10, 100, 1_000, 10_000, 100_000] {
    let (nested, depth) = scalingScene(count, nested: true)
    let (flat, _) = scalingScene(count, nested: false)
    let a = compare(nested, harness: harness)
    let b = compare(flat, harness: harness)
    if a.agree == false || b.agree == false { disagreements += 1 }
    scaling += "\(count) \(depth) \(a.inputRouter) \(b.inputRouter) \(a.wlroots ?? .nan) \(b.wlroots ?? .nan)\n"
    var text = "nested (depth \(depth)) \(ns(a.inputRouter)), flat \(ns(b.inputRouter))"
    if let wa = a.wlroots, let wb = b.wlroots { text += "; wlr_scene \(ns(wa)), \(ns(wb))" }
    row("hit-test scaling, \(count) surfaces", text)
}
if let file = option("--scaling-data") { try scaling.write(toFile: file, atomically: true, encoding: .utf8) }
if args.contains("--hit-tests-only") { exit(disagreements == 0 ? 0 : 1) }

// 3. Routing throughput, latency and allocations.
progress("routing...")
let bench = try RoutingBench()
let fewWindows = try RoutingBench(windows: 8)
var allocationFailures = 0
for kind in EventKind.allCases {
    let r = measureRouting(kind == .clickFew ? fewWindows : bench, kind, events: 32_768)
    allocationFailures += r.allocationsPerEvent == 0 ? 0 : 1
    row(
        "routed: \(kind.rawValue)",
        String(
            format: "%.2f M/s, median %@, p99 %@, %.3f allocations/event",
            r.perSecond / 1e6, ns(Double(r.median)), ns(Double(r.p99)), r.allocationsPerEvent))
}

// 4. Memory: bytes per node, and RSS across a 10-million-event replay.
let bytesPerNode = SurfaceTree.bytesPerNode
row("bytes per surface node (record and side tables)", "\(bytesPerNode)")
progress("10-million-event replay...")
let rssStart = residentKB()
let replayStart = now()
for i in 0..<10_000_000 {
    // Mostly pointer motion, with touch frames and keys mixed in, as a session has.
    let kind: EventKind = i % 10 == 9 ? .key : i % 10 == 8 ? .touch : .pointer
    bench.route(kind, i)
}
let replaySeconds = Double(now() - replayStart) / 1e9
row(
    "VmRSS across a 10,000,000-event replay",
    "start \(rssStart) kB, end \(residentKB()) kB (\(String(format: "%.1f", replaySeconds)) s)")

// 5. Instructions per routed event, under callgrind: the difference between two runs of
// different lengths, so setup (keymap compilation, scene) cancels out.
if !args.contains("--no-callgrind") && FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind") {
    progress("callgrind...")
    func instructions(_ kind: EventKind, _ n: Int) -> Double? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/valgrind")
        p.arguments = ["--tool=callgrind", "--callgrind-out-file=/dev/null", args[0], "--route", "\(kind)", "\(n)"]
        let pipe = Pipe()
        p.standardError = pipe
        p.standardOutput = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return nil }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard let line = text.split(separator: "\n").first(where: { $0.contains("Collected :") }) else { return nil }
        return Double(line.split(separator: " ").last ?? "")
    }
    for kind in EventKind.allCases {
        if let a = instructions(kind, 4_096), let b = instructions(kind, 36_864) {
            row("instructions per event (callgrind): \(kind.rawValue)", String(format: "%.0f", (b - a) / 32_768))
        }
    }
}

print("\nInputRouter core benchmark (release; times are medians of 7 runs)\n")
print("| what | result |\n|---|---|")
for (what, value) in rows { print("| \(what) | \(value) |") }
if disagreements > 0 {
    print("FAIL: wlr_scene and InputRouter hit different surfaces")
    exit(1)
}
if allocationFailures > 0 {
    print("FAIL: routing allocated")
    exit(1)
}
