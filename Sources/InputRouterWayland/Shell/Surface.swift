// `wl_compositor`, `wl_region` and `wl_surface`, with Wayland's double-buffered state:
// attach, input region, scale and frame callbacks are pending until `commit`, and a
// synchronized subsurface's commit waits for its parent's.
//
// Unsafe idioms, and why: a surface keeps its xdg_surface `Unmanaged` (`xdgRef`, valid while
// `role` holds it, read unchecked), and `ownerID(of:)` borrows the delivery target's client
// (`_withUnsafeGuaranteedRef`): activation and focus read both on every click, and each
// counted reference was a retain and a release (the xdg_surface's weak references put its
// counts in a side table, ~100 instructions each; the sender's tables: Sender.swift).
import CShim
import CWaylandServer
import InputRouter

final class CompositorObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: WlCompositorRequest = decode(opcode, args) else { return }
        switch request {
        case .createSurface(let id): // create_surface(id)
            server.createObject(.wlSurface, client: owner, version: version, id: id) {
                Surface(server: server, owner: owner, resource: $0)
            }
        case .createRegion(let id): // create_region(id)
            server.createObject(.wlRegion, client: owner, version: 1, id: id) {
                RegionObject(server: server, owner: owner, resource: $0)
            }
        }
    }
}

final class RegionObject: WaylandObject {
    var region = Region()

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: WlRegionRequest = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource()
        case .add(let x, let y, let w, let h), .subtract(let x, let y, let w, let h): // (x, y, width, height)
            guard w >= 0, h >= 0, x.addingReportingOverflow(w).overflow == false,
                y.addingReportingOverflow(h).overflow == false
            else {
                // wl_region names no errors: the request is malformed, which is
                // wl_display.invalid_method, posted on the display object (its codes are
                // wl_display's; on the wl_region they would mean nothing).
                let name = if case .add = request { "add" } else { "subtract" }
                return postDisplayError(
                    WL_DISPLAY_ERROR_INVALID_METHOD.rawValue,
                    "wl_region@\(wl_resource_get_id(resource)).\(name)(\(x), \(y), \(w), \(h)): sizes must be ≥ 0 and the far edge must fit in 32 bits"
                )
            }
            if case .add = request { region.add(Rect(x, y, w, h)) } else { region.subtract(Rect(x, y, w, h)) }
        }
    }
}

/// The state a commit applies.
struct SurfaceState {
    var bufferAttached = false
    var buffer: ResourcePointer?
    var bufferID: UInt32 = 0
    var inputRegionSet = false
    var inputRegion: Region?
    var scale: Int32 = 1
    var frameCallbacks: [ResourcePointer] = []
}

final class Surface: WaylandObject {
    enum Role {
        case none, cursor, dragIcon
        case subsurface(SubsurfaceObject)
        case xdg(XdgSurfaceObject)
        case layer(LayerSurfaceObject)
        case inputPopup(InputPopupObject)
        case lock(LockSurfaceObject) // SessionLock.swift
    }
    var role = Role.none {
        didSet { if case .xdg(let x) = role { xdgRef = Unmanaged.passUnretained(x) } else { xdgRef = nil } }
    }
    /// The xdg_surface of `role`, unretained: valid while `role` holds it. Activation and
    /// focus read it without counting a reference (`withToplevel`: the xdg_surface's weak
    /// references put its counts in a side table, ~100 instructions per retain or release).
    @exclusivity(unchecked) private(set) var xdgRef: Unmanaged<XdgSurfaceObject>?
    /// The tree node, once a role gives the surface a place in the scene.
    var node: NodeID?
    /// Its `zwp_keyboard_shortcuts_inhibitor_v1`s, at most one per seat (ShortcutsInhibit.swift),
    /// each told of its node.
    var shortcutsInhibitors: [ShortcutsInhibitorObject] = []
    var pending = SurfaceState()
    /// A synchronized subsurface's committed state, applied with its parent's commit.
    var cached: SurfaceState?
    /// Child subsurfaces, for the parent's commit and for nodes created late.
    var children: [SubsurfaceObject] = []
    /// Restacking of children requested since the last commit (applied on commit).
    var pendingRestacks: [(child: SubsurfaceObject, above: Bool, sibling: Surface)] = []
    /// Its locks or confinements, at most one per seat (PointerConstraints.swift), whose
    /// regions and hints apply at commit.
    var pointerConstraints: [ConstraintObject] = []

    // What the last commit established.
    var hasBuffer = false
    var bufferWidth: Int32 = 0
    var bufferHeight: Int32 = 0
    var scale: Int32 = 1
    var inputRegion: Region?

