/// `xdg_popup.grab`, on the open grab protocol: one grab for the pointer, touch and the
/// keyboard at once (as wlroots' xdg popup grab has three interfaces). The pointer reaches
/// only the popup client's surfaces; a press or touch down anywhere else dismisses every
/// popup of the stack (`popup_done`, topmost first) and is consumed; the keyboard stays on
/// the topmost popup.
final class PopupGrab: PointerGrab, TouchGrab, KeyboardGrab {
    /// Set again when the seat reuses this grab for another popup chain.
    var client: ClientID
    /// The grabbing popups, bottom first.
    var stack: [NodeID] = []

    init(client: ClientID) { self.client = client }

    // Pointer: the same picking, blind to other clients' surfaces.
    func enter(_ seat: Seat, hit: Hit?, time: UInt64) {
        seat.defaultPointerEnter(hit: hit.flatMap { seat.tree.client(of: $0.node) == client ? $0 : nil })
    }

    func button(_ seat: Seat, time: UInt64, button: UInt32, state: ButtonState) {
        if state == .pressed, seat.tree.hitTest(seat.cursor).flatMap({ seat.tree.client(of: $0.node) }) != client {
            seat.dismissPopups()
            seat.pointer.consumedButtons[Int(button)] = true // its release too
            return
        }
        seat.defaultPointerButton(time: time, button: button, state: state)
    }

    // Touch: a down outside the client's surfaces dismisses, as a click there does; the
    // point stays the grab's, so the rest of it goes nowhere.
    func down(_ seat: Seat, time: UInt64, slot: Int32, at point: Point, hit: Hit?) {
        if hit.flatMap({ seat.tree.client(of: $0.node) }) != client {
            seat.dismissPopups()
            return
        }
        seat.defaultTouchDown(time: time, slot: slot, at: point, hit: hit)
    }

    // Keyboard: only the topmost popup may take the focus (or nobody).
    func enter(_ seat: Seat, node: NodeID?) -> Bool {
        if let n = node, let top = stack.last, top != n { return false }
        return seat.defaultKeyboardEnter(node)
    }

    func cancel(_ seat: Seat) { seat.dismissPopups() }
}
