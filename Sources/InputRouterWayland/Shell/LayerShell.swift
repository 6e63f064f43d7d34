// `zwlr_layer_shell_v1` (version 4): panels, launchers, notifications and wallpapers. A layer
// surface lives in one of four layers, each a compositor node that is a child of the root
// and spans the layout without clipping (created when first used): background and bottom
// below the window layer (`outputNode`), top and overlay above it, in that order, so hit
// testing and stacking follow the protocol's z order with no special case in the core. A
// layer surface's node has kind `.layer`; it takes pointer, touch and tablet input like any
// other surface.
//
// Placement (`arrangeLayers`) is per output: surfaces that reserve an exclusive zone are
// placed first, from the top layer down, each shrinking the output's usable area; then the
// others, within the usable area (zone 0) or the whole output (zone -1). Each gets a
// configure when the size it is given changed. Maximized windows and the placement of new
// ones use the usable area (`usableArea(of:)`).
//
// The keyboard (docs/wayland.md, "Layer shell"): `exclusive` on top or overlay takes every
// seat's keyboard while mapped, the topmost such surface winning, and a click elsewhere does
// not take it away; when it unmaps, the focus goes back to where it was (the seat's focus
// history). `on_demand` (and `exclusive` below the windows) takes the keyboard on a click,
// like a window, never on map or commit. `none` never takes it.
import CShim
import CWaylandProtocolsServer
import CWaylandServer
import InputRouter

/// The four layers, bottom-most first (the protocol's values).
enum ShellLayer: UInt32, CaseIterable {
    case background = 0
    case bottom, top, overlay

    var name: String {
        switch self {
        case .background: "background"
        case .bottom: "bottom"
        case .top: "top"
        case .overlay: "overlay"
        }
    }

    /// Above the window layer: where `exclusive` keyboard interactivity takes the keyboard.
    var isAboveWindows: Bool { self == .top || self == .overlay }
}

/// `zwlr_layer_surface_v1.keyboard_interactivity`.
enum KeyboardInteractivity: UInt32 {
    case none = 0
    case exclusive, onDemand
}

/// The double-buffered state of a layer surface, applied at `wl_surface.commit`.
struct LayerState: Equatable {
    var width: UInt32 = 0
    var height: UInt32 = 0
    var anchor: UInt32 = 0
    var exclusiveZone: Int32 = 0
    var margin = (top: Int32(0), right: Int32(0), bottom: Int32(0), left: Int32(0))
    var keyboard = KeyboardInteractivity.none
    var layer = ShellLayer.background

    static func == (a: LayerState, b: LayerState) -> Bool {
        a.width == b.width && a.height == b.height && a.anchor == b.anchor && a.exclusiveZone == b.exclusiveZone
            && a.margin == b.margin && a.keyboard == b.keyboard && a.layer == b.layer
    }
}

/// Anchor bits (`zwlr_layer_surface_v1.anchor`).
enum Anchor {
    static let top: UInt32 = 1, bottom: UInt32 = 2, left: UInt32 = 4, right: UInt32 = 8
    static let all: UInt32 = 15
}

