// `xdg_toplevel` and `xdg_popup`: interactive move and resize become the seat's grabs,
// a popup's grab becomes the seat's popup grab, both only for a serial the seat recorded
// (a move or resize: a held button's press or a touch; a popup: any press, keys included).
import CWaylandProtocolsServer
import CWaylandServer
import Foundation
import InputRouter

final class XdgToplevel: WaylandObject {
    weak var xdg: XdgSurfaceObject?
    var title = ""
    var appID = ""
    var everMapped = false
    /// `set_parent`'s toplevel, for refusing loops.
    weak var parentToplevel: XdgToplevel?
    var wmCapabilitiesSent = false
    /// Placed by `placeWindow` before it mapped: the first map keeps that place.
    var placedByEmbedder = false
    var maximized = false
    var fullscreen = false
    /// The output `set_fullscreen` named (nil: the one the window is on).
    var fullscreenOutput: ServedOutput?
    /// Whether the policy was told it mapped (and so will be told it unmapped), and closed.
    var toldMapped = false
    var toldClosed = false
    var savedPosition: (x: Int32, y: Int32)?
    /// The size the next configure asks for (0: the client decides).
    var requestedSize: (width: Int32, height: Int32) = (0, 0)
    var resizing = false
    /// The decoration around it, when the server draws them.
    var frame: WindowFrame?
    /// Its `zxdg_toplevel_decoration_v1`, kept after destruction until the next commit.
    var decoration: ToplevelDecorationObject?

    init(server: WaylandServer, owner: ClientState, resource: ResourcePointer, xdg: XdgSurfaceObject) {
        self.xdg = xdg
        super.init(server: server, owner: owner, resource: resource)
    }

