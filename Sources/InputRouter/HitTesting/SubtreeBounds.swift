// Subtree bounds: every node keeps, in its own coordinates, a box outside which nothing in
// its subtree can be hit. Hit-testing skips a subtree whose box misses the point, so it
// visits the few subtrees under the point instead of every node (wlr_scene walks all).
//
// Boxes are refreshed lazily: a change marks its node dirty up to the root (stopping at an
// ancestor that already is), and the next hit-test recomputes only dirty nodes.
// Invariants: a dirty node's ancestors are all dirty, and a dirty node is either in its
// parent's list of dirty children or its parent is `selfDirty` (recomputed from all its
// children). A node with a child grid (a wide list) is refreshed from its dirty children
// only: its box grows by their new placements (it may stay larger than needed, never
// smaller) and they go to the grid's `moved` list, until that fills and the node is
// recomputed whole. So moving one of 20,000 siblings costs O(depth), not O(20,000).

/// A conservative box in a node's coordinates: `min` inclusive, `max` exclusive, matching
/// the floor rule for integer edges. Float keeps records small; values are rounded
/// outwards, so the box never excludes a point its exact (Double) box contains.
struct Box: Equatable {
    var minX = Float.infinity, minY = Float.infinity
    var maxX = -Float.infinity, maxY = -Float.infinity

    static let empty = Box()
    static let infinite = Box(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)

    init() {}
    init(minX: Float, minY: Float, maxX: Float, maxY: Float) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }
    /// `0..<width × 0..<height` (empty for a non-positive size).
    init(width: Int32, height: Int32) {
        if width > 0 && height > 0 {
            self.init(minX: 0, minY: 0, maxX: Float.up(Double(width)), maxY: Float.up(Double(height)))
        } else {
            self.init()
        }
    }

    var isEmpty: Bool { !(minX < maxX && minY < maxY) }

    @inline(__always) func contains(_ p: Point) -> Bool {
        p.x >= Double(minX) && p.x < Double(maxX) && p.y >= Double(minY) && p.y < Double(maxY)
    }

    /// Adds `other` shifted by (dx, dy): a child's box seen from its parent.
    mutating func formUnion(_ other: Box, dx: Int32, dy: Int32) {
        guard !other.isEmpty else { return }
        minX = min(minX, Float.down(Double(other.minX) + Double(dx)))
        minY = min(minY, Float.down(Double(other.minY) + Double(dy)))
        maxX = max(maxX, Float.up(Double(other.maxX) + Double(dx)))
        maxY = max(maxY, Float.up(Double(other.maxY) + Double(dy)))
    }

    mutating func formIntersection(_ other: Box) {
        minX = max(minX, other.minX)
        minY = max(minY, other.minY)
        maxX = min(maxX, other.maxX)
        maxY = min(maxY, other.maxY)
        if isEmpty { self = .empty }
    }
}

extension Float {
    /// The largest Float not above `d` / the smallest not below it.
    static func down(_ d: Double) -> Float {
        let f = Float(d)
        return Double(f) > d ? f.nextDown : f
    }
    static func up(_ d: Double) -> Float {
        let f = Float(d)
        return Double(f) < d ? f.nextUp : f
    }
}

extension SurfaceTree {
    /// Marks `slot` (itself changed unless `selfChanged` is false: it only moved) and its
    /// ancestors dirty, stopping at the first already dirty one; each newly dirty node
    /// joins its parent's list of dirty children.
    func markBoundsDirty(_ slot: UInt32, selfChanged: Bool = true) {
        if selfChanged { nodes[Int(slot)].selfDirty = true }
        var i = slot
        while i != NodeRecord.none && !nodes[Int(i)].boundsDirty {
            nodes[Int(i)].boundsDirty = true
            let p = nodes[Int(i)].parent
            if p != NodeRecord.none {
                nodes[Int(i)].nextDirty = nodes[Int(p)].firstDirty
                nodes[Int(p)].firstDirty = i
            }
            i = p
        }
    }

    /// A child was added, removed or restacked: the parent is recomputed from all its
    /// children and its grids rebuilt.
    func childrenChanged(_ parent: UInt32) {
        guard parent != NodeRecord.none else { return }
        nodes[Int(parent)].gridStale = true
        markBoundsDirty(parent)
    }

    /// Brings every box (and child grid) up to date; called by hit-testing. Works on the
    /// raw node storage: a full recompute of a wide list means tens of thousands of record
    /// reads, each of which would otherwise pay an exclusivity check. Nothing below may
    /// touch `self.nodes`.
    func refreshBounds() {
        guard nodes[0].boundsDirty else { return }
        refreshBounds(0, nodes.base)
    }

