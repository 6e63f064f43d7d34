// The one seam between the protocol code and the compositor's decisions. Everything the
// library would otherwise decide on a compositor's behalf is a field here: where a new
// toplevel goes, what a press does before it is delivered, which toplevels get a title
// bar, when frame callbacks are answered, what a maximized or fullscreen window fills,
// what the client's window-management requests may do, and who may make virtual devices.
// The policy is also told when toplevels map, unmap and close.
//
// The protocol code asks at named call sites only (AskingThePolicy.swift, and the press's
// capture phase in Server+Activation.swift). The defaults a standalone compositor wants are
// `CompositorPolicy.standalone` (StandalonePolicy.swift); an embedder starts from
// `CompositorPolicy.minimal` (MinimalPolicy.swift) and brings its own.
//
// A struct of closures, not a protocol: the press's question is one closure call, with no
// existential dispatch on the routing hot path, and an embedder replaces one decision by
// assigning one field. Every closure gets the server, so none has to capture it.
import InputRouter

/// The decisions the server makes for a compositor (docs/embedding.md, "Policies").
/// `WaylandServer.Configuration.policy` holds it; `WaylandServer.policy` replaces parts of
/// it while running, except `decorationStyle` and `framePacing`, read when the server starts.
public struct CompositorPolicy {
    // MARK: Windows

    /// Where a toplevel goes when it first maps: its window's top-left corner in layout
    /// space, given the toplevel and the usable area of the output it maps on (what layer
    /// surfaces' exclusive zones leave). nil answer, or no closure: it stays where it is (the
    /// layout origin, or where `placeWindow(_:x:y:)` put it). Asked once per toplevel, at
    /// its first map; a position is not applied to a window mapping maximized or
    /// fullscreen, or one the compositor placed before it mapped.
    public var placeToplevel:
        ((_ server: WaylandServer, _ toplevel: ToplevelInfo, _ usableArea: Rect) -> (x: Int32, y: Int32)?)?

    /// What a button press does before it is delivered (focus, raise, begin a move): asked in
    /// the press's capture phase for a press on a client's surface (on the routing hot path:
    /// keep it cheap), and for a press on a server-side title bar. No closure: presses do
    /// nothing but reach the client.
    public var pressed: ((_ server: WaylandServer, _ press: PressContext) -> PressActions)?

    /// The title bar drawn around toplevels that get server-side decorations; nil: none,
    /// and xdg-decoration is not offered. Read when the server starts.
    public var decorationStyle: DecorationStyle?

    /// Whether a toplevel gets server-side decorations, given what its client asked for
    /// through xdg-decoration (nil: it left the choice to the server). Asked only when
    /// `decorationStyle` is set.
    public var decorates: (_ server: WaylandServer, _ toplevel: ToplevelInfo?, _ requested: DecorationMode?) -> Bool = {
        _, _, requested in requested == .serverSide
    }

    /// When frame callbacks are answered. Read when the server starts.
    public var framePacing: FramePacing

    /// The rectangle a maximized or fullscreen toplevel fills on `output`, in layout space;
    /// the title bar (if any) is taken from its top. The default: the output's usable area
    /// for maximized, the whole output for fullscreen.
    public var fillArea:
        (_ server: WaylandServer, _ toplevel: ToplevelInfo, _ fill: FillState, _ output: OutputInfo, _ usableArea: Rect)
            -> Rect = {
                _, _, fill, output, usableArea in fill == .fullscreen ? output.frame : usableArea
            }

    /// Whether the library carries out a client's move, resize, maximize, unmaximize,
    /// fullscreen, unfullscreen or minimize request (it does nothing for minimize: a
    /// compositor that minimizes does it here). No closure: every request is carried out.
    /// A refused state request is still answered with a configure of the unchanged state.
    public var toplevelRequest:
        ((_ server: WaylandServer, _ request: ToplevelRequest, _ toplevel: ToplevelInfo) -> Bool)?

