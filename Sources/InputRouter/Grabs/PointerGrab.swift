/// A pointer grab: while the seat holds one, every pointer event that gets past the
/// capture phase (gesture recognizers) is handed to it instead of the default routing —
/// wlroots' `wlr_pointer_grab_interface`, Smithay's `PointerGrab`. Popup, move, resize and
/// drag-and-drop grabs are grabs; so is anything an embedder writes.
///
/// The default behaviour is a grab too: every requirement has a default implementation
/// that does what the seat does with no grab (the `Seat.defaultPointer*` methods), so a
/// grab overrides only what it changes, and `DefaultPointerGrab` is the empty one. A grab
/// reaches clients through the seat's send verbs (`setPointerFocus(_:)`,
/// `sendPointerMotion(time:)`, `sendPointerButton(...)`, `emit(_:)`), which bypass grabs, as
/// wlroots' `wlr_seat_pointer_send_*` do.
///
/// Hot path: with no grab the seat checks one optional and routes statically; only while a
/// grab is installed does each event cost one dynamic call (a witness-table call on a
/// class: no allocation, no lookup). Installing a grab retains it; nothing else allocates.
///
/// Begin one with `Seat.beginPointerGrab(_:)`; it ends when it calls
/// `Seat.endPointerGrab(_:)`, or is cancelled (`cancel`) when something breaks it.
public protocol PointerGrab: AnyObject {
    /// The seat picked what is under the cursor again (motion with no button held, the
    /// last button's release, a scene change under a still cursor). `hit` is the core's
    /// hit-test at `seat.cursor`. Default: the responder chain from `hit` takes the focus
    /// (`defaultPointerEnter(hit:)`); a grab that keeps its own focus does nothing.
    func enter(_ seat: Seat, hit: Hit?, time: UInt64)
    /// The cursor moved to `seat.cursor` (after constraints and clamping). Default: motion to
    /// the focus, re-picking first when no button is held (`defaultPointerMotion(time:)`).
    func motion(_ seat: Seat, time: UInt64)
    /// A button went down or up on the seat (its first press or last release across
    /// devices). Default: to the pointer focus (`defaultPointerButton`).
    func button(_ seat: Seat, time: UInt64, button: UInt32, state: ButtonState)
    /// Scroll. Default: to the pointer focus (`defaultPointerAxis`).
    func axis(_ seat: Seat, time: UInt64, source: AxisSource, vertical: AxisValue?, horizontal: AxisValue?)
    /// The end of one input event: default, one `wl_pointer.frame` per client told
    /// something (`defaultPointerFrame()`).
    func frame(_ seat: Seat)
    /// The grab was broken from outside (another grab replaced it, the embedder or the seat
    /// cancelled it): it is already uninstalled when this is called, and should tidy up
    /// (a drag tells its source it was cancelled; a popup grab sends `popup_done`).
    func cancel(_ seat: Seat)
}

extension PointerGrab {
    /// Default: the responder chain from `hit` takes the focus, as with no grab.
    public func enter(_ seat: Seat, hit: Hit?, time: UInt64) { seat.defaultPointerEnter(hit: hit) }
    /// Default: motion to the focus, re-picking first when no button is held.
    public func motion(_ seat: Seat, time: UInt64) { seat.defaultPointerMotion(time: time) }
    /// Default: the button goes to the pointer focus, as with no grab.
    public func button(_ seat: Seat, time: UInt64, button: UInt32, state: ButtonState) {
        seat.defaultPointerButton(time: time, button: button, state: state)
    }
    /// Default: scroll goes to the pointer focus, as with no grab.
    public func axis(_ seat: Seat, time: UInt64, source: AxisSource, vertical: AxisValue?, horizontal: AxisValue?) {
        seat.defaultPointerAxis(time: time, source: source, vertical: vertical, horizontal: horizontal)
    }
    /// Default: one `wl_pointer.frame` per client told something.
    public func frame(_ seat: Seat) { seat.defaultPointerFrame() }
    /// Default: nothing to tidy up.
    public func cancel(_ seat: Seat) {}
}

/// The default behaviour as a grab value: installing it changes nothing a client sees
/// (tests check that a trace is the same with it and without). A grab that should act as
/// the default for some calls simply leaves them unimplemented.
public final class DefaultPointerGrab: PointerGrab {
    /// The empty grab; allocates one object, so make it at setup, not per event.
    public init() {}
}

/// `xdg_toplevel.resize_edge` as bits: top 1, bottom 2, left 4, right 8.
public struct ResizeEdges: OptionSet, Hashable, Sendable {
    /// The edge bits, as `xdg_toplevel.resize_edge` numbers them.
    public var rawValue: UInt32
    /// A set from raw bits (e.g. the protocol's edge value).
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Dragging the top edge: height grows upwards.
    public static let top = ResizeEdges(rawValue: 1)
    /// Dragging the bottom edge: height grows downwards.
    public static let bottom = ResizeEdges(rawValue: 2)
    /// Dragging the left edge: width grows leftwards.
    public static let left = ResizeEdges(rawValue: 4)
    /// Dragging the right edge: width grows rightwards.
    public static let right = ResizeEdges(rawValue: 8)
}
