// Touch: each libinput seat slot is owned, from down to up or cancel, by the responder hit
// at touch-down, even when the point leaves it. Frames follow each hardware frame.
extension Seat {
    /// How many touch points are down on this seat.
    public var activeTouchCount: Int { touch.points.count }

    /// A finger went down: recognizers first, then the grab or the responder chain from one hit
    /// test. No allocation while fewer than 16 points are down (room reserved).
    public func notifyTouchDown(time: UInt64, slot: Int32, at point: Point, device: DeviceID = DeviceID(0)) {
        lastTime = time
        guard point.x.isFinite, point.y.isFinite, touchIndex(slot) == nil else {
            drop(.touchDown) // a second down on a live slot: hostile or broken input
            return
        }
        let count = touch.points.count + 1
        if touchClaim == nil {
            for i in recognizers.indices where recognizerStates[i] == .possible {
                let s = recognizers[i].touchDown(slot: slot, at: point, touchCount: count, time: time)
                recognizerStates[i] = s
                if s == .recognized {
                    claimTouches(for: i)
                    break
                }
            }
        } else if let r = touchClaim {
            _ = recognizers[r].touchDown(slot: slot, at: point, touchCount: count, time: time)
        }
        if let r = touchClaim {
            touch.points.append(TouchPoint(slot: slot, device: device, owner: .recognizer(r), client: .compositor))
            return
        }
        let hit = tree.hitTest(point)
        // Tracked before anyone sees it: the owner is the grab unless it passes the point on.
        touch.points.append(TouchPoint(slot: slot, device: device, owner: .grab, client: .compositor))
        if let g = touchGrab {
            g.down(self, time: time, slot: slot, at: point, hit: hit)
        } else {
            routeTouchDown(touch.points.count - 1, time: time, at: point, hit: hit)
        }
    }

    /// What a touch down does with no grab: the responder chain from `hit` takes the point
    /// (a client surface gets `down` and owns it until up). For a grab's `down`.
    public func defaultTouchDown(time: UInt64, slot: Int32, at point: Point, hit: Hit?) {
        guard let i = touchIndex(slot), touch.points[i].owner == .grab else { return }
        routeTouchDown(i, time: time, at: point, hit: hit)
    }

    @inline(__always) private func routeTouchDown(_ i: Int, time: UInt64, at point: Point, hit: Hit?) {
        let slot = touch.points[i].slot
        let taker = dispatch(from: hit.map { .node($0.node) } ?? .seat(id), device: .touch, at: point) {
            .touchDown(slot: slot, at: $0)
        }
        if let (node, client) = clientSurface(taker, device: .touch) {
            let local = hit?.node == node ? hit!.local : (tree.localPoint(point, in: node) ?? .zero)
            let serial = recordedSerial(.touchDown, client: client, at: point)
            enqueue(.touchDown(id, node, time: time, slot: slot, local, serial: serial))
            touch.points[i].owner = .client(node)
            touch.points[i].client = client
            touch.points[i].originGeneration = .max // the owner's origin is looked up on its first motion
            markTouchFrame(client)
        } else if let t = taker {
            enqueue(.handled(id, t, .touchDown))
            touch.points[i].owner = .responder(t)
        } else {
            drop(.touchDown)
            touch.points[i].owner = .cancelled
        }
    }

    /// A finger moved: to whoever owns its slot since down (no hit test). O(points down) slot
    /// search, no allocation.
    public func notifyTouchMotion(time: UInt64, slot: Int32, at point: Point) {
        lastTime = time
        guard point.x.isFinite, point.y.isFinite, let i = touchIndex(slot) else {
            drop(.touchMotion) // never motion for a point nobody was told about
            return
        }
        if touchClaim == nil {
            for r in recognizers.indices where recognizerStates[r] == .possible {
                let s = recognizers[r].touchMotion(slot: slot, at: point, time: time)
                recognizerStates[r] = s
                if s == .recognized {
                    claimTouches(for: r)
                    break
                }
            }
        }
        if let g = touchGrab, touchClaim == nil {
            g.motion(self, time: time, slot: slot, at: point)
        } else {
            routeTouchMotion(i, time: time, at: point)
        }
    }

    /// What touch motion does with no grab: to the point's owner. For a grab's `motion`.
    public func defaultTouchMotion(time: UInt64, slot: Int32, at point: Point) {
        guard point.x.isFinite, point.y.isFinite, let i = touchIndex(slot) else { return }
        routeTouchMotion(i, time: time, at: point)
    }

