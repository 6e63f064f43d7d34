import InputRouter
import Testing

/// A raise keeps the flat hit index current (HitIndexRaise.swift): the raised subtree's
/// entries move before its siblings' in the cells it overlaps, or a cell goes to the walk.
/// Every answer must stay the walk's and the naive reference's, with the index in use.
extension HitTestDifferentialTests {
    /// Random scenes (wide lists with grids, regions, custom tests, clipping), only raises
    /// between queries: most raises must leave the index current, and every point agree.
    @Test func raisesBetweenIndexedQueriesAgreeWithTheNaiveReference() {
        var checked = 0, kept = 0, raises = 0
        for seed in 0..<120 as Range<UInt64> {
            var rng = SeededRandom(seed: 50_000 + seed)
            var scene = Self.randomScene(&rng, wide: seed % 2 == 0)
            scene.tree.hitIndexDelay = 0
            _ = scene.tree.hitTest(Point(0, 0))
            for round in 0..<24 {
                guard let n = scene.all.randomElement(using: &rng) else { continue }
                if let p = n.parent {
                    let below = p.below.contains { $0 === n }
                    guard below || p.above.contains(where: { $0 === n }) else { continue }
                    if below { p.below.removeAll { $0 === n }; p.below.append(n) } else { p.above.removeAll { $0 === n }; p.above.append(n) }
                } else {
                    // A top-level node: among the root's children.
                    guard scene.roots.contains(where: { $0 === n }) else { continue }
                    scene.roots.removeAll { $0 === n }; scene.roots.append(n)
                }
                let wasCurrent = scene.tree.hitIndexIsCurrent
                scene.tree.raiseToTop(n.id)
                raises += 1
                if wasCurrent && scene.tree.hitIndexIsCurrent { kept += 1 }
                // Points in the raised node, where its entries moved, and anywhere.
                for k in 0..<12 {
                    let q: Point
                    if k < 6 {
                        var ox = 0.0, oy = 0.0
                        var a: RefNode? = n
                        while let b = a { ox += Double(b.x); oy += Double(b.y); a = b.parent }
                        q = Point(ox + Double(Int.random(in: -5...Int(n.w) + 5, using: &rng)) + 0.5,
                                  oy + Double(Int.random(in: -5...Int(n.h) + 5, using: &rng)) + 0.25)
                    } else {
                        q = Point(Double(Int.random(in: -80...800, using: &rng)) + 0.5, Double(Int.random(in: -80...800, using: &rng)))
                    }
                    guard Self.hitTest(scene, q, agreeing: "seed \(seed) round \(round) raised \(n.id)") != nil else { return }
                    checked += 1
                }
            }
        }
        #expect(checked == raises * 12)
        #expect(kept > raises / 2)  // the index really is kept (and so is read) after most raises
    }

    /// A desktop: 30 overlapping windows with a subsurface each; clicking one raises it.
    /// The index stays current through every raise, and each point agrees with the walk.
    @Test func clickRaisesOnADesktopKeepTheIndex() {
        let tree = SurfaceTree()
        tree.hitIndexDelay = 0
        let output = tree.createNode(.output, frame: Rect(0, 0, 1920, 1080))
        var windows: [NodeID] = []
        for i in 0..<30 as Range<Int32> {
            let w = tree.createNode(.toplevel, client: ClientID(index: UInt32(i + 1)), parent: output,
                                    frame: Rect(40 * i, 25 * i, 700, 500))
            _ = tree.createNode(.subsurface, client: ClientID(index: UInt32(i + 1)), parent: w, frame: Rect(20, 20, 200, 100))
            windows.append(w)
        }
        _ = tree.hitTest(Point(1, 1))
        var rng = SeededRandom(seed: 7)
        for step in 0..<200 {
            let i = Int.random(in: 0..<30, using: &rng)
            tree.raiseToTop(windows[i])
            #expect(tree.hitIndexIsCurrent, "step \(step)")
            for _ in 0..<10 {
                let p = Point(Double(Int.random(in: 0..<1920, using: &rng)) + 0.5, Double(Int.random(in: 0..<1080, using: &rng)) + 0.5)
                guard Self.indexAndWalkAgree(tree, p, "step \(step)") else { return }
            }
            let inside = Point(Double(40 * i + 350), Double(25 * i + 250))
            #expect(tree.hitTest(inside)?.node == windows[i], "step \(step)")
        }
    }
}