    var roleName: String {
        switch role {
        case .none: "none"
        case .cursor: "cursor"
        case .dragIcon: "drag icon"
        case .subsurface: "wl_subsurface"
        case .xdg: "xdg_surface"
        case .layer: "zwlr_layer_surface_v1"
        case .inputPopup: "zwp_input_popup_surface_v2"
        case .lock: "ext_session_lock_surface_v1"
        }
    }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: WlSurfaceRequest = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource()
        case .attach(let buffer, _, _): // attach(buffer?, x, y)
            if case .xdg(let xdg) = role, buffer != nil, !xdg.mayAttachBuffer { return xdg.postUnconfiguredBuffer() }
            if case .layer(let layer) = role, buffer != nil, !layer.mayAttachBuffer {
                return layer.postUnconfiguredBuffer()
            }
            pending.bufferAttached = true
            pending.buffer = buffer
            pending.bufferID = pending.buffer.map { wl_resource_get_id($0) } ?? 0
        case .frame(let callback): // frame(callback)
            guard let cb = wl_resource_create(owner.client, .wlCallback, 1, callback) else {
                return wl_client_post_no_memory(owner.client)
            }
            pending.frameCallbacks.append(cb)
            wl_resource_set_implementation(cb, nil, CallbackContext.unretained(server), frameCallbackDestroyed)
        case .setInputRegion(let region): // set_input_region(region?)
            pending.inputRegionSet = true
            pending.inputRegion = region.object(as: RegionObject.self)?.region
        case .commit: commit()
        case .setBufferTransform(let transform): // set_buffer_transform(transform): no effect on input, but checked
            let t = transform
            guard (0...7).contains(t) else {
                return postError(
                    WL_SURFACE_ERROR_INVALID_TRANSFORM.rawValue, "buffer transform \(t) is not a wl_output.transform")
            }
        case .setBufferScale(let scale): // set_buffer_scale(scale)
            let s = scale
            guard s >= 1 else {
                return postError(WL_SURFACE_ERROR_INVALID_SCALE.rawValue, "buffer scale \(s) is not positive")
            }
            pending.scale = s
        // damage, opaque region, damage_buffer, offset: no effect on input
        case .damage, .setOpaqueRegion, .damageBuffer, .offset: break
        }
    }

    func commit() {
        if case .xdg(let xdg) = role, !xdg.checkCommit(pending) { return }
        if case .layer(let layer) = role, !layer.checkCommit(pending) { return }
        if case .lock(let l) = role, !l.checkCommit(pending) { return }
        var state = pending
        pending = SurfaceState()
        pending.scale = state.scale
        if case .subsurface(let sub) = role, sub.isEffectivelySynchronized {
            // Held until the parent commits; later commits merge into it.
            if var held = cached {
                held.merge(state)
                state = held
            }
            cached = state
            return
        }
        apply(state)
    }

    /// Makes `state` current, then the children's parent-state (positions, stacking) and
    /// the cached state of synchronized children.
    func apply(_ state: SurfaceState) {
        if state.bufferAttached {
            if let buffer = state.buffer, wl_client_get_object(owner.client, state.bufferID) == buffer {
                if let shm = wl_shm_buffer_get(buffer) {
                    bufferWidth = wl_shm_buffer_get_width(shm)
                    bufferHeight = wl_shm_buffer_get_height(shm)
                }
                hasBuffer = true
                // A renderer copies what it needs here (Rendering's SurfacePixels).
                server.bufferCommitted?(resource, buffer)
                wl_buffer_send_release(buffer)
            } else {
                hasBuffer = false
                server.surfaceCleared?(resource)
                bufferWidth = 0
                bufferHeight = 0
            }
        }
        if state.inputRegionSet { inputRegion = state.inputRegion }
        scale = state.scale
        server.queueFrameCallbacks(state.frameCallbacks)

        server.router.tree.batchUpdates {
            updateNode()
            for restack in pendingRestacks {
                restack.child.applyRestack(above: restack.above, sibling: restack.sibling)
            }
            pendingRestacks.removeAll()
            for child in children {
                child.applyPendingPosition()
                if let held = child.surface.cached {
                    child.surface.cached = nil
                    child.surface.apply(held)
                }
            }
        }
        for c in pointerConstraints { c.surfaceCommitted() }
    }

    /// Pushes size, input region and mapping into the tree.
    func updateNode() {
        guard let node else { return }
        let tree = server.router.tree
        tree.setBuffer(node, width: bufferWidth, height: bufferHeight, scale: scale)
        // Clipped to the surface (the protocol's rule). The core's Region saturates huge
        // unions itself (Region.limit), so this is the protocol's clip, not a safety net.
        let s = max(scale, 1)
        tree.setInputRegion(
            node,
            inputRegion.map { region in
                var clipped = region
                clipped.intersect(Rect(0, 0, max(bufferWidth, 0) / s, max(bufferHeight, 0) / s))
                return clipped
            })
        switch role {
        case .subsurface: tree.setMapped(node, hasBuffer)
        case .xdg(let xdg): xdg.updateMapping()
        case .layer(let layer): layer.committed()
        case .inputPopup(let popup): popup.committed()
        case .lock(let l): l.updateMapping()
        case .none, .cursor, .dragIcon: break
        }
        updateOutputs()
    }

    /// The outputs (`ServedOutput.bit`s) this surface was told it is on with `enter`.
    var outputMask: UInt64 = 0

    /// `wl_surface.enter` and `leave` for where the surface now is (Outputs.swift).
    func updateOutputs() { server.updateOutputs(of: self) }

    /// Gives the surface its tree node and attaches children that were waiting for it.
    func attachNode(_ id: NodeID) {
        node = id
        let i = Int(id.index)
        server.setSurface(self, at: i)
        server.router.tree.setMapped(id, false)
        for child in children where child.surface.node == nil { child.createNode() }
        for i in shortcutsInhibitors { i.seat.addShortcutsInhibitor(id) }
    }

    override func resourceDestroyed() {
        server.surfaceCleared?(resource)
        // On disconnect libwayland destroys the client's callbacks itself.
        if owner.alive {
            for cb in pending.frameCallbacks { wl_resource_destroy(cb) }
            for cb in cached?.frameCallbacks ?? [] { wl_resource_destroy(cb) }
        }
        pending.frameCallbacks = []
        cached = nil
        // A restack waiting for this surface's commit may name the surface itself.
        pendingRestacks.removeAll()
        if case .subsurface(let sub) = role { sub.surfaceDestroyed() }
        if case .xdg(let xdg) = role { xdg.surfaceDestroyed() }
        if case .layer(let layer) = role { layer.surfaceDestroyed() }
        for s in owner.seatStates where s.cursor?.surface === self { s.cursor = nil }
        for s in server.seatServices { s.textInput.surfaceDestroyed(self) }
        // Children stay alive as surfaces but leave the scene with their parent.
        for child in children { child.parentDestroyed() }
        children.removeAll()
        destroyNode(surfaceStays: false)
        if case .lock = role { server.giveKeyboardsToALockSurface() }
    }

    /// Takes the surface out of the scene. `surfaceStays`: only its role went away
    /// (`wl_subsurface.destroy`, `xdg_toplevel.destroy`) and the client still holds the
    /// wl_surface, so it must hear that focus left it: the node is unmapped first and what
    /// that decides (pointer and keyboard leave) is sent while the node can still be named.
    /// A destroyed node gets nothing, and its client would never get the leave it waits for.
    func destroyNode(surfaceStays: Bool = true) {
        guard let node else { return }
        let tree = server.router.tree
        if surfaceStays, owner.alive, tree.isMapped(node) {
            tree.setMapped(node, false)
            server.sendDeliveries()
        }
        for child in tree.children(of: node) where server.surface(for: child) != nil { tree.detach(child) }
        if Int(node.index) < server.surfacesByNode.count, server.surfacesByNode[Int(node.index)] === self {
            server.setSurface(nil, at: Int(node.index))
        }
        for i in shortcutsInhibitors { i.seat.removeShortcutsInhibitor(node) }
        tree.destroy(node)
        self.node = nil
        if surfaceStays { updateOutputs() }
    }
}

