import CPixman

// The flat hit index: the whole tree flattened into layout-space rectangles, bucketed by a
// uniform grid. The tree walk (HitTest.swift) pays one level per tree level (root list,
// output, its grid, the window, its subsurfaces), each a dependent load of a record and its
// box; on a still scene most of that is the same work again for every query. Flattened, a
// node's own content is what the naive reference says it is: the rectangles of its bounds
// and input region cut to its clipping ancestors' bounds, in paint order. A query floors
// the point once, finds its cell, and tries that cell's rectangles topmost first; the first
// that holds the point is the hit. A cell keeps nothing below a rectangle that covers it
// whole, so most cells hold one or two.
//
// Building costs O(nodes + the cells the rectangles overlap), so the index is built only
// once the scene has stood still for a while (`SurfaceTree.hitIndexDelay`): a scene that
// changes between every few queries (a window dragged) keeps using the walk, which every
// change keeps cheap to update. Any change to the scene makes the index stale at once (it
// records the tree's scene generation), except a raise it can follow (HitIndex+Raises.swift).
// The observer variant of `hitTest` always walks.

/// One rectangle of the flattened scene, in layout space: `x0..<x0 + width` by
/// `y0..<y0 + height`, pixels by the floor rule.
struct HitCandidate {
    enum Test: UInt8 {
        /// The rectangle is part of the node's input area: a point inside it is a hit.
        case solid
        /// The rectangle bounds an input region with many rectangles: pixman decides.
        case region
        /// The rectangle is where the node's custom containment test may run: it decides.
        case custom
    }
    var x0: Int32, y0: Int32
    var width: UInt32, height: UInt32
    /// The node's layout origin (what makes the point node-local).
    var originX: Int32, originY: Int32
    var slot: UInt32, generation: UInt32
    var test: Test
    /// Cut at the 32-bit limit: it reaches past the grid.
    var cut: Bool
}

/// The index itself: plain memory the tree owns, so a query counts no reference.
struct HitIndex {
    /// A region of more rectangles than this becomes one pixman-tested rectangle, not one
    /// solid rectangle per band.
    static let regionRectangles = 16
    /// Trees that would flatten to more rectangles than this keep the walk.
    static let maximumCandidates = 1 << 21

    /// The scene generation it was built for; stale once the tree's differs.
    var generation = UInt64.max
    /// The grid: `x0..<x0 + width` by `y0..<y0 + height`; a pixel offset `d` from its
    /// corner is in column `(d * multX) >> 32` (a monotone bucketing, no division).
    var x0: Int32 = 0, y0: Int32 = 0
    var width: UInt32 = 0, height: UInt32 = 0
    var multX: UInt64 = 0, multY: UInt64 = 0
    var cols = 1, rows = 1
    /// Some rectangle was cut at the 32-bit limit (a custom test with no clipping
    /// ancestor accepts anything): a point outside the grid goes to the walk.
    var unbounded = false
    /// Some candidate runs a custom containment test (a query's answer is then not kept as
    /// the last walk's, HitIndex+Raises.swift).
    var hasCustomTests = false
    /// Where each node's subtree lies among the candidates, by slot (HitIndex+Raises.swift).
    var spans: UnsafeMutablePointer<CandidateSpan> = .allocate(capacity: 1)
    var spanCapacity = 1
    /// The nodes raised since the build, oldest raise first (HitIndex+Raises.swift): each
    /// costs a query two range checks, and a scan of the raised subtree's candidates when
    /// it may cover the answer.
    var raised: UnsafeMutablePointer<RaisedNode> = .allocate(capacity: raisedCapacity)
    var raisedCount = 0
    static let raisedCapacity = 4
    /// `cols * rows + 1` cell starts, then the candidate indices they index.
    var cells: UnsafeMutablePointer<UInt32> = .allocate(capacity: 1)
    var cellCapacity = 1
    var candidates: UnsafeMutablePointer<HitCandidate> = .allocate(capacity: 1)
    var candidateCapacity = 1

