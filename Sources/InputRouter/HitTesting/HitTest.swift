import CPixman

/// The node under a point and the point in that node's coordinates.
public struct Hit: Hashable, Sendable {
    /// The deepest node that took the point.
    public var node: NodeID
    /// The point in `node`'s coordinates (what `wl_pointer.enter` and `motion` carry).
    public var local: Point
}

/// Watches a hit-test as it runs (for debugging and the seeds' example). The default
/// observer does nothing and is specialised away.
public protocol HitTestObserver {
    /// `node`'s own test ran: for a clipping node, the bounds test on entry; for any other
    /// node, its containment test after its upper children declined.
    mutating func tested(_ node: NodeID, inside: Bool)
    /// `node`'s whole subtree was skipped because the point is outside its subtree bounds
    /// (nothing in it could take the point); none of its nodes are tested. Children of a
    /// wide list that its grid rules out are not reported at all.
    mutating func skipped(_ node: NodeID)
}

extension HitTestObserver {
    /// Default: skipped subtrees are not reported.
    public mutating func skipped(_ node: NodeID) {}
}

/// The observer `hitTest(_:)` uses: does nothing, and is specialised away.
public struct NoHitTestObserver: HitTestObserver {
    /// Makes the do-nothing observer; free.
    public init() {}
    /// Ignores the test.
    public mutating func tested(_ node: NodeID, inside: Bool) {}
}

/// Records the order in which nodes were tested, and the subtrees skipped by their bounds.
public struct HitTestLog: HitTestObserver {
    /// Each node's own test, in the order the walk ran them.
    public var steps: [(node: NodeID, inside: Bool)] = []
    /// Subtrees skipped because the point fell outside their bounds.
    public var skipped: [NodeID] = []
    /// An empty log. Recording allocates: for debugging and tests, not per event.
    public init() {}
    /// Appends the test to `steps`.
    public mutating func tested(_ node: NodeID, inside: Bool) { steps.append((node, inside)) }
    /// Appends the skipped subtree to `skipped`.
    public mutating func skipped(_ node: NodeID) { skipped.append(node) }
}

extension SurfaceTree {
    /// UIKit's `hitTest(_:with:)` for a compositor: the deepest node that accepts `point`
    /// (layout space). Children are tried last (topmost) to first; the node's own content
    /// sits between its `below` and `above` children. Unmapped, input-refusing and nearly
    /// transparent nodes are skipped with their subtrees; a point outside a clipping node's
    /// bounds skips its subtree. So does a point outside a subtree's bounds, and wide child
    /// lists are searched through their grid: the answer is the same, found sooner.
    public func hitTest(_ point: Point) -> Hit? {
        // While the scene stands still: the flat index (HitIndex.swift), one cell's
        // rectangles instead of a walk down the tree.
        if hitIndex.generation == generation || prepareHitIndex() {
            // The same point as the last answer kept, after a raise the index follows
            // (HitIndex+Raises.swift): the release's re-pick after a click's raise.
            if hitIndex.raisedCount != 0 && lastWalk.generation == generation && lastWalk.point == point {
                return lastWalk.hit
            }
            let x = point.x
            let y = point.y
            // floor(point) in 32 bits without calling floor; points beyond (and NaN) walk.
            if x >= -2_147_483_648 && x < 2_147_483_647 && y >= -2_147_483_648 && y < 2_147_483_647 {
                var ix = Int32(x)
                var iy = Int32(y)
                if Double(ix) > x { ix &-= 1 }
                if Double(iy) > y { iy &-= 1 }
                let dx = UInt32(bitPattern: ix &- hitIndex.x0)
                let dy = UInt32(bitPattern: iy &- hitIndex.y0)
                if dx < hitIndex.width && dy < hitIndex.height {
                    let cell =
                        HitIndex.bucket(dx, hitIndex.multX) &+ HitIndex.bucket(dy, hitIndex.multY) &* hitIndex.cols
                    let cells = hitIndex.cells
                    let candidates = hitIndex.candidates
                    var e = Int(cells[cell])
                    let end = Int(cells[cell &+ 1])
                    while e < end {
                        let c = candidates + Int(cells[e])
                        // Both edges of both axes in two unsigned comparisons.
                        if UInt32(bitPattern: ix &- c.pointee.x0) < c.pointee.width
                            && UInt32(bitPattern: iy &- c.pointee.y0) < c.pointee.height
                        {
                            let local = Point(x - Double(c.pointee.originX), y - Double(c.pointee.originY))
                            if c.pointee.test == .solid || indexedContains(c, local, ix, iy) {
                                let hit = Hit(
                                    node: NodeID(index: c.pointee.slot, generation: c.pointee.generation), local: local)
                                // Raised nodes since the build may now cover it (HitIndex+Raises.swift).
                                return hitIndex.raisedCount == 0 ? hit : followRaises(hit, Int(cells[e]), point, ix, iy)
                            }
                        }
                        e &+= 1
                    }
                    return nil
                }
                if !hitIndex.unbounded { return nil }
            }
        }
        // The same point as the last walk, nothing changed since (or a raise that keeps
        // it, WalkedHit.swift): the release's re-pick after a click's raise.
        if lastWalk.generation == generation && lastWalk.point == point { return lastWalk.hit }
        var observer = NoHitTestObserver()
        let runs = containmentTestsRun
        let hit = hitTest(point, observer: &observer)
        // Not kept when a custom containment test ran: it may answer otherwise next time.
        // One that did not run for this point was above it and out of reach, or below the
        // hit (a raise that keeps the hit leaves what was below it below).
        if containmentTestsRun == runs { lastWalk = WalkedHit(generation: generation, point: point, hit: hit) }
        return hit
    }

