// `wl_subcompositor` and `wl_subsurface`: a surface placed relative to its parent, above
// or below it. Position and stacking are the parent's state (applied on its commit).
import CWaylandServer
import InputRouter

final class SubcompositorObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: WlSubcompositorRequest = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource()
        case .getSubsurface(let id, let surface, let parent): // get_subsurface(id, surface, parent)
            guard let surface = surface.object(as: Surface.self), let parent = parent.object(as: Surface.self) else {
                return
            }
            guard case .none = surface.role else {
                return postError(
                    WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE.rawValue,
                    "wl_surface@\(wl_resource_get_id(surface.resource)) already has the role \(surface.roleName)")
            }
            if parent === surface || parent.isDescendant(of: surface) {
                return postError(
                    WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE.rawValue,
                    "wl_surface@\(wl_resource_get_id(parent.resource)) is wl_surface@\(wl_resource_get_id(surface.resource)) or its descendant"
                )
            }
            guard
                let sub = server.createObject(
                    .wlSubsurface, client: owner, version: 1, id: id,
                    {
                        SubsurfaceObject(server: server, owner: owner, resource: $0, surface: surface, parent: parent)
                    })
            else { return }
            surface.role = .subsurface(sub)
            parent.children.append(sub)
            if parent.node != nil { sub.createNode() }
        }
    }
}

extension Surface {
    /// Whether `ancestor` is this surface's parent, grandparent... through subsurfaces.
    func isDescendant(of ancestor: Surface) -> Bool {
        var s: Surface? = self
        while case .subsurface(let sub)? = s?.role {
            guard let p = sub.parent else { return false }
            if p === ancestor { return true }
            s = p
        }
        return false
    }
}

final class SubsurfaceObject: WaylandObject {
    let surface: Surface
    weak var parent: Surface?
    var synchronized = true
    var position: (x: Int32, y: Int32) = (0, 0)
    var pendingPosition: (x: Int32, y: Int32)?

    init(server: WaylandServer, owner: ClientState, resource: ResourcePointer, surface: Surface, parent: Surface) {
        self.surface = surface
        self.parent = parent
        super.init(server: server, owner: owner, resource: resource)
    }

    /// Synchronized itself, or below a synchronized ancestor (the protocol's rule).
    var isEffectivelySynchronized: Bool {
        if synchronized { return true }
        if case .subsurface(let up)? = parent?.role { return up.isEffectivelySynchronized }
        return false
    }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: WlSubsurfaceRequest = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource()
        case .setPosition(let x, let y): pendingPosition = (x, y) // set_position
        case .placeAbove(let sibling), .placeBelow(let sibling): // place_above / place_below (sibling)
            guard let sibling = sibling.object(as: Surface.self), let parent else { return }
            let isSibling = sibling === parent || parent.children.contains { $0.surface === sibling && $0 !== self }
            guard isSibling else {
                return postError(
                    WL_SUBSURFACE_ERROR_BAD_SURFACE.rawValue,
                    "wl_surface@\(wl_resource_get_id(sibling.resource)) is neither the parent nor a sibling")
            }
            let above = if case .placeAbove = request { true } else { false }
            parent.pendingRestacks.append((self, above, sibling))
        case .setSync: synchronized = true
        case .setDesync: // set_desync: a held commit is applied now
            synchronized = false
            if !isEffectivelySynchronized, let held = surface.cached {
                surface.cached = nil
                surface.apply(held)
            }
        }
    }

    func createNode() {
        guard let parentNode = parent?.node, surface.node == nil else { return }
        let node = server.router.tree.createNode(
            .subsurface, client: owner.id, parent: parentNode,
            frame: Rect(position.x, position.y, 0, 0))
        surface.attachNode(node)
        surface.updateNode()
    }

    func applyPendingPosition() {
        guard let p = pendingPosition else { return }
        pendingPosition = nil
        position = p
        if let node = surface.node { server.router.tree.move(node, to: p) }
    }

    func applyRestack(above: Bool, sibling: Surface) {
        guard let node = surface.node, let other = sibling.node else { return }
        if above { server.router.tree.place(node, above: other) } else { server.router.tree.place(node, below: other) }
    }

    /// The wl_subsurface object went away: the surface leaves the scene and loses its role.
    override func resourceDestroyed() {
        parent?.children.removeAll { $0 === self }
        parent?.pendingRestacks.removeAll { $0.child === self }
        if case .subsurface(let s) = surface.role, s === self {
            surface.role = .none
            surface.destroyNode()
        }
    }

    func surfaceDestroyed() {
        parent?.children.removeAll { $0 === self }
    }

    func parentDestroyed() {
        parent = nil
        if let node = surface.node { server.router.tree.detach(node) }
    }
}
