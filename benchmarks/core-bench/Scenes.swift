// The trees both libraries hit-test, described once in a neutral form: core-bench builds
// its SurfaceTree from a description and writes the same description for the C harness,
// which builds the wlr_scene equivalent (trees and rects).
import Foundation
import InputRouter

struct SceneNode {
    var parent: Int // -1: top level
    var below = false // below the parent's own content (a Wayland subsurface may be)
    var x: Int32, y: Int32, w: Int32, h: Int32
    /// The input region as rectangles (surface-local); empty means the whole bounds. A
    /// node with no size and no rects is a plain container.
    var rects: [Rect] = []
}

struct SceneDescription {
    var name: String
    var nodes: [SceneNode] = []
    var points: [Point] = []
    var surfaces: Int { nodes.filter { $0.w > 0 && $0.h > 0 }.count }

    mutating func add(_ n: SceneNode) -> Int {
        nodes.append(n)
        return nodes.count - 1
    }

    /// The SurfaceTree for this scene, for each node slot the description index, and the
    /// node of each description index.
    func build() -> (SurfaceTree, [Int], [NodeID]) {
        let tree = SurfaceTree()
        var ids: [NodeID] = []
        var indexOfSlot: [Int] = []
        for (i, n) in nodes.enumerated() {
            let container = n.w == 0 && n.h == 0 && n.rects.isEmpty
            let id = tree.createNode(
                container ? .compositor : .toplevel, client: ClientID(index: 1),
                parent: n.parent < 0 ? nil : ids[n.parent], frame: Rect(n.x, n.y, n.w, n.h),
                layer: n.below ? .below : .above)
            if container { tree.setClipsChildren(id, false) }
            if !n.rects.isEmpty { tree.setInputRegion(id, Region(n.rects)) }
            ids.append(id)
            while indexOfSlot.count <= Int(id.index) { indexOfSlot.append(-1) }
            indexOfSlot[Int(id.index)] = i
        }
        return (tree, indexOfSlot, ids)
    }

    /// The text the C harness reads (format in benchmarks/wlr-bench/wlr_bench.c).
    var text: String {
        var out = "nodes \(nodes.count)\n"
        for n in nodes {
            out += "\(n.parent) \(n.below ? 1 : 0) \(n.x) \(n.y) \(n.w) \(n.h) \(n.rects.count)"
            for r in n.rects { out += " \(r.x) \(r.y) \(r.width) \(r.height)" }
            out += "\n"
        }
        out += "points \(points.count)\n"
        for p in points { out += "\(p.x) \(p.y)\n" }
        return out
    }
}

func randomPoints(_ count: Int, width: Double, height: Double, seed: UInt64) -> [Point] {
    var rng = Lcg(state: seed)
    return (0..<count).map { _ in Point(rng.next() * width, rng.next() * height) }
}

/// wlroots' benchmark shape: depth 5, branching 5 (780 containers, 3,125 leaf surfaces).
/// Each level splits its parent's area in five, alternately across and down, over
/// 2000 x 2000; leaves are 12 x 72 in 16 x 80 cells, so about a third of points miss.
func wlrootsScene() -> SceneDescription {
    var s = SceneDescription(name: "wlroots tree")
    func add(_ parent: Int, level: Int, w: Int32, h: Int32) {
        let across = level % 2 == 1
        for i in 0..<Int32(5) {
            let cw = across ? w / 5 : w
            let ch = across ? h : h / 5
            let x = across ? i * cw : 0
            let y = across ? 0 : i * ch
            if level == 5 {
                _ = s.add(SceneNode(parent: parent, x: x + 2, y: y + 4, w: cw - 4, h: ch - 8))
            } else {
                let n = s.add(SceneNode(parent: parent, x: x, y: y, w: 0, h: 0))
                add(n, level: level + 1, w: cw, h: ch)
            }
        }
    }
    add(-1, level: 1, w: 2000, h: 2000)
    s.points = randomPoints(4096, width: 2000, height: 2000, seed: 1)
    return s
}