    @inline(__always) private func routeTouchMotion(_ i: Int, time: UInt64, at point: Point) {
        let slot = touch.points[i].slot
        switch touch.points[i].owner {
        case .client(let node):
            let local = touchLocalPoint(i, point, in: node)
            enqueue(.touchMotion(id, node, time: time, slot: slot, local))
            markTouchFrame(touch.points[i].client)
        case .responder(let r):
            if case .node(let n) = r, let local = tree.localPoint(point, in: n) {
                _ = callHandler(r, .touchMotion(slot: slot, at: local))
            } else {
                _ = callHandler(r, .touchMotion(slot: slot, at: point))
            }
        case .recognizer(let r):
            _ = recognizers[r].touchMotion(slot: slot, at: point, time: time)
        case .cancelled, .grab:
            break
        }
    }

    /// A finger lifted: up to the slot's owner, and the slot is freed. O(points down), no
    /// allocation.
    public func notifyTouchUp(time: UInt64, slot: Int32) {
        lastTime = time
        guard let i = touchIndex(slot) else {
            drop(.touchUp)
            return
        }
        if touchClaim == nil {
            for r in recognizers.indices where recognizerStates[r] == .possible {
                recognizerStates[r] = recognizers[r].touchUp(slot: slot, time: time)
            }
        }
        if let g = touchGrab, touchClaim == nil {
            g.up(self, time: time, slot: slot)
            if let j = touchIndex(slot) { touch.points.remove(at: j) } // the grab may cancel points
        } else {
            routeTouchUp(i, time: time)
            touch.points.remove(at: i)
        }
        touchSequenceMaybeEnded()
    }

    /// What a touch up does with no grab: `up` to the point's owner. For a grab's `up`.
    public func defaultTouchUp(time: UInt64, slot: Int32) {
        guard let i = touchIndex(slot) else { return }
        routeTouchUp(i, time: time)
        touch.points[i].owner = .cancelled // told once
    }

    @inline(__always) private func routeTouchUp(_ i: Int, time: UInt64) {
        let t = touch.points[i]
        let slot = t.slot
        switch t.owner {
        case .client(let node):
            enqueue(
                .touchUp(
                    id, node, time: time, slot: slot, serial: recordedSerial(.touchUp, client: t.client, at: .zero)))
            markTouchFrame(t.client)
        case .responder(let r):
            _ = callHandler(r, .touchUp(slot: slot))
        case .recognizer(let r):
            _ = recognizers[r].touchUp(slot: slot, time: time)
        case .cancelled, .grab:
            break
        }
    }

    /// libinput cancelled one slot. Wayland can only cancel a client's whole sequence, so
    /// the owning client's other points are cancelled with it.
    public func notifyTouchCancel(time: UInt64, slot: Int32) {
        lastTime = time
        guard touchIndex(slot) != nil else {
            drop(.touchCancel)
            return
        }
        cancelTouch(slot: slot)
        touch.points.removeAll { $0.slot == slot }
        touchSequenceMaybeEnded()
    }

    /// Ends one hardware touch frame: to the grab, else `defaultTouchFrame()`. No allocation.
    public func notifyTouchFrame() {
        if let g = touchGrab { g.touchFrame(self) } else { defaultTouchFrame() }
    }

    /// `wl_touch.frame` to each client told something since the last frame.
    public func defaultTouchFrame() {
        // By index, and emptied from the end: `for c in` retained and released the array's
        // buffer, and `removeAll(keepingCapacity:)` went through the generic
        // `replaceSubrange` (together about 110 instructions per frame).
        var i = 0
        while i < touch.frameClients.count {
            enqueue(.touchFrame(id, touch.frameClients[i]))
            i += 1
        }
        while !touch.frameClients.isEmpty { touch.frameClients.removeLast() }
    }

    // MARK: Helpers

    /// The index of `slot`'s point in `touch.points`. Slots are unique there and libinput numbers
    /// them from 0 in the order fingers land, so slot n is usually at index n: that guess
    /// is tried first (exact either way), and the search over every point runs only when
    /// it misses.
    @inline(__always) func touchIndex(_ slot: Int32) -> Int? {
        let guess = Int(slot)
        if guess >= 0, guess < touch.points.count, touch.points[guess].slot == slot { return guess }
        return touch.points.firstIndex { $0.slot == slot }
    }

