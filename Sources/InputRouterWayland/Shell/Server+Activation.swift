// Which toplevel is `activated`: one whose own surface or popup chain holds a seat's
// keyboard (any seat's: with two seats, two windows can be activated at once). A menu taking the keyboard leaves its toplevel activated (GTK draws an inactive
// header bar otherwise), and closing it changes nothing the toplevel sees; only a focus
// that moves to another window, or to none, sends the configures.
//
// Unsafe idioms, and why: the capture-phase hook every seat calls on a press (`pressHook`)
// holds the server `unowned(unsafe)`. The seats are the server's router's and are driven
// through the server, which outlives every press they route; `[unowned self]` paid a strong
// load and its release per press, 130 instructions a click in libswiftCore
// (`wayland-bench --profile click`: 256 against 126). Measured again with it `[unowned self]`
// and the tree borrowed below (`_withUnsafeGuaranteedRef`) replaced by `let tree =
// router.tree`: 350 instructions more per click (six strong loads of the server per press,
// three retains of the tree), while a click has about 600 to spare under the 1.15x budget.
import CWaylandServer
import InputRouter

extension WaylandServer {
    /// Gives `node`'s toplevel the keyboard and raises it. While a popup grab holds the
    /// keyboard the seat refuses, and the popup keeps it (its toplevel stays activated).
    public func activate(_ node: NodeID) { activate(node, seat: seat) }

    /// Gives `node`'s toplevel the keyboard of `seat` and raises it; the other seats'
    /// keyboards stay where they are. From a press's capture phase (`beforePress`) it only
    /// queues the keyboard's leave, enter and modifiers, which the event's flush sends
    /// before the press; elsewhere it sends them at once.
    public func activate(_ node: NodeID, seat: Seat) {
        guard raiseAndFocus(node, seat: seat), !deciding else { return }
        // The queued wl_keyboard.enter goes out first, then the text-input enter and the
        // activated configure: a client enables its text input for the surface that has
        // its keyboard, and foot warns of an ime enter that comes before the keyboard's.
        sendDeliveries() // which follows every seat's focus when it moved
        let index = Int(seat.id.index)
        let focus = seat.keyboardFirstResponder
        if focus != services(index).activationSource { keyboardFocusMoved(onSeat: index, to: focus) }
    }

    /// Raises `node`'s toplevel and gives it `seat`'s keyboard (the leave, enter and
    /// modifiers queued); false when `node` belongs to no toplevel. A layer surface that
    /// takes the keyboard (LayerShell.swift) gets it the same way. While an exclusive layer
    /// surface holds the keyboard, a window is raised and the keyboard stays.
    private func raiseAndFocus(_ node: NodeID, seat: Seat) -> Bool {
        guard let top = toplevelNode(of: node) else {
            guard let layer = layerSurfaceNode(of: node), exclusiveLayerNode == nil || exclusiveLayerNode == layer
            else {
                return false
            }
            return raiseAndFocusLayer(layer, seat: seat)
        }
        raiseWindowNode(windowNode(of: top))
        if exclusiveLayerNode != nil { return false }
        seat.setKeyboardFocus(top)
        return true
    }

    /// The seat's capture phase for a press on a client's surface (`Seat.beforePress`), on
    /// every seat the server serves: what the policy's `pressed` decides, then the embedder's
    /// `beforePress`. The text-input enter and the activated configures follow the flush
    /// that sends the press (`followKeyboardFocus`).
    ///
    /// The server unowned(unsafe): the
    /// seats are the server's router's and are driven through the server, which outlives
    /// every press they route. `[unowned self]` cost a strong load and its release per press
    /// in the runtime (about 250 instructions a click, `wayland-bench --profile click`).
    var pressHook: (Seat, NodeID) -> Void {
        { [unowned(unsafe) self] seat, node in
            deciding = true
            defer { deciding = false }
            // While locked a press can only be on a lock surface: the keyboard follows it.
            if sessionLock.isLocked { return lockSurfacePressed(node, seat: seat) }
            // The policy's question (CompositorPolicy.pressed): one closure call, no existential.
            if let pressed = configuration.policy.pressed {
                let actions = pressed(self, PressContext(node: node, seat: seat, target: .clientSurface))
                if !actions.isEmpty { carryOut(actions, pressOn: node, seat: seat) }
            }
            if let decide = beforePress { decide(node, seat) }
        }
    }

