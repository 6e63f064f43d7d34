// Who owns a node, as a choice the compiler makes the caller handle: a client's surface
// or one of the compositor's own nodes (outputs, decorations, a desktop). `client(of:)`
// answers `ClientID.compositor` for the latter, a value an "is this a client window?"
// check must remember to compare against.

/// The owner of a node (`SurfaceTree.owner(of:)`).
public enum NodeOwner: Hashable, Sendable {
    /// A client's node: one of its surfaces.
    case client(ClientID)
    /// A node of the compositor's.
    case compositor
}

extension SurfaceTree {
    /// Who owns `id`; nil for a dead id. O(1).
    public func owner(of id: NodeID) -> NodeOwner? {
        guard let c = client(of: id) else { return nil }
        return c.isCompositor ? .compositor : .client(c)
    }
}
