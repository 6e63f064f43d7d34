import InputRouter
import Testing

extension SurfaceTree {
    /// The tree walk alone: the observer variant never reads the flat index.
    func walkedHitTest(_ p: Point) -> Hit? {
        var observer = NoHitTestObserver()
        return hitTest(p, observer: &observer)
    }
}

/// The flat hit index (HitIndex.swift) against the naive reference, on what only it has:
/// regions of many rectangles (pixman-tested rectangles instead of solid bands), custom
/// tests with no clipping ancestor (rectangles cut at the 32-bit limit, so points outside
/// the grid walk), cells covered whole by one rectangle (nothing below is kept), origins
/// beyond 32 bits (no index: the walk), and points far out or beyond 32 bits.
extension HitTestDifferentialTests {
    @Test func indexedScenesWithManyRectangleRegionsAndFarNodesAgreeWithTheNaiveReference() {
        var checked = 0
        var hits = 0
        for seed in 0..<200 as Range<UInt64> {
            var rng = SeededRandom(seed: 30_000 + seed)
            let scene = Self.randomScene(&rng)
            scene.tree.hitIndexDelay = 0
            // Checkerboard input regions: more rectangles than the index splits into bands.
            for _ in 0..<3 {
                guard let n = scene.all.randomElement(using: &rng), n.custom == 0 else { continue }
                var ops: [(add: Bool, rect: Rect)] = []
                var region = Region()
                let side = Int32.random(in: 4...30, using: &rng)
                for k in 0..<Int32.random(in: 17...40, using: &rng) {
                    let r = Rect((k % 7) * 2 * side, (k / 7) * side + (k % 2) * side / 2, side, side)
                    region.add(r)
                    ops.append((true, r))
                }
                n.regionOps = ops
                scene.tree.setInputRegion(n.id, region)
            }
            // A node whose subtree sits near the 32-bit edge (its origin may not fit: then
            // the tree keeps the walk), and an endless strip with no clipping ancestor.
            if seed % 4 == 1, let n = scene.all.randomElement(using: &rng) {
                n.x = Int32.max - Int32.random(in: 0...500, using: &rng)
                scene.tree.move(n.id, to: (n.x, n.y))
            }
            if seed % 5 == 2, let n = scene.all.randomElement(using: &rng) {
                n.custom = 3
                scene.tree.setContainmentTest(n.id) { [n] p in n.customContains(p.x, p.y) }
            }
            for _ in 0..<60 {
                let far = [-30_000_000.0, 5_000_000_000, -2_147_483_648.5, 2_147_483_646.75, 2_147_483_000]
                let x =
                    Int.random(in: 0..<8, using: &rng) == 0
                    ? far.randomElement(using: &rng)!
                    : Double(Int.random(in: -80...800, using: &rng)) + [0, 0.5, -0.00390625].randomElement(using: &rng)!
                let p = Point(x, Double(Int.random(in: -80...800, using: &rng)) + 0.25)
                let expected = scene.reference(p)
                let got = scene.tree.hitTest(p)
                if got?.node != expected {
                    Issue.record(
                        "seed \(seed) point \(p): got \(String(describing: got?.node)), expected \(String(describing: expected))"
                    )
                    return
                }
                // The local point is the walk's.
                if let got, got != scene.tree.walkedHitTest(p) {
                    Issue.record(
                        "seed \(seed) point \(p): indexed \(got), walked \(String(describing: scene.tree.walkedHitTest(p)))"
                    )
                    return
                }
                checked += 1
                if got != nil { hits += 1 }
            }
        }
        #expect(checked == 200 * 60)
        #expect(hits > 250) // the scenes really are hit (far points mostly miss)
    }

    /// Windows stacked so that the top one covers many cells whole: those cells keep only
    /// it, and a point in a hole of its region must still reach what is below.
    @Test func coveredCellsKeepWhatShowsThroughHoles() {
        let tree = SurfaceTree()
        tree.hitIndexDelay = 0
        let output = tree.createNode(.output, frame: Rect(0, 0, 1000, 800))
        let back = tree.createNode(.toplevel, client: ClientID(index: 1), parent: output, frame: Rect(0, 0, 1000, 800))
        let top = tree.createNode(.toplevel, client: ClientID(index: 2), parent: output, frame: Rect(0, 0, 1000, 800))
        var region = Region(Rect(0, 0, 1000, 800))
        region.subtract(Rect(300, 200, 7, 5))
        tree.setInputRegion(top, region)
        for y in stride(from: 0.5, to: 800, by: 1) {
            for x in stride(from: 290.5, to: 320, by: 1) {
                let inHole = x >= 300 && x < 307 && y >= 200 && y < 205
                #expect(tree.hitTest(Point(x, y))?.node == (inHole ? back : top), "\(x), \(y)")
            }
        }
        #expect(tree.hitTest(Point(999.5, 799.5))?.node == top)
        #expect(tree.hitTest(Point(1000, 10)) == nil)
    }

    /// The index goes stale with any change: a query right after sees the new scene.
    @Test func everyChangeMakesTheIndexStale() {
        let tree = SurfaceTree()
        tree.hitIndexDelay = 0
        let output = tree.createNode(.output, frame: Rect(0, 0, 1000, 800))
        let a = tree.createNode(.toplevel, client: ClientID(index: 1), parent: output, frame: Rect(0, 0, 500, 500))
        let b = tree.createNode(.toplevel, client: ClientID(index: 2), parent: output, frame: Rect(100, 100, 500, 500))
        let p = Point(200, 200)
        #expect(tree.hitTest(p)?.node == b)
        tree.raiseToTop(a)
        #expect(tree.hitTest(p)?.node == a)
        tree.setMapped(a, false)
        #expect(tree.hitTest(p)?.node == b)
        tree.setMapped(a, true)
        #expect(tree.hitTest(p)?.node == a)
        tree.move(a, to: (300, 300))
        #expect(tree.hitTest(p)?.node == b)
        tree.setInputRegion(b, Region(Rect(0, 0, 10, 10)))
        #expect(tree.hitTest(p)?.node == output)
        tree.setOpacity(a, 0)
        #expect(tree.hitTest(Point(400, 400))?.node == output)
        tree.opacityThreshold = 0
        #expect(tree.hitTest(Point(400, 400))?.node == a)
        tree.setClipsChildren(output, true)
        tree.resize(output, width: 350, height: 350)
        #expect(tree.hitTest(Point(400, 400)) == nil)
        tree.setContainmentTest(output) { _ in false }
        #expect(tree.hitTest(Point(20, 20)) == nil)
        tree.destroy(b)
        tree.setContainmentTest(output, nil)
        #expect(tree.hitTest(Point(110, 110))?.node == output)
    }
}
