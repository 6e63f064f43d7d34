import InputRouter
import Testing

/// The last walked query's answer kept across a raise (WalkedHit.swift), against the naive
/// reference: a point walked, a node raised (often one holding the hit, which keeps the
/// answer; else any, which must not), the same point again. Fails when a raise keeps an
/// answer it may change (checked by keeping it after every raise).
@Suite struct WalkedHitTests {
    typealias Model = HitTestDifferentialTests

    @Test func aRaiseBetweenTwoWalksAtOnePointAgreesWithTheNaiveReference() {
        var kept = 0
        var changed = 0
        for seed in 0..<300 as Range<UInt64> {
            var rng = SeededRandom(seed: seed)
            let scene = Model.randomScene(&rng, wide: seed % 4 == 0)
            scene.tree.hitIndexDelay = Int.max // every query walks
            for round in 0..<30 {
                // Inside some node's frame, so that most points hit something.
                let target = scene.all.randomElement(using: &rng)!
                let (ox, oy) = target.origin
                let p = Point(
                    ox + Double(Int.random(in: 0...Int(max(target.w, 1)), using: &rng)) + 0.5,
                    oy + Double(Int.random(in: 0...Int(max(target.h, 1)), using: &rng)))
                let before = scene.reference(p)
                guard scene.tree.hitTest(p)?.node == before else {
                    Issue.record("seed \(seed) round \(round) point \(p): first walk disagrees")
                    return
                }
                // Half the time an ancestor of the hit (or the hit itself), else one of
                // another node's that takes the point too (a raise that may change the hit).
                func chain(_ node: Model.RefNode?) -> [Model.RefNode] {
                    var out: [Model.RefNode] = []
                    var n = node
                    while let c = n, c.parent != nil {
                        out.append(c)
                        n = c.parent
                    }
                    return out
                }
                let others = scene.all.filter {
                    $0.id != before && $0.letsThrough(p, threshold: scene.tree.opacityThreshold) && $0.containsSelf(p)
                }
                let hitChain = chain(scene.all.first { $0.id == before })
                let pool =
                    Bool.random(using: &rng) || others.isEmpty ? hitChain : chain(others.randomElement(using: &rng))
                guard let raised = pool.randomElement(using: &rng), let parent = raised.parent else { continue }
                if parent.below.contains(where: { $0 === raised }) {
                    parent.below.removeAll { $0 === raised }
                    parent.below.append(raised)
                } else {
                    parent.above.removeAll { $0 === raised }
                    parent.above.append(raised)
                }
                scene.tree.raiseToTop(raised.id)
                let after = scene.reference(p)
                let got = scene.tree.hitTest(p)?.node
                if got != after {
                    Issue.record(
                        "seed \(seed) round \(round) point \(p): after raising \(raised.id) got \(String(describing: got)), expected \(String(describing: after))"
                    )
                    return
                }
                if after == before { kept += 1 } else { changed += 1 }
            }
        }
        // Both cases really occur: raises that keep the hit, and raises that change it.
        #expect(kept > 500)
        #expect(changed > 30)
    }

    /// A walk that ran a custom containment test is not kept: the same point asks it again
    /// (a test may answer from state of its own). One that did not run (the hit above it)
    /// does not stop the answer being kept, and asking again gives the same hit.
    @Test func aCustomContainmentTestIsAskedAgainForTheSamePoint() {
        let tree = SurfaceTree()
        tree.hitIndexDelay = Int.max // every query walks
        let output = tree.createNode(.output, frame: Rect(0, 0, 400, 400))
        let shape = tree.createNode(.toplevel, client: ClientID(index: 1), parent: output, frame: Rect(0, 0, 200, 200))
        var inside = true
        tree.setContainmentTest(shape) { _ in inside }
        #expect(tree.hitTest(Point(50, 50))?.node == shape)
        inside = false
        #expect(tree.hitTest(Point(50, 50))?.node == output)
        inside = true
        #expect(tree.hitTest(Point(50, 50))?.node == shape)
        // A window over the shaped one: its hit needs no custom test, and a raise of it
        // keeps its answer (the shaped window stays below).
        let over = tree.createNode(.toplevel, client: ClientID(index: 2), parent: output, frame: Rect(0, 0, 100, 100))
        #expect(tree.hitTest(Point(50, 50))?.node == over)
        inside = false
        tree.raiseToTop(over)
        #expect(tree.hitTest(Point(50, 50))?.node == over)
        tree.raiseToTop(shape)
        #expect(tree.hitTest(Point(50, 50))?.node == over) // refuses the point now
        inside = true
        #expect(tree.hitTest(Point(50, 50))?.node == shape)
    }
}