    /// The tree's `indexEpoch` the queries below were counted at, and how many more walk
    /// before the index is built.
    var seenEpoch = UInt64.max
    var queriesLeft = 0

    func deallocate() {
        cells.deallocate()
        candidates.deallocate()
        spans.deallocate()
        raised.deallocate()
    }

    /// The column (row) of an offset from the grid's corner.
    @inline(__always) static func bucket(_ d: UInt32, _ mult: UInt64) -> Int {
        Int(truncatingIfNeeded: (UInt64(d) &* mult) >> 32)
    }

    /// The first offset in bucket `b`: the least d with (d * mult) >> 32 >= b.
    static func bucketStart(_ b: Int, _ mult: UInt64) -> Int64 {
        Int64(((UInt64(b) << 32) + mult - 1) / mult)
    }

    /// The working lists of a build, kept so that a rebuild allocates nothing.
    struct Scratch {
        var candidates: [HitCandidate] = []
        var counts: [UInt32] = []
        var closed: [Bool] = []
        var colStarts: [Int64] = []
        var rowStarts: [Int64] = []
    }
}

/// A rectangle in layout space, in 64 bits while flattening (origins are sums of 32-bit
/// positions).
private struct Span {
    var x0: Int64, y0: Int64, x1: Int64, y1: Int64
    static let everywhere = Span(x0: -(1 << 40), y0: -(1 << 40), x1: 1 << 40, y1: 1 << 40)
    var isEmpty: Bool { x0 >= x1 || y0 >= y1 }
    func intersection(_ o: Span) -> Span {
        Span(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
    }
}

extension SurfaceTree {
    /// Counts a query that found the index stale and builds it when the scene has stood
    /// still long enough. True when the index is now current.
    @inline(never) func prepareHitIndex() -> Bool {
        if hitIndex.seenEpoch != indexEpoch {
            // Once per change: a click that raises a window runs two or three queries.
            hitIndex.seenEpoch = indexEpoch
            hitIndex.queriesLeft = hitIndexDelay ?? defaultHitIndexDelay
        }
        hitIndex.queriesLeft -= 1
        // A containment test that hit-tests runs inside a walk: build outside it only.
        guard hitIndex.queriesLeft < 0, !walking else { return false }
        if buildHitIndex() { return true }
        // Too big or too far out to flatten: the walk until the next change.
        hitIndex.queriesLeft = Int.max
        return false
    }

    /// About as many walked queries as a build costs (a few hundred instructions a node
    /// against a walk's 500 to 1,000 a query): a scene that changes more often than that
    /// never pays for builds it would not use.
    var defaultHitIndexDelay: Int { 32 + nodeCount / 2 }

    /// The point's own containment for a candidate that is not solid (`floor(point)` is
    /// `(ix, iy)`, inside the candidate's rectangle).
    @inline(never) func indexedContains(_ c: UnsafePointer<HitCandidate>, _ local: Point, _ ix: Int32, _ iy: Int32)
        -> Bool
    {
        if c.pointee.test == .region {
            let lx = Int64(ix) - Int64(c.pointee.originX)
            let ly = Int64(iy) - Int64(c.pointee.originY)
            guard let region = nodes[Int(c.pointee.slot)].inputRegion,
                let px = Int32(exactly: lx), let py = Int32(exactly: ly)
            else { return false }
            return pixman_region32_contains_point(region, px, py, nil) != 0
        }
        // As in the walk: the custom test must not change the tree while the query runs.
        let outer = walking
        walking = true
        defer { walking = outer }
        return containsSelf(c.pointee.slot, local)
    }

