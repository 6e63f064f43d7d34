// The pointer: enter/leave strictly paired, an implicit grab while any button is held,
// re-pick after the last release and on every scene change, one frame per event.
extension Seat {
    /// Relative motion: accelerated deltas move the cursor; both go to a client that asked
    /// for relative motion (unaccelerated ones default to the accelerated).
    public func notifyPointerMotion(
        time: UInt64, dx: Double, dy: Double, unacceleratedDX: Double? = nil, unacceleratedDY: Double? = nil
    ) {
        let udx = unacceleratedDX ?? dx
        let udy = unacceleratedDY ?? dy
        guard dx.isFinite, dy.isFinite, udx.isFinite, udy.isFinite else { return }
        // Seat+Constraints.swift: relative motion first; a lock keeps the cursor still.
        if deliverRelativeMotion(time: time, RelativeMotion(dx: dx, dy: dy, unacceleratedDX: udx, unacceleratedDY: udy))
        {
            lastTime = time
            flushPointerFrames()
            return
        }
        notifyPointerWarp(time: time, to: Point(cursor.x + dx, cursor.y + dy))
    }

    /// Absolute motion (layout space), also used by the nested backend.
    public func notifyPointerWarp(time: UInt64, to point: Point) {
        guard point.x.isFinite, point.y.isFinite else { return }
        lastTime = time
        if constraints.activeLock != nil { return } // a locked cursor stays where it is
        cursor = confine(clampToLayout(point))
        if let r = pointerClaim {
            if recognizerStates[r] == .recognized { _ = recognizers[r].pointerMotion(at: cursor, time: time) }
            return
        }
        feedPointerRecognizers { $0.pointerMotion(at: cursor, time: time) }
        if pointerClaim != nil { return }
        // One optional check, then the default path inline: no dynamic dispatch, and the
        // commonest motion makes no calls of its own but the hit test (the calls into
        // `defaultPointerMotion`, `deliverMotion` and `flushPointerFrames` were about 45
        // instructions of saved registers and reloaded state).
        if let g = pointerGrab { g.motion(self, time: time) } else { moveWithoutGrab(time: time) }
        updatePointerConstraint() // the cursor may have entered a constraint's region
        if let g = pointerGrab { g.frame(self) } else { enqueuePointerFrames() }
    }

    /// What motion does with no grab: re-pick and move when no button is held, else motion
    /// to the focus the press went to (the implicit grab). For a grab's `motion`.
    public func defaultPointerMotion(time: UInt64) { moveWithoutGrab(time: time) }

    @inline(__always) private func moveWithoutGrab(time: UInt64) {
        if pointer.heldButtonCount > 0 { return enqueueMotion(time: time, hit: nil) }
        // Not through `repick`: the commonest motion pays one call less.
        enqueueMotion(time: time, hit: pickUnderCursor(time: time))
    }

    /// A button press or release. One button held on several devices is sent once (first
    /// press, last release): to recognizers, then the grab or the pointer focus. No
    /// allocation; releasing the last held button re-picks the pointer (one hit test).
    public func notifyPointerButton(time: UInt64, button: UInt32, state: ButtonState, device: DeviceID = DeviceID(0)) {
        let code = Int(button)
        guard code < Seat.codeCount else {
            drop(.pointerButton)
            return
        }
        lastTime = time
        deviceButtons.track(device: device, code: button, pressed: state == .pressed)
        switch countTransition(pointer.buttonCounts, code, pressed: state == .pressed) {
        case .unmatchedRelease:
            drop(.pointerButton)
            return
        case .counted: return
        case .forwarded: pointer.heldButtonCount += state == .pressed ? 1 : -1
        }
        defer {
            if pointer.heldButtonCount == 0 { buttonSequenceEnded(time: time) }
            flushPointerFrames()
        }
        if state == .released && pointer.consumedButtons[code] {
            pointer.consumedButtons[code] = false
            return
        }

        // Capture phase: recognizers, then explicit grabs.
        if let r = pointerClaim {
            if recognizerStates[r] == .recognized {
                _ = recognizers[r].pointerButton(button, state, at: cursor, modifiers: modifiers.effective, time: time)
            }
            return
        }
        feedPointerRecognizers {
            $0.pointerButton(button, state, at: cursor, modifiers: modifiers.effective, time: time)
        }
        if pointerClaim != nil {
            pointer.consumedButtons[code] = state == .pressed
            return
        }
        if let g = pointerGrab {
            g.button(self, time: time, button: button, state: state)
        } else {
            deliverButton(time: time, button: button, state: state)
        }
    }

