import CPixman

/// The node under a point and the point in that node's coordinates.
public struct Hit: Hashable, Sendable {
    public var node: NodeID
    public var local: Point
}

/// Watches a hit-test as it runs (for debugging and the seeds' example). The default
/// observer does nothing and is specialised away.
public protocol HitTestObserver {
    /// `node`'s own test ran: for a clipping node, the bounds test on entry; for any other
    /// node, its containment test after its upper children declined.
    mutating func tested(_ node: NodeID, inside: Bool)
}

public struct NoHitTestObserver: HitTestObserver {
    public init() {}
    public mutating func tested(_ node: NodeID, inside: Bool) {}
}

/// Records the order in which nodes were tested.
public struct HitTestLog: HitTestObserver {
    public var steps: [(node: NodeID, inside: Bool)] = []
    public init() {}
    public mutating func tested(_ node: NodeID, inside: Bool) { steps.append((node, inside)) }
}

extension SurfaceTree {
    /// UIKit's `hitTest(_:with:)` for a compositor: the deepest node that accepts `point`
    /// (layout space). Children are tried last (topmost) to first; the node's own content
    /// sits between its `below` and `above` children. Unmapped, input-refusing and nearly
    /// transparent nodes are skipped with their subtrees; a point outside a clipping node's
    /// bounds skips its subtree.
    public func hitTest(_ point: Point) -> Hit? {
        var observer = NoHitTestObserver()
        return hitTest(point, observer: &observer)
    }

    public func hitTest<O: HitTestObserver>(_ point: Point, observer: inout O) -> Hit? {
        hitTestChildren(of: 0, point, observer: &observer, layer: .above)
    }

    /// Containment of the node's own content: its custom test if it has one, else its
    /// bounds and its input region (clipped to the bounds), with the floor rule.
    func contains(_ slot: UInt32, _ r: NodeRecord, _ local: Point, inBounds: Bool) -> Bool {
        if r.hasContainmentTest, let test = containmentTests[Int(slot)] { return test(local) }
        guard inBounds else { return false }
        guard let region = r.inputRegion else { return true }
        return pixman_region32_contains_point(region, Int32(local.x.rounded(.down)), Int32(local.y.rounded(.down)), nil) != 0
    }

    /// Whether `local` is in the node's 0,0 width×height box, with the floor rule.
    static func inBounds(_ r: NodeRecord, _ local: Point) -> Bool {
        let fx = local.x.rounded(.down), fy = local.y.rounded(.down)
        return fx >= 0 && fy >= 0 && fx < Double(r.width) && fy < Double(r.height)
    }

    func hitTestNode<O: HitTestObserver>(_ slot: UInt32, _ parentLocal: Point, observer: inout O) -> Hit? {
        let r = nodes[Int(slot)]
        if !r.mapped || !r.acceptsInput || r.opacity < opacityThreshold { return nil }
        let local = Point(parentLocal.x - Double(r.x), parentLocal.y - Double(r.y))
        let inBounds = Self.inBounds(r, local)
        if r.clipsChildren {
            observer.tested(id(ofSlot: slot), inside: inBounds)
            if !inBounds { return nil }
        }
        if let hit = hitTestChildren(of: slot, local, observer: &observer, layer: .above) { return hit }
        let inside = contains(slot, r, local, inBounds: inBounds)
        if !r.clipsChildren { observer.tested(id(ofSlot: slot), inside: inside) }
        if inside { return Hit(node: id(ofSlot: slot), local: local) }
        return hitTestChildren(of: slot, local, observer: &observer, layer: .below)
    }

    func hitTestChildren<O: HitTestObserver>(
        of slot: UInt32, _ local: Point, observer: inout O, layer: ChildLayer
    ) -> Hit? {
        var c = layer == .above ? nodes[Int(slot)].lastAbove : nodes[Int(slot)].lastBelow
        while c != NodeRecord.none {
            if let hit = hitTestNode(c, local, observer: &observer) { return hit }
            c = nodes[Int(c)].prev
        }
        return nil
    }

    /// The point in `id`'s coordinates, whether or not it is inside it.
    public func localPoint(_ point: Point, in id: NodeID) -> Point? {
        guard let i = resolve(id) else { return nil }
        let o = layoutOrigin(i)
        return Point(point.x - o.x, point.y - o.y)
    }
}