    /// Flattens the tree and builds the grid over it. False when the tree does not fit the
    /// index (too many rectangles, or origins beyond 32 bits).
    func buildHitIndex() -> Bool {
        refreshBounds()
        // Every slot's span empty until its subtree is flattened.
        if nodes.count > hitIndex.spanCapacity {
            hitIndex.spans.deallocate()
            hitIndex.spans = .allocate(capacity: nodes.count)
            hitIndex.spanCapacity = nodes.count
        }
        hitIndex.spans.update(repeating: CandidateSpan(), count: nodes.count)
        var s = hitIndexScratch
        hitIndexScratch = HitIndex.Scratch()
        defer { hitIndexScratch = s }
        s.candidates.removeAll(keepingCapacity: true)
        var unbounded = false
        guard flattenChildren(of: 0, 0, 0, .everywhere, &s.candidates, &unbounded) else { return false }
        let count = s.candidates.count
        // The root's own content is never hit, nor its below children (the walk's rule).
        hitIndex.spans[0] = CandidateSpan(
            start: 0, aboveEnd: UInt32(count), belowStart: UInt32(count), end: UInt32(count))
        // The grid spans the rectangles that end within 32 bits; those cut at the limit
        // reach past it, and a point outside it takes the walk.
        var gx0 = Int64.max
        var gy0 = Int64.max
        var gx1 = Int64.min
        var gy1 = Int64.min
        for c in s.candidates where !c.cut {
            gx0 = min(gx0, Int64(c.x0))
            gy0 = min(gy0, Int64(c.y0))
            gx1 = max(gx1, Int64(c.x0) + Int64(c.width))
            gy1 = max(gy1, Int64(c.y0) + Int64(c.height))
        }
        if gx0 >= gx1 || gy0 >= gy1 {
            gx0 = 0
            gy0 = 0
            gx1 = 0
            gy1 = 0
        }
        let gw = gx1 - gx0
        let gh = gy1 - gy0
        // About four cells per rectangle, square-ish, then coarser while the entries run
        // over budget (rectangles spanning many cells).
        let target = Double(min(max(4 * count, 16), 1 << 20))
        var cols = 1
        var rows = 1
        if gw > 0 && gh > 0 {
            let aspect = Double(gw) / Double(gh)
            cols = Int(min(max((target * aspect).squareRoot(), 1), Double(gw)))
            rows = Int(min(max(target / Double(cols), 1), Double(gh)))
        }
        var total = 0
        var multX: UInt64 = 0
        var multY: UInt64 = 0
        while true {
            multX = gw > 0 ? (UInt64(cols) << 32) / UInt64(gw) : 0
            multY = gh > 0 ? (UInt64(rows) << 32) / UInt64(gh) : 0
            layoutCells(&s, cols: cols, rows: rows, gw, gh, multX, multY)
            total = visitCells(&s, cols: cols, rows: rows, gx0, gy0, gw, gh, multX, multY, store: nil)
            if total <= 16 * count + cols * rows || (cols == 1 && rows == 1) { break }
            cols = max(Int(Double(cols) * 0.7071), 1)
            rows = max(Int(Double(rows) * 0.7071), 1)
        }
        let cellCount = cols * rows
        let needed = cellCount + 1 + total
        if needed > hitIndex.cellCapacity {
            hitIndex.cells.deallocate()
            hitIndex.cells = .allocate(capacity: needed)
            hitIndex.cellCapacity = needed
        }
        if count > hitIndex.candidateCapacity {
            hitIndex.candidates.deallocate()
            hitIndex.candidates = .allocate(capacity: count)
            hitIndex.candidateCapacity = count
        }
        s.candidates.withUnsafeBufferPointer { b in
            if let base = b.baseAddress { hitIndex.candidates.update(from: base, count: count) }
        }
        // Each cell's start from the last count, then the entries placed.
        let cells = hitIndex.cells
        var start = cellCount + 1
        for c in 0..<cellCount {
            cells[c] = UInt32(start)
            let k = Int(s.counts[c])
            s.counts[c] = UInt32(start)
            start += k
        }
        cells[cellCount] = UInt32(start)
        _ = visitCells(&s, cols: cols, rows: rows, gx0, gy0, gw, gh, multX, multY, store: cells)
        hitIndex.x0 = Int32(truncatingIfNeeded: gx0)
        hitIndex.y0 = Int32(truncatingIfNeeded: gy0)
        hitIndex.width = UInt32(truncatingIfNeeded: gw)
        hitIndex.height = UInt32(truncatingIfNeeded: gh)
        hitIndex.multX = multX
        hitIndex.multY = multY
        hitIndex.cols = cols
        hitIndex.rows = rows
        hitIndex.unbounded = unbounded
        hitIndex.hasCustomTests = s.candidates.contains { $0.test == .custom }
        hitIndex.raisedCount = 0
        hitIndex.generation = generation
        return true
    }

