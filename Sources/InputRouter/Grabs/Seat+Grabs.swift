// Installing and ending grabs (PointerGrab, TouchGrab, KeyboardGrab), and the built-in
// ones written on them: popups (xdg_popup.grab), interactive move and resize.
extension Seat {
    // MARK: The grab slots

    /// The pointer grab in force, nil for the default behaviour.
    public var activePointerGrab: (any PointerGrab)? { pointerGrab }
    /// The touch grab in force, nil for the default behaviour.
    public var activeTouchGrab: (any TouchGrab)? { touchGrab }
    /// The keyboard grab in force, nil for the default behaviour.
    public var activeKeyboardGrab: (any KeyboardGrab)? { keyboardGrab }

    /// Installs `grab` for the pointer; the grab in force before is cancelled first (as
    /// Smithay's `set_grab` unsets the old one). The pointer focus stays as it is: a grab
    /// that wants another calls `setPointerFocus(_:)`.
    public func beginPointerGrab(_ grab: any PointerGrab) {
        cancelPointerGrab()
        pointerGrab = grab
        pointer.lastFirstResponder = nil
    }

    /// The grab ends itself (a drop, a finished move). Only `grab` is ended: a stale grab
    /// cannot end its successor. With no button held the pointer is picked again at once.
    public func endPointerGrab(_ grab: any PointerGrab) {
        guard pointerGrab === grab else { return }
        clearPointerGrab()
        if pointer.heldButtonCount == 0 && pointerClaim == nil { repick(time: lastTime, motion: false) }
        flushPointerFrames()
    }

    /// Breaks the pointer grab from outside: it is uninstalled, then told (`cancel`).
    public func cancelPointerGrab() {
        guard let old = pointerGrab else { return }
        tree.journalNote(.cancelPointerGrab, NodeID(index: 0, generation: 0)) { $0.seat = id.index }
        clearPointerGrab()
        old.cancel(self)
    }

    func clearPointerGrab() {
        pointerGrab = nil
        pointer.lastFirstResponder = nil
    }

    /// Installs `grab` for touch; the grab in force before is cancelled first.
    public func beginTouchGrab(_ grab: any TouchGrab) {
        cancelTouchGrab()
        touchGrab = grab
    }

    /// Points the grab kept go nowhere afterwards; the others go on to their owners.
    public func endTouchGrab(_ grab: any TouchGrab) {
        if touchGrab === grab { touchGrab = nil }
    }

    /// Cancels the touch grab in force, if any, and tells it (`cancel`); default routing resumes.
    public func cancelTouchGrab() {
        guard let old = touchGrab else { return }
        touchGrab = nil
        old.cancel(self)
    }

    /// The keyboard focus stays as it is: a grab that wants another moves it itself.
    public func beginKeyboardGrab(_ grab: any KeyboardGrab) {
        cancelKeyboardGrab()
        keyboardGrab = grab
    }

    /// Ends `grab` if it is the keyboard grab in force (a grab ending itself); no cancel is sent.
    public func endKeyboardGrab(_ grab: any KeyboardGrab) {
        if keyboardGrab === grab { keyboardGrab = nil }
    }

    /// Cancels the keyboard grab in force, if any, and tells it (`cancel`); default routing resumes.
    public func cancelKeyboardGrab() {
        guard let old = keyboardGrab else { return }
        keyboardGrab = nil
        old.cancel(self)
    }

    // MARK: Popups

    /// `xdg_popup.grab`: keyboard focus goes to the popup; pointer events reach only its
    /// client's surfaces; a press anywhere else dismisses every grabbing popup
    /// (`popup_done`, topmost first), and so does a touch down there. The caller checks the
    /// serial first (`serialEntry(_:client:for: .popupGrab)`, SerialRecord.swift). Refused
    /// (false) for a popup outside the scope input is locked to (InputLock.swift).
    @discardableResult
    public func beginPopupGrab(_ popup: NodeID) -> Bool {
        guard tree.kind(of: popup) == .popup, tree.canReceiveInput(popup), mayTakeInput(popup),
            let client = tree.client(of: popup)
        else { return false }
        if let p = popupGrab, p.client != client { dismissPopups() }
        // A move, resize or an embedder's grab holds the pointer: no popup grab meanwhile.
        if let g = pointerGrab, g !== popupGrab { return false }
        let grab: PopupGrab
        if let p = popupGrab {
            grab = p
        } else {
            // The last grab, reused: opening a popup allocates nothing.
            grab = idlePopupGrab ?? PopupGrab(client: client)
            idlePopupGrab = nil
            grab.client = client
            popupGrab = grab
            pointerGrab = grab
            beginTouchGrab(grab)
            beginKeyboardGrab(grab)
        }
        grab.stack.append(popup)
        moveKeyboardFocus(to: popup)
        if pointer.heldButtonCount == 0 {
            pointer.lastFirstResponder = nil
            repick(time: lastTime, motion: false)
        }
        flushPointerFrames()
        return true
    }

