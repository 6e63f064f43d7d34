// A raise keeps the flat hit index (HitIndex.swift). A click raises the window it lands
// on, and the queries right after (the release's re-pick, the next motion) land on that
// window: with the index stale they walked, and with a raise per click the index was never
// rebuilt (the delay counts queries since the last change).
//
// Raising node N to the top of its parent P's layer moves N's subtree (block B, contiguous
// in hit order) before its siblings of that layer (the group, also contiguous). A cell's
// list is its overlapping rectangles in hit order, cut after the first solid one covering
// the cell. Only cells N's subtree box overlaps can change, and in each the new list is
// the old one with B's entries moved before the group's first entry, then cut again: no
// rectangle the cut dropped comes back, except when the old cut was a sibling of N above
// it. Then B's rectangles in that cell were all dropped and are not at hand, so the cell
// gets the walk sentinel (`HitCandidate.Test.walk`). Too many such cells, or too many
// cells to visit, and the index goes stale as any other change makes it.

extension SurfaceTree {
    /// Most cells one raise restacks in place; a subtree covering more makes the index stale.
    static let raiseCellLimit = 64

    /// After `generation` moved on from `old` because `raised` went to the top of its
    /// layer and nothing else changed: keeps the index current (or the delay's count going).
    func keepHitIndex(afterRaising raised: UInt32, from old: UInt64) {
        if hitIndex.seenGeneration == old { hitIndex.seenGeneration = generation }
        guard hitIndex.generation == old, restackHitIndex(raising: raised) else { return }
        hitIndex.generation = generation
    }

    /// Where a candidate sits relative to the raised subtree.
    private enum RaiseClass { case raised, sibling, other }

    private func raiseClass(_ slot: UInt32, raised: UInt32, parent: UInt32, layer: ChildLayer,
                            _ n: UnsafePointer<NodeRecord>) -> RaiseClass {
        var s = slot, inRaised = false
        while true {
            if s == raised { inRaised = true }
            let p = n[Int(s)].parent
            if p == parent { return inRaised ? .raised : (n[Int(s)].layer == layer ? .sibling : .other) }
            if p == NodeRecord.none { return .other }
            s = p
        }
    }

    /// Restacks the cells `raised`'s subtree overlaps. False: the index cannot follow.
    private func restackHitIndex(raising raised: UInt32) -> Bool {
        let n = UnsafePointer(nodes.base)
        let r = n[Int(raised)]
        let parent = r.parent
        guard parent != NodeRecord.none else { return false }
        // Nothing of it is in the index: nothing moves.
        guard r.mapped && r.acceptsInput && r.opacity >= opacityThreshold && !r.box.isEmpty else { return true }
        guard hitIndex.width > 0 && hitIndex.height > 0 else { return true }
        // The subtree box in layout space (origins as the flattening sums them).
        var ox = 0.0, oy = 0.0
        var s = raised
        while s != 0 && s != NodeRecord.none { ox += Double(n[Int(s)].x); oy += Double(n[Int(s)].y); s = n[Int(s)].parent }
        let gx0 = Double(hitIndex.x0), gy0 = Double(hitIndex.y0)
        let a0 = (Double(r.box.minX) + ox - gx0).rounded(.down), a1 = (Double(r.box.maxX) + ox - gx0).rounded(.up)
        let b0 = (Double(r.box.minY) + oy - gy0).rounded(.down), b1 = (Double(r.box.maxY) + oy - gy0).rounded(.up)
        let gw = Double(hitIndex.width), gh = Double(hitIndex.height)
        guard a1 > 0 && a0 < gw && b1 > 0 && b0 < gh else { return true }
        let cx0 = HitIndex.bucket(UInt32(max(a0, 0)), hitIndex.multX), cx1 = HitIndex.bucket(UInt32(min(a1, gw) - 1), hitIndex.multX)
        let cy0 = HitIndex.bucket(UInt32(max(b0, 0)), hitIndex.multY), cy1 = HitIndex.bucket(UInt32(min(b1, gh) - 1), hitIndex.multY)
        guard (cx1 - cx0 + 1) * (cy1 - cy0 + 1) <= Self.raiseCellLimit else { return false }
        let cells = hitIndex.cells, candidates = UnsafePointer(hitIndex.candidates)
        let sentinel = UInt32(hitIndex.count)
        let layer = r.layer
        let w = Int64(hitIndex.width), h = Int64(hitIndex.height)
        for cy in cy0...cy1 {
            let top = min(HitIndex.bucketStart(cy, hitIndex.multY), h), bottom = min(HitIndex.bucketStart(cy + 1, hitIndex.multY), h)
            for cx in cx0...cx1 {
                let cell = cy &* hitIndex.cols &+ cx
                let start = Int(cells[cell]), end = Int(cells[cell + 1])
                guard start < end, cells[start] != sentinel else { continue }
                let left = min(HitIndex.bucketStart(cx, hitIndex.multX), w), right = min(HitIndex.bucketStart(cx + 1, hitIndex.multX), w)
                // Whether the candidate is solid over the whole cell (what cut the list).
                func covers(_ e: UInt32) -> Bool {
                    let c = candidates[Int(e)]
                    let x0 = Int64(c.x0) - Int64(hitIndex.x0), y0 = Int64(c.y0) - Int64(hitIndex.y0)
                    return c.test == .solid && x0 <= left && x0 + Int64(c.width) >= right && y0 <= top && y0 + Int64(c.height) >= bottom
                }
                // The list ends at its first covering entry (what follows is left over).
                var last = start
                while last < end - 1 && !covers(cells[last]) { last += 1 }
                var first = -1, hasRaised = false
                var cutBySibling = false
                for e in start...last {
                    let k = raiseClass(candidates[Int(cells[e])].slot, raised: raised, parent: parent, layer: layer, n)
                    if k == .other { continue }
                    if first < 0 { first = e }
                    if k == .raised { hasRaised = true } else if e == last && covers(cells[e]) { cutBySibling = true }
                }
                guard first >= 0 else { continue }
                if !hasRaised {
                    if cutBySibling {
                        // The raised subtree's rectangles here were dropped below the sibling.
                        cells[start] = sentinel
                        hitIndex.walkCells += 1
                        if hitIndex.walkCells > max(hitIndex.cols * hitIndex.rows / 8, 4) { return false }
                    }
                    continue
                }
                // The raised entries, in order, before the group's first (a stable move).
                var insert = first
                for e in first...last {
                    let v = cells[e]
                    guard raiseClass(candidates[Int(v)].slot, raised: raised, parent: parent, layer: layer, n) == .raised else { continue }
                    var j = e
                    while j > insert { cells[j] = cells[j - 1]; j -= 1 }
                    cells[insert] = v
                    insert += 1
                }
                // A raised entry covering the cell now ends its list: what follows is never
                // reached (it holds every point of the cell).
            }
        }
        return true
    }
}