    /// What a button does with no grab: to the pointer focus (a client surface's serial is
    /// recorded for the requests that must cite it), or along its chain's handlers.
    public func defaultPointerButton(time: UInt64, button: UInt32, state: ButtonState) {
        deliverButton(time: time, button: button, state: state)
    }

    /// Ends one pointer event: one `wl_pointer.frame` per client that was told something.
    public func defaultPointerFrame() { flushPointerFrames() }

    /// Scroll on one or both axes, to the grab or the pointer focus, then a frame. No hit test and
    /// no allocation in steady state.
    public func notifyPointerAxis(time: UInt64, source: AxisSource, vertical: AxisValue?, horizontal: AxisValue?) {
        lastTime = time
        guard pointerClaim == nil else { return }
        if let g = pointerGrab {
            g.axis(self, time: time, source: source, vertical: vertical, horizontal: horizontal)
            g.frame(self)
        } else {
            defaultPointerAxis(time: time, source: source, vertical: vertical, horizontal: horizontal)
            flushPointerFrames()
        }
    }

    /// What scroll does with no grab: to the pointer focus, or along its chain's handlers.
    public func defaultPointerAxis(time: UInt64, source: AxisSource, vertical: AxisValue?, horizontal: AxisValue?) {
        for axis in Axis.allCases {
            guard let v = axis == .vertical ? vertical : horizontal, v.value.isFinite else { continue }
            if let (node, client) = pointerFocusSurface() {
                let stop = v.value == 0 && (source == .finger || source == .continuous)
                enqueue(
                    stop
                        ? .pointerAxisStop(id, node, time: time, axis)
                        : .pointerAxis(id, node, time: time, axis, source, value: v.value, value120: v.value120))
                markFrame(client)
            } else {
                deliverToCompositor(
                    .pointerAxis(axis, source: source, value: v.value, value120: v.value120), kind: .pointerAxis)
            }
        }
    }

    /// A touchpad swipe, pinch or hold phase: the begin picks the target (a recognizer, the
    /// pointer focus's surface or a compositor responder), later phases go to it. No hit test,
    /// except the re-pick when a recognizer's claim ends; no allocation.
    public func notifyGesture(time: UInt64, _ g: GestureEvent) {
        lastTime = time
        // A claim sends a leave and its end an enter: each ends with a frame.
        defer { flushPointerFrames() }
        if g.phase == .begin {
            // A begin before the last gesture's end (libinput never does this; a hostile
            // recording may): the client's gesture ends cancelled first.
            if case .client(let old, let kind, let fingers) = pointer.gestureTarget, tree.canReceiveInput(old) {
                enqueue(
                    .gesture(
                        id, old, time: time, GestureEvent(kind: kind, phase: .end, fingers: fingers, cancelled: true)))
            }
            pointer.gestureTarget = .none
            feedPointerRecognizers { $0.gesture(g, time: time) }
            if let r = pointerClaim ?? recognizerStates.firstIndex(of: .recognized) {
                pointer.gestureTarget = .recognizer(r)
            } else if let (node, _) = clientSurface(pointer.focus) {
                pointer.gestureTarget = .client(node, g.kind, fingers: g.fingers)
            } else if let f = pointer.focus, callHandler(f, .gesture(g)) == .handled {
                pointer.gestureTarget = .responder(f)
                enqueue(.handled(id, f, .gesture))
                return
            } else {
                drop(.gesture)
                return
            }
        }
        switch pointer.gestureTarget {
        case .none:
            drop(.gesture)
        case .recognizer(let r):
            _ = recognizers[r].gesture(g, time: time)
        case .client(let node, _, _):
            if g.phase == .update, let r = claimGestureMidway(g, time: time, from: node) {
                pointer.gestureTarget = .recognizer(r)
                return
            }
            if tree.canReceiveInput(node) { enqueue(.gesture(id, node, time: time, g)) }
        case .responder(let r):
            if g.phase != .begin { _ = callHandler(r, .gesture(g)) }
        }
        if g.phase == .end {
            let claimed = if case .recognizer = pointer.gestureTarget { true } else { false }
            pointer.gestureTarget = .none
            guard pointer.heldButtonCount == 0 else { return }
            // A claim lasts as long as the gesture; then the pointer goes back to what is
            // under it, and recognizers that only watched start afresh with the next one.
            if claimed { pointerClaim = nil }
            resetRecognizersIfIdle()
            if claimed { repick(time: time, motion: false) }
        }
    }

