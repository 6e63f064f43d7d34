// `zxdg_decoration_manager_v1` and `zxdg_toplevel_decoration_v1` (xdg-decoration): who
// draws a toplevel's title bar. A client that asks for server-side decorations gets the
// server's title bar (Decorations.swift); every other toplevel is drawn as it commits, with
// no server decoration: a client that never binds the manager (as in sway), one that asks
// for client-side, and one that binds it and asks nothing (configured `client_side`; sway
// would choose server-side, but then a toolkit drawing its own frame could get two). The
// manager is offered only by a server that draws title bars (Globals.swift).
//
// The mode is double-buffered like the rest of xdg-shell: `set_mode` is answered with
// `zxdg_toplevel_decoration_v1.configure` followed by `xdg_surface.configure` (one pair for
// the requests the client sent together: its creation and `set_mode`, say), and the
// title bar appears or goes at the first commit after the client acknowledged that
// configure (or a later one). Destroying the decoration object takes the title bar away at
// the next commit, as the protocol says.
import CWaylandProtocolsServer
import CWaylandServer
import InputRouter

/// Who draws a toplevel's decorations (`zxdg_toplevel_decoration_v1.mode`).
public enum DecorationMode: UInt32, Sendable {
    case clientSide = 1
    case serverSide = 2
}

final class DecorationManagerObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZxdgDecorationManagerV1Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource() // objects made with the manager live on
        case .getToplevelDecoration(let id, let toplevel): // get_toplevel_decoration(id, toplevel)
            guard let toplevel = toplevel.object(as: XdgToplevel.self) else { return }
            // The errors belong to zxdg_toplevel_decoration_v1's enum; like wlroots and KWin,
            // they go on the object the request was made on (the new one does not exist yet).
            if toplevel.decoration?.alive == true {
                return postError(
                    ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ALREADY_CONSTRUCTED.rawValue,
                    "xdg_toplevel@\(wl_resource_get_id(toplevel.resource)) already has a decoration object")
            }
            if let surface = toplevel.xdg?.surface,
                surface.hasBuffer || (surface.pending.bufferAttached && surface.pending.buffer != nil)
            {
                return postError(
                    ZXDG_TOPLEVEL_DECORATION_V1_ERROR_UNCONFIGURED_BUFFER.rawValue,
                    "wl_surface@\(wl_resource_get_id(surface.resource)) has a buffer: decorations are chosen before the first one"
                )
            }
            guard
                let decoration = server.createObject(
                    .zxdgToplevelDecorationV1, client: owner, version: version, id: id,
                    {
                        ToplevelDecorationObject(server: server, owner: owner, resource: $0, toplevel: toplevel)
                    })
            else { return }
            toplevel.decoration = decoration
            decoration.decide()
        }
    }
}

final class ToplevelDecorationObject: WaylandObject {
    weak var toplevel: XdgToplevel?
    /// Until the client destroys this object; the mode it leaves behind is applied after.
    var alive = true
    /// What the client asked for (`set_mode`), nil after `unset_mode` or none yet.
    var requested: DecorationMode?
    /// What the server decided and will send (or sent) in the next configure.
    var scheduled = DecorationMode.clientSide
    var needsConfigure = false
    /// The mode last sent and the `xdg_surface.configure` serial that carried it.
    var sent: (mode: DecorationMode, serial: UInt32)?
    /// The serial of the first configure that carried a mode: its ack (or a later one's)
    /// lets buffers be attached, whatever was sent since.
    var firstSerial: UInt32?
    /// The client acknowledged a configure carrying a mode: buffers may be attached.
    var firstConfigureAcknowledged = false