final class LayerShellObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwlrLayerShellV1Request = decode(opcode, args) else { return }
        switch request {
        // get_layer_surface(id, surface, output?, layer, namespace)
        case .getLayerSurface(let id, let surface, let output, let layer, let namespace):
            guard let surface = surface.object(as: Surface.self) else { return }
            guard case .none = surface.role else {
                return postError(
                    ZWLR_LAYER_SHELL_V1_ERROR_ROLE.rawValue,
                    "wl_surface@\(wl_resource_get_id(surface.resource)) already has the role \(surface.roleName)")
            }
            guard let layer = ShellLayer(rawValue: layer) else {
                return postError(
                    ZWLR_LAYER_SHELL_V1_ERROR_INVALID_LAYER.rawValue,
                    "layer \(layer) is not a zwlr_layer_shell_v1.layer")
            }
            guard !surface.hasBuffer, !surface.pending.bufferAttached || surface.pending.buffer == nil else {
                return postError(
                    ZWLR_LAYER_SHELL_V1_ERROR_ALREADY_CONSTRUCTED.rawValue,
                    "wl_surface@\(wl_resource_get_id(surface.resource)) already has a buffer")
            }
            // A null output, or one removed meanwhile: the compositor's choice.
            let named = output.object(as: OutputObject.self)?.output
            let output = named.flatMap { $0.removed ? nil : $0 } ?? server.outputForNewLayerSurface()
            guard
                let layerSurface = server.createObject(
                    .zwlrLayerSurfaceV1, client: owner, version: version, id: id,
                    {
                        LayerSurfaceObject(
                            server: server, owner: owner, resource: $0, surface: surface, output: output,
                            layer: layer, namespace: namespace ?? "")
                    })
            else { return }
            surface.role = .layer(layerSurface)
            server.layerSurfaces.append(layerSurface)
            let node = server.router.tree.createNode(.layer, client: owner.id, parent: server.layerNode(layer))
            server.router.tree.setCanBecomeFirstResponder(node, false)
            surface.attachNode(node)
            server.router.tree.setName(
                node, "\(owner.id) \(server.router.name(of: owner.id)): \(layer.name) layer \(layerSurface.namespace)")
            // Made on an output already gone (removed between the bind and this request).
            if output == nil || named?.removed == true { layerSurface.close() }
        case .destroy: destroyResource() // destroy (v3)
        }
    }
}

final class LayerSurfaceObject: WaylandObject {
    let surface: Surface
    /// The output it is on; nil once closed.
    private(set) var output: ServedOutput?
    let namespace: String
    var pending: LayerState
    private(set) var current: LayerState
    /// Whether it made its initial commit, and so takes part in the arrangement (reset when
    /// a null buffer unmaps it: it starts over).
    private(set) var initialCommitDone = false
    private var sentConfigures = ConfigureSerials()
    private var acknowledged = false
    /// The size of the last configure sent (nil: none since the initial commit).
    private var configuredSize: (width: UInt32, height: UInt32)?
    /// Where the arrangement put it, in layout coordinates.
    private(set) var box = Rect(0, 0, 0, 0)
    /// `closed` was sent: the output went; later requests change nothing.
    private(set) var closed = false

    init(
        server: WaylandServer, owner: ClientState, resource: ResourcePointer, surface: Surface, output: ServedOutput?,
        layer: ShellLayer, namespace: String
    ) {
        self.surface = surface
        self.output = output
        self.namespace = namespace
        var state = LayerState()
        state.layer = layer
        pending = state
        current = state
        super.init(server: server, owner: owner, resource: resource)
    }