    /// A recognizer still watching the client's gesture may claim it at any update (a
    /// compositor binding that needs some distance to decide). The client is told first, with
    /// an `end` marked cancelled, as pointer-gestures asks; the rest goes to the recognizer.
    private func claimGestureMidway(_ g: GestureEvent, time: UInt64, from node: NodeID) -> Int? {
        var claimer: Int?
        for i in recognizers.indices where recognizerStates[i] == .possible {
            recognizerStates[i] = recognizers[i].gesture(g, time: time)
            if recognizerStates[i] == .recognized {
                claimer = i
                break
            }
        }
        guard let r = claimer else { return nil }
        if tree.canReceiveInput(node) {
            var cancel = g
            cancel.phase = .end
            cancel.dx = 0
            cancel.dy = 0
            cancel.scale = 1
            cancel.rotation = 0
            cancel.cancelled = true
            enqueue(.gesture(id, node, time: time, cancel))
        }
        pointerClaim = r
        enqueue(.claimed(id, recognizer: Int32(r)))
        setPointerFocus(nil)
        pointer.lastFirstResponder = nil
        return r
    }

    // MARK: Picking

    /// Hit-tests the cursor, finds the responder that takes the pointer there, moves the
    /// focus (leave, then enter) if it changed, and sends motion when asked.
    /// The hit under the cursor, offered to the grab or the responder chain (the focus may
    /// move): what every re-pick does first.
    @inline(__always) private func pickUnderCursor(time: UInt64) -> Hit? {
        let hit = tree.hitTest(cursor)
        if let g = pointerGrab { g.enter(self, hit: hit, time: time) } else { defaultPointerEnter(hit: hit) }
        return hit
    }

    func repick(time: UInt64, motion: Bool) {
        let previous = pointer.focus
        let hit = pickUnderCursor(time: time)
        let target = pointer.focus
        if motion {
            deliverMotion(time: time, hit: hit)
        } else if target == previous, let (node, client) = pointerFocusSurface() {
            // The surface moved under a still cursor and kept the focus: the surface-local
            // position changed, so the client is told with a motion (as wlroots' rebase does).
            // A locked pointer sends no wl_pointer.motion at all (pointer-constraints).
            let local = localCursor(in: node, hit: hit)
            if local != pointer.local {
                pointer.local = local
                if let c = activePointerConstraint, c.node == node, c.kind == .lock { return }
                enqueue(.pointerMotion(id, node, time: time, local))
                markFrame(client)
            }
        }
    }

    /// What picking does with no grab: the responder chain from `hit` (the seat when
    /// nothing is hit) chooses who takes the pointer, and the focus moves there (leave, then
    /// enter) if it changed. For a grab's `enter`, with the hit it lets through.
    @inline(__always) public func defaultPointerEnter(hit: Hit?) {
        let first: Responder = hit.map { .node($0.node) } ?? .seat(id)
        // The common case: same surface under the cursor, and the focus stays. Also when
        // nobody took the enter there: the chain is not offered it again on every motion
        // (the cache is reset by each scene or handler change, which may change the answer).
        if first == pointer.lastFirstResponder { return }
        pickPointerFocus(from: first, hit: hit)
    }

    private func pickPointerFocus(from first: Responder, hit: Hit?) {
        let target = dispatch(from: first, device: .pointer, stopAt: pointer.focus, at: cursor) { .pointerEnter($0) }
        pointer.lastFirstResponder = first
        if target != pointer.focus { movePointerFocus(target, hit: hit) }
    }

    /// Moves the pointer focus: leave to the old one (unless destroyed), enter to the new.
    /// Moved from outside a pick (a grab, a claim, a client's pointer going), the focus is
    /// no longer the chain's answer for `lastFirstResponder`: the next pick asks again.
    func setPointerFocus(_ target: Responder?, hit: Hit? = nil) {
        guard target != pointer.focus else { return }
        pointer.lastFirstResponder = nil
        movePointerFocus(target, hit: hit)
    }