    /// What the policy decided for a press on a client's surface: the focus now (queued
    /// before the press), a move once the press was sent.
    private func carryOut(_ actions: PressActions, pressOn node: NodeID, seat: Seat) {
        if actions.contains(.activate) { _ = raiseAndFocus(node, seat: seat) }
        if actions.contains(.beginMove), let top = toplevelNode(of: node) {
            let window = windowNode(of: top)
            afterDeliveries.append { seat.beginMove(window) }
        }
    }

    /// The seat a new window of `client` takes the keyboard of: the one that last sent the
    /// client a user action (a window opened from a menu, a dialog from a key), else the one
    /// with the newest user action of all (a program launched from a terminal on that seat),
    /// else the first seat. With one seat, that seat. A window that answers an activation
    /// token is moved to the token's seat when the client activates it (Activation.swift).
    func seatForNewWindow(of client: ClientID) -> Seat {
        let seats = router.seats
        guard seats.count > 1 else { return seat }
        func newest(_ serial: (Seat) -> Serial?) -> Seat? {
            var best: (seat: Seat, serial: Serial)?
            for s in seats {
                if let n = serial(s), best.map({ $0.serial < n }) ?? true { best = (s, n) }
            }
            return best?.seat
        }
        return newest { $0.newestActionSerial(to: client) } ?? newest { $0.newestActionSerial(to: nil) } ?? seat
    }

    /// The toplevel `node` belongs to: itself, or the root of its subsurface or popup chain.
    /// Inline: a click's raise and its focus follow-up each called it (~10 a call).
    @inline(__always) func toplevelNode(of node: NodeID) -> NodeID? {
        // Borrowed: `let tree = router.tree` retained and released it (twice per click).
        Unmanaged.passUnretained(router.tree)._withUnsafeGuaranteedRef { tree in
            var n: NodeID? = node
            while let c = n, tree.kind(of: c) != .toplevel { n = tree.parent(of: c) }
            return n
        }
    }

    /// Follows seat `index`'s keyboard focus, `focus` (its caller read it to compare): its
    /// text inputs' focus moves with it, its client is offered that seat's selections, and when the toplevel the focus belongs to
    /// changed, the old and the new one get a configure with their new states. A toplevel is
    /// `activated` while any seat's keyboard is in it. Called after every flush once the
    /// focus was compared (the common case, it did not move, costs that comparison).
    func keyboardFocusMoved(onSeat index: Int, to focus: NodeID?) {
        if index >= seatServices.count { _ = services(index) } // a new seat's; then read in place
        // Each use reads `seatServices[index]` afresh: a `let services` held across these
        // calls was retained and released, and so was each object reached from it.
        seatServices[index].activationSource = focus
        seatServices[index].textInput.keyboardFocusChanged(to: focus)
        // The selections' holder seldom changes (one client's windows): compared by id
        // first, without the client's retain.
        if focus.flatMap(ownerID(of:)) != seatServices[index].selections.focusClient {
            selectionsFollowKeyboard(to: keyboardFocusClient(onSeat: index), seat: index)
        }
        let top = focus.flatMap(toplevelNode(of:))
        let previous = seatServices[index].activatedToplevel
        guard top != previous else { return }
        seatServices[index].activatedToplevel = top
        // Two calls, not a loop over [previous, top]: that array was an allocation per focus change.
        sendActivationConfigure(previous)
        sendActivationConfigure(top)
    }

    /// The toplevel's and its xdg_surface's configures (once the first was sent), both
    /// objects borrowed from the delivery table; one call, where `XdgSurfaceObject.sendConfigure()`
    /// and its closure were two more.
    private func sendActivationConfigure(_ node: NodeID?) {
        guard let node else { return }
        _ = withToplevel(node) { x, top -> Void? in
            if x.initialConfigureSent { x.sendConfigure(top, node: node) }
            return ()
        }
    }

    /// Raises window node `w`. Stacking is not position: each surface stays on the outputs
    /// it was on and each popup where its parent put it, so when those were current before
    /// the raise they are current after it (`followSceneChanges` then skips recomputing
    /// them, per click).
    func raiseWindowNode(_ w: NodeID) {
        // Borrowed: `let tree = router.tree` retained and released it (once per click).
        Unmanaged.passUnretained(router.tree)._withUnsafeGuaranteedRef { tree in
            let before = tree.sceneGeneration
            tree.raiseToTop(w)
            if sceneGenerationFollowed == before { sceneGenerationFollowed = tree.sceneGeneration }
        }
    }
}
