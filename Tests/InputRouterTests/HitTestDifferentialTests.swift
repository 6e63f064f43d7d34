import InputRouter
import Testing

/// Random trees checked point by point against a deliberately naive reference: every node
/// in paint order, bottom to top, and the topmost whose whole ancestry lets the point
/// through wins. No recursion shortcuts, no pixman, regions replayed op by op. The same
/// points check the library's reference walk (`SurfaceTree.referenceHitTest`, which the
/// invariant checker judges with), so the checker's oracle is itself held to this model.
@Suite struct HitTestDifferentialTests {
    final class RefNode {
        var id: NodeID
        var x: Int32, y: Int32, w: Int32, h: Int32
        var mapped = true, input = true, opacity: Float = 1, clips: Bool
        var regionOps: [(add: Bool, rect: Rect)]?
        /// A custom containment test: 0 none, 1 a disc (may stick out of the bounds), 2 a
        /// 40-pixel halo around the bounds, 3 an endless strip to the left.
        var custom = 0
        var below: [RefNode] = [], above: [RefNode] = []
        weak var parent: RefNode?
        init(id: NodeID, frame: Rect, clips: Bool) {
            self.id = id
            x = frame.x
            y = frame.y
            w = frame.width
            h = frame.height
            self.clips = clips
        }
        var origin: (Double, Double) {
            var ox = 0.0
            var oy = 0.0
            var n: RefNode? = self
            while let c = n {
                ox += Double(c.x)
                oy += Double(c.y)
                n = c.parent
            }
            return (ox, oy)
        }
        func inBounds(_ p: Point) -> Bool {
            let (ox, oy) = origin
            let fx = (p.x - ox).rounded(.down)
            let fy = (p.y - oy).rounded(.down)
            return fx >= 0 && fy >= 0 && fx < Double(w) && fy < Double(h)
        }
        func containsSelf(_ p: Point) -> Bool {
            let (ox, oy) = origin
            let lx = p.x - ox
            let ly = p.y - oy
            if custom != 0 { return customContains(lx, ly) }
            guard inBounds(p) else { return false }
            guard let ops = regionOps else { return true }
            let px = lx.rounded(.down)
            let py = ly.rounded(.down)
            var inside = false
            for op in ops {
                let r = op.rect
                if px >= Double(r.x) && py >= Double(r.y) && px < Double(r.x + r.width) && py < Double(r.y + r.height) {
                    inside = op.add
                }
            }
            return inside
        }
        /// The custom test, on the node's current size (the tree calls it through a closure).
        func customContains(_ lx: Double, _ ly: Double) -> Bool {
            let w = Double(self.w)
            let h = Double(self.h)
            switch custom {
            case 1: return (lx - w / 2) * (lx - w / 2) + (ly - h / 2) * (ly - h / 2) <= w * w / 4
            case 2: return lx >= -40 && ly >= -40 && lx < w + 40 && ly < h + 40
            default: return lx < 0 && ly >= 0 && ly < h
            }
        }
        func paintOrder(_ out: inout [RefNode]) {
            for c in below { c.paintOrder(&out) }
            out.append(self)
            for c in above { c.paintOrder(&out) }
        }
        func letsThrough(_ p: Point, threshold: Float) -> Bool {
            var n: RefNode? = self
            while let c = n {
                if !c.mapped || !c.input || c.opacity < threshold { return false }
                if c !== self && c.clips && !c.inBounds(p) { return false }
                if c === self && c.clips && !c.inBounds(p) { return false }
                n = c.parent
            }
            return true
        }
    }

    struct Scene {
        let tree: SurfaceTree
        var roots: [RefNode] = []
        var all: [RefNode] = []

        func reference(_ p: Point) -> NodeID? {
            var order: [RefNode] = []
            for r in roots { r.paintOrder(&order) }
            for n in order.reversed() where n.letsThrough(p, threshold: tree.opacityThreshold) && n.containsSelf(p) {
                return n.id
            }
            return nil
        }
    }