    /// Sets the columns' and rows' first offsets (for the covering test).
    private func layoutCells(
        _ s: inout HitIndex.Scratch, cols: Int, rows: Int, _ gw: Int64, _ gh: Int64,
        _ multX: UInt64, _ multY: UInt64
    ) {
        s.colStarts.removeAll(keepingCapacity: true)
        s.rowStarts.removeAll(keepingCapacity: true)
        guard gw > 0 && gh > 0 else { return }
        for c in 0...cols { s.colStarts.append(min(HitIndex.bucketStart(c, multX), gw)) }
        for r in 0...rows { s.rowStarts.append(min(HitIndex.bucketStart(r, multY), gh)) }
    }

    /// Counts (`store` nil: `counts` from zero) or places (`counts` holding each cell's
    /// next slot in `store`) each cell's candidates, topmost first, leaving out what lies
    /// below a solid rectangle covering the whole cell. Returns the number of entries.
    private func visitCells(
        _ s: inout HitIndex.Scratch, cols: Int, rows: Int, _ gx0: Int64, _ gy0: Int64,
        _ gw: Int64, _ gh: Int64, _ multX: UInt64, _ multY: UInt64,
        store: UnsafeMutablePointer<UInt32>?
    ) -> Int {
        let cellCount = cols * rows
        if store == nil {
            s.counts.removeAll(keepingCapacity: true)
            s.counts.append(contentsOf: repeatElement(0, count: cellCount))
        }
        s.closed.removeAll(keepingCapacity: true)
        s.closed.append(contentsOf: repeatElement(false, count: cellCount))
        guard gw > 0 && gh > 0 else { return 0 }
        // Over raw buffers: a build visits every cell of every rectangle, twice.
        return s.candidates.withUnsafeBufferPointer { candidates in
            s.counts.withUnsafeMutableBufferPointer { counts in
                s.closed.withUnsafeMutableBufferPointer { closed in
                    s.colStarts.withUnsafeBufferPointer { colStarts in
                        s.rowStarts.withUnsafeBufferPointer { rowStarts in
                            var total = 0
                            for index in candidates.indices {
                                let c = candidates[index]
                                let a0 = Int64(c.x0) - gx0
                                let a1 = a0 + Int64(c.width)
                                let b0 = Int64(c.y0) - gy0
                                let b1 = b0 + Int64(c.height)
                                guard a0 < gw && a1 > 0 && b0 < gh && b1 > 0 else { continue }
                                let cx0 = HitIndex.bucket(UInt32(max(a0, 0)), multX)
                                let cx1 = HitIndex.bucket(UInt32(min(a1, gw) - 1), multX)
                                let cy0 = HitIndex.bucket(UInt32(max(b0, 0)), multY)
                                let cy1 = HitIndex.bucket(UInt32(min(b1, gh) - 1), multY)
                                for cy in cy0...cy1 {
                                    let coversRow = c.test == .solid && b0 <= rowStarts[cy] && b1 >= rowStarts[cy + 1]
                                    for cx in cx0...cx1 {
                                        let cell = cy &* cols &+ cx
                                        if closed[cell] { continue }
                                        if let store { store[Int(counts[cell])] = UInt32(index) }
                                        counts[cell] &+= 1
                                        total &+= 1
                                        if coversRow && a0 <= colStarts[cx] && a1 >= colStarts[cx + 1] {
                                            closed[cell] = true
                                        }
                                    }
                                }
                            }
                            return total
                        }
                    }
                }
            }
        }
    }