    /// Breaks the popup grab: `popup_done` to each popup, topmost first.
    public func dismissPopups() {
        tree.journalNote(.dismissPopups, NodeID(index: 0, generation: 0)) { $0.seat = id.index }
        pointer.lastFirstResponder = nil
        guard let grab = popupGrab else { return }
        // Taken out, not copied, and handed back below: its buffer stays unique and is kept.
        var stack: [NodeID] = []
        swap(&stack, &grab.stack)
        endPopupGrab()
        defer {
            stack.removeAll(keepingCapacity: true)
            if idlePopupGrab === grab { grab.stack = stack }
        }
        for p in stack.reversed() where tree.isAlive(p) { enqueue(.popupDone(id, p)) }
        if let f = keyboard.focus, stack.contains(f) {
            // Back to the popup chain's xdg parent, else the usual fallback.
            let parent = stack.first.flatMap(tree.nextResponderOverride(of:))
            if let p = parent, tree.canBecomeFirstResponder(p), tree.isVisible(p) {
                moveKeyboardFocus(to: p)
            } else {
                moveKeyboardFocus(to: fallbackFocus(excluding: f, client: keyboard.focusClient))
            }
        }
        pointer.lastFirstResponder = nil
    }

    /// Uninstalls the popup grab from every slot it holds, telling nobody.
    func endPopupGrab() {
        guard let grab = popupGrab else { return }
        popupGrab = nil
        grab.stack.removeAll(keepingCapacity: true)
        idlePopupGrab = grab
        if pointerGrab === grab { clearPointerGrab() }
        if touchGrab === grab { touchGrab = nil }
        if keyboardGrab === grab { keyboardGrab = nil }
    }

    /// The popups of the open popup grab, bottom to top (the last is the one that keeps the
    /// keyboard); empty when none.
    public var popupGrabStack: [NodeID] { popupGrab?.stack ?? [] }

    /// Popups that can no longer take input leave the stack; an empty stack ends the grab.
    func prunePopupGrab() {
        guard let grab = popupGrab else { return }
        grab.stack.removeAll { !tree.canReceiveInput($0) }
        if grab.stack.isEmpty { endPopupGrab() }
    }

    // MARK: Move and resize

    /// `xdg_toplevel.move` (or a compositor binding): the node follows the cursor until the
    /// last button is released. The client gets a leave for the duration.
    ///
    /// `anchor` is the layout point that stays under the cursor: the position of the press
    /// the request cites (`Press.position`). A client asks only after its drag threshold,
    /// when the cursor has already left that point; the node catches up at once, so a drag
    /// moves it by exactly the distance the pointer went since the press (as in weston).
    /// nil: the cursor now (a compositor binding at the press itself). Refused for a node
    /// outside the scope input is locked to.
    @discardableResult
    public func beginMove(_ node: NodeID, anchor: Point? = nil) -> Bool {
        tree.journaled(
            .beginMove,
            {
                $0.seat = id.index
                $0.node = node
                $0.point = anchor
            }, { beginMoveNow(node, anchor: anchor) })
    }

    private func beginMoveNow(_ node: NodeID, anchor: Point?) -> Bool {
        guard tree.isVisible(node), mayTakeInput(node), pointerGrab == nil || popupGrab != nil,
            let origin = tree.layoutPosition(of: node)
        else {
            return false
        }
        dismissPopups()
        let a = anchor ?? cursor
        let offset = Point(a.x - origin.x, a.y - origin.y)
        pointerGrab = MoveGrab(node: node, offset: offset)
        setPointerFocus(nil)
        if anchor != nil { moveGrabbed(node, offset: offset) }
        flushPointerFrames()
        return true
    }

    /// `xdg_toplevel.resize`: motion produces `resizeRequest` deliveries until release.
    /// Refused for a node outside the scope input is locked to.
    @discardableResult
    public func beginResize(_ node: NodeID, edges: ResizeEdges) -> Bool {
        tree.journaled(
            .beginResize,
            {
                $0.seat = id.index
                $0.node = node
                $0.a = Int32(bitPattern: edges.rawValue)
            }, { beginResizeNow(node, edges: edges) })
    }

    private func beginResizeNow(_ node: NodeID, edges: ResizeEdges) -> Bool {
        guard tree.isVisible(node), mayTakeInput(node), pointerGrab == nil || popupGrab != nil,
            let frame = tree.frame(of: node)
        else {
            return false
        }
        dismissPopups()
        pointerGrab = ResizeGrab(node: node, edges: edges, start: cursor, startSize: frame)
        setPointerFocus(nil)
        flushPointerFrames()
        return true
    }

    func moveGrabbed(_ node: NodeID, offset: Point) {
        let parent = tree.parent(of: node).flatMap(tree.layoutPosition(of:)) ?? .zero
        let x = (cursor.x - offset.x - parent.x).rounded(.down)
        let y = (cursor.y - offset.y - parent.y).rounded(.down)
        tree.move(node, to: keepingReachable(node, at: (saturatingPixels(x), saturatingPixels(y))))
    }

    func resizeGrabbed(_ node: NodeID, edges: ResizeEdges, start: Point, startSize: Rect) {
        let dx = saturatingPixels((cursor.x - start.x).rounded(.down))
        let dy = saturatingPixels((cursor.y - start.y).rounded(.down))
        var w = startSize.width
        var h = startSize.height
        if edges.contains(.right) { w &+= dx }
        if edges.contains(.left) { w &-= dx }
        if edges.contains(.bottom) { h &+= dy }
        if edges.contains(.top) { h &-= dy }
        enqueue(.resizeRequest(id, node, width: max(w, 1), height: max(h, 1)))
    }
}

/// Whole layout pixels, saturating at the Int32 range. With no output mapped the cursor is
/// not clamped to any, so it can be far beyond what Int64, let alone Int32, holds.
func saturatingPixels(_ v: Double) -> Int32 {
    v.isNaN ? 0 : Int32(min(max(v, Double(Int32.min)), Double(Int32.max)))
}
