// A spatial index for wide child lists. Subtree bounds let a hit-test skip a child cheaply,
// but a flat list of 20,000 surfaces still means 20,000 box checks; a uniform grid over the
// children's boxes narrows that to the few children overlapping the point's cell. Each
// cell keeps its children topmost first, so trying them in cell order gives the same
// answer as walking the whole list. A child that moves or changes afterwards goes to a
// short `moved` list, kept in z-order and tried with the point's cell (its cell entries are
// skipped); the grid is rebuilt, lazily with the bounds, when that list fills or the child
// list itself changes.

/// A grid over one child list, in the parent's coordinates. Plain memory (no reference
/// counting on the hit-test path); the tree frees it with `deallocate()`.
struct ChildGrid {
    /// Lists shorter than this are walked: a grid would not pay for itself.
    static let minimumChildren = 16
    /// Entries (children times the cells each overlaps) any grid may hold, however few its
    /// children: 4 KiB buys windows that overlap a few deep cells small enough that a query
    /// meets one or two of them.
    static let entryAllowance = 1024
    /// Coordinates beyond ±2^24 are clamped: a child whose box reaches past the grid (a
    /// custom containment test accepts anything) goes in the `outside` list as well.
    static let limit = 16_777_216.0

    var minX = 0.0, minY = 0.0, maxX = 0.0, maxY = 0.0
    var scaleX = 0.0, scaleY = 0.0
    var cols = 1, rows = 1
    /// Room in the `moved` list: a quarter of the children, 4 to 64, so a rebuild (O(n))
    /// comes at most every n/4 changes (amortised O(1) each, up to 64) while every query
    /// tries at most 64 moved children.
    var movedCapacity = 4

    /// `cols * rows + 1` cell starts, then the entries (child slots) they index, then the
    /// outside list at `outside`, then the `moved` list.
    var storage: UnsafeMutablePointer<UInt32>
    /// What `storage` holds room for: a rebuild that fits reuses it.
    var storageCapacity: Int
    var outside: Range<Int> = 0..<0
    var movedStart = 0, movedCount = 0

    /// z-ranks (`NodeRecord.gridRank`, smaller is higher): a build numbers the children from
    /// `firstRank` down the list; a child raised (lowered) since takes a rank above (below)
    /// every other, so restacking it is a move in rank, not a rebuild.
    static let firstRank: UInt32 = 1 << 31
    var topRank = firstRank, bottomRank = firstRank

    /// Indexes into `storage` of the children to try for `p`, topmost first.
    @inline(__always) func entries(at p: Point) -> Range<Int> {
        guard p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY else { return outside }
        // Inside the grid, so 0 <= cx < cols and 0 <= cy < rows: no overflow to check.
        let cx = min(cols &- 1, Int((p.x - minX) * scaleX))
        let cy = min(rows &- 1, Int((p.y - minY) * scaleY))
        let c = cy &* cols &+ cx
        return Int(storage[c])..<Int(storage[c &+ 1])
    }

    func deallocate() { storage.deallocate() }

    /// Adds a child whose placement changed to the `moved` list, keeping it in z-order
    /// (by `gridRank`). False when the list is full.
    mutating func addMoved(_ slot: UInt32, _ n: UnsafeMutablePointer<NodeRecord>) -> Bool {
        guard movedCount < movedCapacity else { return false }
        let rank = n[Int(slot)].gridRank
        var j = movedStart + movedCount
        while j > movedStart && n[Int(storage[j - 1])].gridRank > rank {
            storage[j] = storage[j - 1]
            j -= 1
        }
        storage[j] = slot
        movedCount += 1
        return true
    }