/// 30 toplevels (input region with a hole) with 4 subsurfaces each (one below its
/// parent), a background and a panel, on a 1920 x 1080 output.
func desktopScene() -> SceneDescription {
    var s = SceneDescription(name: "desktop")
    let output = s.add(SceneNode(parent: -1, x: 0, y: 0, w: 0, h: 0))
    _ = s.add(SceneNode(parent: output, x: 0, y: 0, w: 1920, h: 1080))
    var region = Region(Rect(0, 0, 500, 350))
    region.subtract(Rect(200, 100, 50, 50))
    for t in 0..<30 {
        let x = Int32((t * 61) % 1400)
        let y = Int32((t * 37) % 700)
        let top = s.add(SceneNode(parent: output, x: x, y: y, w: 500, h: 350, rects: region.rects))
        for k in 0..<4 {
            _ = s.add(SceneNode(parent: top, below: k == 0, x: Int32(k * 100), y: 300, w: 90, h: 40))
        }
    }
    _ = s.add(SceneNode(parent: output, x: 0, y: 0, w: 1920, h: 30))
    s.points = randomPoints(4096, width: 1920, height: 1080, seed: 2)
    return s
}

/// 20,000 small surfaces (8 to 40 pixels a side) in one flat list over 3840 x 2160.
func stressScene() -> SceneDescription {
    var s = SceneDescription(name: "stress")
    var rng = Lcg(state: 3)
    let top = s.add(SceneNode(parent: -1, x: 0, y: 0, w: 0, h: 0))
    for _ in 0..<20_000 {
        _ = s.add(
            SceneNode(
                parent: top, x: Int32(rng.int(0..<3800)), y: Int32(rng.int(0..<2120)),
                w: Int32(rng.int(8..<41)), h: Int32(rng.int(8..<41))))
    }
    s.points = randomPoints(4096, width: 3840, height: 2160, seed: 4)
    return s
}

/// `count` 48 x 48 surfaces, one in each 64 x 64 cell of a square grid (placed at a random
/// offset in its cell). Nested: grouped eight by eight (in Morton order, so a group is a
/// compact patch, as a window holds its subsurfaces) into containers, up to one root.
/// Flat: all in one list, in random z-order.
func scalingScene(_ count: Int, nested: Bool) -> (SceneDescription, depth: Int) {
    var s = SceneDescription(name: "\(count) \(nested ? "nested" : "flat")")
    var side = 1
    while side * side < count { side += 1 }
    func morton(_ x: Int, _ y: Int) -> Int {
        var m = 0
        for b in 0..<16 { m |= ((x >> b) & 1) << (2 * b) | ((y >> b) & 1) << (2 * b + 1) }
        return m
    }
    var cells = (0..<(side * side)).map { ($0 % side, $0 / side) }.sorted { morton($0.0, $0.1) < morton($1.0, $1.1) }
    cells = Array(cells.prefix(count))
    var rng = Lcg(state: UInt64(count))
    if !nested {
        for i in stride(from: cells.count - 1, to: 0, by: -1) { cells.swapAt(i, rng.int(0..<(i + 1))) }
    }
    let leaves = cells.map { c in
        SceneNode(parent: -1, x: Int32(c.0 * 64 + rng.int(0..<16)), y: Int32(c.1 * 64 + rng.int(0..<16)), w: 48, h: 48)
    }
    // Build top-down: container levels first, so parents precede children.
    // Container levels top-down (so parents precede children): level l groups `sizes[l]`
    // consecutive leaves.
    var sizes: [Int] = []
    var depth = 2
    if nested {
        var size = 8
        while size < count {
            sizes.insert(size, at: 0)
            size *= 8
        }
        if sizes.isEmpty { sizes = [8] }
        depth = sizes.count + 1
    } else {
        sizes = [count]
    }
    var parentOfLeaf = [Int](repeating: -1, count: count)
    var containerAt: [Int: Int] = [:] // level * 2^32 + first leaf -> node
    for (l, size) in sizes.enumerated() {
        for start in stride(from: 0, to: count, by: size) {
            let parent = l == 0 ? -1 : containerAt[(l - 1) << 32 | (start / sizes[l - 1] * sizes[l - 1])]!
            let n = s.add(SceneNode(parent: parent, x: 0, y: 0, w: 0, h: 0))
            containerAt[l << 32 | start] = n
            for i in start..<min(start + size, count) { parentOfLeaf[i] = n }
        }
    }
    for (i, var leaf) in leaves.enumerated() {
        leaf.parent = parentOfLeaf[i]
        _ = s.add(leaf)
    }
    s.points = randomPoints(1024, width: Double(side * 64), height: Double(side * 64), seed: UInt64(count) + 5)
    return (s, depth)
}
