// A deliberately naive reference for hit-testing and the responder chain: the oracle the
// invariant checker judges deliveries with, and that the differential test holds against
// its own model. It shares nothing with the optimised walk (HitTest.swift, SubtreeBounds,
// ChildGrid): no subtree boxes, no grids, no early exits, no pixman point test. It reads
// the raw records and is slow on purpose (O(nodes × depth) per point); never route with it.

extension SurfaceTree {
    /// Every node in paint order, bottom to top; the topmost one whose whole ancestry lets
    /// `point` (layout space) through and whose own test accepts it wins.
    public func referenceHitTest(_ point: Point) -> NodeID? {
        var order: [UInt32] = []
        appendPaintOrder(of: 0, into: &order)
        for slot in order.reversed()
        where slot != 0 && referenceLetsThrough(slot, point) && referenceContains(slot, point) {
            return id(ofSlot: slot)
        }
        return nil
    }

    private func appendPaintOrder(of slot: UInt32, into order: inout [UInt32]) {
        var c = nodes[Int(slot)].firstBelow
        while c != NodeRecord.none {
            appendPaintOrder(of: c, into: &order)
            c = nodes[Int(c)].next
        }
        order.append(slot)
        c = nodes[Int(slot)].firstAbove
        while c != NodeRecord.none {
            appendPaintOrder(of: c, into: &order)
            c = nodes[Int(c)].next
        }
    }

    /// The point in the slot's coordinates, by summing positions up to the root.
    private func referenceLocal(_ slot: UInt32, _ p: Point) -> Point {
        var x = p.x
        var y = p.y
        var i = slot
        while i != 0 && i != NodeRecord.none {
            x -= Double(nodes[Int(i)].x)
            y -= Double(nodes[Int(i)].y)
            i = nodes[Int(i)].parent
        }
        return Point(x, y)
    }

    private func referenceInBounds(_ slot: UInt32, _ p: Point) -> Bool {
        let l = referenceLocal(slot, p)
        let fx = l.x.rounded(.down)
        let fy = l.y.rounded(.down)
        let r = nodes[Int(slot)]
        return fx >= 0 && fy >= 0 && fx < Double(r.width) && fy < Double(r.height)
    }

    /// The node and each ancestor are mapped, take input and are opaque enough; each that
    /// clips (itself included) has the point inside its bounds.
    private func referenceLetsThrough(_ slot: UInt32, _ p: Point) -> Bool {
        var i = slot
        while i != 0 {
            guard i != NodeRecord.none else { return false } // detached
            let r = nodes[Int(i)]
            if !r.mapped || !r.acceptsInput || r.opacity < opacityThreshold { return false }
            if r.clipsChildren && !referenceInBounds(i, p) { return false }
            i = r.parent
        }
        return true
    }

    /// The node's own test: its custom test alone if it has one; else its bounds and its
    /// input region's rectangles, compared one by one.
    private func referenceContains(_ slot: UInt32, _ p: Point) -> Bool {
        let l = referenceLocal(slot, p)
        if let test = containmentTests[Int(slot)] { return test(l) }
        guard referenceInBounds(slot, p) else { return false }
        guard let region = inputRegions[Int(slot)] else { return true }
        let px = l.x.rounded(.down)
        let py = l.y.rounded(.down)
        return region.rects.contains { r in
            px >= Double(r.x) && py >= Double(r.y) && px < Double(r.x) + Double(r.width)
                && py < Double(r.y) + Double(r.height)
        }
    }
}

extension Router {
    /// The responder chain as the design states it, from the tree's public state: an alive
    /// next-responder override; else, for a client surface, its parent while that is a
    /// surface of the same client, then the client responder; for a compositor node, its
    /// parent up to the seat. Ends at the seat or after `maxChainLength` steps.
    public func referenceResponderChain(from first: Responder, seat: SeatID) -> [Responder] {
        var out: [Responder] = []
        var cur: Responder? = first
        while let r = cur, out.count < Router.maxChainLength {
            out.append(r)
            switch r {
            case .node(let n):
                guard let client = tree.client(of: n) else {
                    cur = nil
                    break
                }
                if let o = tree.nextResponderOverride(of: n) {
                    cur = .node(o)
                } else if let p = tree.parent(of: n) {
                    if client.isCompositor {
                        cur = .node(p)
                    } else {
                        cur = tree.kind(of: p) != .output && tree.client(of: p) == client ? .node(p) : .client(client)
                    }
                } else {
                    cur = client.isCompositor ? .seat(seat) : .client(client)
                }
            case .client:
                cur = .seat(seat)
            case .seat:
                cur = nil
            }
        }
        return out
    }
}