    var node: NodeID? { surface.node }
    var isMapped: Bool { node.map { server.router.tree.isMapped($0) } ?? false }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwlrLayerSurfaceV1Request = decode(opcode, args) else { return }
        switch request {
        case .setSize(let width, let height): // set_size(width, height)
            pending.width = width
            pending.height = height
        case .setAnchor(let anchor): // set_anchor(anchor)
            guard anchor <= Anchor.all else {
                return postError(
                    ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_ANCHOR.rawValue, "anchor \(anchor) is not a set of edges")
            }
            pending.anchor = anchor
        case .setExclusiveZone(let zone): pending.exclusiveZone = zone // set_exclusive_zone(zone)
        // set_margin
        case .setMargin(let top, let right, let bottom, let left): pending.margin = (top, right, bottom, left)
        case .setKeyboardInteractivity(let keyboardInteractivity): // set_keyboard_interactivity(keyboard_interactivity)
            let value = keyboardInteractivity
            guard let k = KeyboardInteractivity(rawValue: value), k != .onDemand || version >= 4 else {
                return postError(
                    ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_KEYBOARD_INTERACTIVITY.rawValue,
                    "keyboard interactivity \(value) is not valid at version \(version)")
            }
            pending.keyboard = k
        case .getPopup(let popup): // get_popup(popup)
            guard let popup = popup.object(as: XdgPopup.self) else { return }
            adoptPopup(popup)
        case .ackConfigure(let serial): // ack_configure(serial)
            guard sentConfigures.acknowledge(serial) else {
                return postError(
                    ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SURFACE_STATE.rawValue,
                    "serial \(serial) was not sent in a configure")
            }
            acknowledged = true
        case .destroy: destroyResource()
        case .setLayer(let layer): // set_layer(layer) (v2)
            guard let layer = ShellLayer(rawValue: layer) else {
                // The enum is the layer shell's; wlroots and Mir post it on this object.
                return postError(
                    ZWLR_LAYER_SHELL_V1_ERROR_INVALID_LAYER.rawValue,
                    "layer \(layer) is not a zwlr_layer_shell_v1.layer")
            }
            pending.layer = layer
        }
    }

    /// Before a commit is applied (Surface.commit); false when it was a protocol error.
    func checkCommit(_ state: SurfaceState) -> Bool {
        if closed { return true }
        let horizontal = Anchor.left | Anchor.right
        let vertical = Anchor.top | Anchor.bottom
        if pending.width == 0 && pending.anchor & horizontal != horizontal {
            postError(
                ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SIZE.rawValue, "width 0 needs both the left and the right anchor")
            return false
        }
        if pending.height == 0 && pending.anchor & vertical != vertical {
            postError(
                ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SIZE.rawValue, "height 0 needs both the top and the bottom anchor")
            return false
        }
        if state.bufferAttached, state.buffer != nil, !acknowledged,
            !server.configuration.acceptsBufferBeforeFirstConfigure
        {
            postError(
                ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SURFACE_STATE.rawValue,
                "wl_surface@\(wl_resource_get_id(surface.resource)) committed a buffer before acknowledging a configure"
            )
            return false
        }
        return true
    }

    /// After a commit (Surface.updateNode): the state applies, the output is arranged again
    /// (the first commit is answered with a configure), and the surface maps once configured
    /// with a buffer; a null buffer unmaps it and it starts over.
    func committed() {
        guard !closed, let node else { return }
        let tree = server.router.tree
        let changed = pending != current || !initialCommitDone
        let keyboardChanged = pending.keyboard != current.keyboard
        if pending.layer != current.layer { _ = tree.setParent(node, server.layerNode(pending.layer)) }
        current = pending
        tree.setCanBecomeFirstResponder(node, current.keyboard != .none)
        let wasMapped = tree.isMapped(node)
        if initialCommitDone && tree.isMapped(node) && !surface.hasBuffer {
            // Unmapped by a null buffer: back to the state right after get_layer_surface.
            initialCommitDone = false
            acknowledged = false
            configuredSize = nil
            tree.setMapped(node, false)
            server.arrangeLayers(on: output)
            server.layerKeyboardChanged()
            return
        }
        initialCommitDone = true
        let mapped = (acknowledged || server.configuration.acceptsBufferBeforeFirstConfigure) && surface.hasBuffer
        tree.setMapped(node, mapped)
        if changed || mapped != wasMapped || configuredSize == nil { server.arrangeLayers(on: output) }
        if mapped != wasMapped || keyboardChanged {
            server.layerKeyboardChanged(mapped: mapped && !wasMapped ? node : nil)
        }
    }

    /// Where the embedder put it (`placeWindow`): it stays there, and the arrangement only
    /// sizes it.
    private var placedByEmbedder: (x: Int32, y: Int32)?

    func placeByEmbedder(x: Int32, y: Int32) -> Bool {
        guard let node, !closed else { return false }
        placedByEmbedder = (x, y)
        server.router.tree.move(node, to: (x, y))
        server.sendDeliveries()
        return true
    }

    /// Places it at `box` (layout coordinates) and configures it when its size changed.
    func place(_ box: Rect, width: UInt32, height: UInt32) {
        self.box = box
        if let node { server.router.tree.move(node, to: placedByEmbedder ?? (box.x, box.y)) }
        if let c = configuredSize, c == (width, height) { return }
        configuredSize = (width, height)
        let serial = server.nextSerial()
        sentConfigures.append(serial)
        zwlr_layer_surface_v1_send_configure(resource, serial, width, height)
    }

    /// The output went, or it was made for none: `closed`, and it leaves the scene.
    func close(arrange: Bool = true) {
        guard !closed else { return }
        closed = true
        let out = output
        output = nil
        zwlr_layer_surface_v1_send_closed(resource)
        if let node, server.router.tree.isMapped(node) { server.router.tree.setMapped(node, false) }
        guard arrange else { return }
        server.arrangeLayers(on: out)
        server.layerKeyboardChanged()
    }

    /// `get_popup`: the popup, made with a null parent, gets this surface as its parent.
    private func adoptPopup(_ popup: XdgPopup) {
        guard let node, let xdg = popup.xdg, popup.parent == nil, popup.layerParent == nil, xdg.surface.node == nil
        else {
            return postError(
                ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SURFACE_STATE.rawValue,
                "get_popup: the xdg_popup must be made with a null parent and not have one yet")
        }
        popup.layerParent = self
        let tree = server.router.tree
        let at = tree.layoutPosition(of: node) ?? .zero
        if let rect = popup.rules.placement(origin: PositionerRules.origin(at), bounds: server.popupBounds) {
            popup.placement = rect
        }
        let popupNode = tree.createNode(
            .popup, client: owner.id, parent: node,
            frame: Rect(popup.placement.x, popup.placement.y, 0, 0))
        tree.setNextResponder(popupNode, node)
        xdg.surface.attachNode(popupNode)
    }

    /// The role went: the object was destroyed (its wl_surface stays, and leaves the scene
    /// here), or its wl_surface (whose node goes with it).
    private func roleGone(surfaceStays: Bool) {
        guard let i = server.layerSurfaces.firstIndex(where: { $0 === self }) else { return }
        server.layerSurfaces.remove(at: i)
        let out = output
        output = nil
        if surfaceStays { surface.destroyNode() } else if let node { server.router.tree.setMapped(node, false) }
        server.arrangeLayers(on: out)
        server.layerKeyboardChanged()
    }

    func surfaceDestroyed() { roleGone(surfaceStays: false) }

    override func resourceDestroyed() {
        guard case .layer(let l) = surface.role, l === self else { return }
        surface.role = .none
        roleGone(surfaceStays: true)
    }

    /// The protocol: no buffer may be attached before the first configure.
    var mayAttachBuffer: Bool {
        configuredSize != nil || closed || server.configuration.acceptsBufferBeforeFirstConfigure
    }

    func postUnconfiguredBuffer() {
        postError(
            ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SURFACE_STATE.rawValue,
            "wl_surface@\(wl_resource_get_id(surface.resource)) attached a buffer before the first configure")
    }
}

