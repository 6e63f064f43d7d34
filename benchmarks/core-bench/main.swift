// core-bench: how fast the routing core is, in release mode (`make bench`).
//
// Prints the median of several runs for: hit-testing a desktop-like tree and wlroots'
// benchmark tree, routing a pointer motion end to end, bytes per node, and heap
// allocations per routed event (counted by interposing malloc; target: zero).
import CAllocCounter
import Foundation
import InputRouter

func now() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Median nanoseconds per operation over `runs` runs of `count` operations.
func measure(runs: Int = 9, count: Int, _ body: (Int) -> Void) -> Double {
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = now()
        for i in 0..<count { body(i) }
        samples.append(Double(now() - start) / Double(count))
    }
    return samples.sorted()[runs / 2]
}

struct Lcg {
    var state: UInt64
    mutating func next() -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Double(state >> 11) / Double(1 << 53)
    }
}

/// 30 toplevels with 4 subsurfaces each (one below its parent), input regions with holes.
func desktopTree(_ tree: SurfaceTree) -> NodeID {
    let output = tree.createNode(.output, name: "out", frame: Rect(0, 0, 1920, 1080))
    tree.createNode(.compositor, name: "background", parent: output, frame: Rect(0, 0, 1920, 1080))
    for t in 0..<30 {
        let c = ClientID(index: UInt32(t + 1))
        let x = Int32((t * 61) % 1400), y = Int32((t * 37) % 700)
        let top = tree.createNode(.toplevel, client: c, parent: output, frame: Rect(x, y, 500, 350))
        var region = Region(Rect(0, 0, 500, 350))
        region.subtract(Rect(200, 100, 50, 50))
        tree.setInputRegion(top, region)
        for s in 0..<4 {
            tree.createNode(.subsurface, client: c, parent: top, frame: Rect(Int32(s * 100), 300, 90, 40),
                            layer: s == 0 ? .below : .above)
        }
    }
    tree.createNode(.compositor, name: "panel", parent: output, frame: Rect(0, 0, 1920, 30))
    return output
}

/// wlroots' scene benchmark shape: depth 5, branching 5 (3,905 nodes, 3,125 leaves).
func wlrootsTree(_ tree: SurfaceTree) -> Int {
    var count = 0
    func add(_ parent: NodeID?, depth: Int, x: Int32, y: Int32, size: Int32) {
        for i in 0..<5 {
            let frame = Rect(Int32(i) * size / 5, y, size / 5, size / 5)
            let n = tree.createNode(depth == 4 ? .toplevel : .compositor, client: ClientID(index: 1), parent: parent, frame: frame)
            if depth < 4 { tree.setClipsChildren(n, false) }
            count += 1
            if depth < 4 { add(n, depth: depth + 1, x: 0, y: 0, size: size) }
        }
    }
    add(nil, depth: 0, x: 0, y: 0, size: 2000)
    return count
}

var rng = Lcg(state: 42)
let points = (0..<4096).map { _ in Point(rng.next() * 1920, rng.next() * 1080) }

let desktop = SurfaceTree()
_ = desktopTree(desktop)
var sink = 0
let desktopHit = measure(count: 200_000) { i in if desktop.hitTest(points[i & 4095]) != nil { sink &+= 1 } }

let wlr = SurfaceTree()
let wlrNodes = wlrootsTree(wlr)
let wlrHit = measure(count: 100_000) { i in if wlr.hitTest(points[i & 4095]) != nil { sink &+= 1 } }

// End to end: motion into the seat, deliveries out to a sink, queue cleared.
let router = Router()
let seat = router.addSeat()
let output = desktopTree(router.tree)
for c in 1...30 { seat.setBound([.pointer, .keyboard], for: router.addClient(name: "c\(c)"), true) }
_ = output
var null = NullSink()
seat.notifyPointerWarp(time: 0, to: Point(10, 40))
router.flush(into: &null)
let deltas = (0..<4096).map { _ in (rng.next() * 6 - 3, rng.next() * 6 - 3) }
var time: UInt64 = 0
let motion = measure(count: 200_000) { i in
    time &+= 1000
    let d = deltas[i & 4095]
    seat.notifyPointerMotion(time: time, dx: d.0, dy: d.1)
    router.flush(into: &null)
}

// Allocations per routed event in steady state (after the warm-up above).
let events = 100_000
let before = ir_allocation_count()
for i in 0..<events {
    time &+= 1000
    let d = deltas[i & 4095]
    seat.notifyPointerMotion(time: time, dx: d.0 * 20, dy: d.1 * 20)  // crosses surfaces: enter/leave too
    seat.notifyPointerButton(time: time, button: 0x110, state: i & 1 == 0 ? .pressed : .released)
    router.flush(into: &null)
}
let allocations = ir_allocation_count() - before

func format(_ ns: Double) -> String { String(format: "%.0f ns", ns) }
print("InputRouter core benchmark (release, median of 9 runs)")
print("  hit-test, desktop tree (30 toplevels x 4 subsurfaces, input regions): \(format(desktopHit))")
print("  hit-test, wlroots benchmark tree (\(wlrNodes) nodes, depth 5, branching 5): \(format(wlrHit))")
print("  pointer motion routed end to end (hit-test, focus, deliveries):      \(format(motion))")
print("  bytes per node: \(SurfaceTree.bytesPerNode)")
print("  heap allocations per routed event (\(2 * events) motions and buttons): \(Double(allocations) / Double(2 * events))")
if sink == 42 { print("") }  // keeps the results alive
if CommandLine.arguments.contains("--check-allocations") && allocations != 0 {
    print("FAIL: routing allocated \(allocations) times")
    exit(1)
}
