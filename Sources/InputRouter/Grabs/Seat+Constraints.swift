// Relative motion and pointer constraints: which surface gets relative deltas, when a
// lock or confinement is active, where a confined cursor may go. The Wayland layer only
// registers constraints and sends what is decided here.
//
// A constraint is active only while its surface has the pointer focus, its window is the
// selected one (holds the keyboard focus, itself or through a popup or subsurface: Mir,
// sway and KWin activate constraints only for the focused window, and WLCS checks that a
// persistent lock ends when another window takes the keyboard and comes back with it;
// `constraintsNeedKeyboardFocus` turns this off), and the cursor is inside its region (the
// constraint's region intersected with the surface's input region, clipped to the
// surface). It is deactivated when the surface loses either focus, whatever the reason
// (leave, unmap, a recognizer claim, an explicit grab, another window selected); a oneshot
// constraint is then defunct, a persistent one waits for both to come back. The escape
// (`escapeBinding`, Seat+Escape.swift, which runs before any client sees a key, so a locked
// client can never keep it; or an embedder's own call to `breakPointerConstraint`)
// deactivates the active one.
extension Seat {
    // MARK: Registration (from the Wayland layer)

    /// Registers a lock or confinement on `node`. False when the surface already has one on
    /// this seat (`already_constrained`: the caller's protocol error).
    @discardableResult
    public func addPointerConstraint(
        _ kind: PointerConstraintKind, on node: NodeID, region: Region?, lifetime: ConstraintLifetime
    ) -> Bool {
        guard constraints.index(of: node) == nil else { return false }
        constraints.items.append(PointerConstraint(node: node, kind: kind, lifetime: lifetime, region: region))
        updatePointerConstraint()
        flushPointerFrames()
        return true
    }

    /// The client destroyed its constraint object. An active lock with a cursor position
    /// hint puts the cursor there (the client's wish for where the pointer reappears).
    public func removePointerConstraint(on node: NodeID) {
        guard let i = constraints.index(of: node) else { return }
        let c = constraints.items[i]
        if constraints.active == i {
            constraints.active = nil
        } else if let a = constraints.active, a > i {
            constraints.active = a - 1
        }
        constraints.items.remove(at: i)
        if c.state == .active {
            if tree.isAlive(c.node) { enqueue(.pointerConstraint(id, c.node, c.kind, active: false)) }
            if c.kind == .lock { warpToHint(c) }
        }
        updatePointerConstraint()
        flushPointerFrames()
    }

    /// A committed `set_region` (surface-local; nil: infinite).
    public func setPointerConstraintRegion(on node: NodeID, _ region: Region?) {
        guard let i = constraints.index(of: node) else { return }
        constraints.items[i].region = region
        if constraints.active == i {
            refreshConstraintRegion()
            // A confinement that shrank away from the cursor takes it along, to its nearest point.
            let inside = confine(cursor)
            if inside != cursor {
                cursor = inside
                deliverMotion(time: lastTime, hit: nil)
            }
        }
        updatePointerConstraint()
        flushPointerFrames()
    }

    /// A committed `set_cursor_position_hint` (surface-local).
    public func setPointerConstraintHint(on node: NodeID, _ hint: Point) {
        guard let i = constraints.index(of: node), hint.x.isFinite, hint.y.isFinite else { return }
        constraints.items[i].hint = hint
    }

    /// The escape: ends the active lock or confinement, whatever the client wants. A
    /// persistent one stays off until the pointer leaves the surface. Returns whether there
    /// was one.
    @discardableResult
    public func breakPointerConstraint() -> Bool {
        guard let a = constraints.active else { return false }
        let c = constraints.items[a]
        deactivateConstraint(a, next: c.lifetime == .oneshot ? .defunct : .suspended)
        if c.kind == .lock { warpToHint(c) }
        flushPointerFrames()
        return true
    }

