// The input lock: while a session is locked, input reaches one subtree of the scene (the
// lock screen's node and its surfaces) and nothing else, on every seat. This is the input
// half of `ext_session_lock_v1`; the Wayland layer makes the node and its surfaces
// (SessionLock.swift), the core keeps input inside it.
//
// What holds while a scope is set:
// - Keyboard: focus may only be given to a node inside the scope (`defaultKeyboardEnter`
//   refuses others; the fallback after a destroyed or unmapped focus looks only inside,
//   else leaves the keyboard with nobody: a lock surface that goes never hands the keyboard
//   to a window, swaylock#204). A key with no focus goes to the scope's chain, not to the
//   seat's handler.
// - Bindings: the compositor's key bindings do not run, except those added with
//   `addBinding(_:whileLocked: true)`, the one escape (as sway's `bindsym --locked`): a
//   VT switch or a way to quit. The shortcuts-inhibit escape is not one: it ends only an
//   inhibitor or a pointer constraint, and there are none outside the scope.
// - Pointer, touch, tablets: no check per event. The scope's top-level node is kept the
//   topmost child of the root (raised at `lockInput` and again after any scene change that
//   put something above it); when it covers the layout and takes input, every hit lands in
//   it. Its own area (where there is no lock surface) should have a handler that takes
//   every event, so nothing bubbles past it to the seat's handler.
// - Grabs, recognizers and moves: a popup grab, a move or a resize of a node outside the
//   scope is refused; the gesture recognizers (compositor gestures, like bindings) are off.
//
// At `lockInput`, on every seat, what is in progress outside the scope ends as the core
// ends it elsewhere: popup grabs are dismissed (`popup_done`), other pointer, touch and
// keyboard grabs cancelled, a pointer constraint broken, touch points of clients outside
// cancelled (`wl_touch.cancel`), a touchpad gesture ended as cancelled, tablet tools
// leave, the keyboard focus leaves, and the pointer focus leaves its surface even under a
// held button (the button's release then goes nowhere), before the pointer is picked again.
extension Router {
    /// Locks input to the subtree of `scope`, on every seat (see the top of InputLock.swift):
    /// the keyboard only inside it, no key binding but the `whileLocked` ones, and everything
    /// in progress outside it ended. `scope`'s top-level node (itself, when it is a child of
    /// the root) is raised above the root's other children and kept there while the lock
    /// lasts; it should cover the layout, take input, and consume what reaches it. A dead
    /// `scope` is ignored. Locking again moves the lock to the new scope.
    public func lockInput(to scope: NodeID) {
        guard tree.isAlive(scope) else { return }
        inputLockScope = scope
        keepInputLockScopeOnTop()
        var i = 0
        while i < seats.count {
            seats[i].inputLockBegan()
            i += 1
        }
    }

    /// Lifts the lock: focus may move anywhere again and every binding runs. A seat whose
    /// keyboard is then with nobody falls back to the surface it had most recently (the
    /// one it had before the lock, when it is still there); the pointer is picked again.
    public func unlockInput() {
        guard inputLockScope != nil else { return }
        inputLockScope = nil
        var i = 0
        while i < seats.count {
            seats[i].inputLockEnded()
            i += 1
        }
    }

    /// Raises the scope's top-level node back above the root's other children, if something
    /// went above it. Its own report is not followed (`raisingInputLockScope`): the scene
    /// change that caused the raise is, and the seats pick once, after both.
    func keepInputLockScopeOnTop() {
        // A scope on the root's below list stays there (the embedder's choice, documented as
        // one that does not lock the pointer); above, it is the last child.
        guard let scope = inputLockScope, let top = tree.topLevelSlot(of: scope), tree.nodes[Int(top)].layer == .above,
            tree.nodes[0].lastAbove != top
        else { return }
        raisingInputLockScope = true
        tree.raiseToTop(tree.id(ofSlot: top))
        raisingInputLockScope = false
    }
}

extension SurfaceTree {
    /// Whether `node` is `ancestor` or inside its subtree (both alive). O(depth).
    func isInSubtree(_ node: NodeID, of ancestor: NodeID) -> Bool {
        guard let n = resolve(node), let a = resolve(ancestor) else { return false }
        return isAncestor(a, of: n)
    }

    /// The slot of the root's child `node` is under (itself when it is one); nil for a dead
    /// or detached node, or the root.
    func topLevelSlot(of node: NodeID) -> UInt32? {
        guard var i = resolve(node), i != 0 else { return nil }
        while true {
            let p = nodes[Int(i)].parent
            if p == 0 { return i }
            if p == NodeRecord.none { return nil }
            i = p
        }
    }
}

extension Seat {
    /// Whether `node` may take this seat's keyboard: anything when input is not locked, else
    /// only the lock's scope and what is inside it.
    @inline(__always) func mayTakeInput(_ node: NodeID) -> Bool {
        guard let scope = withRouter({ $0.inputLockScope }) else { return true }
        return tree.isInSubtree(node, of: scope)
    }