    /// `tree.localPoint(point, in: node) ?? .zero` for point `i`, whose owner is `node`,
    /// with the owner's origin kept in the point until the scene changes.
    @inline(__always) func touchLocalPoint(_ i: Int, _ point: Point, in node: NodeID) -> Point {
        let generation = tree.sceneGeneration
        if touch.points[i].originGeneration != generation {
            guard let origin = tree.layoutPosition(of: node) else { return .zero }
            touch.points[i].origin = origin
            touch.points[i].originGeneration = generation
        }
        let o = touch.points[i].origin
        return Point(point.x - o.x, point.y - o.y)
    }

    func markTouchFrame(_ client: ClientID) {
        // The last client marked is the usual one (one client's fingers in a row).
        if touch.frameClients.last != client && !touch.frameClients.contains(client) {
            touch.frameClients.append(client)
        }
    }

    /// Cancels the owner of `slot`: the whole client (all its points stop), a compositor
    /// responder's touch, or a recognizer's.
    func cancelTouch(slot: Int32) {
        guard let i = touchIndex(slot) else { return }
        switch touch.points[i].owner {
        case .client:
            cancelClientTouches(touch.points[i].client)
        case .responder(let r):
            if responderCanReceive(r) { _ = callHandler(r, .touchCancel) }
            touch.points[i].owner = .cancelled
        case .grab:
            // The device cancelled a point the grab kept: the grab is broken.
            touch.points[i].owner = .cancelled
            cancelTouchGrab()
        case .recognizer, .cancelled:
            touch.points[i].owner = .cancelled
        }
    }

    /// Whether `client` has a touch point down on this seat (told of it or cancelled since).
    public func hasTouchPoints(of client: ClientID) -> Bool { touch.points.contains { $0.client == client } }

    /// A grab takes over `client`'s touch points (a drag begun by touch): the client gets
    /// `wl_touch.cancel`, as for any gesture the compositor takes (Wayland cancels a client's
    /// whole sequence, and frees its ids for reuse), and hears nothing more of them. Returns
    /// their slots, which the grab drives from now on, with those it was already told of
    /// (a drag started again from a finger the last one took). Allocates: once per grab.
    public func takeTouchPoints(of client: ClientID) -> [Int32] {
        let slots = touch.points.filter { $0.client == client }.map(\.slot)
        if touch.points.contains(where: { $0.client == client && $0.owner != .cancelled }) {
            cancelClientTouches(client)
        }
        return slots
    }

    func cancelClientTouches(_ client: ClientID) {
        if router.isAlive(client) { enqueue(.touchCancel(id, client)) }
        touch.frameClients.removeAll { $0 == client }
        for j in touch.points.indices where touch.points[j].client == client {
            if case .client = touch.points[j].owner { touch.points[j].owner = .cancelled }
        }
    }

    /// A recognizer claims the touch sequence: the clients are cancelled and every point,
    /// current and new, goes to it until the last is up.
    func claimTouches(for r: Int) {
        touchClaim = r
        enqueue(.claimed(id, recognizer: Int32(r)))
        for i in touch.points.indices {
            switch touch.points[i].owner {
            case .client: cancelClientTouches(touch.points[i].client)
            case .responder(let resp): _ = callHandler(resp, .touchCancel)
            default: break
            }
            touch.points[i].owner = .recognizer(r)
        }
    }

    func touchSequenceMaybeEnded() {
        guard touch.points.isEmpty else { return }
        touchClaim = nil
        resetRecognizersIfIdle()
    }

    /// The surface of a point was destroyed or unmapped: its client gets `up` for that
    /// point (and a frame) at once, and nothing more for it. Not `cancel`: that is for a
    /// gesture the compositor takes over, and would end the client's points on its other
    /// surfaces too; `up` says the point is gone and frees its id (docs/routing.md).
    func cancelTouchesOfGoneOwners() {
        var released: [ClientID] = []
        for i in touch.points.indices {
            switch touch.points[i].owner {
            case .client(let n) where !tree.canReceiveInput(n):
                let c = touch.points[i].client
                touch.points[i].owner = .cancelled
                guard router.isAlive(c) else { continue }
                enqueue(.touchReleased(id, c, time: lastTime, slot: touch.points[i].slot, serial: nextSerial()))
                if !released.contains(c) { released.append(c) }
            case .responder(let r) where !responderCanReceive(r):
                touch.points[i].owner = .cancelled
            default:
                break
            }
        }
        for c in released { enqueue(.touchFrame(id, c)) }
    }
}