    /// Moves `slot`, already in the `moved` list, to its top (bottom) end: it has just taken
    /// the highest (lowest) rank, so one shift keeps the list in z-order (a removal and an
    /// insertion walked it twice on every click between windows already in it).
    mutating func moveMovedToEnd(_ slot: UInt32, top: Bool) {
        let end = movedStart &+ movedCount
        var j = movedStart
        while j < end && storage[j] != slot { j &+= 1 }
        guard j < end else { return }
        if top {
            while j > movedStart {
                storage[j] = storage[j &- 1]
                j &-= 1
            }
        } else {
            while j &+ 1 < end {
                storage[j] = storage[j &+ 1]
                j &+= 1
            }
        }
        storage[j] = slot
    }

    /// The rank for a child raised to the top (lowered to the bottom), nil once the ranks
    /// run out (after 2^31 restacks without a rebuild).
    mutating func takeRank(top: Bool) -> UInt32? {
        if top {
            guard topRank > 0 else { return nil }
            topRank -= 1
            return topRank
        }
        guard bottomRank < UInt32.max else { return nil }
        bottomRank += 1
        return bottomRank
    }

    struct Item {
        var slot: UInt32
        var x0, y0, x1, y1: Double
    }
    typealias Child = (slot: UInt32, box: Box, x: Int32, y: Int32)

    /// The working lists of a build, kept by the tree: a rebuild (a window raised in a wide
    /// list) allocates nothing once they have grown.
    struct Scratch {
        var items: [Item] = []
        var outside: [UInt32] = []
        var next: [Int] = []
    }

    init() {
        storage = .allocate(capacity: 1) // replaced once the size is known
        storageCapacity = 1
    }

    /// Builds the grid for the children topmost first (slot, box in parent coordinates), in
    /// the memory it has when that is enough. Children with an empty box can never be hit
    /// and are left out.
    mutating func build(_ children: [Child], _ scratch: inout Scratch) {
        scratch.items.removeAll(keepingCapacity: true)
        scratch.outside.removeAll(keepingCapacity: true)
        scratch.items.reserveCapacity(children.count)
        movedCount = 0
        topRank = Self.firstRank
        bottomRank = Self.firstRank + UInt32(children.count)
        minX = .infinity
        minY = .infinity
        maxX = -.infinity
        maxY = -.infinity
        for c in children where !c.box.isEmpty {
            let (item, outside) = Self.item(c)
            if outside { scratch.outside.append(c.slot) }
            guard item.x0 < item.x1 && item.y0 < item.y1 else { continue }
            scratch.items.append(item)
            minX = min(minX, item.x0)
            minY = min(minY, item.y0)
            maxX = max(maxX, item.x1)
            maxY = max(maxY, item.y1)
        }
        if scratch.items.isEmpty {
            minX = 0
            minY = 0
            maxX = 0
            maxY = 0
        }
        sizeCells(scratch.items)
        var total = 0
        while true {
            total = 0
            for item in scratch.items {
                let (a, b) = cellRange(item)
                total += (a.upperBound - a.lowerBound) * (b.upperBound - b.lowerBound)
            }
            if total <= max(4 * scratch.items.count + cols * rows, Self.entryAllowance) || (cols == 1 && rows == 1) {
                break
            }
            // Half the cells, keeping their shape.
            cols = max(Int(Double(cols) * 0.7071), 1)
            rows = max(Int(Double(rows) * 0.7071), 1)
            scaleX = Double(cols) / max(maxX - minX, 1)
            scaleY = Double(rows) / max(maxY - minY, 1)
        }
        // Counting sort into cells; visiting children topmost first keeps each cell in
        // z-order.
        let cells = cols * rows
        movedCapacity = min(64, max(4, children.count / 4))
        let needed = cells + 1 + total + scratch.outside.count + movedCapacity
        if needed > storageCapacity {
            storage.deallocate()
            storage = .allocate(capacity: needed)
            storageCapacity = needed
        }
        scratch.next.removeAll(keepingCapacity: true)
        scratch.next.append(contentsOf: repeatElement(0, count: cells))
        for item in scratch.items {
            let (xs, ys) = cellRange(item)
            for cy in ys { for cx in xs { scratch.next[cy * cols + cx] += 1 } }
        }
        var start = cells + 1
        for c in 0..<cells {
            storage[c] = UInt32(start)
            let k = scratch.next[c]
            scratch.next[c] = start
            start += k
        }
        storage[cells] = UInt32(start)
        for item in scratch.items {
            let (xs, ys) = cellRange(item)
            for cy in ys {
                for cx in xs {
                    storage[scratch.next[cy * cols + cx]] = item.slot
                    scratch.next[cy * cols + cx] += 1
                }
            }
        }
        for (j, slot) in scratch.outside.enumerated() { storage[start + j] = slot }
        outside = start..<(start + scratch.outside.count)
        movedStart = outside.upperBound
    }