    var node: NodeID? { xdg?.surface.node }
    /// What moves and restacks: the decoration container, or the toplevel itself.
    var windowNode: NodeID? { frame?.container ?? node }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: XdgToplevelRequest = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource()
        case .setParent(let parent): // set_parent(parent?)
            let parent = parent.object(as: XdgToplevel.self)
            // "a toplevel cannot be its own parent" — nor its own ancestor's: no loops.
            var ancestor = parent
            while let a = ancestor {
                if a === self {
                    return postError(
                        XDG_TOPLEVEL_ERROR_INVALID_PARENT.rawValue,
                        parent === self
                            ? "a toplevel cannot be its own parent" : "set_parent would make a loop of parents")
                }
                ancestor = a.parentToplevel
            }
            parentToplevel = parent
        case .setTitle(let title):
            self.title = title ?? ""
            server.nameToplevelNode(self)
        case .setAppId(let appId):
            appID = appId ?? ""
            server.nameToplevelNode(self)
        case .move(let seat, let serial): // move(seat, serial)
            if maximized || fullscreen { return } // refused, as weston does (docs/wayland.md)
            let seat = server.seat(from: seat.object(as: SeatObject.self))
            guard let window = windowNode, let press = seat.serialEntry(serial, client: owner.id, for: .move)
            else { return }
            // Anchored at the press, not where the pointer is now: clients ask after their drag
            // threshold. A touch's point is not the cursor the move follows, so it anchors there.
            guard server.asksGrant(.move(seat: seat), for: self) else { return }
            seat.beginMove(window, anchor: press.action == .buttonPress ? press.position : nil)
        case .resize(let seat, let serial, let edges): // resize(seat, serial, edges)
            guard [0, 1, 2, 4, 5, 6, 8, 9, 10].contains(edges) else {
                return postError(XDG_TOPLEVEL_ERROR_INVALID_RESIZE_EDGE.rawValue, "invalid resize edge \(edges)")
            }
            let seat = server.seat(from: seat.object(as: SeatObject.self))
            guard let node, seat.serialEntry(serial, client: owner.id, for: .resize) != nil,
                server.asksGrant(.resize(seat: seat, edges: ResizeEdges(rawValue: edges)), for: self)
            else { return }
            seat.beginResize(node, edges: ResizeEdges(rawValue: edges))
        case .setMaxSize(let width, let height), .setMinSize(let width, let height): // set_max_size / set_min_size
            guard width >= 0, height >= 0 else {
                return postError(XDG_TOPLEVEL_ERROR_INVALID_SIZE.rawValue, "sizes must not be negative")
            }
        case .setMaximized: requestState(.maximize)
        case .unsetMaximized: requestState(.unmaximize)
        case .setFullscreen(let output):
            requestState(.fullscreen(output: output.object(as: OutputObject.self)?.output.node))
        case .unsetFullscreen: requestState(.unfullscreen)
        case .setMinimized: requestState(.minimize)
        case .showWindowMenu: break // show_window_menu
        }
    }

    /// A client's state request, carried out when the policy grants it
    /// (`CompositorPolicy.toplevelRequest`). A refused maximize or fullscreen is answered
    /// with a configure of the state unchanged, as the protocol asks of every such request.
    /// Minimize is the policy's alone: xdg-shell has no minimized state to send.
    func requestState(_ request: ToplevelRequest) {
        guard server.asksGrant(request, for: self) else {
            if case .minimize = request { return }
            if xdg?.initialConfigureSent == true { xdg?.scheduleConfigure() }
            return
        }
        switch request {
        case .maximize: setMaximized(true, fullscreen: false)
        case .unmaximize: setMaximized(false, fullscreen: false)
        case .fullscreen(let output):
            fullscreenOutput = output.flatMap { n in server.servedOutputs.first { $0.node == n } }
            setMaximized(true, fullscreen: true)
        case .unfullscreen: setMaximized(false, fullscreen: true)
        case .move, .resize, .minimize: break
        }
    }

    /// Fills what the policy says (`CompositorPolicy.fillArea`): by default the usable area
    /// of the output the window is on when maximized (what the layer shell's exclusive zones
    /// leave, LayerShell.swift), the whole output (or the one it named) when fullscreen.
    func setMaximized(_ on: Bool, fullscreen isFullscreen: Bool) {
        if isFullscreen { fullscreen = on } else { maximized = on }
        let fills = maximized || fullscreen
        let tree = server.router.tree
        let title = serverTitleHeight
        if fills {
            if savedPosition == nil, let window = windowNode, let f = tree.frame(of: window) {
                savedPosition = (f.x, f.y)
            }
            let area = fillRequestedSize(titleHeight: title)
            if let window = windowNode { tree.move(window, to: (area.x, area.y)) }
        } else {
            fullscreenOutput = nil
            requestedSize = (0, 0)
            if let window = windowNode, let p = savedPosition { tree.move(window, to: p) }
            savedPosition = nil
        }
        // Scheduled: `unset_fullscreen` then `set_maximized`, sent together, get one
        // configure saying maximized, not one saying neither first.
        if xdg?.initialConfigureSent == true { xdg?.scheduleConfigure() }
    }

    /// Asks the policy what the window fills now and asks the client for that size, less
    /// the title bar. Returns the area.
    @discardableResult
    func fillRequestedSize(titleHeight: Int32? = nil) -> Rect {
        let output = fullscreen ? fullscreenOutput.flatMap { $0.removed ? nil : $0 } : nil
        let area =
            server.askFillArea(for: self, fullscreen ? .fullscreen : .maximized, output: output)
            ?? Rect(0, 0, server.configuration.outputWidth, server.configuration.outputHeight)
        requestedSize = (area.width, area.height - (titleHeight ?? serverTitleHeight))
        return area
    }

    /// Its `xdg_toplevel.configure` (and first the capabilities), for the xdg_surface's
    /// configure, which passes its surface's `node` (read here through the weak `xdg`, it
    /// cost a retain and release of both objects per configure).
    func sendConfigure(node: NodeID?) {
        // The flag first: every configure after the first skips libwayland's version call.
        if !wmCapabilitiesSent, version >= 5 {
            // Before the first configure (xdg_wm_base 5): what the window menu could offer.
            // Maximize and fullscreen are served; no window menu, no minimize (a policy may
            // act on set_minimized, but nothing tells the client it did).
            wmCapabilitiesSent = true
            let caps = [
                XDG_TOPLEVEL_WM_CAPABILITIES_MAXIMIZE.rawValue, XDG_TOPLEVEL_WM_CAPABILITIES_FULLSCREEN.rawValue,
            ]
            withWaylandArray(caps) { xdg_toplevel_send_wm_capabilities(resource, $0) }
        }
        var states = ToplevelStates()
        if maximized { states.append(XDG_TOPLEVEL_STATE_MAXIMIZED.rawValue) }
        if fullscreen { states.append(XDG_TOPLEVEL_STATE_FULLSCREEN.rawValue) }
        if resizing { states.append(XDG_TOPLEVEL_STATE_RESIZING.rawValue) }
        if let node, server.isActivated(node) {
            states.append(XDG_TOPLEVEL_STATE_ACTIVATED.rawValue)
        }
        states.withArray { xdg_toplevel_send_configure(resource, requestedSize.width, requestedSize.height, $0) }
    }

    /// A resize grab asked for a size.
    func requestSize(width: Int32, height: Int32) {
        requestedSize = (max(width, 1), max(height, 1))
        resizing = true
        xdg?.sendConfigure()
    }

    func setMapped(_ mapped: Bool) {
        guard let node else { return }
        let tree = server.router.tree
        if mapped && !everMapped {
            everMapped = true
            // The policy's placement (CompositorPolicy.placeToplevel), asked for every first map.
            if let p = server.askPlacement(for: self), !(maximized || fullscreen || placedByEmbedder),
                let window = windowNode
            {
                tree.move(window, to: p)
            }
        }
        let wasMapped = tree.isMapped(node)
        tree.setMapped(node, mapped)
        if let frame, let style = server.decorationStyle {
            server.layoutWindowFrame(frame, toplevel: node, style: style)
        }
        if mapped && !wasMapped {
            // A new window takes the keyboard of the seat whose action it answers, and the
            // other seats' keyboards stay where they are (sway#7190). On that seat an open
            // popup grab ends (popup_done), as in Mir.
            let seat = server.seatForNewWindow(of: owner.id)
            if !seat.popupGrabStack.isEmpty { seat.dismissPopups() }
            server.activate(node, seat: seat)
            // While an exclusive layer surface holds the keyboard, the window is raised only.
        }
        if mapped && !toldMapped {
            toldMapped = true
            server.tellToplevelMapped(self)
        } else if !mapped && toldMapped {
            toldMapped = false
            server.tellToplevelUnmapped(self)
        }
    }

    /// Its node is about to go (the xdg_toplevel, its xdg_surface's or its wl_surface, or
    /// its client): the policy hears of the unmap, then of the close.
    func closing() {
        guard !server.shuttingDown, node != nil else { return }
        if toldMapped {
            toldMapped = false
            server.tellToplevelUnmapped(self)
        }
        if everMapped && !toldClosed {
            toldClosed = true
            server.tellToplevelClosed(self)
        }
    }

    override func resourceDestroyed() {
        decoration?.toplevelDestroyed()
        closing()
        if let xdg, case .toplevel(let t) = xdg.roleObject, t === self { xdg.roleDestroyed() }
        if let frame { server.router.tree.destroy(frame.container) }
        frame = nil
    }
}

