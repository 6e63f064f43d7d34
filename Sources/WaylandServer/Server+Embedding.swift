// What a program that embeds the server needs beyond listening on a socket: clients
// handed over as connected fds (a test harness, a sandbox broker), the node behind a
// client's own object id, a window placed where the embedder says, and the list of
// globals offered (to describe the server to a test suite such as WLCS).
import CWaylandServer
import InputRouter

/// One global in the registry, as clients see it.
public struct GlobalDescription: Hashable, Sendable {
    public var interface: String
    public var version: Int32
}

extension WaylandServer {
    /// Serves a client on an already connected socket (one end of a `socketpair`). The
    /// server owns `fd` from now on; libwayland closes it when the client goes.
    public func connectClient(fd: Int32) throws -> ClientID {
        guard let client = wl_client_create(display, fd), let state = clientState(client) else {
            throw ServerError(description: "wl_client_create failed for fd \(fd)")
        }
        return state.id
    }

    /// The tree node of the `wl_surface` that `client` knows as object `surfaceID` (the id
    /// `wl_proxy_get_id` gives on the client's side); nil if there is no such surface or it
    /// has no role that places it in the scene yet.
    public func node(ofSurface surfaceID: UInt32, client: ClientID) -> NodeID? {
        guard let state = self.client(client), state.alive,
            let resource = wl_client_get_object(state.client, surfaceID),
            let surface = WaylandObject.from(resource) as? Surface
        else { return nil }
        return surface.node
    }

    /// Moves the window of the toplevel `node` so that its window geometry's top-left
    /// corner (the surface's, without geometry) lands at (`x`, `y`) in layout space. The
    /// window keeps that place when it first maps. False when `node` is not a toplevel.
    @discardableResult
    public func placeWindow(_ node: NodeID, x: Int32, y: Int32) -> Bool {
        guard let s = surface(for: node), case .xdg(let xdg) = s.role, case .toplevel(let top) = xdg.roleObject,
            let window = top.windowNode
        else { return false }
        let tree = router.tree
        // The window node may be a decoration container: offset by where the surface sits
        // inside it, and by the window geometry inside the surface.
        let surfaceAt = tree.layoutPosition(of: node) ?? .zero, windowAt = tree.layoutPosition(of: window) ?? .zero
        let inside = (x: Int32(surfaceAt.x - windowAt.x), y: Int32(surfaceAt.y - windowAt.y))
        let geometry: (x: Int32, y: Int32) = xdg.geometry.map { ($0.x, $0.y) } ?? (0, 0)
        tree.move(window, to: (x - inside.x - geometry.x, y - inside.y - geometry.y))
        top.placedByEmbedder = true
        replaceReactivePopups(of: xdg)
        sendDeliveries()
        return true
    }

    /// The globals this server offers, in the order they were created.
    public var globals: [GlobalDescription] { offeredGlobals }
}