    private func refreshBounds(_ i: UInt32, _ n: UnsafeMutablePointer<NodeRecord>) {
        let k = Int(i)
        let r = n[k]
        let live = i == 0 || (r.mapped && r.acceptsInput && r.opacity >= opacityThreshold)
        let hasGrid = r.gridAbove != NodeRecord.none || r.gridBelow != NodeRecord.none
        if !r.selfDirty && hasGrid && refreshFromDirtyChildren(k, n, live: live) { return }
        var box = Box.empty
        if live && i != 0 { box = ownContentBox(r, inputRegions[k]) }
        // Every child, refreshing the dirty ones (even under a hidden node, to keep the
        // invariants strict).
        var gridFull = false
        let below = refreshChildren(from: r.firstBelow, parent: k, n, into: &box, gridFull: &gridFull)
        let above = refreshChildren(from: r.firstAbove, parent: k, n, into: &box, gridFull: &gridFull)
        if r.clipsChildren && i != 0 { box.formIntersection(Box(width: r.width, height: r.height)) }
        if !live { box = .empty }
        let rebuild = n[k].gridStale || gridFull
        n[k].box = box
        n[k].boundsDirty = false
        n[k].selfDirty = false
        n[k].gridStale = false
        n[k].firstDirty = NodeRecord.none
        updateGrid(i, n, layer: .above, count: live ? above : 0, rebuild: rebuild)
        updateGrid(i, n, layer: .below, count: live ? below : 0, rebuild: rebuild)
    }

    /// The incremental refresh of a node with a grid whose own state did not change: only
    /// its dirty children. False (after refreshing them) when a grid's `moved` list is full:
    /// the caller then recomputes the node whole and rebuilds its grids.
    private func refreshFromDirtyChildren(_ k: Int, _ n: UnsafeMutablePointer<NodeRecord>, live: Bool) -> Bool {
        var box = n[k].box
        var fits = true
        var c = n[k].firstDirty
        n[k].firstDirty = NodeRecord.none
        while c != NodeRecord.none {
            let child = n + Int(c)
            let next = child.pointee.nextDirty
            if child.pointee.boundsDirty {
                let old = child.pointee.box
                refreshBounds(c, n)
                if child.pointee.box != old { child.pointee.moved = true }
            }
            if child.pointee.moved {
                child.pointee.moved = false
                box.formUnion(child.pointee.box, dx: child.pointee.x, dy: child.pointee.y)
                fits = fits && noteMoved(c, parent: k, n)
            }
            c = next
        }
        guard fits else {
            n[k].gridStale = true
            return false
        }
        let r = n[k]
        if r.clipsChildren && k != 0 { box.formIntersection(Box(width: r.width, height: r.height)) }
        n[k].box = live ? box : .empty
        n[k].boundsDirty = false
        return true
    }

    /// Puts a child whose placement changed in its parent's grid's `moved` list (nothing to
    /// do without a grid). False when that list is full.
    private func noteMoved(_ c: UInt32, parent k: Int, _ n: UnsafeMutablePointer<NodeRecord>) -> Bool {
        let g = n[Int(c)].layer == .above ? n[k].gridAbove : n[k].gridBelow
        guard g != NodeRecord.none, !n[Int(c)].gridMoved else { return true }
        guard grids[Int(g)].addMoved(c, n) else { return false }
        n[Int(c)].gridMoved = true
        return true
    }

    /// Where the node's own content can take input: its bounds, narrowed to the input
    /// region's extents; anywhere for a custom test (it may accept points outside the
    /// bounds), unless the node clips.
    private func ownContentBox(_ r: NodeRecord, _ region: Region?) -> Box {
        let bounds = Box(width: r.width, height: r.height)
        if r.hasContainmentTest { return r.clipsChildren ? bounds : .infinite }
        guard let region else { return bounds }
        if region.isEmpty { return .empty }
        let e = region.extents
        var box = Box(
            minX: Float.down(Double(e.x)), minY: Float.down(Double(e.y)),
            maxX: Float.up(Double(e.x) + Double(e.width)), maxY: Float.up(Double(e.y) + Double(e.height)))
        box.formIntersection(bounds)
        return box
    }

    /// Refreshes one child list and adds its boxes to `box`; children whose placement
    /// changed go to the grid's `moved` list (`gridFull` when it overflows). Returns the
    /// list's length.
    private func refreshChildren(
        from first: UInt32, parent k: Int, _ n: UnsafeMutablePointer<NodeRecord>,
        into box: inout Box, gridFull: inout Bool
    ) -> Int {
        var count = 0
        var c = first
        let stale = n[k].gridStale
        while c != NodeRecord.none {
            let child = n + Int(c)
            if child.pointee.boundsDirty {
                let old = child.pointee.box
                refreshBounds(c, n)
                if child.pointee.box != old { child.pointee.moved = true }
            }
            if child.pointee.moved {
                child.pointee.moved = false
                if !stale && !gridFull { gridFull = !noteMoved(c, parent: k, n) }
            }
            box.formUnion(child.pointee.box, dx: child.pointee.x, dy: child.pointee.y)
            count += 1
            c = child.pointee.next
        }
        return count
    }
}
