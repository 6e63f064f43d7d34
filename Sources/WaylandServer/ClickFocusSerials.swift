// Focus-on-click sends `wl_keyboard.enter` and `modifiers` after the press that caused it
// (the press is delivered first, then the window activated). Toolkits that cite the newest
// serial they saw (GTK 3 in start_drag, move, resize and popup grabs) then cite the
// enter's serial for a drag begun by the very click that focused the window. Those serials
// stand for the press: a request citing one is read as citing the press, so the first
// click into an unfocused window can drag, move or open a menu as on sway and weston,
// which focus before they send the button.
import CWaylandServer
import InputRouter

/// The press of a client's last click and the serials its focus-on-click sent it,
/// `after` (exclusive) to `upTo` (inclusive), in the display's serial order.
struct ClickFocusSerials {
    var press: UInt32
    var after: UInt32
    var upTo: UInt32

    /// The press's serial when `serial` is one the click's focus change sent.
    func press(citing serial: UInt32) -> UInt32? {
        let offset = serial &- after
        return offset >= 1 && offset <= upTo &- after ? press : nil
    }
}

extension ClientState {
    /// The serial a grab request really cites: the press, for the serials its own
    /// focus-on-click sent; any other serial as it is.
    func pressSerial(citing serial: UInt32) -> UInt32 {
        clickFocus?.press(citing: serial) ?? serial
    }
}

extension WaylandServer {
    /// After focus-on-click activated `node`: the serials sent meanwhile (after `before`)
    /// stand for the press its client got, as long as no other press came.
    func noteClickFocusSerials(of node: NodeID, after before: UInt32) {
        // The client borrowed from the delivery table: `owner(of:)` returned it retained.
        guard let t = deliveryTargets[Int(node.index)], t.node == node else { return }
        let upTo = wl_display_get_serial(display)
        t.owner._withUnsafeGuaranteedRef { client in
            guard var click = client.clickFocus, click.press == click.upTo else { return }
            click.after = before
            click.upTo = upTo
            client.clickFocus = click
        }
    }
}