    /// `hitTest(_:)` with an observer told each test and skip, to see why a point went where it
    /// did. Slower: every child is shown to the observer instead of being skipped inline.
    /// Always the tree walk, never the flat index (with `NoHitTestObserver`, the walk alone).
    public func hitTest<O: HitTestObserver>(_ point: Point, observer: inout O) -> Hit? {
        refreshBounds()
        // One unchecked walk over the tree's own record memory: no reference counting, no
        // exclusivity checks, no copies of whole records. `walking` makes any change to the
        // tree during the walk (from a containment test) trap instead of freeing what the
        // walk reads.
        // Saved and restored: a containment test may itself hit-test (reading is allowed).
        let outer = walking
        walking = true
        defer { walking = outer }
        var walk = HitWalk(
            nodes: UnsafePointer(nodes.base), grids: UnsafePointer(grids.base), tree: self,
            threshold: opacityThreshold, observer: observer)
        defer { observer = walk.observer }
        return walk.children(of: 0, point, layer: .above)
    }

    /// Containment of the node's own content: its custom test if it has one, else its
    /// bounds and its input region (clipped to the bounds), with the floor rule.
    func containsSelf(_ slot: UInt32, _ local: Point) -> Bool {
        containmentTestsRun &+= 1 // WalkedHit.swift
        return containmentTests[Int(slot)]?(local) ?? false
    }

    /// The point in `id`'s coordinates, whether or not it is inside it.
    public func localPoint(_ point: Point, in id: NodeID) -> Point? {
        guard let i = resolve(id) else { return nil }
        let o = layoutOrigin(i)
        return Point(point.x - o.x, point.y - o.y)
    }
}

/// The recursive part of a hit-test, over the tree's node buffer.
struct HitWalk<O: HitTestObserver> {
    let nodes: UnsafePointer<NodeRecord>
    let grids: UnsafePointer<ChildGrid>
    let tree: SurfaceTree
    let threshold: Float
    var observer: O

    func id(_ slot: UInt32) -> NodeID { NodeID(index: slot, generation: nodes[Int(slot)].generation) }

