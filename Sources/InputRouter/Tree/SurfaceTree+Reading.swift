// Read-only accessors for what a renderer or a debugging tool needs to see of a node: its
// two child lists in z-order and the state that decides how (and whether) it is drawn.

extension SurfaceTree {
    /// Children below the node's own content, bottom to top (the order to paint them).
    public func childrenBelow(of id: NodeID) -> [NodeID] { childList(of: id, layer: .below) }

    /// Children above the node's own content, bottom to top (the order to paint them).
    public func childrenAbove(of id: NodeID) -> [NodeID] { childList(of: id, layer: .above) }

    /// Which of its parent's child lists the node sits in.
    public func layer(of id: NodeID) -> ChildLayer? { resolve(id).map { nodes[Int($0)].layer } }

    /// The node's own opacity (0...1), not multiplied by its ancestors'.
    public func opacity(of id: NodeID) -> Float? { resolve(id).map { nodes[Int($0)].opacity } }

    /// Whether the node clips its children to its bounds (for drawing and for input).
    public func clipsChildren(_ id: NodeID) -> Bool { resolve(id).map { nodes[Int($0)].clipsChildren } ?? false }

    /// Whether the node itself takes input (`setAcceptsInput`); ancestors are not consulted.
    public func acceptsInput(_ id: NodeID) -> Bool { resolve(id).map { nodes[Int($0)].acceptsInput } ?? false }

    /// Whether the node's containment is a custom test rather than bounds and input region.
    public func hasContainmentTest(_ id: NodeID) -> Bool {
        resolve(id).map { nodes[Int($0)].hasContainmentTest } ?? false
    }

    private func childList(of id: NodeID, layer: ChildLayer) -> [NodeID] {
        guard let i = resolve(id) else { return [] }
        var out: [NodeID] = []
        var c = layer == .above ? nodes[Int(i)].firstAbove : nodes[Int(i)].firstBelow
        while c != NodeRecord.none {
            out.append(self.id(ofSlot: c))
            c = nodes[Int(c)].next
        }
        return out
    }
}