    /// A child's box in the parent's coordinates, clamped to ±`limit`, and whether it
    /// reaches past that (then it is in the `outside` list too).
    static func item(_ c: Child) -> (Item, outside: Bool) {
        let l = limit
        let x0 = Double(c.box.minX) + Double(c.x)
        let x1 = Double(c.box.maxX) + Double(c.x)
        let y0 = Double(c.box.minY) + Double(c.y)
        let y1 = Double(c.box.maxY) + Double(c.y)
        return (
            Item(slot: c.slot, x0: max(x0, -l), y0: max(y0, -l), x1: min(x1, l), y1: min(y1, l)),
            x0 < -l || y0 < -l || x1 > l || y1 > l
        )
    }

    /// Moves a child's entries to the front (`top`) or the back of every cell it is in, and
    /// of the `outside` list: the order a build would give it with the topmost (bottommost)
    /// rank. Only for a child whose entries are current (not moved since the grid saw it).
    mutating func restackEntries(_ c: Child, top: Bool) {
        guard !c.box.isEmpty else { return }
        let (item, outside) = Self.item(c)
        if outside { restack(c.slot, in: self.outside, top: top) }
        guard item.x0 < item.x1 && item.y0 < item.y1 else { return }
        let (xs, ys) = cellRange(item)
        for cy in ys {
            for cx in xs {
                let cell = cy &* cols &+ cx
                restack(c.slot, in: Int(storage[cell])..<Int(storage[cell &+ 1]), top: top)
            }
        }
    }

    /// Rotates `slot` to the start (end) of `range` in `storage`, the others kept in order.
    private func restack(_ slot: UInt32, in range: Range<Int>, top: Bool) {
        let s = storage
        let start = range.lowerBound
        let end = range.upperBound
        var j = start
        while j < end && s[j] != slot { j &+= 1 }
        guard j < end else { return }
        if top {
            while j > start {
                s[j] = s[j &- 1]
                j &-= 1
            }
        } else {
            while j &+ 1 < end {
                s[j] = s[j &+ 1]
                j &+= 1
            }
        }
        s[j] = slot
    }

    /// The first guess at the grid, before the entry budget coarsens it: cells of side
    /// s = area / Σ(w + h), where a child's box widened by one cell covers, summed over the
    /// children, about one cell's worth more than the boxes themselves (a query meets about
    /// one child that overlaps its cell but not its point). That is at least one cell per
    /// child, and at most 1024 (or one per child, if more): windows that overlap deep get
    /// cells far smaller than one per child, 20,000 small surfaces one each.
    private mutating func sizeCells(_ items: [Item]) {
        let w = max(maxX - minX, 1)
        let h = max(maxY - minY, 1)
        let n = Double(max(items.count, 1))
        var perimeter = 0.0
        for item in items { perimeter += (item.x1 - item.x0) + (item.y1 - item.y0) }
        let area = w * h
        let ideal = perimeter * perimeter / area
        let cells = min(max(ideal.isFinite ? ideal : n, n), max(n, 1024))
        cols = Int(min(max((cells * w / h).squareRoot(), 1), 1024))
        rows = Int(min(max(cells / Double(cols), 1), 1024))
        scaleX = Double(cols) / w
        scaleY = Double(rows) / h
    }

