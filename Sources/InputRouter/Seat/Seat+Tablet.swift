// Tablet tools and pads. A tool in proximity is placed on the layout like a touch point
// (`absoluteMapping`), hit-tests like the pointer and gets proximity in/out strictly paired
// per surface; while its tip is down the surface under the tip keeps it (implicit grab).
// Pads have no position: they follow the keyboard focus (Seat+Pad.swift).

extension Seat {
    /// How many tools are in proximity.
    public var tabletToolsInProximity: Int { tablet.tools.reduce(0) { $0 + ($1.active ? 1 : 0) } }

    /// The client surface that has the tool of `device` in proximity, if any.
    public func tabletFocus(device: DeviceID) -> NodeID? {
        guard let i = tabletIndex(device), case .node(let n)? = tablet.tools[i].focus else { return nil }
        return n
    }

    func tabletIndex(_ device: DeviceID) -> Int? {
        tablet.tools.firstIndex { $0.active && $0.device == device }
    }

    // MARK: Tools

    /// A tablet tool came into or left proximity: it is placed on the layout and hit-tested like
    /// the pointer. Allocates only the first time a seat sees more tools at once than before.
    public func notifyTabletProximity(
        time: UInt64, device: DeviceID, tool: TabletTool, inProximity: Bool, axes: TabletAxes
    ) {
        lastTime = time
        if inProximity {
            let i: Int
            if let j = tabletIndex(device) {
                i = j
            } else {
                if let free = tablet.tools.firstIndex(where: { !$0.active }) {
                    i = free
                } else {
                    tablet.tools.append(TabletToolState())
                    tablet.tools[tablet.tools.count - 1].sentButtons.reserveCapacity(8)
                    i = tablet.tools.count - 1
                }
                tablet.tools[i].active = true
                tablet.tools[i].device = device
                tablet.tools[i].focus = nil
                tablet.tools[i].focusIsClient = false
                tablet.tools[i].lastFirst = nil
                tablet.tools[i].tipDown = false
                tablet.tools[i].tipSent = false
                tablet.tools[i].sentButtons.removeAll(keepingCapacity: true)
            }
            tablet.tools[i].tool = tool
            moveTool(i, time: time, axes: axes)
        } else {
            guard let i = tabletIndex(device) else {
                drop(.tabletProximity)
                return
            }
            endTool(i, time: time)
        }
        flushTabletFrames(time: time)
    }

    /// The tool moved: re-picked by hit test unless its tip is down, then motion to its focus.
    /// No allocation in steady state.
    public func notifyTabletAxis(time: UInt64, device: DeviceID, axes: TabletAxes) {
        lastTime = time
        guard let i = tabletIndex(device) else {
            drop(.tabletMotion)
            return
        }
        moveTool(i, time: time, axes: axes)
        flushTabletFrames(time: time)
    }

    /// The tool's tip touched or left the tablet: down/up to the focus, which keeps the tool
    /// until the tip lifts (implicit grab). No allocation in steady state.
    public func notifyTabletTip(time: UInt64, device: DeviceID, down: Bool, axes: TabletAxes) {
        lastTime = time
        guard let i = tabletIndex(device), tablet.tools[i].tipDown != down else {
            drop(.tabletTip)
            return
        }
        defer { flushTabletFrames(time: time) }
        moveTool(i, time: time, axes: axes)
        let dev = tablet.tools[i].device
        if down {
            tablet.tools[i].tipDown = true
            guard let f = tablet.tools[i].focus else {
                drop(.tabletTip)
                return
            }
            if let (node, client) = toolClient(i) {
                // grabs may cite it
                let serial = recordedSerial(.tabletDown, client: client, at: tablet.tools[i].position)
                enqueue(.tabletDown(id, node, dev, time: time, serial: serial))
                markTabletFrame(client)
                tablet.tools[i].tipSent = true
            } else if callHandler(f, .tabletTip(down: true, at: toolLocal(i, f))) == .handled {
                enqueue(.handled(id, f, .tabletTip))
                tablet.tools[i].tipSent = true
            } else {
                drop(.tabletTip)
            }
        } else {
            tablet.tools[i].tipDown = false
            if tablet.tools[i].tipSent, let f = tablet.tools[i].focus {
                tablet.tools[i].tipSent = false
                if let (node, client) = toolClient(i) {
                    enqueue(.tabletUp(id, node, dev, time: time))
                    markTabletFrame(client)
                } else {
                    _ = callHandler(f, .tabletTip(down: false, at: toolLocal(i, f)))
                    enqueue(.handled(id, f, .tabletTip))
                }
            }
            // The stroke is over: the tool goes to whatever is under it now.
            if repickTool(i, time: time) { deliverToolMotion(i, time: time) }
        }
    }

