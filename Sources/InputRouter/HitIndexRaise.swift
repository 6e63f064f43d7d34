// A raise keeps the flat hit index (HitIndex.swift). A click raises the window it lands
// on, and the queries right after (the release's re-pick, the next motion) land on that
// window: with the index stale they walked, and with a raise per click the index was never
// rebuilt (the delay counts queries since the last change).
//
// Raising node N to the top of its parent P's layer moves N's subtree (block B, contiguous
// in hit order) before its siblings of that layer (the group, also contiguous). A cell's
// list is its overlapping rectangles in hit order, cut after the first solid one covering
// the cell; the new list is the old one with B's entries moved before the group's first,
// then cut again. No rectangle the cut dropped comes back, except when the old cut was a
// sibling of N above it: then B's rectangles in that cell come from B's range of
// candidates (in B's hit order unless a raise inside B reordered it), into the cell's free
// entry; a cell that cannot follow gets the walk sentinel (`HitCandidate.Test.walk`).
// Raises are logged and applied lazily, per cell, by the first query to read it: a raise
// itself costs O(depth). The log full, the index goes stale as any other change makes it.

extension SurfaceTree {
    /// After `generation` moved on from `old` because `raised` went to the top of its
    /// layer and nothing else changed: keeps the index current (or the delay's count going).
    func keepHitIndex(afterRaising raised: UInt32, from old: UInt64) {
        if hitIndex.seenGeneration == old { hitIndex.seenGeneration = generation }
        guard hitIndex.generation == old, hitIndex.raiseCount < HitIndex.raiseLimit else { return }
        let n = UnsafePointer(nodes.base)
        let parent = n[Int(raised)].parent
        guard parent != NodeRecord.none else { return }
        // Its ancestors' candidates are no longer in their hit order.
        var a = parent
        while a != NodeRecord.none { hitIndex.reordered[Int(a)] = true; a = n[Int(a)].parent }
        hitIndex.raises[hitIndex.raiseCount] = raised
        hitIndex.raiseCount += 1
        hitIndex.generation = generation
    }

    /// Brings a cell up to the raises logged since it was last read, oldest first.
    @inline(never) func catchUpHitIndexCell(_ cell: Int) {
        let n = UnsafePointer(nodes.base)
        var k = Int(hitIndex.cellEpochs[cell])
        while k < hitIndex.raiseCount {
            restackCell(cell, raising: hitIndex.raises[k], n)
            k += 1
        }
        hitIndex.cellEpochs[cell] = UInt32(truncatingIfNeeded: k)
    }

    /// One cell after one raise (see the top of the file).
    private func restackCell(_ cell: Int, raising raised: UInt32, _ n: UnsafePointer<NodeRecord>) {
        let parent = n[Int(raised)].parent
        let range = hitIndex.ranges[Int(raised)], known = !hitIndex.reordered[Int(raised)]
        // The siblings' candidates of its layer (a set the raises keep), and its own.
        let p = hitIndex.ranges[Int(parent)]
        let groupLo = n[Int(raised)].layer == .above ? p.x : p.z, groupHi = n[Int(raised)].layer == .above ? p.y : p.w
        @inline(__always) func inGroup(_ e: UInt32) -> Bool { e &- groupLo < groupHi &- groupLo }
        @inline(__always) func inRaised(_ e: UInt32) -> Bool { e &- range.x < range.w &- range.x }
        let cells = hitIndex.cells, candidates = UnsafePointer(hitIndex.candidates)
        let sentinel = UInt32(hitIndex.count)
        let w = Int64(hitIndex.width), h = Int64(hitIndex.height)
        let cx = cell % hitIndex.cols, cy = cell / hitIndex.cols
        let top = min(HitIndex.bucketStart(cy, hitIndex.multY), h), bottom = min(HitIndex.bucketStart(cy + 1, hitIndex.multY), h)
        let start = Int(cells[cell]), end = Int(cells[cell + 1])
        // The list proper, before the free entries.
        var used = start
        while used < end && cells[used] != sentinel &+ 1 { used += 1 }
        guard start < used, cells[start] != sentinel else { return }
        let left = min(HitIndex.bucketStart(cx, hitIndex.multX), w), right = min(HitIndex.bucketStart(cx + 1, hitIndex.multX), w)
        // Whether the candidate's rectangle meets the cell (as the build's buckets say).
        func overlaps(_ e: UInt32) -> Bool {
            let c = candidates[Int(e)]
            let x0 = Int64(c.x0) - Int64(hitIndex.x0), y0 = Int64(c.y0) - Int64(hitIndex.y0)
            return x0 < right && x0 + Int64(c.width) > left && y0 < bottom && y0 + Int64(c.height) > top
        }
        // Whether the candidate is solid over the whole cell (what cut the list).
        func covers(_ e: UInt32) -> Bool {
            let c = candidates[Int(e)]
            let x0 = Int64(c.x0) - Int64(hitIndex.x0), y0 = Int64(c.y0) - Int64(hitIndex.y0)
            return c.test == .solid && x0 <= left && x0 + Int64(c.width) >= right && y0 <= top && y0 + Int64(c.height) >= bottom
        }
        // The list ends at its first covering entry (what follows is left over).
        var last = start
        while last < used - 1 && !covers(cells[last]) { last += 1 }
        var first = -1, hasRaised = false
        var cutBySibling = false
        for e in start...last {
            let v = cells[e]
            guard inGroup(v) else { continue }
            if first < 0 { first = e }
            if inRaised(v) { hasRaised = true } else if e == last && covers(v) { cutBySibling = true }
        }
        guard first >= 0 else { return }
        if !hasRaised {
            guard cutBySibling else { return }
            // The raised subtree's rectangles here were dropped below the sibling: its
            // own range of candidates (still in its order) has them. They go before
            // the group, down to the first covering the cell; then the group's
            // entries, if room is left and nothing raised covers.
            // Counted first (room, and whether one covers), then placed.
            var moved = 0, covered = false
            if known {
                for e in range.x..<range.w where overlaps(e) {
                    moved += 1
                    if covers(e) { covered = true; break }
                }
            }
            let group = last + 1 - first
            if known && (covered ? moved <= end - first : moved + group <= end - first) {
                if !covered && moved > 0 {
                    // The group's entries shift up past the raised ones (from the end).
                    var j = group - 1
                    while j >= 0 { cells[first + moved + j] = cells[first + j]; j -= 1 }
                }
                var slot = first
                for e in range.x..<range.w where slot < first + moved && overlaps(e) {
                    cells[slot] = e
                    slot += 1
                }
            } else {
                cells[start] = sentinel
                hitIndex.walkCells += 1
            }
            return
        }
        // The raised entries, in order, before the group's first (a stable move).
        var insert = first
        for e in first...last {
            let v = cells[e]
            guard inRaised(v) else { continue }
            var j = e
            while j > insert { cells[j] = cells[j - 1]; j -= 1 }
            cells[insert] = v
            insert += 1
        }
    }
}