    mutating func node(_ slot: UInt32, _ parentLocal: Point) -> Hit? {
        let r = nodes + Int(slot)
        if !r.pointee.mapped || !r.pointee.acceptsInput || r.pointee.opacity < threshold { return nil }
        let local = Point(parentLocal.x - Double(r.pointee.x), parentLocal.y - Double(r.pointee.y))
        // floor(x) >= 0 ⟺ x >= 0 and floor(x) < w ⟺ x < w for integer w: the floor rule
        // without calling floor.
        let inBounds =
            local.x >= 0 && local.y >= 0 && local.x < Double(r.pointee.width) && local.y < Double(r.pointee.height)
        let clips = r.pointee.clipsChildren
        if clips {
            observer.tested(id(slot), inside: inBounds)
            if !inBounds { return nil }
        }
        if !r.pointee.box.contains(local) {
            observer.skipped(id(slot))
            return nil
        }
        if r.pointee.lastAbove != NodeRecord.none, let hit = children(of: slot, local, layer: .above) { return hit }
        let inside: Bool
        if r.pointee.hasContainmentTest {
            inside = tree.containsSelf(slot, local)
        } else if !inBounds {
            inside = false
        } else if let region = r.pointee.inputRegion {
            let fx = Int32(local.x.rounded(.down))
            let fy = Int32(local.y.rounded(.down))
            inside = pixman_region32_contains_point(region, fx, fy, nil) != 0
        } else {
            inside = true
        }
        if !clips { observer.tested(id(slot), inside: inside) }
        if inside { return Hit(node: id(slot), local: local) }
        if r.pointee.lastBelow != NodeRecord.none { return children(of: slot, local, layer: .below) }
        return nil
    }

    mutating func children(of slot: UInt32, _ local: Point, layer: ChildLayer) -> Hit? {
        let r = nodes + Int(slot)
        let g = layer == .above ? r.pointee.gridAbove : r.pointee.gridBelow
        // By address: a copy of the grid would be 120 bytes per wide list visited.
        if g != NodeRecord.none { return gridChildren(grids + Int(g), local) }
        var c = layer == .above ? r.pointee.lastAbove : r.pointee.lastBelow
        while c != NodeRecord.none {
            let child = nodes + Int(c)
            // The bounds check inline, before the call: most siblings miss. An observer is
            // shown every child, so it can see the skipped ones (`node` checks again).
            let p = Point(local.x - Double(child.pointee.x), local.y - Double(child.pointee.y))
            if child.pointee.box.contains(p) || O.self != NoHitTestObserver.self, let hit = node(c, local) {
                return hit
            }
            c = child.pointee.prev
        }
        return nil
    }

    /// The children overlapping the point's cell merged, by z-rank, with those that moved
    /// since the grid was built (whose cell entries are stale and skipped): topmost first.
    mutating func gridChildren(_ g: UnsafePointer<ChildGrid>, _ local: Point) -> Hit? {
        let grid = g.pointee
        let cell = grid.entries(at: local)
        var e = cell.lowerBound
        let base = nodes
        if grid.movedCount == 0 {
            // Nothing moved since the build (the usual state): no entry is stale and there
            // is nothing to merge, only the cell's children in order.
            while e < cell.upperBound {
                let slot = grid.storage[e]
                e &+= 1
                let child = base + Int(slot)
                let p = Point(local.x - Double(child.pointee.x), local.y - Double(child.pointee.y))
                if child.pointee.box.contains(p) || O.self != NoHitTestObserver.self, let hit = node(slot, local) {
                    return hit
                }
            }
            return nil
        }
        var m = grid.movedStart
        let movedEnd = grid.movedStart + grid.movedCount
        while true {
            var slot: UInt32
            if e < cell.upperBound {
                slot = grid.storage[e]
                if base[Int(slot)].gridMoved {
                    e += 1
                    continue
                }
                if m < movedEnd && base[Int(grid.storage[m])].gridRank < base[Int(slot)].gridRank {
                    slot = grid.storage[m]
                    m += 1
                } else {
                    e += 1
                }
            } else if m < movedEnd {
                slot = grid.storage[m]
                m += 1
            } else {
                return nil
            }
            // As in `children(of:)`: the bounds check inline, before the call.
            let child = base + Int(slot)
            let p = Point(local.x - Double(child.pointee.x), local.y - Double(child.pointee.y))
            if child.pointee.box.contains(p) || O.self != NoHitTestObserver.self, let hit = node(slot, local) {
                return hit
            }
        }
    }
}