    /// A tool button: to the tool's focus; a release goes only where its press went. No hit test.
    public func notifyTabletButton(time: UInt64, device: DeviceID, button: UInt32, state: ButtonState) {
        lastTime = time
        guard let i = tabletIndex(device), let f = tablet.tools[i].focus else {
            drop(.tabletButton)
            return
        }
        defer { flushTabletFrames(time: time) }
        let sent = tablet.tools[i].sentButtons.firstIndex(of: button)
        if state == .pressed {
            guard sent == nil else {
                drop(.tabletButton)
                return
            }
        } else {
            guard let k = sent else {
                drop(.tabletButton)
                return
            }
            tablet.tools[i].sentButtons.remove(at: k)
        }
        if let (node, client) = toolClient(i) {
            let serial =
                state == .pressed
                ? recordedSerial(.tabletButtonPress, client: client, at: tablet.tools[i].position) : nextSerial()
            if state == .pressed { tablet.tools[i].sentButtons.append(button) }
            enqueue(.tabletButton(id, node, tablet.tools[i].device, time: time, button: button, state, serial: serial))
            markTabletFrame(client)
        } else if callHandler(f, .tabletButton(button: button, state: state)) == .handled || state == .released {
            if state == .pressed { tablet.tools[i].sentButtons.append(button) }
            enqueue(.handled(id, f, .tabletButton))
        } else {
            drop(.tabletButton)
        }
    }

    // MARK: Helpers

    /// Moves the tool; re-picks unless the tip is down (the implicit grab), then tells the
    /// focus where the tool is.
    func moveTool(_ i: Int, time: UInt64, axes: TabletAxes) {
        tablet.tools[i].axes = axes
        tablet.tools[i].position = mapAbsolute(axes.x, axes.y)
        if !tablet.tools[i].tipDown { _ = repickTool(i, time: time) }
        deliverToolMotion(i, time: time)
    }

    /// Finds who takes the tool where it is and moves the proximity there. Returns whether
    /// the focus changed.
    func repickTool(_ i: Int, time: UInt64) -> Bool {
        let p = tablet.tools[i].position
        let hit = tree.hitTest(p)
        let first: Responder = hit.map { .node($0.node) } ?? .seat(id)
        if first == tablet.tools[i].lastFirst, tablet.tools[i].focus != nil { return false }
        tablet.tools[i].lastFirst = first
        let target = dispatch(from: first, device: .tablet, stopAt: tablet.tools[i].focus, at: p) {
            .tabletProximity(inProximity: true, at: $0)
        }
        guard target != tablet.tools[i].focus else { return false }
        leaveTool(i, time: time)
        tablet.tools[i].focus = target
        guard let new = target else { return true }
        tablet.tools[i].focusIsClient = clientSurface(new, device: .tablet) != nil
        if let (node, client) = toolClient(i) {
            // A cursor shape for the tool cites it (`.setToolCursor`).
            let serial = recordedSerial(.tabletProximityIn, client: client, at: tablet.tools[i].position)
            enqueue(.tabletProximityIn(id, node, tablet.tools[i].device, tablet.tools[i].tool, serial: serial))
            markTabletFrame(client)
        } else {
            enqueue(.handled(id, new, .tabletProximity))
        }
        return true
    }

    func deliverToolMotion(_ i: Int, time: UInt64) {
        guard let f = tablet.tools[i].focus else {
            drop(.tabletMotion)
            return
        }
        if let (node, client) = toolClient(i) {
            let local = tree.localPoint(tablet.tools[i].position, in: node) ?? .zero
            let axes = router.queue.appendAxes(tablet.tools[i].axes)
            enqueue(.tabletMotion(id, node, tablet.tools[i].device, time: time, local, axes: axes))
            markTabletFrame(client)
        } else {
            _ = callHandler(f, .tabletMotion(at: toolLocal(i, f), tablet.tools[i].axes))
        }
    }

