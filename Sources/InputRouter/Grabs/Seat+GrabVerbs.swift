// The send verbs a grab uses to tell clients what it decides: they act at once and bypass
// grabs (wlroots' `wlr_seat_*_send_*` against the `notify_*` that go through them).
extension Seat {
    /// Gives the pointer to `node` directly, without the responder chain: leave to the old
    /// focus, enter to `node` at the cursor (a compositor node's handler gets the enter).
    /// nil: nobody has it, so no `wl_pointer` event reaches any client (a drag does this).
    public func focusPointer(on node: NodeID?) {
        guard let n = node else {
            setPointerFocus(nil)
            return
        }
        guard tree.canReceiveInput(n) else { return }
        if clientSurface(.node(n)) == nil, let local = tree.localPoint(cursor, in: n) {
            _ = callHandler(.node(n), .pointerEnter(local))
        }
        setPointerFocus(.node(n))
    }

    /// Motion to the pointer focus at the cursor (or its chain's handlers when the focus is
    /// a compositor responder), with no picking.
    public func sendPointerMotion(time: UInt64) { deliverMotion(time: time, hit: nil) }

    /// A button to the pointer focus, with no picking; a press's serial is recorded.
    public func sendPointerButton(time: UInt64, button: UInt32, state: ButtonState) {
        deliverButton(time: time, button: button, state: state)
    }

    /// Appends a delivery of the grab's own choosing (to any target) to the router's queue.
    /// `frameFor`: the client also gets a `wl_pointer.frame` at the end of this event.
    public func emit(_ delivery: Delivery, frameFor client: ClientID? = nil) {
        enqueue(delivery)
        if let c = client { markFrame(c) }
    }

    /// A fresh serial from the router's sequence (the display's, under Wayland). Inline in
    /// the seat's own uses (every enter, leave, button and key): the call and its frame were
    /// about ten instructions of each serial.
    @inline(__always) public func nextSerial() -> UInt32 { withRouter { $0.nextSerial() } }

    /// The core's hit-test at a layout point: what is under the pointer or a touch point.
    public func hitTest(_ point: Point) -> Hit? { tree.hitTest(point) }

    /// How many buttons are held across the seat's devices (a drag drops at zero).
    public var heldButtons: Int { pointer.heldButtonCount }
}
