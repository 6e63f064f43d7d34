// `xdg_wm_base`, `xdg_positioner` and `xdg_surface`: the window roles. A toplevel or a
// popup gets its tree node when created, and is mapped once a configure was acknowledged
// and a buffer committed.
//
// Unsafe idioms, and why: the xdg_surface keeps its toplevel `Unmanaged` (`toplevelRef`,
// valid while `roleObject` holds it) for the sender's activation and focus, which follow it
// on every click without counting a reference (a toplevel's weak references put its counts
// in a side table, ~100 instructions per retain or release); what a click's configure reads
// (`roleObject`, the sent serials, the acknowledgement) is `@exclusivity(unchecked)`, and a
// configure's serial borrows the server (`_withUnsafeGuaranteedRef`): the call on the
// `unowned(unsafe)` server retained and released it, on every configure of every click.
// (The scheduled configure's idle source goes through CallbackContext.swift.)
import CWaylandProtocolsServer
import CWaylandServer
import InputRouter

final class XdgWmBase: WaylandObject {
    var surfaceCount = 0
    /// The serial of the newest ping it answered (Server+Ping.swift).
    private var lastPong: UInt32?

    /// Whether it answered the ping `serial` or a later one (pongs come in order).
    func hasAnswered(_ serial: UInt32) -> Bool {
        guard let lastPong else { return false }
        return Int32(bitPattern: lastPong &- serial) >= 0
    }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: XdgWmBaseRequest = decode(opcode, args) else { return }
        switch request {
        case .destroy: // destroy
            guard surfaceCount == 0 else {
                return postError(
                    XDG_WM_BASE_ERROR_DEFUNCT_SURFACES.rawValue,
                    "xdg_wm_base destroyed while \(surfaceCount) xdg_surface objects exist")
            }
            destroyResource()
        case .createPositioner(let id): // create_positioner(id)
            server.createObject(.xdgPositioner, client: owner, version: version, id: id) {
                XdgPositioner(server: server, owner: owner, resource: $0)
            }
        case .getXdgSurface(let id, let surface): // get_xdg_surface(id, surface)
            guard let surface = surface.object(as: Surface.self) else { return }
            guard case .none = surface.role else {
                return postError(
                    XDG_WM_BASE_ERROR_ROLE.rawValue,
                    "wl_surface@\(wl_resource_get_id(surface.resource)) already has the role \(surface.roleName)")
            }
            guard !surface.hasBuffer, !surface.pending.bufferAttached || surface.pending.buffer == nil else {
                return postError(
                    XDG_WM_BASE_ERROR_INVALID_SURFACE_STATE.rawValue,
                    "wl_surface@\(wl_resource_get_id(surface.resource)) already has a buffer")
            }
            guard
                let xdg = server.createObject(
                    .xdgSurface, client: owner, version: version, id: id,
                    {
                        XdgSurfaceObject(server: server, owner: owner, resource: $0, surface: surface, base: self)
                    })
            else { return }
            surface.role = .xdg(xdg)
            surfaceCount += 1
        case .pong(let serial): // pong(serial)
            lastPong = serial
        }
    }
}

final class XdgSurfaceObject: WaylandObject {
    enum RoleObject {
        case none
        case toplevel(XdgToplevel)
        case popup(XdgPopup)
    }
    let surface: Surface
    weak var base: XdgWmBase?
    // Read or written by every configure (a click's activation sends two): no dynamic
    // exclusivity checks.
    @exclusivity(unchecked) var roleObject = RoleObject.none {
        didSet {
            if case .toplevel(let t) = roleObject {
                toplevelRef = Unmanaged.passUnretained(t)
            } else {
                toplevelRef = nil
            }
        }
    }
    /// The toplevel of `roleObject`, unretained: valid while `roleObject` holds it. The
    /// activation configures read it without counting a reference (the toplevel's weak
    /// references put its counts in a side table, where each retain and release costs ~100).
    @exclusivity(unchecked) private(set) var toplevelRef: Unmanaged<XdgToplevel>?
    /// Configure serials sent and not yet acknowledged, oldest first (ConfigureSerials.swift).
    @exclusivity(unchecked) var sentConfigures = ConfigureSerials()
    @exclusivity(unchecked) var acknowledged = false
    @exclusivity(unchecked) var initialConfigureSent = false
    /// The event loop's idle source that sends a configure requests asked for, once the
    /// requests read with them are handled (`scheduleConfigure`); nil when none waits.
    private var scheduledConfigure: OpaquePointer?
    var geometry: Rect?