final class XdgPopup: WaylandObject {
    weak var xdg: XdgSurfaceObject?
    weak var parent: XdgSurfaceObject?
    /// The layer surface that became its parent (`zwlr_layer_surface_v1.get_popup`), for a
    /// popup made with a null parent.
    weak var layerParent: LayerSurfaceObject?
    var placement: Rect
    /// The positioner's rules it was placed by (reactive popups are placed again).
    var rules: PositionerRules
    var grabRequested = false
    /// The seat `grab` named: the popup grabs that seat only.
    var grabSeat: Seat?
    var grabbed = false

    init(
        server: WaylandServer, owner: ClientState, resource: ResourcePointer, xdg: XdgSurfaceObject,
        parent: XdgSurfaceObject?, placement: Rect, rules: PositionerRules
    ) {
        self.rules = rules
        self.xdg = xdg
        self.parent = parent
        self.placement = placement
        super.init(server: server, owner: owner, resource: resource)
    }

    var node: NodeID? { xdg?.surface.node }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: XdgPopupRequest = decode(opcode, args) else { return }
        switch request {
        case .destroy: // destroy: only the topmost grabbing popup may go
            if let node, let stack = server.seats.lazy.map(\.popupGrabStack).first(where: { $0.contains(node) }),
                stack.last != node
            {
                return postWmBaseError(
                    XDG_WM_BASE_ERROR_NOT_THE_TOPMOST_POPUP.rawValue, "destroyed a popup below another grabbing popup")
            }
            destroyResource()
        case .grab(let seat, let serial): // grab(seat, serial)
            guard let node, !server.router.tree.isMapped(node) else {
                return postError(XDG_POPUP_ERROR_INVALID_GRAB.rawValue, "xdg_popup.grab after the popup was mapped")
            }
            // A recent press or release of a button, key, finger or tablet tool: menus open on
            // a release too, and GTK's MenuButton on a key's (docs/routing.md, "Serials").
            // The serial must be one the seat named sent: another seat's is refused.
            grabSeat = server.seat(from: seat.object(as: SeatObject.self))
            if grabSeat!.serialEntry(serial, client: owner.id, for: .popupGrab) != nil {
                grabRequested = true
            } else {
                // An invalid serial: the popup is dismissed at once, as the protocol allows.
                xdg_popup_send_popup_done(resource)
            }
        case .reposition(let positioner, let token): // reposition(positioner, token)
            guard let positioner = positioner.object(as: XdgPositioner.self),
                let rect = parent.map({
                    positioner.rules.placement(origin: server.popupOrigin(of: $0), bounds: server.popupBounds)
                })
                    ?? positioner.rules.unconstrained
            else {
                return postWmBaseError(
                    XDG_WM_BASE_ERROR_INVALID_POSITIONER.rawValue, "positioner without size or anchor rect")
            }
            placement = rect
            rules = positioner.rules
            if let node, let parent {
                let origin: (x: Int32, y: Int32) = parent.geometry.map { ($0.x, $0.y) } ?? (0, 0)
                server.router.tree.move(node, to: (origin.x + rect.x, origin.y + rect.y))
            }
            if version >= 3 { xdg_popup_send_repositioned(resource, token) }
            xdg?.sendConfigure()
        }
    }

    /// See `XdgSurfaceObject.postWmBaseError`.
    private func postWmBaseError(_ code: UInt32, _ message: String) {
        if let xdg { xdg.postWmBaseError(code, message) } else { postError(code, message) }
    }

    func sendConfigure() {
        xdg_popup_send_configure(resource, placement.x, placement.y, placement.width, placement.height)
    }

    func setMapped(_ mapped: Bool) {
        guard let node else { return }
        server.router.tree.setMapped(node, mapped)
        if mapped, grabRequested, !grabbed {
            grabbed = true
            if !(grabSeat ?? server.seat).beginPopupGrab(node) { xdg_popup_send_popup_done(resource) }
        }
    }

    override func resourceDestroyed() {
        if let xdg, case .popup(let p) = xdg.roleObject, p === self { xdg.roleDestroyed() }
    }
}