extension WaylandServer {
    /// The layer's node: a compositor node, child of the root, spanning the layout without
    /// clipping and taking no input itself (no area of its own), made when first used and
    /// stacked by the protocol's order around the window layer.
    func layerNode(_ layer: ShellLayer) -> NodeID {
        if let n = layerNodes[Int(layer.rawValue)] { return n }
        let tree = router.tree
        let n = tree.createNode(.compositor, name: "\(layer.name) layer", frame: Rect(0, 0, 0, 0))
        tree.setClipsChildren(n, false)
        // Next to the nearest existing layer on the way to the windows.
        switch layer {
        case .background: _ = tree.place(n, below: layerNodes[1] ?? outputNode)
        case .bottom: _ = tree.place(n, below: outputNode)
        case .top: _ = tree.place(n, above: outputNode)
        case .overlay: _ = tree.place(n, above: layerNodes[2] ?? outputNode)
        }
        layerNodes[Int(layer.rawValue)] = n
        return n
    }

    /// The output a layer surface made for no output goes on: the one under the first
    /// seat's cursor, the one the user most recently interacted with; else the first.
    func outputForNewLayerSurface() -> ServedOutput? {
        let c = seat.cursor
        let tree = router.tree
        return servedOutputs.first { o in
            guard let f = tree.frame(of: o.node) else { return false }
            return c.x >= Double(f.x) && c.y >= Double(f.y) && c.x < Double(f.x) + Double(f.width)
                && c.y < Double(f.y) + Double(f.height)
        } ?? servedOutputs.first
    }