    /// Appends `slot`'s children of one layer, topmost first, and their subtrees.
    private func flattenChildren(
        of slot: UInt32, _ ox: Int64, _ oy: Int64, _ clip: Span, _ out: inout [HitCandidate],
        _ unbounded: inout Bool, below: Bool = false
    ) -> Bool {
        var c = below ? nodes[Int(slot)].lastBelow : nodes[Int(slot)].lastAbove
        while c != NodeRecord.none {
            guard flatten(c, ox, oy, clip, &out, &unbounded) else { return false }
            c = nodes[Int(c)].prev
        }
        return true
    }

    /// Appends the node's subtree in hit order (above children, own content, below
    /// children), each rectangle cut to the clipping ancestors' bounds in `clip`.
    private func flatten(
        _ slot: UInt32, _ px: Int64, _ py: Int64, _ clip: Span, _ out: inout [HitCandidate],
        _ unbounded: inout Bool
    ) -> Bool {
        let r = UnsafePointer(nodes.base + Int(slot)).pointee
        // What the walk skips with its subtree: hidden, refusing input, transparent, or
        // nothing in it can take input (its subtree box is empty).
        guard r.mapped && r.acceptsInput && r.opacity >= opacityThreshold && !r.box.isEmpty else { return true }
        let ox = px + Int64(r.x)
        let oy = py + Int64(r.y)
        guard Int32(exactly: ox) != nil, Int32(exactly: oy) != nil else { return false }
        let bounds = Span(x0: ox, y0: oy, x1: ox + Int64(r.width), y1: oy + Int64(r.height))
        var clip = clip
        if r.clipsChildren {
            clip = clip.intersection(bounds)
            if clip.isEmpty { return true }
        }
        let start = UInt32(out.count)
        guard flattenChildren(of: slot, ox, oy, clip, &out, &unbounded) else { return false }
        let aboveEnd = UInt32(out.count)
        func add(_ span: Span, _ test: HitCandidate.Test) {
            guard !span.isEmpty else { return }
            // Cut at the 32-bit limit (the last pixel kept out, so every width fits).
            let lo = Int64(Int32.min)
            let hi = Int64(Int32.max)
            let x0 = max(span.x0, lo)
            let y0 = max(span.y0, lo)
            let x1 = min(span.x1, hi)
            let y1 = min(span.y1, hi)
            let cut = x0 != span.x0 || y0 != span.y0 || x1 != span.x1 || y1 != span.y1
            guard x0 < x1 && y0 < y1 else { return }
            if cut { unbounded = true }
            out.append(
                HitCandidate(
                    x0: Int32(x0), y0: Int32(y0), width: UInt32(x1 - x0), height: UInt32(y1 - y0),
                    originX: Int32(ox), originY: Int32(oy), slot: slot, generation: r.generation,
                    test: test, cut: cut))
        }
        if r.hasContainmentTest {
            // The test may accept points outside the bounds: only the clip holds it in.
            add(clip, .custom)
        } else {
            let own = clip.intersection(bounds)
            if !own.isEmpty {
                if let region = r.inputRegion {
                    var n: Int32 = 0
                    let rects = pixman_region32_rectangles(region, &n)
                    if let rects, n <= Int32(HitIndex.regionRectangles) {
                        for j in 0..<Int(n) {
                            let b = rects[j]
                            add(
                                own.intersection(
                                    Span(
                                        x0: ox + Int64(b.x1), y0: oy + Int64(b.y1),
                                        x1: ox + Int64(b.x2), y1: oy + Int64(b.y2))), .solid)
                        }
                    } else if n > 0 {
                        let e = region.pointee.extents
                        add(
                            own.intersection(
                                Span(
                                    x0: ox + Int64(e.x1), y0: oy + Int64(e.y1),
                                    x1: ox + Int64(e.x2), y1: oy + Int64(e.y2))), .region)
                    }
                } else {
                    add(own, .solid)
                }
            }
        }
        guard out.count <= HitIndex.maximumCandidates else { return false }
        let belowStart = UInt32(out.count)
        guard flattenChildren(of: slot, ox, oy, clip, &out, &unbounded, below: true) else { return false }
        hitIndex.spans[Int(slot)] = CandidateSpan(
            start: start, aboveEnd: aboveEnd, belowStart: belowStart, end: UInt32(out.count))
        return true
    }
}