    /// Told when a toplevel maps (after it was placed and took the keyboard).
    public var toplevelMapped: ((_ server: WaylandServer, _ toplevel: ToplevelInfo) -> Void)?
    /// Told when a mapped toplevel unmaps (it committed no buffer, or it is closing).
    public var toplevelUnmapped: ((_ server: WaylandServer, _ toplevel: ToplevelInfo) -> Void)?
    /// Told when a toplevel that mapped at least once goes (its `xdg_toplevel` or its
    /// client did), after its unmap; its node is gone by the next request.
    public var toplevelClosed: ((_ server: WaylandServer, _ toplevel: ToplevelInfo) -> Void)?

    // MARK: Devices

    /// Which clients may make virtual input devices: asked with the client and the kind each
    /// time one asks for a virtual pointer, a virtual keyboard or an input method. nil:
    /// every client may, as on wlroots (VirtualDevicePolicy.swift). Never asked on the input path.
    public var mayCreateVirtualDevice: ((VirtualDeviceClient, VirtualDeviceKind) -> Bool)?

    /// A policy that decides nothing: no placement, no press actions, no decorations,
    /// frame callbacks answered when the compositor presents. `standalone` and `minimal`
    /// are the two starting points.
    public init(framePacing: FramePacing = .onPresent) {
        self.framePacing = framePacing
    }
}

/// A toplevel as the policy sees it.
public struct ToplevelInfo {
    /// Its surface's node (kind `.toplevel`).
    public var node: NodeID
    /// What moves and restacks: its decoration container, or `node` itself.
    public var window: NodeID
    /// Its client.
    public var client: ClientID
    /// `xdg_toplevel.set_app_id`, "" until set.
    public var appID: String
    /// `xdg_toplevel.set_title`, "" until set.
    public var title: String
    /// Its surface's size in logical pixels.
    public var width: Int32
    public var height: Int32
    /// The output it is on (the one holding its window's centre), else the first; nil
    /// with no output.
    public var output: OutputInfo?
    public var maximized: Bool
    public var fullscreen: Bool
}

/// Where a press landed, for `CompositorPolicy.pressed`.
public struct PressContext {
    /// The node pressed: a client's surface, or a title bar.
    public var node: NodeID
    /// The seat whose button it was.
    public var seat: Seat
    /// What `node` is.
    public var target: PressTarget
}

/// What was pressed.
public enum PressTarget: Sendable, Equatable {
    /// A client's surface (a toplevel's, a popup's, a subsurface's, a layer surface's),
    /// before the client hears of it; also a press its client did not take.
    case clientSurface
    /// The server-side title bar of `toplevel` (its surface's node).
    case titleBar(toplevel: NodeID)
}

/// What the library does with a press before (or, for a move, after) it is delivered.
public struct PressActions: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Raise the pressed surface's window and give it the seat's keyboard (`activate`).
    public static let activate = PressActions(rawValue: 1 << 0)
    /// Begin an interactive move of the pressed surface's window, once the press was sent.
    public static let beginMove = PressActions(rawValue: 1 << 1)
}

/// When frame callbacks are answered.
public enum FramePacing: Sendable, Equatable {
    /// On a timer of this period while any are waiting (16: about 60 Hz).
    case timer(milliseconds: Int32)
    /// When the compositor calls `sendFrameCallbacks()`, after it presented (its output's
    /// vblank, the nested window's frame); `hasWaitingFrameCallbacks` says when one is due.
    case onPresent
}

/// Which of the two filling states a geometry is asked for.
public enum FillState: Sendable, Equatable {
    case maximized
    case fullscreen
}

/// A client's window-management request, for `CompositorPolicy.toplevelRequest`.
public enum ToplevelRequest {
    /// `xdg_toplevel.move` with a valid serial, on `seat`.
    case move(seat: Seat)
    /// `xdg_toplevel.resize` with a valid serial, on `seat`.
    case resize(seat: Seat, edges: ResizeEdges)
    case maximize
    case unmaximize
    /// `set_fullscreen`, naming an output (its node) or none.
    case fullscreen(output: NodeID?)
    case unfullscreen
    case minimize
}