    /// Where a key, a pad event or an action starts when no node has the keyboard: the lock's
    /// scope while input is locked (whose handler takes it), else the seat.
    var keyboardChainStart: Responder {
        if let f = keyboard.focus { return .node(f) }
        if let scope = withRouter({ $0.inputLockScope }) { return .node(scope) }
        return .seat(id)
    }

    /// `lockInput` on this seat: everything in progress outside the scope ends (see the top
    /// of InputLock.swift), then the pointer and the tools are picked again.
    func inputLockBegan() {
        // Grabs: a popup grab outside the scope is dismissed (popup_done, the keyboard back
        // to the popup's parent, which is outside too and so refused); then every other grab.
        if let grab = popupGrab, grab.stack.contains(where: { !mayTakeInput($0) }) { dismissPopups() }
        if popupGrab == nil {
            cancelPointerGrab()
            cancelTouchGrab()
            cancelKeyboardGrab()
        }
        breakPointerConstraint()
        endRecognizersForLock()
        endGestureOutsideLock()
        cancelTouchesOutsideLock()
        for i in tablet.tools.indices where tablet.tools[i].active {
            if let f = tablet.tools[i].focus, !responderInsideLock(f) { leaveTool(i, time: lastTime) }
        }
        if let f = keyboard.focus, !mayTakeInput(f) {
            moveKeyboardFocus(to: fallbackFocus(excluding: f, client: keyboard.focusClient))
        }
        // A held button's implicit grab would keep sending motion to the window it was
        // pressed on: the focus leaves it now, the releases of the buttons held go nowhere,
        // and the pointer is picked again under the lock whatever is held.
        if pointer.heldButtonCount > 0 {
            for code in 0..<Seat.codeCount where pointer.buttonCounts[code] > 0 { pointer.consumedButtons[code] = true }
        }
        if let f = pointer.focus, !responderInsideLock(f) { setPointerFocus(nil) }
        pointer.lastFirstResponder = nil
        repick(time: lastTime, motion: false)
        flushPointerFrames()
        tabletSceneDidChange()
    }

    /// `unlockInput` on this seat: the keyboard comes back to its most recent surface when it
    /// is with nobody, the recognizers start afresh once idle, and the pointer is picked again.
    func inputLockEnded() {
        refocusKeyboardIfNeeded()
        if keyboard.focus == nil, let n = fallbackFocus(excluding: nil, client: keyboard.focusClient) {
            moveKeyboardFocus(to: n)
        }
        resetRecognizersIfIdle()
        pointer.lastFirstResponder = nil
        if pointer.heldButtonCount == 0 && pointerClaim == nil { repick(time: lastTime, motion: false) }
        flushPointerFrames()
        tabletSceneDidChange()
    }

    /// Whether `r` is inside the lock's scope (a client or seat responder never is).
    private func responderInsideLock(_ r: Responder) -> Bool {
        if case .node(let n) = r { return mayTakeInput(n) }
        return false
    }

    /// The recognizers are compositor gestures, off like the bindings: a claim ends, what
    /// they own goes nowhere, and they fail until the lock is lifted (`resetRecognizersIfIdle`
    /// leaves them so meanwhile).
    private func endRecognizersForLock() {
        guard !recognizers.isEmpty else { return }
        if pointerClaim != nil { pointerClaim = nil }
        touchClaim = nil
        for i in touch.points.indices {
            if case .recognizer = touch.points[i].owner { touch.points[i].owner = .cancelled }
        }
        for i in recognizerStates.indices { recognizerStates[i] = .failed }
    }

    /// A touchpad gesture in progress outside the scope: its client gets the end marked
    /// cancelled (pointer-gestures' way to take a gesture back); a compositor responder or a
    /// recognizer gets nothing more.
    private func endGestureOutsideLock() {
        switch pointer.gestureTarget {
        case .none:
            return
        case .client(let node, let kind, let fingers):
            guard !mayTakeInput(node) else { return }
            if tree.canReceiveInput(node) {
                enqueue(
                    .gesture(
                        id, node, time: lastTime,
                        GestureEvent(kind: kind, phase: .end, fingers: fingers, cancelled: true)))
            }
        case .responder(let r):
            guard !responderInsideLock(r) else { return }
        case .recognizer:
            break
        }
        pointer.gestureTarget = .none
    }

    /// Touch points owned outside the scope: their clients get `wl_touch.cancel` (all of a
    /// client's points at once, the protocol's only way), compositor responders `touchCancel`;
    /// the rest of each point goes nowhere.
    private func cancelTouchesOutsideLock() {
        for i in touch.points.indices {
            switch touch.points[i].owner {
            case .client(let n) where !mayTakeInput(n):
                cancelClientTouches(touch.points[i].client)
            case .responder(let r) where !responderInsideLock(r):
                if responderCanReceive(r) { _ = callHandler(r, .touchCancel) }
                touch.points[i].owner = .cancelled
            case .grab where touchGrab == nil: // the grab that kept it was cancelled above
                touch.points[i].owner = .cancelled
            default:
                break
            }
        }
    }
}