    /// The cells an item overlaps (its exclusive edge may add one cell: harmless).
    private func cellRange(_ item: Item) -> (Range<Int>, Range<Int>) {
        let x0 = min(cols - 1, Int((item.x0 - minX) * scaleX))
        let x1 = min(cols - 1, Int((item.x1 - minX) * scaleX))
        let y0 = min(rows - 1, Int((item.y0 - minY) * scaleY))
        let y1 = min(rows - 1, Int((item.y1 - minY) * scaleY))
        return (x0..<(x1 + 1), y0..<(y1 + 1))
    }
}

extension SurfaceTree {
    /// Builds, rebuilds or frees the grid of `slot`'s `layer` list after a bounds refresh
    /// (on the raw node storage `n`, see `refreshBounds`).
    func updateGrid(_ slot: UInt32, _ n: UnsafeMutablePointer<NodeRecord>, layer: ChildLayer, count: Int, rebuild: Bool)
    {
        let k = Int(slot)
        let existing = layer == .above ? n[k].gridAbove : n[k].gridBelow
        if count < ChildGrid.minimumChildren {
            if existing != NodeRecord.none {
                freeGrid(existing)
                setGrid(&n[k], layer, NodeRecord.none)
            }
            return
        }
        if existing != NodeRecord.none && !rebuild { return }
        gridChildren.removeAll(keepingCapacity: true)
        gridChildren.reserveCapacity(count)
        var c = layer == .above ? n[k].lastAbove : n[k].lastBelow
        while c != NodeRecord.none {
            let r = n + Int(c)
            gridChildren.append((c, r.pointee.box, r.pointee.x, r.pointee.y))
            c = r.pointee.prev
        }
        for (rank, child) in gridChildren.enumerated() {
            n[Int(child.slot)].gridRank = ChildGrid.firstRank + UInt32(rank)
            n[Int(child.slot)].gridMoved = false
        }
        if existing != NodeRecord.none {
            // In place: its memory is reused when the new grid fits.
            grids[Int(existing)].build(gridChildren, &gridScratch)
            return
        }
        var grid = ChildGrid()
        grid.build(gridChildren, &gridScratch)
        if let reused = freeGrids.popLast() {
            grids[Int(reused)] = grid
            setGrid(&n[k], layer, reused)
        } else {
            grids.append(grid)
            setGrid(&n[k], layer, UInt32(grids.count - 1))
        }
    }

    /// Raises (lowers) `i` within a child list that has a grid: relinked without marking
    /// the list changed, it takes the new top (bottom) rank and joins the `moved` list (a
    /// click that raises a window among many costs a few entries' shift: no rebuild,
    /// nothing dirty; windows clicked in turn stay in the list, moving within it). A child
    /// already in the `moved` list moves there; one that moved since the grid saw it (its
    /// entries are stale) joins it at the next refresh; with the list full, its entries
    /// move to the front (back) of the cells it is in instead. False when the list has no
    /// grid, or one already due for a rebuild: the caller restacks as usual.
    @inline(__always) func restackInGrid(_ i: UInt32, top: Bool) -> Bool {
        // Most lists (a few windows) have no grid: that answer costs no call. Raw records:
        // `i` is a resolved slot and `p` its parent, so a checked subscript cannot fail.
        let n = nodes.base
        let p = n[Int(i)].parent
        guard p != NodeRecord.none else { return false }
        let layer = n[Int(i)].layer
        let g = layer == .above ? n[Int(p)].gridAbove : n[Int(p)].gridBelow
        guard g != NodeRecord.none else { return false }
        return restackInGrid(i, parent: p, layer: layer, grid: g, top: top)
    }