/// Calls `body` with a `wl_array` holding `values` (for configure states and enter keys).
/// The bytes are not copied (libwayland only reads them while marshalling).
func withWaylandArray<T>(_ values: UnsafeBufferPointer<UInt32>, _ body: (UnsafeMutablePointer<wl_array>) -> T) -> T {
    let size = values.count * MemoryLayout<UInt32>.stride
    var array = wl_array(
        size: size, alloc: size, data: values.baseAddress.map { UnsafeMutableRawPointer(mutating: $0) })
    return body(&array)
}

func withWaylandArray<T>(_ values: [UInt32], _ body: (UnsafeMutablePointer<wl_array>) -> T) -> T {
    values.withUnsafeBufferPointer { withWaylandArray($0, body) }
}

/// A configure's states (at most these four) on the stack: an array per configure was a
/// heap allocation on every click that focuses a window.
struct ToplevelStates {
    private var storage: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
    private var count = 0

    mutating func append(_ state: UInt32) {
        let i = count
        precondition(i < 4, "more xdg_toplevel states than ToplevelStates holds")
        withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: state, toByteOffset: i * 4, as: UInt32.self) }
        count = i + 1
    }

    func withArray<T>(_ body: (UnsafeMutablePointer<wl_array>) -> T) -> T {
        var copy = storage
        let n = count
        return withUnsafeBytes(of: &copy) { bytes in
            withWaylandArray(
                UnsafeBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: UInt32.self), count: n), body)
        }
    }
}
