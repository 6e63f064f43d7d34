// What a program that embeds the server needs beyond listening on a socket: clients
// handed over as connected fds (a test harness, a sandbox broker), the node behind a
// `wl_surface` (by resource or by the client's own object id) and back, a client's bound
// devices, windows placed and stacked where the embedder says, and the list of globals
// offered (to describe the server to a test suite such as WLCS). None of these is on the
// routing hot path; each costs an array index or a short walk up the tree unless it says.
import CWaylandServer
import InputRouter

/// The device objects one client bound on one seat: every `wl_pointer`, `wl_keyboard` and
/// `wl_touch` resource it holds, in the order it created them (a client may bind several).
/// Deliveries go to all of them; an embedder sends its own events (a custom cursor
/// protocol's leave, say) to the same resources.
public struct BoundDeviceResources {
    /// Its `wl_pointer` resources.
    public var pointers: [UnsafeMutablePointer<wl_resource>]
    /// Its `wl_keyboard` resources.
    public var keyboards: [UnsafeMutablePointer<wl_resource>]
    /// Its `wl_touch` resources.
    public var touches: [UnsafeMutablePointer<wl_resource>]
    /// Which kinds it holds at least one of, as the core's responder chain sees them.
    public var devices: BoundDevices {
        var d: BoundDevices = []
        if !pointers.isEmpty { d.insert(.pointer) }
        if !keyboards.isEmpty { d.insert(.keyboard) }
        if !touches.isEmpty { d.insert(.touch) }
        return d
    }
}

/// One global in the registry, as clients see it.
public struct GlobalDescription: Hashable, Sendable {
    /// The interface name, e.g. `wl_seat`.
    public var interface: String
    /// The highest version offered.
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
    /// window keeps that place when it first maps. Its reactive popups are placed again,
    /// as after any move (SceneChanges.swift). A layer surface (`zwlr_layer_surface_v1`)
    /// moves its top-left corner there and stays, its layer arrangement then only sizing it.
    /// False when `node` is neither.
    @discardableResult
    public func placeWindow(_ node: NodeID, x: Int32, y: Int32) -> Bool {
        if let s = surface(for: node), case .layer(let layer) = s.role { return layer.placeByEmbedder(x: x, y: y) }
        guard let s = surface(for: node), case .xdg(let xdg) = s.role, case .toplevel(let top) = xdg.roleObject,
            let window = top.windowNode
        else { return false }
        let tree = router.tree
        // The window node may be a decoration container: offset by where the surface sits
        // inside it, and by the window geometry inside the surface.
        let surfaceAt = tree.layoutPosition(of: node) ?? .zero
        let windowAt = tree.layoutPosition(of: window) ?? .zero
        let inside = (x: Int32(surfaceAt.x - windowAt.x), y: Int32(surfaceAt.y - windowAt.y))
        let geometry: (x: Int32, y: Int32) = xdg.geometry.map { ($0.x, $0.y) } ?? (0, 0)
        tree.move(window, to: (x - inside.x - geometry.x, y - inside.y - geometry.y))
        top.placedByEmbedder = true
        sendDeliveries()
        return true
    }

    /// The globals this server offers, in the order they were created.
    public var globals: [GlobalDescription] { offeredGlobals }

    // MARK: Surfaces and nodes

    /// The tree node of a `wl_surface` resource (one the embedder got from its own protocol
    /// object's request, or from `bufferCommitted`); nil if it is not a wl_surface of this
    /// server or it has no role that places it in the scene yet.
    public func node(ofSurfaceResource resource: UnsafeMutablePointer<wl_resource>) -> NodeID? {
        (WaylandObject.from(resource) as? Surface)?.node
    }

    /// The `wl_surface` resource behind a client surface's node; nil for compositor nodes
    /// and destroyed surfaces. An array index: cheap enough for a renderer's every node.
    public func surfaceResource(of node: NodeID) -> UnsafeMutablePointer<wl_resource>? {
        surface(for: node)?.resource
    }

    /// The cursor the client with the first seat's pointer focus chose there: a surface
    /// (`wl_pointer.set_cursor`), hidden, or a named shape (cursor-shape-v1); nil when that
    /// client chose none (the compositor draws its own). A surface's pixels are the
    /// renderer's to keep (`bufferCommitted`; Rendering's `SurfacePixels`).
    public var clientCursor: ClientCursor? { clientCursor(on: seat) }

    /// The cursor the client with `seat`'s pointer focus chose on that seat's pointer
    /// (each seat's pointer has its own: `clientCursor` is the first seat's).
    public func clientCursor(on seat: Seat) -> ClientCursor? {
        guard let focus = seat.pointerFocusNode, let s = surface(for: focus),
            let cursor = s.owner.onSeat(Int(seat.id.index)).cursor
        else { return nil }
        switch cursor {
        case .surface(let surface, let x, let y):
            return surface.map { .surface($0.resource, hotspotX: x, hotspotY: y) } ?? .hidden
        case .shape(.none): return .hidden
        case .shape(let shape): return .shape(shape)
        }
    }

    // MARK: Clients

    /// The `wl_client` of a connected client; nil once it disconnected.
    public func waylandClient(_ id: ClientID) -> OpaquePointer? {
        guard let state = client(id), state.alive else { return nil }
        return state.client
    }

    /// The router's id for a `wl_client` of this display; nil if it never connected here.
    public func clientID(of client: OpaquePointer) -> ClientID? { clientsByPointer[client]?.id }

    /// The device objects `id` bound on the first seat (empty when it bound none or is gone).
    public func boundDevices(of id: ClientID) -> BoundDeviceResources { boundDevices(of: id, seat: seat) }

    /// The device objects `id` bound on `seat`: those it got from that seat's `wl_seat`
    /// (empty when it bound none there or is gone). Two array indexes, no hashing.
    public func boundDevices(of id: ClientID, seat: Seat) -> BoundDeviceResources {
        guard let state = client(id), state.alive else {
            return BoundDeviceResources(pointers: [], keyboards: [], touches: [])
        }
        let s = seat.id
        return BoundDeviceResources(
            pointers: state.pointers(on: s), keyboards: state.keyboards(on: s), touches: state.touches(on: s))
    }

    // MARK: Stacking

    /// The node that is moved and stacked for the toplevel `node`: the toplevel itself, or
    /// its decoration container when it is server-side decorated. nil if not a toplevel.
    public func window(of node: NodeID) -> NodeID? {
        guard router.tree.kind(of: node) == .toplevel else { return nil }
        return windowNode(of: node)
    }

    /// Puts the window of toplevel `node` above every other window. Pointer focus re-picks
    /// at once if the window now covers the cursor. False when `node` is not a toplevel.
    @discardableResult
    public func raiseWindow(_ node: NodeID) -> Bool {
        guard let w = window(of: node) else { return false }
        raiseWindowNode(w)
        sendDeliveries()
        return true
    }

    /// Puts the window of toplevel `node` below every other window.
    @discardableResult
    public func lowerWindow(_ node: NodeID) -> Bool {
        guard let w = window(of: node) else { return false }
        router.tree.lowerToBottom(w)
        sendDeliveries()
        return true
    }

    /// Puts the window of toplevel `node` directly above the window of toplevel `other`.
    @discardableResult
    public func stackWindow(_ node: NodeID, above other: NodeID) -> Bool {
        guard let w = window(of: node), let o = window(of: other), router.tree.place(w, above: o) else { return false }
        sendDeliveries()
        return true
    }
}