    init(server: WaylandServer, owner: ClientState, resource: ResourcePointer, toplevel: XdgToplevel) {
        self.toplevel = toplevel
        super.init(server: server, owner: owner, resource: resource)
    }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZxdgToplevelDecorationV1Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: // destroy: no server-side decoration from the next commit on
            scheduled = .clientSide
            alive = false
            destroyResource()
        case .setMode(let mode): // set_mode(mode)
            guard let mode = DecorationMode(rawValue: mode) else {
                // wayland-protocols 1.31 names no error for this; wl_display's is the generic one.
                return postError(WL_DISPLAY_ERROR_INVALID_METHOD.rawValue, "\(mode) is not a decoration mode")
            }
            requested = mode
            decide()
        case .unsetMode: // unset_mode
            requested = nil
            decide()
        }
    }

    /// The server's choice for what the client asked, sent with the toplevel's next
    /// configure: its initial one, or one scheduled for when the requests read with this one
    /// are handled. Every request is answered with a configure, even when the mode stays
    /// the same, but requests sent together get one: SDL's creation and `set_mode` in one
    /// batch are answered with the mode it asked for alone, never `client_side` first
    /// (`XdgSurfaceObject.scheduleConfigure`).
    func decide() {
        scheduled = server.decorationMode(for: toplevel, requested: requested)
        needsConfigure = true
        guard let toplevel, let xdg = toplevel.xdg else { return }
        if toplevel.maximized || toplevel.fullscreen {
            // The window fills its area; the title bar takes its height from the client's.
            toplevel.fillRequestedSize()
        }
        if xdg.initialConfigureSent { xdg.scheduleConfigure() }
    }

    /// Called while an `xdg_surface.configure` with `serial` is being sent, before it.
    func configureSending(serial: UInt32) {
        guard alive, needsConfigure else { return }
        needsConfigure = false
        sent = (scheduled, serial)
        if firstSerial == nil { firstSerial = serial }
        zxdg_toplevel_decoration_v1_send_configure(resource, scheduled.rawValue)
    }

    /// Before a commit is applied; false when it was a protocol error.
    func checkCommit(_ state: SurfaceState, xdg: XdgSurfaceObject) -> Bool {
        guard alive, !firstConfigureAcknowledged else { return true }
        // The protocol forbids a buffer "prior to the first xdg_toplevel_decoration.configure
        // event"; acknowledging the first is enough, though a later mode may be on its way.
        if let firstSerial, !xdg.sentConfigures.contains(firstSerial) {
            firstConfigureAcknowledged = true
            return true
        }
        if state.bufferAttached, state.buffer != nil {
            postError(
                ZXDG_TOPLEVEL_DECORATION_V1_ERROR_UNCONFIGURED_BUFFER.rawValue,
                "a buffer was attached before the decoration's first configure was acknowledged")
            return false
        }
        return true
    }

    /// At a commit: the mode the client acknowledged (or, once destroyed, none) takes effect.
    func applyAtCommit(xdg: XdgSurfaceObject) {
        guard let toplevel else { return }
        if !alive {
            server.setServerDecorated(toplevel, false)
            if toplevel.decoration === self { toplevel.decoration = nil }
            return
        }
        // A serial no longer waiting was acknowledged, itself or by a later one.
        guard let sent, !xdg.sentConfigures.contains(sent.serial) else { return }
        server.setServerDecorated(toplevel, sent.mode == .serverSide)
    }

    /// The xdg_toplevel went first: the protocol makes that the client's error.
    func toplevelDestroyed() {
        guard alive, owner.alive, !server.shuttingDown else { return }
        postError(
            ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ORPHANED.rawValue, "xdg_toplevel destroyed before its decoration object")
    }

    override func resourceDestroyed() {
        alive = false
        scheduled = .clientSide
    }
}

extension XdgToplevel {
    /// The height of the title bar the server draws above it, counting a server-side mode
    /// already sent but not yet acknowledged: a maximized window's configure leaves room
    /// for it.
    var serverTitleHeight: Int32 {
        let serverSide = decoration.map { $0.scheduled == .serverSide } ?? (frame != nil)
        return serverSide ? server.decorationStyle?.titleHeight ?? 0 : 0
    }
}
