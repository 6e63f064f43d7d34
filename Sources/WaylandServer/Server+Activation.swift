// Which toplevel is `activated`: the one whose own surface or popup chain holds the
// keyboard. A menu taking the keyboard leaves its toplevel activated (GTK draws an inactive
// header bar otherwise), and closing it changes nothing the toplevel sees; only a focus
// that moves to another window, or to none, sends the configures.
import InputRouter

extension WaylandServer {
    /// Gives `node`'s toplevel the keyboard and raises it. While a popup grab holds the
    /// keyboard the seat refuses, and the popup keeps it (its toplevel stays activated).
    /// Not from inside a flush (the seat's handlers queue it in `afterDeliveries`).
    public func activate(_ node: NodeID) {
        guard let top = toplevelNode(of: node) else { return }
        router.tree.raiseToTop(windowNode(of: top))
        seat.setKeyboardFocus(top)
        // The queued wl_keyboard.enter goes out first, then (in sendDeliveries) the
        // text-input enter and the activated configure: a client enables its text input
        // for the surface that has its keyboard, and foot warns of an ime enter that comes
        // before the keyboard's.
        sendDeliveries()
        updateActivatedToplevel()
    }

    /// The toplevel `node` belongs to: itself, or the root of its subsurface or popup chain.
    func toplevelNode(of node: NodeID) -> NodeID? {
        let tree = router.tree
        var n: NodeID? = node
        while let c = n, tree.kind(of: c) != .toplevel { n = tree.parent(of: c) }
        return n
    }

    /// Follows the keyboard focus: when the toplevel it belongs to changed, the old and the
    /// new one get a configure with their new states. Called after every flush; the focus is
    /// compared first, so the common case (it did not move) costs one comparison.
    func updateActivatedToplevel() {
        let focus = seat.keyboardFirstResponder
        activationSource = focus
        textInput.keyboardFocusChanged(to: focus)
        let top = focus.flatMap(toplevelNode(of:))
        guard top != activatedToplevel else { return }
        let previous = activatedToplevel
        activatedToplevel = top
        for n in [previous, top] {
            guard let n, let s = surface(for: n), case .xdg(let x) = s.role, case .toplevel = x.roleObject,
                x.initialConfigureSent
            else { continue }
            x.sendConfigure()
        }
    }
}