extension SurfaceState {
    /// A later commit of a synchronized subsurface on top of one still held.
    mutating func merge(_ later: SurfaceState) {
        if later.bufferAttached {
            bufferAttached = true
            buffer = later.buffer
            bufferID = later.bufferID
        }
        if later.inputRegionSet {
            inputRegionSet = true
            inputRegion = later.inputRegion
        }
        scale = later.scale
        frameCallbacks += later.frameCallbacks
    }
}

private let frameCallbackDestroyed: wl_resource_destroy_func_t = { resource in
    guard let resource, let data = wl_resource_get_user_data(resource) else { return }
    CallbackContext.borrowed(data, as: WaylandServer.self).forgetFrameCallback(resource)
}

extension WaylandServer {
    /// The client of `node`'s surface: `surface(for:)?.owner` without retaining the surface
    /// (whose weak references, the text input's focus among them, make each retain and
    /// release a side-table update; two per click).
    func owner(of node: NodeID) -> ClientState? {
        guard let t = deliveryTargets[Int(node.index)], t.node == node else { return nil }
        return t.owner.takeUnretainedValue()
    }

    /// The id of `owner(of: node)`, read without retaining the client.
    /// Inline: a small lookup (a click's focus change makes it).
    @inline(__always) func ownerID(of node: NodeID) -> ClientID? {
        guard let t = deliveryTargets[Int(node.index)], t.node == node else { return nil }
        return t.owner._withUnsafeGuaranteedRef { $0.id }
    }

    /// The surface whose node is `node`, if it is alive.
    func surface(for node: NodeID) -> Surface? {
        let i = Int(node.index)
        guard i < surfacesByNode.count, let s = surfacesByNode[i], s.node == node else { return nil }
        return s
    }
}