    init(server: WaylandServer, owner: ClientState, resource: ResourcePointer, surface: Surface, base: XdgWmBase) {
        self.surface = surface
        self.base = base
        super.init(server: server, owner: owner, resource: resource)
    }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: XdgSurfaceRequest = decode(opcode, args) else { return }
        switch request {
        case .destroy: // destroy
            if case .none = roleObject {
            } else {
                return postError(
                    XDG_SURFACE_ERROR_DEFUNCT_ROLE_OBJECT.rawValue,
                    "xdg_surface destroyed before its role object")
            }
            destroyResource()
        case .getToplevel(let id): // get_toplevel(id)
            guard case .none = roleObject else { return alreadyConstructed() }
            guard
                let top = server.createObject(
                    .xdgToplevel, client: owner, version: version, id: id,
                    {
                        XdgToplevel(server: server, owner: owner, resource: $0, xdg: self)
                    })
            else { return }
            roleObject = .toplevel(top)
            server.toplevelObjects.removeAll { $0.object == nil }
            server.toplevelObjects.append(WeakToplevel(object: top))
            // No title bar unless the client asks for one (XdgDecoration.swift).
            let node = server.router.tree.createNode(
                .toplevel, name: "toplevel", client: owner.id, parent: server.outputNode)
            surface.attachNode(node)
            server.nameToplevelNode(top)
        case .getPopup(let id, let parentResource, let positioner): // get_popup(id, parent?, positioner)
            guard case .none = roleObject else { return alreadyConstructed() }
            // A null parent: another protocol gives it one before its first commit (a layer
            // surface's `get_popup`, LayerShell.swift); until then it has no node.
            let parent = parentResource.object(as: XdgSurfaceObject.self)
            if parentResource != nil, parent?.surface.node == nil {
                return postWmBaseError(
                    XDG_WM_BASE_ERROR_INVALID_POPUP_PARENT.rawValue, "a popup needs a toplevel or popup parent")
            }
            guard let positioner = positioner.object(as: XdgPositioner.self),
                let rect = positioner.rules.placement(
                    origin: parent.map(server.popupOrigin(of:)) ?? (0, 0), bounds: server.popupBounds)
            else {
                return postWmBaseError(
                    XDG_WM_BASE_ERROR_INVALID_POSITIONER.rawValue, "positioner without size or anchor rect")
            }
            guard
                let popup = server.createObject(
                    .xdgPopup, client: owner, version: version, id: id,
                    {
                        XdgPopup(
                            server: server, owner: owner, resource: $0, xdg: self, parent: parent, placement: rect,
                            rules: positioner.rules)
                    })
            else { return }
            roleObject = .popup(popup)
            server.popupObjects.append(WeakPopup(object: popup))
            guard let parent, let parentNode = parent.surface.node else { return }
            let origin: (x: Int32, y: Int32) = parent.geometry.map { ($0.x, $0.y) } ?? (0, 0)
            let node = server.router.tree.createNode(
                .popup, client: owner.id, parent: parentNode,
                frame: Rect(origin.x + rect.x, origin.y + rect.y, 0, 0))
            server.router.tree.setNextResponder(node, parentNode)
            surface.attachNode(node)
        case .setWindowGeometry(let x, let y, let width, let height): // set_window_geometry
            guard width > 0, height > 0 else {
                return postError(XDG_SURFACE_ERROR_INVALID_SIZE.rawValue, "window geometry must have a positive size")
            }
            // Kept within the positioner's range: popups of this surface are placed from
            // its corner, and a corner near Int32's end overflowed the popup's frame.
            let limit = PositionerRules.clientValue
            geometry = Rect(limit(x), limit(y), limit(width), limit(height))
        case .ackConfigure(let serial): // ack_configure(serial)
            guard sentConfigures.acknowledge(serial) else {
                return postError(
                    XDG_SURFACE_ERROR_INVALID_SERIAL.rawValue, "serial \(serial) was not sent in a configure")
            }
            acknowledged = true
        }
    }

    /// An error of `xdg_wm_base`'s enum goes on the xdg_wm_base object: on this one its code
    /// would name one of xdg_surface's own errors.
    func postWmBaseError(_ code: UInt32, _ message: String) {
        if let base { base.postError(code, message) } else { postError(code, message) }
    }

    private func alreadyConstructed() {
        postError(XDG_SURFACE_ERROR_ALREADY_CONSTRUCTED.rawValue, "xdg_surface already has a role object")
    }

    /// xdg-shell: "any attempts by a client to attach or manipulate a buffer prior to the
    /// first xdg_surface.configure call must also be treated as errors", so the error comes
    /// at the attach. Between that configure and its ack an attach is allowed (clients draw
    /// in response to it); the commit is what must wait for the ack (`checkCommit`).
    var mayAttachBuffer: Bool {
        if initialConfigureSent { return true }
        // The lenient option covers a toplevel or popup committing its buffer with its role;
        // a bare xdg_surface still may not take one.
        if case .none = roleObject { return false }
        return server.configuration.acceptsBufferBeforeFirstConfigure
    }

    func postUnconfiguredBuffer() {
        postError(
            XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER.rawValue,
            "wl_surface@\(wl_resource_get_id(surface.resource)) attached a buffer before the first configure")
    }

    /// Called before a commit is applied; false when it was a protocol error.
    func checkCommit(_ state: SurfaceState) -> Bool {
        if case .none = roleObject {
            postError(
                XDG_SURFACE_ERROR_NOT_CONSTRUCTED.rawValue, "xdg_surface committed before get_toplevel or get_popup")
            return false
        }
        if state.bufferAttached, state.buffer != nil, !acknowledged,
            !server.configuration.acceptsBufferBeforeFirstConfigure
        {
            postError(
                XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER.rawValue,
                "wl_surface@\(wl_resource_get_id(surface.resource)) committed a buffer before acknowledging a configure"
            )
            return false
        }
        if case .toplevel(let top) = roleObject, let d = top.decoration, !d.checkCommit(state, xdg: self) {
            return false
        }
        return true
    }

    /// After a commit: the first one is answered with a configure; mapped when configured
    /// with a buffer.
    func updateMapping() {
        if case .toplevel(let top) = roleObject { top.decoration?.applyAtCommit(xdg: self) }
        if !initialConfigureSent {
            initialConfigureSent = true
            sendConfigure()
        }
        let mapped = (acknowledged || server.configuration.acceptsBufferBeforeFirstConfigure) && surface.hasBuffer
        switch roleObject {
        case .toplevel(let top): top.setMapped(mapped)
        case .popup(let popup): popup.setMapped(mapped)
        case .none: break
        }
        // A new window geometry moves the corner popups are placed from, and is no change of
        // the scene: popups are placed again here (moves are followed by `sendDeliveries`).
        if !server.popupObjects.isEmpty { server.placePopupsAgain() }
    }

    /// A configure for what a request changed, sent when the event loop has handled every
    /// request it read with this one (an idle source, as wlroots' and weston's schedule
    /// theirs): the requests a client sends together are answered by one configure carrying
    /// all of them. SDL creates its decoration object and asks for server-side in one
    /// batch; answered at once, the creation's `client_side` came first, which SDL 2.26
    /// takes for a compositor that refuses server-side: it tears its window down and never
    /// maps it again. A configure sent before the idle source runs carries the same state,
    /// so it takes the scheduled one's place (`sendSurfaceConfigure`).
    func scheduleConfigure() {
        guard scheduledConfigure == nil else { return }
        scheduledConfigure = wl_event_loop_add_idle(
            server.eventLoop, scheduledConfigureDue, CallbackContext.unretained(self))
    }

    /// The scheduled configure's turn came: the event loop removes its idle source itself.
    fileprivate func sendScheduledConfigure() {
        scheduledConfigure = nil
        sendConfigure()
    }

    /// No configure waits any longer: the role or the xdg_surface went.
    private func cancelScheduledConfigure() {
        guard let source = scheduledConfigure else { return }
        scheduledConfigure = nil
        wl_event_source_remove(source)
    }

    /// The role's configure, then `xdg_surface.configure` with a new serial.
    func sendConfigure() {
        if let top = toplevelRef {
            // Borrowed: `roleObject` holds the toplevel throughout (no retain, see toplevelRef).
            top._withUnsafeGuaranteedRef { top in sendConfigure(top, node: surface.node) }
            return
        }
        guard case .popup(let popup) = roleObject else { return }
        popup.sendConfigure()
        finishConfigure()
    }

    /// The configure of `top` (this surface's toplevel, whose surface's node is `node`),
    /// then `xdg_surface.configure`: what `sendConfigure()` sends for a toplevel, inline in
    /// the activation's configure (Server+Activation.swift), which has both at hand.
    @inline(__always) func sendConfigure(_ top: XdgToplevel, node: NodeID?) {
        top.sendConfigure(node: node)
        let serial = nextConfigureSerial()
        // Tested before the call: passing `top.decoration` retained and released it (nil
        // too, a click's two configures), where the test is a load.
        if top.decoration != nil { top.decoration?.configureSending(serial: serial) }
        sendSurfaceConfigure(serial)
    }

    /// `xdg_surface.configure` with a new serial, after the role's configure.
    @inline(__always) private func finishConfigure() {
        sendSurfaceConfigure(nextConfigureSerial())
    }

    @inline(__always) private func nextConfigureSerial() -> UInt32 {
        // The unowned(unsafe) server borrowed: a plain call retained and released it.
        Unmanaged.passUnretained(server)._withUnsafeGuaranteedRef { $0.nextSerial() }
    }

    @inline(__always) private func sendSurfaceConfigure(_ serial: UInt32) {
        // This configure carries everything a scheduled one would have: one answer, not two.
        if scheduledConfigure != nil { cancelScheduledConfigure() }
        sentConfigures.append(serial)
        xdg_surface_send_configure(resource, serial)
    }

    func roleDestroyed() {
        cancelScheduledConfigure()
        roleObject = .none
        surface.destroyNode()
        acknowledged = false
        initialConfigureSent = false
    }

    func surfaceDestroyed() {
        cancelScheduledConfigure()
        switch roleObject {
        case .toplevel(let t):
            t.closing() // while its node is there for the policy to see
            t.xdg = nil
        case .popup(let p): p.xdg = nil
        case .none: break
        }
    }

    override func resourceDestroyed() {
        cancelScheduledConfigure()
        base?.surfaceCount -= 1
        if case .xdg(let x) = surface.role, x === self { surface.role = .none }
    }
}

/// The idle source of `XdgSurfaceObject.scheduleConfigure`: its data is the object,
/// unretained (the source is removed before the object can go).
private let scheduledConfigureDue: wl_event_loop_idle_func_t = { data in
    CallbackContext.borrowed(data!, as: XdgSurfaceObject.self).sendScheduledConfigure()
}