    /// The surface whose constraint is active and what it is, for embedders and tests.
    public var activePointerConstraint: (node: NodeID, kind: PointerConstraintKind)? {
        constraints.active.map { (constraints.items[$0].node, constraints.items[$0].kind) }
    }

    // MARK: Motion (the hot path)

    /// Relative motion to the pointer focus (when its client asked for it), before the
    /// cursor moves. Returns whether a lock holds the cursor still.
    @inline(__always) func deliverRelativeMotion(time: UInt64, _ motion: RelativeMotion) -> Bool {
        if anyRelativePointer { deliverRelativeMotionToFocus(time: time, motion) }
        return constraints.activeLock != nil
    }

    private func deliverRelativeMotionToFocus(time: UInt64, _ motion: RelativeMotion) {
        if pointerClaim == nil, let (node, client) = clientSurface(pointer.focus),
            boundDevices(of: client).contains(.relativePointer)
        {
            enqueue(.relativeMotion(id, node, time: time, motion))
            markFrame(client)
        }
    }

    /// Where the cursor may go: inside the active confinement's region.
    @inline(__always) func confine(_ p: Point) -> Point {
        // Inline: every motion asks, and a confinement is rare.
        constraints.active == nil ? p : confineToActive(p)
    }

    private func confineToActive(_ p: Point) -> Point {
        guard let a = constraints.active, constraints.items[a].kind == .confine,
            let origin = tree.layoutPosition(of: constraints.items[a].node)
        else { return p }
        let local = Point(p.x - origin.x, p.y - origin.y)
        var best = local
        var bestDistance = Double.infinity
        for r in constraints.confineRects {
            // A cursor pushed past a rect's far edge stops on its last whole pixel (what Mir
            // does and WLCS checks); one inside stays where it is, fractions and all.
            let farX = Double(r.x) + Double(r.width)
            let farY = Double(r.y) + Double(r.height)
            let x = local.x >= farX ? farX - 1 : max(local.x, Double(r.x))
            let y = local.y >= farY ? farY - 1 : max(local.y, Double(r.y))
            let d = (x - local.x) * (x - local.x) + (y - local.y) * (y - local.y)
            if d < bestDistance {
                bestDistance = d
                best = Point(x, y)
            }
            if d == 0 { break }
        }
        return Point(best.x + origin.x, best.y + origin.y)
    }

    // MARK: Activation

    /// Deactivates the active constraint if its surface lost the pointer, and activates
    /// the focus surface's one when the cursor is inside its region. Cheap when no surface
    /// asked for a constraint.
    @inline(__always) func updatePointerConstraint() {
        // Inline: every motion asks, and most seats have no constraint at all.
        if !constraints.items.isEmpty { updateConstraintState() }
    }

    private func updateConstraintState() {
        var focus = clientSurface(pointer.focus)?.0
        if let f = focus, !windowSelected(f) { focus = nil }
        if let a = constraints.active {
            let c = constraints.items[a]
            if c.node == focus, tree.canReceiveInput(c.node) { return }
            deactivateConstraint(a, next: c.lifetime == .oneshot ? .defunct : .inactive)
        }
        for i in constraints.items.indices
        where constraints.items[i].state == .suspended && constraints.items[i].node != focus {
            constraints.items[i].state = .inactive
        }
        guard let focus, pointerClaim == nil, let i = constraints.index(of: focus),
            constraints.items[i].state == .inactive, cursorInside(constraints.items[i])
        else { return }
        constraints.items[i].state = .active
        constraints.active = i
        refreshConstraintRegion()
        enqueue(.pointerConstraint(id, focus, constraints.items[i].kind, active: true))
    }

    /// Whether `node`'s window holds the keyboard focus (always, when constraints do not
    /// need it). Popups and subsurfaces are tree children of their window, so walking up the
    /// parents finds it. Runs only while some surface has a constraint.
    func windowSelected(_ node: NodeID) -> Bool {
        guard constraintsNeedKeyboardFocus else { return true }
        guard let k = keyboard.focus else { return false }
        return window(of: k) == window(of: node)
    }