    @inline(never) private func restackInGrid(
        _ i: UInt32, parent p: UInt32, layer: ChildLayer, grid g: UInt32, top: Bool
    ) -> Bool {
        // On the raw records and grid: `i` is live, `p` its parent and `g` the parent's
        // grid, so the checked subscripts' tests (about 30 instructions a click) cannot fail.
        let n = nodes.base
        let k = Int(i)
        let grid = grids.base + Int(g)
        guard !n[Int(p)].gridStale, let rank = grid.pointee.takeRank(top: top) else { return false }
        n[k].gridRank = rank
        if n[k].gridMoved {
            // In the moved list at its old rank: to the end its new rank belongs at.
            grid.pointee.moveMovedToEnd(i, top: top)
        } else if n[k].moved {
            // Moved since the grid saw it, not yet noted: the next refresh puts it in the
            // moved list at its new rank.
            markBoundsDirty(i, selfChanged: false)
        } else if grid.pointee.addMoved(i, n) {
            // Into the moved list at its new rank while there is room: a few entries'
            // shift, where moving its entries to the front of every cell it covers cost
            // about 400 instructions for a window of the desktop's grid, on every click.
            // Its cell entries are skipped from now on (queries merge the list by rank).
            n[k].gridMoved = true
        } else {
            // Its box and position are those its entries were made from.
            grid.pointee.restackEntries((i, n[k].box, n[k].x, n[k].y), top: top)
        }
        relinkAtEnd(i, n, parent: Int(p), layer: layer, top: top)
        sceneChanged(stackingOnly: n[k].kind != .output)
        return true
    }

    /// What `unlink` and `link` at the top (bottom) of the same list do, on the raw records
    /// and without marking the list changed (the grid accounts for the restack): the two
    /// calls and their checked subscripts cost about 110 instructions a click.
    @inline(__always) private func relinkAtEnd(
        _ i: UInt32, _ n: UnsafeMutablePointer<NodeRecord>, parent p: Int,
        layer: ChildLayer, top: Bool
    ) {
        let k = Int(i)
        let none = NodeRecord.none
        let prev = n[k].prev
        let next = n[k].next
        let parent = n + p
        let above = layer == .above
        if top {
            // Already topmost: relinking would give the same links.
            guard next != none else { return }
            if prev != none {
                n[Int(prev)].next = next
            } else if above {
                parent.pointee.firstAbove = next
            } else {
                parent.pointee.firstBelow = next
            }
            n[Int(next)].prev = prev
            let last = above ? parent.pointee.lastAbove : parent.pointee.lastBelow
            n[Int(last)].next = i
            n[k].prev = last
            n[k].next = none
            if above { parent.pointee.lastAbove = i } else { parent.pointee.lastBelow = i }
        } else {
            guard prev != none else { return }
            n[Int(prev)].next = next
            if next != none {
                n[Int(next)].prev = prev
            } else if above {
                parent.pointee.lastAbove = prev
            } else {
                parent.pointee.lastBelow = prev
            }
            let first = above ? parent.pointee.firstAbove : parent.pointee.firstBelow
            n[Int(first)].prev = i
            n[k].next = first
            n[k].prev = none
            if above { parent.pointee.firstAbove = i } else { parent.pointee.firstBelow = i }
        }
    }

    /// Frees both grids of a destroyed node.
    func releaseGrids(of k: Int) {
        if nodes[k].gridAbove != NodeRecord.none { freeGrid(nodes[k].gridAbove) }
        if nodes[k].gridBelow != NodeRecord.none { freeGrid(nodes[k].gridBelow) }
        nodes[k].gridAbove = NodeRecord.none
        nodes[k].gridBelow = NodeRecord.none
    }

    private func freeGrid(_ g: UInt32) {
        grids[Int(g)].deallocate()
        freeGrids.append(g)
    }

    private func setGrid(_ r: inout NodeRecord, _ layer: ChildLayer, _ g: UInt32) {
        if layer == .above { r.gridAbove = g } else { r.gridBelow = g }
    }
}