    /// Ends what the focus was told: tip up and button releases (unless the surface is
    /// unmapped, which gets only the proximity out), then proximity out. A destroyed focus
    /// is told nothing.
    func leaveTool(_ i: Int, time: UInt64) {
        guard let old = tablet.tools[i].focus else { return }
        let dev = tablet.tools[i].device
        if let (node, client) = toolClient(i) {
            if tree.isVisible(node) {
                if tablet.tools[i].tipSent { enqueue(.tabletUp(id, node, dev, time: time)) }
                for b in tablet.tools[i].sentButtons.reversed() {
                    enqueue(.tabletButton(id, node, dev, time: time, button: b, .released, serial: nextSerial()))
                }
            }
            enqueue(.tabletProximityOut(id, node, dev))
            markTabletFrame(client)
        } else if !isNode(old) || responderCanReceive(old) {
            let at = toolLocal(i, old)
            if tablet.tools[i].tipSent { _ = callHandler(old, .tabletTip(down: false, at: at)) }
            for b in tablet.tools[i].sentButtons.reversed() {
                _ = callHandler(old, .tabletButton(button: b, state: .released))
            }
            _ = callHandler(old, .tabletProximity(inProximity: false, at: at))
            enqueue(.handled(id, old, .tabletProximity))
        }
        tablet.tools[i].focus = nil
        tablet.tools[i].focusIsClient = false
        tablet.tools[i].lastFirst = nil
        tablet.tools[i].tipSent = false
        tablet.tools[i].sentButtons.removeAll(keepingCapacity: true)
    }

    /// Proximity out, or the device went away: nothing stays down.
    func endTool(_ i: Int, time: UInt64) {
        leaveTool(i, time: time)
        tablet.tools[i].active = false
        tablet.tools[i].tipDown = false
    }

    func tabletDeviceRemoved(_ device: DeviceID, time: UInt64) {
        guard let i = tabletIndex(device) else { return }
        endTool(i, time: time)
        flushTabletFrames(time: time)
    }

    /// The scene changed: a focus that can no longer take the tool (destroyed, unmapped,
    /// its client let the tablet go) loses it; a hovering tool re-picks.
    func tabletSceneDidChange() {
        padsFollowKeyboardFocus()
        for i in tablet.tools.indices where tablet.tools[i].active {
            if let f = tablet.tools[i].focus, !toolFocusValid(i, f) { leaveTool(i, time: lastTime) }
            tablet.tools[i].lastFirst = nil
            if !tablet.tools[i].tipDown, repickTool(i, time: lastTime) { deliverToolMotion(i, time: lastTime) }
        }
        flushTabletFrames(time: lastTime)
    }

    func toolFocusValid(_ i: Int, _ f: Responder) -> Bool {
        guard responderCanReceive(f) else { return false }
        if let (_, client) = toolClient(i) { return boundDevices(of: client).contains(.tablet) }
        return true
    }

    /// The tool's focus and its client when it took the tool as a client surface and is
    /// still alive. (Not `clientSurface`, which asks whether the client bound the pointer: a
    /// client may take tablets on a seat where it has no `wl_pointer`.)
    func toolClient(_ i: Int) -> (NodeID, ClientID)? {
        guard tablet.tools[i].focusIsClient, case .node(let n)? = tablet.tools[i].focus, let c = tree.client(of: n)
        else { return nil }
        return (n, c)
    }

    func toolLocal(_ i: Int, _ r: Responder) -> Point {
        if case .node(let n) = r, let local = tree.localPoint(tablet.tools[i].position, in: n) { return local }
        return tablet.tools[i].position
    }

    func markTabletFrame(_ client: ClientID) {
        if !tablet.frameClients.contains(client) { tablet.frameClients.append(client) }
    }

    /// One tablet frame per client that got tool events from one input event.
    func flushTabletFrames(time: UInt64) {
        for c in tablet.frameClients where router.isAlive(c) { enqueue(.tabletFrame(id, c, time: time)) }
        tablet.frameClients.removeAll(keepingCapacity: true)
    }
}
