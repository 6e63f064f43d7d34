// The named call sites where the protocol code asks the policy (CompositorPolicy.swift)
// or tells it something. Each is asked once per request, map or configure, never per
// routed event; the press's question, on the hot path, is asked in `pressHook`
// (Server+Activation.swift).
import InputRouter

extension WaylandServer {
    /// The policy the server asks (`Configuration.policy`). Changing it while running takes
    /// effect at the next question, except `decorationStyle` and `framePacing`, read when
    /// the server starts.
    public var policy: CompositorPolicy {
        get { configuration.policy }
        set { configuration.policy = newValue }
    }

    /// The toplevel whose surface is `node`, as the policy sees it; nil when `node` is not
    /// a toplevel's surface.
    public func toplevelInfo(of node: NodeID) -> ToplevelInfo? {
        guard let surface = surface(for: node), case .xdg(let xdg) = surface.role,
            case .toplevel(let top) = xdg.roleObject
        else { return nil }
        return info(of: top)
    }

    func info(of top: XdgToplevel) -> ToplevelInfo? {
        guard let node = top.node, let window = top.windowNode else { return nil }
        let f = router.tree.frame(of: node) ?? Rect(0, 0, 0, 0)
        return ToplevelInfo(
            node: node, window: window, client: top.owner.id, appID: top.appID, title: top.title,
            width: f.width, height: f.height, output: outputHolding(window).map(outputInfo),
            maximized: top.maximized, fullscreen: top.fullscreen)
    }

    /// The output holding the centre of `window`, else the first.
    func outputHolding(_ window: NodeID) -> ServedOutput? {
        let tree = router.tree
        guard let at = tree.layoutPosition(of: window), let size = tree.frame(of: window) else {
            return servedOutputs.first
        }
        let cx = at.x + Double(size.width) / 2
        let cy = at.y + Double(size.height) / 2
        return servedOutputs.first { o in
            let f = outputFrame(o)
            return cx >= Double(f.x) && cy >= Double(f.y) && cx < Double(f.x) + Double(f.width)
                && cy < Double(f.y) + Double(f.height)
        } ?? servedOutputs.first
    }

    /// Where the policy puts `top` at its first map; nil: where it is.
    func askPlacement(for top: XdgToplevel) -> (x: Int32, y: Int32)? {
        guard let place = configuration.policy.placeToplevel, var info = info(of: top) else { return nil }
        // New windows map on the first output (its usable area: below a panel's exclusive zone).
        let output = servedOutputs.first
        info.output = output.map(outputInfo)
        let area = output.map(usableArea(of:)) ?? Rect(0, 0, 0, 0)
        return place(self, info, area)
    }

    /// What `top` fills when `fill`, on `output` (nil: the one holding it).
    func askFillArea(for top: XdgToplevel, _ fill: FillState, output: ServedOutput? = nil) -> Rect? {
        guard var info = info(of: top), let o = output ?? outputHolding(info.window) else { return nil }
        info.output = outputInfo(o)
        return configuration.policy.fillArea(self, info, fill, outputInfo(o), usableArea(of: o))
    }

    /// Whether the library carries out `request` for `top`.
    func asksGrant(_ request: ToplevelRequest, for top: XdgToplevel) -> Bool {
        guard let decide = configuration.policy.toplevelRequest else { return true }
        guard let info = info(of: top) else { return false }
        return decide(self, request, info)
    }

    /// Tells the policy `top` mapped, unmapped or closed.
    func tellToplevelMapped(_ top: XdgToplevel) {
        if let told = configuration.policy.toplevelMapped, let info = info(of: top) { told(self, info) }
    }
    func tellToplevelUnmapped(_ top: XdgToplevel) {
        if let told = configuration.policy.toplevelUnmapped, let info = info(of: top) { told(self, info) }
    }
    func tellToplevelClosed(_ top: XdgToplevel) {
        if let told = configuration.policy.toplevelClosed, let info = info(of: top) { told(self, info) }
    }

    /// The title bar's style, when the server draws them at all.
    var decorationStyle: DecorationStyle? { configuration.policy.decorationStyle }
    /// Whether xdg-decoration is offered: only by a server that draws title bars.
    var drawsTitleBars: Bool { configuration.policy.decorationStyle != nil }

    /// Server-side exactly when the server draws decorations and the policy gives `top`
    /// one for what its client asked; client-side otherwise.
    func decorationMode(for top: XdgToplevel?, requested: DecorationMode?) -> DecorationMode {
        guard decorationStyle != nil else { return .clientSide }
        return configuration.policy.decorates(self, top.flatMap(info(of:)), requested) ? .serverSide : .clientSide
    }

    /// What a press on a title bar (or one its client did not take) does.
    func askPressActions(_ press: PressContext) -> PressActions {
        configuration.policy.pressed?(self, press) ?? []
    }

    /// The frame timer's period; nil: callbacks wait for `sendFrameCallbacks()`.
    var frameTimerPeriod: Int32? {
        if case .timer(let ms) = configuration.policy.framePacing { return ms }
        return nil
    }

    /// Who may make virtual devices (VirtualDevicePolicy.swift).
    var virtualDevicePolicy: ((VirtualDeviceClient, VirtualDeviceKind) -> Bool)? {
        configuration.policy.mayCreateVirtualDevice
    }
}
