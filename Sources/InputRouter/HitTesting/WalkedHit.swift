// The last walked hit-test's answer, kept for the next query at the same point while the
// scene stands still, and across a raise that cannot change it. A click raises the window
// it lands in, which leaves the flat index stale (HitIndex.swift), so the release's
// re-pick walked the tree again at the point the press had (about 450 instructions per
// click). Raising a node only takes its siblings from above it to below it: when the hit
// lay in the raised subtree, nothing new covers the point and the hit stays; when nothing
// was hit, nothing is after. Positions, clips and regions do not change in a restack. A
// walk that ran a custom containment test is not kept (the test may answer otherwise).

/// One walked query: the tree's `generation` it holds for, the point, the answer.
struct WalkedHit {
    /// No query yet: no generation is `.max` (2^64 changes away).
    var generation: UInt64 = .max
    var point = Point(0, 0)
    var hit: Hit?
}

extension SurfaceTree {
    /// Whether raising slot `raised` keeps the remembered walk's answer: it is current and
    /// its hit (if any) lies in the raised subtree. Asked before the raise; inline in
    /// `raiseToTop` (a call per click for a few comparisons).
    @inline(__always) func raiseKeepsWalkedHit(_ raised: UInt32) -> Bool {
        guard lastWalk.generation == generation else { return false }
        guard let hit = lastWalk.hit else { return true }
        return isAncestor(raised, of: hit.node.index)
    }

    /// After a raise that `raiseKeepsWalkedHit` allowed (the tree's generation `before` it):
    /// the remembered answer holds for the new generation when the raise was the only change
    /// (what its scene-change hook did may have changed more, or walked anew).
    func keepWalkedHit(after before: UInt64) {
        if lastWalk.generation == before && generation == before &+ 1 { lastWalk.generation = generation }
    }
}