    private func window(of node: NodeID) -> NodeID? {
        var n: NodeID? = node
        while let c = n, tree.kind(of: c) != .toplevel { n = tree.parent(of: c) }
        return n ?? node
    }

    /// The keyboard focus moved: a constraint whose window lost it ends, one whose window
    /// got it back may start (after the keyboard's leave and enter).
    func constraintKeyboardFocusDidChange() {
        // No frame: constraint events are not wl_pointer events, and the focus may move in
        // the middle of routing a pointer event whose frame comes at its end.
        guard !constraints.items.isEmpty, constraintsNeedKeyboardFocus else { return }
        updatePointerConstraint()
    }

    /// The focus moves away from the constrained surface: the constraint ends before the
    /// surface's leave.
    func constraintFocusWillChange(to target: Responder?) {
        guard let a = constraints.active else { return }
        if case .node(let n)? = target, n == constraints.items[a].node { return }
        deactivateConstraint(a, next: constraints.items[a].lifetime == .oneshot ? .defunct : .inactive)
    }

    /// Tells the surface (unless it is destroyed: its objects went with it).
    private func deactivateConstraint(_ i: Int, next: PointerConstraint.State) {
        let c = constraints.items[i]
        constraints.items[i].state = next
        constraints.active = nil
        constraints.confineRects.removeAll(keepingCapacity: true)
        if tree.isAlive(c.node) { enqueue(.pointerConstraint(id, c.node, c.kind, active: false)) }
    }

    /// The cursor is on the surface's input region and inside the constraint's region.
    private func cursorInside(_ c: PointerConstraint) -> Bool {
        guard let local = tree.localPoint(cursor, in: c.node), let frame = tree.frame(of: c.node) else { return false }
        guard local.x >= 0, local.y >= 0, local.x < Double(frame.width), local.y < Double(frame.height) else {
            return false
        }
        if let input = tree.inputRegion(of: c.node), !input.contains(local) { return false }
        return c.region?.contains(local) ?? true
    }

    /// Forgets constraints of destroyed surfaces, follows a changed input region or size,
    /// and ends or starts constraints as the focus moved.
    func constraintSceneDidChange() {
        guard !constraints.items.isEmpty else { return }
        if let a = constraints.active, !tree.isAlive(constraints.items[a].node) {
            deactivateConstraint(a, next: .defunct)
        }
        constraints.items.removeAll { !tree.isAlive($0.node) }
        constraints.active = constraints.items.firstIndex { $0.state == .active }
        refreshConstraintRegion()
        updatePointerConstraint()
    }

    /// Recomputes the active confinement's rectangles (activation, a new region, a scene change).
    func refreshConstraintRegion() {
        constraints.confineRects.removeAll(keepingCapacity: true)
        guard let a = constraints.active, constraints.items[a].kind == .confine,
            let frame = tree.frame(of: constraints.items[a].node)
        else { return }
        var region = tree.inputRegion(of: constraints.items[a].node) ?? Region(Rect(0, 0, frame.width, frame.height))
        region.intersect(Rect(0, 0, frame.width, frame.height))
        if let r = constraints.items[a].region { region.intersect(r) }
        constraints.confineRects.append(contentsOf: region.rects)
    }

    /// Puts the cursor where the client's hint says (surface-local), when the surface
    /// still has the pointer and the hint is on it; the surface is told where it is.
    private func warpToHint(_ c: PointerConstraint) {
        guard let hint = c.hint, c.node == clientSurface(pointer.focus)?.0,
            let origin = tree.layoutPosition(of: c.node),
            let frame = tree.frame(of: c.node), hint.x >= 0, hint.y >= 0, hint.x < Double(frame.width),
            hint.y < Double(frame.height)
        else { return }
        cursor = clampToLayout(Point(origin.x + hint.x, origin.y + hint.y))
        if pointer.heldButtonCount > 0 {
            deliverMotion(time: lastTime, hit: nil)
        } else {
            repick(time: lastTime, motion: true)
        }
    }
}
