// Explicit grabs: popups (xdg_popup.grab), interactive move and resize.
extension Seat {
    /// `xdg_popup.grab`: keyboard focus goes to the popup; pointer events reach only its
    /// client's surfaces; a press anywhere else dismisses every grabbing popup
    /// (`popup_done`, topmost first), and so does a touch down there. The caller checks the
    /// serial first (`isRecentPress(serial:client:)`: a button, touch or key press).
    @discardableResult
    public func beginPopupGrab(_ popup: NodeID) -> Bool {
        guard tree.kind(of: popup) == .popup, tree.canReceiveInput(popup), let client = tree.client(of: popup) else {
            return false
        }
        if case .popup(let c) = explicitGrab, c != client { dismissPopups() }
        guard explicitGrab.allowsRepick else { return false }
        popupStack.append(popup)
        explicitGrab = .popup(client)
        moveKeyboardFocus(to: popup)
        if heldButtonCount == 0 { lastFirstResponder = nil; repick(time: lastTime, motion: false) }
        flushPointerFrames()
        return true
    }

    /// Breaks the popup grab: `popup_done` to each popup, topmost first.
    public func dismissPopups() {
        let stack = popupStack
        popupStack.removeAll()
        if case .popup = explicitGrab { explicitGrab = .none }
        for p in stack.reversed() where tree.isAlive(p) { router.queue.append(.popupDone(id, p)) }
        if let f = keyboardFocus, stack.contains(f) {
            // Back to the popup chain's xdg parent, else the usual fallback.
            let parent = stack.first.flatMap(tree.nextResponderOverride(of:))
            if let p = parent, tree.canBecomeFirstResponder(p), tree.isVisible(p) {
                moveKeyboardFocus(to: p)
            } else {
                moveKeyboardFocus(to: fallbackFocus(excluding: f, client: keyboardFocusClient))
            }
        }
        lastFirstResponder = nil
    }

    public var popupGrabStack: [NodeID] { popupStack }

    /// A touch down outside the grabbing client's surfaces (what `hit` found) ends the
    /// popup grab, as a click there does. Returns whether it did: the event is consumed.
    func popupGrabDismissed(by hit: Hit?) -> Bool {
        guard case .popup(let client) = explicitGrab, hit.flatMap({ tree.client(of: $0.node) }) != client else {
            return false
        }
        dismissPopups()
        return true
    }

    /// `xdg_toplevel.move` (or a compositor binding): the node follows the cursor until the
    /// last button is released. The client gets a leave for the duration.
    ///
    /// `anchor` is the layout point that stays under the cursor: the position of the press
    /// the request cites (`Press.position`). A client asks only after its drag threshold,
    /// when the cursor has already left that point; the node catches up at once, so a drag
    /// moves it by exactly the distance the pointer went since the press (as in weston).
    /// nil: the cursor now (a compositor binding at the press itself).
    @discardableResult
    public func beginMove(_ node: NodeID, anchor: Point? = nil) -> Bool {
        guard tree.isVisible(node), explicitGrab == .none || isPopupGrab, let origin = tree.layoutPosition(of: node) else {
            return false
        }
        if isPopupGrab { dismissPopups() }
        let a = anchor ?? cursor
        let offset = Point(a.x - origin.x, a.y - origin.y)
        explicitGrab = .move(node, offset: offset)
        setPointerFocus(nil)
        if anchor != nil { moveGrabbed(node, offset: offset) }
        flushPointerFrames()
        return true
    }

    /// `xdg_toplevel.resize`: motion produces `resizeRequest` deliveries until release.
    @discardableResult
    public func beginResize(_ node: NodeID, edges: ResizeEdges) -> Bool {
        guard tree.isVisible(node), explicitGrab == .none || isPopupGrab, let frame = tree.frame(of: node) else {
            return false
        }
        if isPopupGrab { dismissPopups() }
        explicitGrab = .resize(node, edges: edges, start: cursor, startSize: frame)
        setPointerFocus(nil)
        flushPointerFrames()
        return true
    }

    var isPopupGrab: Bool { if case .popup = explicitGrab { true } else { false } }

    func moveGrabbed(_ node: NodeID, offset: Point) {
        let parent = tree.parent(of: node).flatMap(tree.layoutPosition(of:)) ?? .zero
        let x = (cursor.x - offset.x - parent.x).rounded(.down), y = (cursor.y - offset.y - parent.y).rounded(.down)
        tree.move(node, to: (saturatingPixels(x), saturatingPixels(y)))
    }

    func resizeGrabbed(_ node: NodeID, edges: ResizeEdges, start: Point, startSize: Rect) {
        let dx = saturatingPixels((cursor.x - start.x).rounded(.down))
        let dy = saturatingPixels((cursor.y - start.y).rounded(.down))
        var w = startSize.width, h = startSize.height
        if edges.contains(.right) { w &+= dx }
        if edges.contains(.left) { w &-= dx }
        if edges.contains(.bottom) { h &+= dy }
        if edges.contains(.top) { h &-= dy }
        router.queue.append(.resizeRequest(id, node, width: max(w, 1), height: max(h, 1)))
    }
}

/// Whole layout pixels, saturating at the Int32 range. With no output mapped the cursor is
/// not clamped to any, so it can be far beyond what Int64, let alone Int32, holds.
func saturatingPixels(_ v: Double) -> Int32 {
    v.isNaN ? 0 : Int32(min(max(v, Double(Int32.min)), Double(Int32.max)))
}