    private func movePointerFocus(_ target: Responder?, hit: Hit?) {
        constraintFocusWillChange(to: target)
        if let old = pointer.focus {
            if let (node, client) = clientSurface(old) {
                enqueue(.pointerLeave(id, node, serial: nextSerial()))
                markFrame(client)
            } else if responderCanReceive(old) || !isNode(old) {
                _ = callHandler(old, .pointerLeave)
                enqueue(.handled(id, old, .pointerLeave))
            }
        }
        pointer.focus = target
        let entered = resolvePointerFocusSurface()
        guard let new = target else { return }
        if let (node, client) = entered {
            let local = localCursor(in: node, hit: hit)
            pointer.local = local
            enqueue(.pointerEnter(id, node, local, serial: recordedSerial(.pointerEnter, client: client, at: cursor)))
            markFrame(client)
        } else {
            enqueue(.handled(id, new, .pointerEnter))
        }
    }

    // `deliverMotion`, `flushPointerFrames` and `defaultPointerMotion` are the called
    // forms (grabs, constraints, buttons); `notifyPointerWarp`'s default path inlines their
    // bodies, `enqueueMotion`, `enqueuePointerFrames` and `moveWithoutGrab`.
    func deliverMotion(time: UInt64, hit: Hit?) { enqueueMotion(time: time, hit: hit) }

    @inline(__always) private func enqueueMotion(time: UInt64, hit: Hit?) {
        if let (node, client) = pointerFocusSurface() {
            let local = localCursor(in: node, hit: hit)
            pointer.local = local
            enqueue(.pointerMotion(id, node, time: time, local))
            markFrame(client)
        } else {
            deliverToCompositor(.pointerMotion(cursor), kind: .pointerMotion)
        }
    }

    func deliverButton(time: UInt64, button: UInt32, state: ButtonState) {
        if let (node, client) = pointerFocusSurface() {
            if state == .pressed { askBeforePress(node) }
            let serial = recordedSerial(state == .pressed ? .buttonPress : .buttonRelease, client: client, at: cursor)
            enqueue(.pointerButton(id, node, time: time, button: button, state, serial: serial))
            markFrame(client)
        } else {
            deliverToCompositor(.pointerButton(button: button, state: state, at: cursor), kind: .pointerButton)
        }
    }

    /// The embedder's capture phase for a press (focus on click). A flight recorder keeps
    /// what it did; a replay redoes it (SceneJournal).
    @inline(__always) private func askBeforePress(_ node: NodeID) {
        if let j = tree.journal, j.isReplaying || (j.isRecording && beforePress != nil) {
            let decide = beforePress
            _ = j.call(.beforePress, node: node) {
                decide?(self, node)
                return .notHandled
            }
        } else if let decide = beforePress {
            decide(self, node)
        }
    }

    /// The focus is a compositor responder (or nothing): ask it, then its chain's handlers.
    func deliverToCompositor(_ event: NodeEvent, kind: EventKind) {
        let taker = dispatch(from: pointer.focus ?? .seat(id), device: .pointer, handlersOnly: true, at: cursor) {
            local in
            switch event {
            case .pointerMotion: .pointerMotion(local)
            case .pointerButton(let b, let s, _): .pointerButton(button: b, state: s, at: local)
            default: event
            }
        }
        if let t = taker { enqueue(.handled(id, t, kind)) } else { drop(kind) }
    }

    /// The re-pick keeps the responder cache: while the buttons were held nothing picked,
    /// so it still holds the chain's answer for the node under the press, which stays valid
    /// unless something reset it meanwhile (a grab, a claim, a scene or handler change, a
    /// focus moved from outside a pick). A release over that node (every click's) then
    /// costs the hit-test alone; the chain's walk was about 130 instructions.
    func buttonSequenceEnded(time: UInt64) {
        if pointerGrab is any InteractiveGrab { clearPointerGrab() }
        if pointerClaim != nil { pointerClaim = nil }
        resetRecognizersIfIdle()
        repick(time: time, motion: false)
    }

    /// `clientSurface(pointerFocus)`, resolved once per focus: every motion, button and
    /// scroll asks (the node's record, its kind, its client's bound devices: about 40
    /// instructions). The answer depends on the focus (`setPointerFocus` resolves it anew),
    /// on the node still being alive (every destroy changes the tree's generation, inside a
    /// batch too; a node's kind and client never change) and on whether its client has
    /// bound a pointer (a change of that ends the focus: `setBound` calls `setPointerFocus`).
    @inline(__always) func pointerFocusSurface() -> (NodeID, ClientID)? {
        if pointer.focusSurface.treeGeneration == tree.generation { return pointer.focusSurface.surface }
        return resolvePointerFocusSurface()
    }

    fileprivate func resolvePointerFocusSurface() -> (NodeID, ClientID)? {
        let surface = clientSurface(pointer.focus)
        pointer.focusSurface = FocusSurfaceCache(surface: surface, treeGeneration: tree.generation)
        return surface
    }

