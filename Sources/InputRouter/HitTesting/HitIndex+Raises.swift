// The flat index kept across raises. A click raises the window it lands in, and any change
// made the index stale until 32 + nodes/2 more queries had walked the tree, so every click's
// motion walked (about 460 instructions). Restacking the index's cells per raise cost more
// than the walk (docs/performance.md, step 20); instead the index keeps its cells as built
// and remembers the few nodes raised since (`HitIndex.raised`), and a query corrects the
// cell's answer for them, by candidate index: the build flattens each subtree into one run
// of candidates (`CandidateSpan`), so "lies in W's subtree" and "lies under one of W's
// same-layer siblings" are range checks, and W's own topmost hit is the first of its
// candidates that takes the point (its rectangles already cut to its ancestors' clips, and
// left out where an ancestor hides it).
//
// Why that is exact. Raising W moves it above the siblings of its own layer that were above
// it; nothing else changes place, and nothing geometric changes at all. So when the answer
// R before the raise lies in W's subtree, or outside the subtrees of W's same-layer
// siblings, it stays; when R lies under such a sibling, W's subtree is now above R and its
// own topmost hit, if it has one, is the answer. (R = nil stays nil: W's subtree had no hit
// before and has none after.) Applying that rule once per remembered raise, oldest first,
// to the index's answer gives the answer now, provided each W's subtree is ordered inside
// as it was when W was raised: so the remembered nodes' subtrees are disjoint (a raise of
// an ancestor or descendant of a remembered node leaves the index stale; two subtrees that
// hold candidates are nested exactly when their runs overlap). A node with no candidates
// cannot be hit, nor can anything in it: its raise changes no answer and is not listed. Raising a
// remembered node again makes its earlier raise redundant (raises in other lists commute
// with it, and in its own list the later raise alone gives the same order): it moves to
// the end. Lowers and placements leave the index stale, as does a raise when the list is
// full; then the delay runs again from that change, as before.

/// Where a node's subtree lies in the index's candidates (hit order): its above children's
/// subtrees, then its own content, then its below children's, `start..<end` in all. Empty
/// for a node the build skipped (hidden, refusing input, transparent, clipped away).
struct CandidateSpan {
    var start: UInt32 = 0, aboveEnd: UInt32 = 0, belowStart: UInt32 = 0, end: UInt32 = 0
}

/// A node raised since the index was built: its subtree's candidates, and the run of its
/// layer's siblings' subtrees (its own included) that the raise put it above.
struct RaisedNode {
    var slot: UInt32 = 0
    var start: UInt32 = 0, end: UInt32 = 0
    var layerStart: UInt32 = 0, layerEnd: UInt32 = 0
}

extension SurfaceTree {
    /// Before raising `slot`, with the index current: whether it can follow the raise,
    /// remembered if so (the scene change then keeps the index current, `sceneChanged`).
    func rememberRaiseInIndex(_ slot: UInt32) -> Bool {
        let count = hitIndex.raisedCount
        let raised = hitIndex.raised
        var listed = 0
        while listed < count && raised[listed].slot != slot { listed &+= 1 }
        if listed < count {
            // Raised again (a click between windows already raised): its entry holds as
            // kept (the spans hold until the next build, and while the index is current no
            // node changed parent), and it was checked against every other entry when it
            // or they were listed: it only moves to the end.
            let entry = raised[listed]
            var j = listed
            while j &+ 1 < count {
                raised[j] = raised[j &+ 1]
                j &+= 1
            }
            raised[j] = entry
            return true
        }
        guard UInt(slot) < UInt(hitIndex.spanCapacity) else { return false }
        let n = UnsafePointer(nodes.base)
        let parent = n[Int(slot)].parent
        guard parent != NodeRecord.none else { return false }
        let own = hitIndex.spans[Int(slot)]
        // Nothing in it can be hit (and nothing under it can be listed): no answer changes.
        if own.start == own.end { return true }
        for j in 0..<count {
            // Overlapping runs: one is inside the other, a nested raise (see above).
            let w = raised[j]
            if w.start < own.end && own.start < w.end { return false }
        }
        guard count < HitIndex.raisedCapacity else { return false }
        let p = hitIndex.spans[Int(parent)]
        let above = n[Int(slot)].layer == .above
        raised[count] = RaisedNode(
            slot: slot, start: own.start, end: own.end,
            layerStart: above ? p.start : p.belowStart, layerEnd: above ? p.aboveEnd : p.end)
        hitIndex.raisedCount = count + 1
        return true
    }

    /// The index's answer `hit` (candidate `index`) at `point`, floored to `(ix, iy)`,
    /// corrected for the raises since the build, oldest first.
    @inline(never) func followRaises(_ hit: Hit, _ index: Int, _ point: Point, _ ix: Int32, _ iy: Int32) -> Hit? {
        let runs = containmentTestsRun
        var hit = hit
        var index = UInt32(truncatingIfNeeded: index)
        let candidates = hitIndex.candidates
        let raised = hitIndex.raised
        for j in 0..<hitIndex.raisedCount {
            let w = raised[j]
            // In W's subtree, or not under one of its same-layer siblings: it stays.
            guard index &- w.layerStart < w.layerEnd &- w.layerStart, index &- w.start >= w.end &- w.start else {
                continue
            }
            var k = w.start
            while k < w.end {
                let c = candidates + Int(k)
                if UInt32(bitPattern: ix &- c.pointee.x0) < c.pointee.width
                    && UInt32(bitPattern: iy &- c.pointee.y0) < c.pointee.height
                {
                    let local = Point(point.x - Double(c.pointee.originX), point.y - Double(c.pointee.originY))
                    if c.pointee.test == .solid || indexedContains(c, local, ix, iy) {
                        hit = Hit(node: NodeID(index: c.pointee.slot, generation: c.pointee.generation), local: local)
                        index = k
                        break
                    }
                }
                k &+= 1
            }
        }
        // Kept as a walk's answer is (WalkedHit.swift), for the release after a click's
        // raise: not when a custom test ran.
        if !hitIndex.hasCustomTests && containmentTestsRun == runs {
            lastWalk = WalkedHit(generation: generation, point: point, hit: hit)
        }
        return hit
    }
}