    /// What windows may cover on `output`: its frame less the exclusive zones of its layer
    /// surfaces. The policy places new windows in it and, by default, fills it with the
    /// maximized ones (Policies/AskingThePolicy.swift).
    func usableArea(of output: ServedOutput) -> Rect {
        usableAreas[ObjectIdentifier(output)] ?? outputFrame(output)
    }

    /// Places the layer surfaces of `output` and configures those whose size changed; then
    /// maximized windows follow the usable area if it changed.
    func arrangeLayers(on output: ServedOutput?) {
        guard let output else { return }
        let full = outputFrame(output)
        var usable = full
        let surfaces = layerSurfaces.filter { $0.output === output && $0.initialCommitDone && !$0.closed }
        // Exclusive zones first, topmost layer first, then the rest.
        let ordered = ShellLayer.allCases.reversed().flatMap { layer in surfaces.filter { $0.current.layer == layer } }
        for pass in 0..<2 {
            for s in ordered where (s.current.exclusiveZone > 0) == (pass == 0) {
                let bounds = s.current.exclusiveZone == -1 ? full : usable
                guard let placed = Self.layerBox(s.current, in: bounds) else {
                    // Its margins leave no room: it cannot be shown.
                    s.close(arrange: false)
                    continue
                }
                s.place(placed.box, width: placed.width, height: placed.height)
                if pass == 0 { Self.reserve(s.current, from: &usable) }
            }
        }
        let before = usableAreas[ObjectIdentifier(output)] ?? full
        usableAreas[ObjectIdentifier(output)] = usable
        if before != usable { usableAreaChanged(output) }
    }

    /// Where the layer state puts a surface within `bounds`: centred on an axis anchored on
    /// both sides or on neither, else against its anchored edge, moved in by that edge's
    /// margin; a size of 0 spans the bounds less both margins. The configure's size is the
    /// box's. nil when the margins leave a negative size.
    /// In 64 bits, clamped back: sizes and margins are whatever a client sent.
    static func layerBox(_ s: LayerState, in bounds: Rect) -> (box: Rect, width: UInt32, height: UInt32)? {
        func axis(size: UInt32, low: Bool, high: Bool, start: Int32, length: Int32, marginLow: Int32, marginHigh: Int32)
            -> (Int32, Int32)?
        {
            let (start, length, marginLow, marginHigh) = (
                Int64(start), Int64(length), Int64(marginLow), Int64(marginHigh)
            )
            let placed: (Int64, Int64)
            if size == 0 {
                let l = length - marginLow - marginHigh
                guard l >= 0 else { return nil }
                placed = (start + marginLow, l)
            } else {
                let w = Int64(size)
                switch (low, high) {
                case (true, false): placed = (start + marginLow, w)
                case (false, true): placed = (start + length - w - marginHigh, w)
                default: placed = (start + (length - w) / 2, w) // both or neither: centred, margins ignored
                }
            }
            return (Int32(clamping: placed.0), Int32(clamping: placed.1))
        }
        let a = s.anchor
        guard
            let (x, w) = axis(
                size: s.width, low: a & Anchor.left != 0, high: a & Anchor.right != 0,
                start: bounds.x, length: bounds.width, marginLow: s.margin.left, marginHigh: s.margin.right),
            let (y, h) = axis(
                size: s.height, low: a & Anchor.top != 0, high: a & Anchor.bottom != 0,
                start: bounds.y, length: bounds.height, marginLow: s.margin.top, marginHigh: s.margin.bottom)
        else { return nil }
        return (Rect(x, y, w, h), UInt32(w), UInt32(h))
    }