    @inline(__always) func localCursor(in node: NodeID, hit: Hit?) -> Point {
        if let h = hit, h.node == node { return h.local }
        return tree.localPoint(cursor, in: node) ?? .zero
    }

    func isNode(_ r: Responder) -> Bool { if case .node = r { true } else { false } }

    /// `r`'s handler is about to be replaced. If that handler holds the pointer focus (a
    /// compositor responder took the enter), the focus ends now, with the leave to the
    /// handler that had the enter; the scene change that follows picks again. A client
    /// surface its client has the pointer of keeps it: delivery, not a handler, took it.
    func handlerWillChange(_ r: Responder) {
        guard pointer.focus == r, clientSurface(r) == nil else { return }
        setPointerFocus(nil)
        pointer.lastFirstResponder = nil
        flushPointerFrames()
    }

    // MARK: Frames

    @inline(__always) func markFrame(_ client: ClientID) {
        if pointer.pendingFrame.0 == nil || pointer.pendingFrame.0 == client {
            pointer.pendingFrame.0 = client
        } else if pointer.pendingFrame.1 == nil || pointer.pendingFrame.1 == client {
            pointer.pendingFrame.1 = client
        } else {
            flushPointerFrames()
            pointer.pendingFrame.0 = client
        }
    }

    /// One `wl_pointer.frame` per client that got pointer events from the last input event.
    func flushPointerFrames() { enqueuePointerFrames() }

    @inline(__always) private func enqueuePointerFrames() {
        if let c = pointer.pendingFrame.0 { enqueue(.pointerFrame(id, c)) }
        if let c = pointer.pendingFrame.1 { enqueue(.pointerFrame(id, c)) }
        pointer.pendingFrame = (nil, nil)
    }

    // MARK: Recognizers

    /// Feeds the pointer recognizers that are still possible; the first to recognize
    /// claims the pointer (its client gets a leave).
    func feedPointerRecognizers(_ feed: (GestureRecognizer) -> GestureRecognizer.State) {
        for i in recognizers.indices where recognizerStates[i] == .possible {
            let s = feed(recognizers[i])
            recognizerStates[i] = s
            if s == .recognized {
                pointerClaim = i
                enqueue(.claimed(id, recognizer: Int32(i)))
                setPointerFocus(nil)
                pointer.lastFirstResponder = nil
                return
            }
        }
    }

    func resetRecognizersIfIdle() {
        guard !recognizers.isEmpty, touch.points.isEmpty, pointer.heldButtonCount == 0, pointerClaim == nil,
            touchClaim == nil
        else { return }
        // While input is locked they stay failed, as the bindings stay off (InputLock.swift).
        guard withRouter({ $0.inputLockScope }) == nil else { return }
        for i in recognizers.indices {
            recognizers[i].reset()
            recognizerStates[i] = .possible
        }
    }

    /// Adds a capture-phase recognizer, asked before grabs and clients. Allocates: call at setup.
    public func addRecognizer(_ r: GestureRecognizer) {
        recognizers.append(r)
        recognizerStates.append(.possible)
    }

    func gestureTargetGone() -> Bool {
        switch pointer.gestureTarget {
        case .client(let n, _, _): !tree.canReceiveInput(n)
        case .responder(let r): !responderCanReceive(r)
        default: false
        }
    }
}

/// What `Seat.pointerFocusSurface()` last resolved, and the state it was resolved in.
struct FocusSurfaceCache {
    var surface: (NodeID, ClientID)?
    /// The tree's `generation` then; `UInt64.max`: nothing cached (the generation counts
    /// from 0 and would take centuries of changes to get there).
    var treeGeneration = UInt64.max
}

enum CountTransition { case forwarded, counted, unmatchedRelease }

/// The seat-wide count rule for keys and buttons across devices, over the seat's key or
/// button table: a press is forwarded at count 1, a release at count 0. Counts saturate,
/// so hostile input cannot wrap them.
@inline(__always)
func countTransition(_ counts: CodeTable<UInt8>, _ code: Int, pressed: Bool) -> CountTransition {
    let n = counts[code]
    if pressed {
        guard n < UInt8.max else { return .counted }
        counts[code] = n + 1
        return n == 0 ? .forwarded : .counted
    }
    guard n > 0 else { return .unmatchedRelease }
    counts[code] = n - 1
    return n == 1 ? .forwarded : .counted
}