    /// `wide`: some nodes near the top get 16 to 40 children, enough for a child grid.
    /// `tree`: built into a router's tree (the snapshot round trip), else a tree of its own.
    static func randomScene(_ rng: inout SeededRandom, wide: Bool = false, in tree: SurfaceTree = SurfaceTree())
        -> Scene
    {
        var s = Scene(tree: tree)
        func rect(_ maxSize: Int32, spread: Int32) -> Rect {
            Rect(
                Int32.random(in: -spread...400, using: &rng), Int32.random(in: -spread...400, using: &rng),
                Int32.random(in: 0...maxSize, using: &rng), Int32.random(in: 0...maxSize, using: &rng))
        }
        func add(_ kind: NodeKind, parent: RefNode?, depth: Int) {
            let client = ClientID(index: UInt32.random(in: 0...3, using: &rng))
            var frame = rect(300, spread: 60)
            let layer: ChildLayer = kind == .subsurface && Bool.random(using: &rng) ? .below : .above
            let id = s.tree.createNode(kind, client: client, parent: parent?.id, frame: frame, layer: layer)
            let clips = kind == .output || kind == .compositor ? Int.random(in: 0..<4, using: &rng) != 0 : false
            if kind == .subsurface || kind == .toplevel, Int.random(in: 0..<3, using: &rng) == 0 {
                let scale = Int32.random(in: 1...3, using: &rng)
                s.tree.setBuffer(id, width: frame.width * scale, height: frame.height * scale, scale: scale)
                frame.width = frame.width * scale / scale
            }
            let n = RefNode(id: id, frame: frame, clips: clips)
            s.tree.setClipsChildren(id, clips)
            n.parent = parent
            if let p = parent {
                if layer == .below { p.below.append(n) } else { p.above.append(n) }
            } else {
                s.roots.append(n)
            }
            s.all.append(n)
            switch Int.random(in: 0..<12, using: &rng) {
            case 0:
                n.mapped = false
                s.tree.setMapped(id, false)
            case 1:
                n.input = false
                s.tree.setAcceptsInput(id, false)
            case 2:
                n.opacity = 0.005
                s.tree.setOpacity(id, 0.005)
            case 3, 4, 5:
                var ops: [(Bool, Rect)] = []
                var region = Region()
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    let addOp = ops.isEmpty || Bool.random(using: &rng)
                    let r = Rect(
                        Int32.random(in: -20...200, using: &rng), Int32.random(in: -20...200, using: &rng),
                        Int32.random(in: 1...150, using: &rng), Int32.random(in: 1...150, using: &rng))
                    if addOp { region.add(r) } else { region.subtract(r) }
                    ops.append((addOp, r))
                }
                n.regionOps = ops.map { (add: $0.0, rect: $0.1) }
                s.tree.setInputRegion(id, region)
            case 6 where kind == .compositor:
                n.custom = 1
                s.tree.setContainmentTest(id, name: "disc") { [n] p in n.customContains(p.x, p.y) }
            default: break
            }
            guard depth < 4 else { return }
            let childCount =
                wide && depth < 2 && Int.random(in: 0..<3, using: &rng) == 0
                ? Int.random(in: 16...40, using: &rng) : Int.random(in: 0...3, using: &rng)
            for _ in 0..<childCount {
                let childKind: NodeKind =
                    kind == .output || kind == .compositor
                    ? [.compositor, .toplevel, .toplevel].randomElement(using: &rng)! : .subsurface
                add(childKind, parent: n, depth: wide && childCount > 3 ? depth + 2 : depth + 1)
            }
        }
        for _ in 0..<Int.random(in: 1...3, using: &rng) { add(.output, parent: nil, depth: 0) }
        // Restack a few nodes in both models, as Wayland clients and the compositor do.
        for _ in 0..<4 {
            guard let n = s.all.randomElement(using: &rng), let p = n.parent else { continue }
            let inBelow = p.below.contains { $0 === n }
            var list = inBelow ? p.below : p.above
            list.removeAll { $0 === n }
            if Bool.random(using: &rng) {
                list.append(n)
                s.tree.raiseToTop(n.id)
            } else {
                list.insert(n, at: 0)
                s.tree.lowerToBottom(n.id)
            }
            if inBelow { p.below = list } else { p.above = list }
        }
        return s
    }

    @Test func randomTreesAgreeWithTheNaiveReference() {
        var checkedPoints = 0
        var hits = 0
        for seed in 0..<2000 as Range<UInt64> {
            var rng = SeededRandom(seed: seed)
            let scene = Self.randomScene(&rng)
            // The flat index from the first query, or after three walked ones.
            scene.tree.hitIndexDelay = seed % 2 == 0 ? 0 : 3
            for _ in 0..<60 {
                // Integer edges and fractions either side of them, inside and outside.
                let base = Point(
                    Double(Int.random(in: -80...800, using: &rng)), Double(Int.random(in: -80...800, using: &rng)))
                let fractions = [0.0, 0.5, 0.99609375, -0.00390625]
                let p = Point(
                    base.x + fractions.randomElement(using: &rng)!, base.y + fractions.randomElement(using: &rng)!)
                let expected = scene.reference(p)
                let got = scene.tree.hitTest(p)?.node
                // The library's own naive walk (the invariant checker's oracle) must agree
                // with this test's independent model too, or the checker judges wrongly.
                let oracle = scene.tree.referenceHitTest(p)
                if oracle != expected {
                    Issue.record(
                        "seed \(seed) point \(p): reference walk \(String(describing: oracle)), expected \(String(describing: expected))"
                    )
                    return
                }
                if got != expected {
                    Issue.record(
                        "seed \(seed) point \(p): got \(String(describing: got)), expected \(String(describing: expected))"
                    )
                    return
                }
                let walked = scene.tree.walkedHitTest(p)?.node
                if walked != expected {
                    Issue.record(
                        "seed \(seed) point \(p): walk got \(String(describing: walked)), expected \(String(describing: expected))"
                    )
                    return
                }
                checkedPoints += 1
                if got != nil { hits += 1 }
            }
        }
        #expect(checkedPoints == 120_000)
        #expect(hits > 4_000) // the scenes really are hit, not empty
    }
}