    /// A positive exclusive zone reserves, from the one edge it is anchored to (alone, or
    /// with both edges across it), the zone plus that edge's margin.
    static func reserve(_ s: LayerState, from usable: inout Rect) {
        guard s.exclusiveZone > 0 else { return }
        let a = s.anchor
        // The zone plus a margin, in 64 bits: both are whatever the client sent.
        func band(_ margin: Int32) -> Int32 { Int32(clamping: max(Int64(s.exclusiveZone) + Int64(margin), 0)) }
        let across = (top: Anchor.left | Anchor.right, side: Anchor.top | Anchor.bottom)
        if a == Anchor.top || a == Anchor.top | across.top {
            let d = min(band(s.margin.top), usable.height)
            usable = Rect(usable.x, usable.y + d, usable.width, max(usable.height - d, 0))
        } else if a == Anchor.bottom || a == Anchor.bottom | across.top {
            let d = min(band(s.margin.bottom), usable.height)
            usable = Rect(usable.x, usable.y, usable.width, max(usable.height - d, 0))
        } else if a == Anchor.left || a == Anchor.left | across.side {
            let d = min(band(s.margin.left), usable.width)
            usable = Rect(usable.x + d, usable.y, max(usable.width - d, 0), usable.height)
        } else if a == Anchor.right || a == Anchor.right | across.side {
            let d = min(band(s.margin.right), usable.width)
            usable = Rect(usable.x, usable.y, max(usable.width - d, 0), usable.height)
        }
    }

    /// Maximized windows on `output` fill its new usable area.
    private func usableAreaChanged(_ output: ServedOutput) {
        for t in toplevels where t.maximized && !t.fullscreen { t.refill() }
    }

    // MARK: The keyboard

    /// The layer surface that holds every seat's keyboard: the topmost mapped one with
    /// `exclusive` interactivity on the top or overlay layer (the newest within a layer).
    var exclusiveKeyboardLayer: LayerSurfaceObject? {
        for layer in [ShellLayer.overlay, .top] {
            if let s = layerSurfaces.last(where: {
                $0.current.layer == layer && $0.current.keyboard == .exclusive && $0.isMapped && !$0.closed
            }) {
                return s
            }
        }
        return nil
    }

    /// After a layer surface mapped, unmapped, went or changed its interactivity: the
    /// exclusive one takes every seat's keyboard; when none is left, a seat whose focus was
    /// on the one that went falls back through its focus history (to where it was before).
    ///
    /// `mapped`: a layer surface that has just mapped. When it takes the keyboard on demand,
    /// a seat whose keyboard has no focus at all gives it the focus, as it would a new
    /// window: it takes it from no one (a panel restarted over a focused window does not
    /// get it: wayfire#2450, labwc#3373).
    func layerKeyboardChanged(mapped: NodeID? = nil) {
        let exclusive = exclusiveKeyboardLayer
        let held = exclusiveLayerNode
        exclusiveLayerNode = exclusive?.node
        for s in seats {
            if let node = exclusive?.node {
                if s.keyboardFirstResponder != node { _ = raiseAndFocusLayer(node, seat: s) }
            } else if let held, s.keyboardFirstResponder == held {
                s.resignKeyboardFocus(held)
            }
            if exclusive == nil, let mapped, s.keyboardFirstResponder == nil { raiseAndFocusLayer(mapped, seat: s) }
            // A surface that may no longer take the keyboard gives it up.
            if let f = s.keyboardFirstResponder, router.tree.kind(of: f) == .layer,
                !router.tree.canBecomeFirstResponder(f)
            {
                s.resignKeyboardFocus(f)
            }
        }
        sendDeliveries()
        for (i, s) in seats.enumerated() where s.keyboardFirstResponder != services(i).activationSource {
            keyboardFocusMoved(onSeat: i, to: s.keyboardFirstResponder)
        }
    }

    /// The layer surface `node` belongs to (itself, or the root of its popup chain).
    func layerSurfaceNode(of node: NodeID) -> NodeID? {
        let tree = router.tree
        var n: NodeID? = node
        while let c = n, let k = tree.kind(of: c) {
            if k == .layer { return c }
            if k != .popup && k != .subsurface { return nil }
            n = tree.parent(of: c)
        }
        return nil
    }

    /// Gives a layer surface the seat's keyboard, if it takes one.
    @discardableResult
    func raiseAndFocusLayer(_ node: NodeID, seat: Seat) -> Bool {
        guard router.tree.canBecomeFirstResponder(node) else { return false }
        return seat.setKeyboardFocus(node)
    }
}

extension XdgToplevel {
    /// A maximized window takes the usable area of the output again.
    func refill() {
        guard maximized, !fullscreen else { return }
        setMaximized(true, fullscreen: false)
    }
}
