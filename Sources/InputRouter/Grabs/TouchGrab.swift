/// A touch grab: while the seat holds one, touch points that get past the capture phase
/// (gesture recognizers) are handed to it — wlroots' `wlr_touch_grab_interface`, Smithay's
/// `TouchGrab`. The default implementations are what the seat does with no grab.
///
/// The seat tracks every point itself (slot, device), so a grab never sees motion or up
/// for a slot that had no down. A point whose down the grab keeps for itself (does not
/// pass to `defaultTouchDown`) belongs to the grab: its motion and up come to the grab,
/// and after the grab ends they go nowhere. A libinput cancel of such a point cancels the
/// grab.
///
/// Hot path: as for `PointerGrab`, one optional check with no grab; one witness-table
/// call per event with one.
public protocol TouchGrab: AnyObject {
    /// A new point at `point` (layout space); `hit` is the core's hit-test there. Default:
    /// the responder chain from `hit` owns the point until up (`defaultTouchDown`).
    func down(_ seat: Seat, time: UInt64, slot: Int32, at point: Point, hit: Hit?)
    /// A point went up. Default: `up` to its owner (`defaultTouchUp`).
    func up(_ seat: Seat, time: UInt64, slot: Int32)
    /// A point moved. Default: motion to its owner (`defaultTouchMotion`).
    func motion(_ seat: Seat, time: UInt64, slot: Int32, at point: Point)
    /// The end of a hardware frame. Default: `wl_touch.frame` to each client told something.
    /// (Not `frame`: one class may be a pointer and a touch grab at once, as the popup grab
    /// is, and the two frames must stay apart; one `cancel` serves both.)
    func touchFrame(_ seat: Seat)
    /// The grab was broken from outside; it is already uninstalled.
    func cancel(_ seat: Seat)
}

extension TouchGrab {
    /// Default: the responder chain from `hit` owns the point until up.
    public func down(_ seat: Seat, time: UInt64, slot: Int32, at point: Point, hit: Hit?) {
        seat.defaultTouchDown(time: time, slot: slot, at: point, hit: hit)
    }
    /// Default: `up` to the point's owner.
    public func up(_ seat: Seat, time: UInt64, slot: Int32) { seat.defaultTouchUp(time: time, slot: slot) }
    /// Default: motion to the point's owner.
    public func motion(_ seat: Seat, time: UInt64, slot: Int32, at point: Point) {
        seat.defaultTouchMotion(time: time, slot: slot, at: point)
    }
    /// Default: `wl_touch.frame` to each client told something.
    public func touchFrame(_ seat: Seat) { seat.defaultTouchFrame() }
    /// Default: nothing to tidy up.
    public func cancel(_ seat: Seat) {}
}

/// The default touch behaviour as a grab value: installing it changes nothing.
public final class DefaultTouchGrab: TouchGrab {
    /// The empty grab; allocates one object, so make it at setup, not per event.
    public init() {}
}
