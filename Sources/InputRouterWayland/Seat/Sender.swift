// Deliveries out as protocol events (the wlroots `send_*` side). Each delivery names a
// node; the node's surface and its client's resources are found by array index, and the
// event goes to every resource of that kind the client holds, at the version it bound.
//
// Unsafe idioms, and why: this is the per-delivery path, so the sender holds the server
// `unowned(unsafe)` and borrows clients and the server (`Unmanaged`,
// `_withUnsafeGuaranteedRef`) instead of retaining them: each retain and release was tens
// of instructions per delivery (the counts stand beside each use; docs/performance.md).
// Everything borrowed is kept alive by the tables it was read from for the whole flush.
import CWaylandProtocolsServer
import CWaylandServer
import InputRouter

extension WaylandServer {
    /// Writes every queued delivery to the clients, then applies focus changes they caused,
    /// and tells toplevels whose activated state changed (whatever moved the keyboard). A
    /// click's focus change was queued before its press (`Seat.beforePress`), so one pass
    /// sends the keyboard's leave, enter, modifiers and the selections, then the button.
    public func sendDeliveries() {
        if router.hasDeliveries {
            var sender = WaylandSender(server: self)
            router.flush(into: &sender)
            if !afterDeliveries.isEmpty { runAfterDeliveries() }
        }
        followKeyboardFocus()
        followSceneChanges() // one comparison unless the scene changed (SceneChanges.swift)
    }

    /// Runs the work queued for after the deliveries, then sends what it queued.
    func runAfterDeliveries() {
        let work = afterDeliveries
        afterDeliveries.removeAll()
        for w in work { w() }
        sendDeliveries()
    }
}

/// What a delivery needs of a surface: its node (to tell a reused index from the surface
/// it named), its resource and its client, read without reference counting. Valid while the
/// surface is in `surfacesByNode` (`setSurface` keeps both), which holds the surface, which
/// holds its client.
struct DeliveryTarget {
    let node: NodeID
    let resource: ResourcePointer
    let owner: Unmanaged<ClientState>
    let surface: Unmanaged<Surface>

    init?(_ surface: Surface) {
        guard let node = surface.node else { return nil }
        self.node = node
        resource = surface.resource
        owner = Unmanaged.passUnretained(surface.owner)
        self.surface = Unmanaged.passUnretained(surface)
    }
}

extension ClientState {
    // Each device kind's resources on seat `s`: the solo resource when there is one (no
    // array retained), else the list. Every seat alike.
    @inline(__always) func eachPointer(on s: SeatID, _ body: (ResourcePointer) -> Void) {
        let i = Int(s.index)
        guard i < seatDevices.count else { return }
        if let r = seatDevices[i].soloPointer { return body(r) }
        for r in seatDevices[i].pointers { body(r) }
    }

    @inline(__always) func eachKeyboard(on s: SeatID, _ body: (ResourcePointer) -> Void) {
        let i = Int(s.index)
        guard i < seatDevices.count else { return }
        if let r = seatDevices[i].soloKeyboard { return body(r) }
        for r in seatDevices[i].keyboards { body(r) }
    }

    @inline(__always) func eachTouch(on s: SeatID, _ body: (ResourcePointer) -> Void) {
        let i = Int(s.index)
        guard i < seatDevices.count else { return }
        if let r = seatDevices[i].soloTouch { return body(r) }
        for r in seatDevices[i].touches { body(r) }
    }
}

struct WaylandSender: DeliverySink {
    unowned(unsafe) let server: WaylandServer
    /// Whether an observer watches, read once per flush: the fast path in `deliver` is for
    /// unwatched flushes. A flag, not the closure: copying it retained and released it.
    let watched: Bool

    init(server: WaylandServer) {
        self.server = server
        watched = server.deliveryObserver != nil
    }

    /// `body` with the surface's resource and its live client, borrowed (no retain).
    @inline(__always) private func withTarget(_ node: NodeID, _ body: (ResourcePointer, ClientState) -> Void) {
        guard let t = server.deliveryTargets[Int(node.index)], t.node == node else { return }
        t.owner._withUnsafeGuaranteedRef { c in if c.alive { body(t.resource, c) } }
    }

    /// `body` with the client, borrowed.
    @inline(__always) private func withClient(_ id: ClientID, _ body: (ClientState) -> Void) {
        guard let c = server.clientTargets[Int(id.index)] else { return }
        c._withUnsafeGuaranteedRef(body)
    }

    /// Out of line: its `wl_array` lives on the stack and is passed by address, which gives
    /// a function a stack protector, and `deliver` paid its check on every delivery.
    @inline(never) private func sendKeyboardEnter(
        _ sid: SeatID, _ node: NodeID, _ keys: KeySpan, _ serial: UInt32,
        _ queue: DeliveryQueue
    ) {
        withTarget(node) { surface, c in
            if !holdsKeymapInUse(c, sid) { sendKeymapInUse(to: c, sid) }
            // The selections are offered after the enter and its modifiers (`sendModifiers`),
            // as wlroots does: GTK 3 drops a primary-selection offer that comes before its
            // surface has the keyboard, and middle-click paste then pastes nothing.
            c.offerSelectionsAfterModifiers = Int32(sid.index)
            // No key held (a click's focus change): the empty array without the queue's slice
            // of keys, whose range check and buffer retain cost about 120 instructions.
            if keys.count == 0 {
                var none = wl_array(size: 0, alloc: 0, data: nil)
                c.eachKeyboard(on: sid) { r in wl_keyboard_send_enter(r, serial, surface, &none) }
                return
            }
            queue.keys(keys).withUnsafeBufferPointer { keys in
                withWaylandArray(keys) { array in
                    c.eachKeyboard(on: sid) { r in wl_keyboard_send_enter(r, serial, surface, array) }
                }
            }
        }
    }

    @inline(__always) private func ms(_ time: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: time / 1000) }

    /// One at a time (an embedder's or a wrapping sink's call): as the flush would.
    mutating func deliver(_ delivery: Delivery, from queue: DeliveryQueue) {
        deliverAny(delivery, from: queue)
    }

    /// The commonest deliveries (pointer and touch motion and their frames, keys) are sent
    /// inline in the flush's loop, each behind one tag test, read in place, and a click's
    /// enters, leaves, buttons and modifiers from there by one call each; the rest, and
    /// every delivery while an observer watches, go through `deliverAny`. The call into
    /// `deliverAny` (its prologue saves six registers and loads every case's payload words
    /// before its jump table) was about a third of what the sender adds to a delivery; the
    /// copy of each slot to the stack before the tests, about 15 instructions more.
    @inline(__always) mutating func deliver(_ slots: UnsafeBufferPointer<Delivery>, from queue: DeliveryQueue) -> Int {
        let slot = slots.baseAddress.unsafelyUnwrapped
        if !watched {
            // One switch, one jump table: a chain of `if case` tests became three tables in
            // a row for the keyboard's kinds.
            switch slot.pointee {
            case .pointerMotion(let sid, let node, let time, let p):
                // The frame that ends the motion, when it is next and for the same client,
                // goes out in the same step (the commonest pair: every motion).
                if slots.count > 1, case .pointerFrame(let fsid, let client) = slot[1], fsid == sid,
                    sendPointerMotionAndFrame(sid, node, time, p, client)
                {
                    return 2
                }
                sendPointerMotion(sid, node, time, p)
                return 1
            case .pointerFrame(let sid, let client):
                sendPointerFrame(sid, client)
                return 1
            case .touchMotion(let sid, let node, let time, let sl, let p):
                sendTouchMotion(sid, node, time, sl, p)
                return 1
            case .touchFrame(let sid, let client):
                sendTouchFrame(sid, client)
                return 1
            case .key(let sid, let node, let time, let key, let state, let serial):
                sendKey(sid, node, time, key, state, serial)
                return 1
            // A click's other seven: the pointer's leave, enter and buttons, the keyboard's
            // leave, enter and modifiers, each one call with its payload read in place. Through
            // `deliverAny` each paid the slot's copy, its prologue and its payload loads (~50).
            // Out of line: sent inline, their registers spilled the key's path (+14 per key).
            case .pointerLeave(let sid, let node, let serial):
                sendPointerLeave(sid, node, serial)
                return 1
            case .pointerEnter(let sid, let node, let p, let serial):
                sendPointerEnter(sid, node, p, serial)
                return 1
            case .pointerButton(let sid, let node, let time, let button, let state, let serial):
                sendPointerButton(sid, node, time, button, state, serial)
                return 1
            case .keyboardLeave(let sid, let node, let serial):
                sendKeyboardLeave(sid, node, serial)
                return 1
            case .keyboardEnter(let sid, let node, let keys, let serial):
                sendKeyboardEnter(sid, node, keys, serial, queue)
                return 1
            case .modifiers(let sid, let node, let m, let serial):
                sendModifiers(sid, node, m, serial)
                return 1
            default: break
            }
        }
        deliverAny(slot.pointee, from: queue)
        return 1
    }

    /// The motion and then its frame, to the same resources in the same order as the two
    /// deliveries one after the other; false (nothing sent) unless the motion's surface is
    /// alive and `client`'s: then each goes its own way.
    @inline(__always) private func sendPointerMotionAndFrame(
        _ sid: SeatID, _ node: NodeID, _ time: UInt64, _ p: Point,
        _ client: ClientID
    ) -> Bool {
        var sent = false
        withTarget(node) { _, c in
            guard c.id == client else { return }
            sendPointerMotion(sid, to: c, time, p)
            sendPointerFrame(sid, to: c)
            sent = true
        }
        return sent
    }

    // The inline sends, shared by the fast path and `deliverAny`.
    @inline(__always) private func sendPointerMotion(_ sid: SeatID, _ node: NodeID, _ time: UInt64, _ p: Point) {
        withTarget(node) { _, c in sendPointerMotion(sid, to: c, time, p) }
    }

    @inline(__always) private func sendPointerMotion(_ sid: SeatID, to c: ClientState, _ time: UInt64, _ p: Point) {
        c.eachPointer(on: sid) { r in
            wl_pointer_send_motion(r, ms(time), wl_fixed_from_double(p.x), wl_fixed_from_double(p.y))
        }
    }

    @inline(__always) private func sendTouchMotion(
        _ sid: SeatID, _ node: NodeID, _ time: UInt64, _ slot: Int32, _ p: Point
    ) {
        withTarget(node) { _, c in
            c.eachTouch(on: sid) { r in
                wl_touch_send_motion(r, ms(time), slot, wl_fixed_from_double(p.x), wl_fixed_from_double(p.y))
            }
        }
    }

    /// Whether `c`'s keyboards of seat `sid` hold the keymap its keys and modifiers are in
    /// now (ClientKeymaps.swift): the key's one comparison.
    @inline(__always) private func holdsKeymapInUse(_ c: ClientState, _ sid: SeatID) -> Bool {
        // The server's tags read here, not through `keymapTagInUse`: a method called on the
        // unowned(unsafe) server retained and released it (about 40 instructions per key).
        let i = Int(sid.index)
        return c.keymapSent(on: sid) == (i < server.keymapTags.count ? server.keymapTags[i] : 0)
    }

    /// Out of line, with the server borrowed: a call on `server` as it is retained and
    /// released it, and the key's path would carry that.
    @inline(never) private func sendKeymapInUse(to c: ClientState, _ sid: SeatID) {
        Unmanaged.passUnretained(server)._withUnsafeGuaranteedRef { $0.sendKeymapInUse(to: c, seat: sid) }
    }

    @inline(__always) private func sendKey(
        _ sid: SeatID, _ node: NodeID, _ time: UInt64, _ key: UInt32, _ state: KeyState,
        _ serial: UInt32
    ) {
        withTarget(node) { _, c in
            if !holdsKeymapInUse(c, sid) { sendKeymapInUse(to: c, sid) }
            c.eachKeyboard(on: sid) { r in wl_keyboard_send_key(r, serial, ms(time), key, UInt32(state.rawValue)) }
        }
    }

    // The click's sends, out of line (see `deliver(_:from:)`), shared with `deliverAny`.
    @inline(never) private func sendPointerEnter(_ sid: SeatID, _ node: NodeID, _ p: Point, _ serial: UInt32) {
        withTarget(node) { surface, c in
            c.wheelClicks.resetAll()
            c.eachPointer(on: sid) { r in
                wl_pointer_send_enter(r, serial, surface, wl_fixed_from_double(p.x), wl_fixed_from_double(p.y))
            }
        }
    }

    @inline(never) private func sendPointerLeave(_ sid: SeatID, _ node: NodeID, _ serial: UInt32) {
        withTarget(node) { surface, c in
            c.eachPointer(on: sid) { r in wl_pointer_send_leave(r, serial, surface) }
        }
    }

    @inline(never) private func sendPointerButton(
        _ sid: SeatID, _ node: NodeID, _ time: UInt64, _ button: UInt32,
        _ state: ButtonState, _ serial: UInt32
    ) {
        withTarget(node) { _, c in
            c.eachPointer(on: sid) { r in wl_pointer_send_button(r, serial, ms(time), button, UInt32(state.rawValue)) }
        }
    }

    @inline(never) private func sendKeyboardLeave(_ sid: SeatID, _ node: NodeID, _ serial: UInt32) {
        withTarget(node) { surface, c in
            c.eachKeyboard(on: sid) { r in wl_keyboard_send_leave(r, serial, surface) }
        }
    }

    @inline(never) private func sendModifiers(_ sid: SeatID, _ node: NodeID, _ m: Modifiers, _ serial: UInt32) {
        withTarget(node) { _, c in
            if !holdsKeymapInUse(c, sid) { sendKeymapInUse(to: c, sid) }
            c.eachKeyboard(on: sid) { r in
                wl_keyboard_send_modifiers(r, serial, m.depressed, m.latched, m.locked, m.group)
            }
            // The seat queues the modifiers right after each enter: the selections follow them.
            if c.offerSelectionsAfterModifiers == Int32(sid.index) {
                c.offerSelectionsAfterModifiers = -1
                // Borrowed: a call on `server` as it is retained and released it (~40 per enter).
                Unmanaged.passUnretained(server)._withUnsafeGuaranteedRef {
                    $0.selectionsFollowKeyboard(to: c, seat: Int(sid.index))
                }
            }
        }
    }

    @inline(__always) private func sendTouchFrame(_ sid: SeatID, _ client: ClientID) {
        withClient(client) { c in c.eachTouch(on: sid) { r in wl_touch_send_frame(r) } }
    }

    @inline(__always) private func sendPointerFrame(_ sid: SeatID, _ client: ClientID) {
        withClient(client) { c in sendPointerFrame(sid, to: c) }
    }

    @inline(__always) private func sendPointerFrame(_ sid: SeatID, to c: ClientState) {
        c.axisSourceSent = false
        c.legacyAxisSourceSent = false
        let i = Int(sid.index)
        guard i < c.seatDevices.count else { return }
        if let r = c.seatDevices[i].soloPointer {
            if c.seatDevices[i].soloPointerTakesFrames { wl_pointer_send_frame(r) }
            return
        }
        for r in c.seatDevices[i].pointers where wl_resource_get_version(r) >= 5 { wl_pointer_send_frame(r) }
    }

    @inline(never) private func deliverAny(_ delivery: Delivery, from queue: DeliveryQueue) {
        if watched, let observer = server.deliveryObserver { observer(delivery, queue) }
        switch delivery {
        case .pointerEnter(let sid, let node, let p, let serial):
            sendPointerEnter(sid, node, p, serial)
        case .pointerLeave(let sid, let node, let serial):
            sendPointerLeave(sid, node, serial)
        case .pointerMotion(let sid, let node, let time, let p):
            sendPointerMotion(sid, node, time, p)
        case .pointerButton(let sid, let node, let time, let button, let state, let serial):
            sendPointerButton(sid, node, time, button, state, serial)
        case .pointerAxis(let sid, let node, let time, let axis, let source, let value, let value120):
            withTarget(node) { _, c in
                // Before v8: whole clicks only (WheelClicks.swift); nil while within a click.
                let legacy =
                    value120 == 0
                    ? (clicks: 0, value: value) : c.wheelClicks.add(axis, value120: value120, value: value)
                let a = UInt32(axis.rawValue)
                c.eachPointer(on: sid) { r in
                    let v = wl_resource_get_version(r)
                    if v >= 8 {
                        if !c.axisSourceSent { wl_pointer_send_axis_source(r, UInt32(source.rawValue)) }
                        if value120 != 0 { wl_pointer_send_axis_value120(r, a, value120) }
                        wl_pointer_send_axis(r, ms(time), a, wl_fixed_from_double(value))
                    } else if let legacy {
                        if v >= 5, !c.legacyAxisSourceSent { wl_pointer_send_axis_source(r, UInt32(source.rawValue)) }
                        if v >= 5, legacy.clicks != 0 { wl_pointer_send_axis_discrete(r, a, legacy.clicks) }
                        wl_pointer_send_axis(r, ms(time), a, wl_fixed_from_double(legacy.value))
                    }
                }
                c.axisSourceSent = true
                if legacy != nil { c.legacyAxisSourceSent = true }
            }
        case .pointerAxisStop(let sid, let node, let time, let axis):
            withTarget(node) { _, c in
                c.wheelClicks.reset(axis)
                c.eachPointer(on: sid) { r in
                    if wl_resource_get_version(r) >= 5 { wl_pointer_send_axis_stop(r, ms(time), UInt32(axis.rawValue)) }
                }
            }
        case .pointerFrame(let sid, let client):
            sendPointerFrame(sid, client)

        case .keyboardEnter(let sid, let node, let keys, let serial):
            sendKeyboardEnter(sid, node, keys, serial, queue)
        case .keyboardLeave(let sid, let node, let serial):
            sendKeyboardLeave(sid, node, serial)
        case .key(let sid, let node, let time, let key, let state, let serial):
            sendKey(sid, node, time, key, state, serial)
        case .modifiers(let sid, let node, let m, let serial):
            sendModifiers(sid, node, m, serial)
        case .keymapChanged(let sid, let keyboard):
            server.keymapChanged(seat: sid, keyboard: keyboard) // ClientKeymaps.swift

        case .touchDown(let sid, let node, let time, let slot, let p, let serial):
            withTarget(node) { surface, c in
                c.eachTouch(on: sid) { r in
                    wl_touch_send_down(
                        r, serial, ms(time), surface, slot, wl_fixed_from_double(p.x), wl_fixed_from_double(p.y))
                }
            }
        case .touchMotion(let sid, let node, let time, let slot, let p):
            sendTouchMotion(sid, node, time, slot, p)
        case .touchUp(let sid, let node, let time, let slot, let serial):
            withTarget(node) { _, c in
                c.eachTouch(on: sid) { r in wl_touch_send_up(r, serial, ms(time), slot) }
            }
        case .touchFrame(let sid, let client):
            sendTouchFrame(sid, client)
        case .touchCancel(let sid, let client):
            withClient(client) { c in
                c.eachTouch(on: sid) { r in wl_touch_send_cancel(r) }
            }
        case .touchReleased(let sid, let client, let time, let slot, let serial):
            withClient(client) { c in
                guard c.alive else { return }
                c.eachTouch(on: sid) { r in wl_touch_send_up(r, serial, ms(time), slot) }
            }

        case .popupDone(_, let node):
            guard let s = server.surface(for: node), case .xdg(let x) = s.role, case .popup(let p) = x.roleObject else {
                return
            }
            xdg_popup_send_popup_done(p.resource)
        case .resizeRequest(_, let node, let width, let height):
            guard let s = server.surface(for: node), case .xdg(let x) = s.role, case .toplevel(let t) = x.roleObject
            else { return }
            t.requestSize(width: width, height: height)
        case .relativeMotion(let sid, let node, let time, let motion):
            server.sendRelativeMotion(to: node, seat: Int(sid.index), time: time, motion)
        case .pointerConstraint(let sid, let node, _, let active):
            server.sendConstraintChange(node, seat: Int(sid.index), active: active)
        case .gesture(let sid, let node, let time, let g):
            server.sendGesture(node, seat: Int(sid.index), time: time, g)
        case .shortcutsInhibited(let sid, let node, let active):
            server.surface(for: node)?.shortcutsInhibitor(seat: Int(sid.index))?.send(active: active)
        case .handled, .action, .binding, .claimed, .switchToggled, .dropped, .inputMethodKey:
            // The compositor's own business.
            break
        case .tabletProximityIn, .tabletProximityOut, .tabletDown, .tabletUp, .tabletMotion, .tabletButton,
            .tabletFrame, .padButton, .padRing, .padStrip, .padEnter, .padLeave, .padModeSwitch:
            server.sendTablet(delivery, from: queue) // Tablet+Delivery.swift
        }
    }
}

extension WaylandServer {
    /// The node that moves and restacks for a toplevel: its decoration container, if any.
    /// Inline (a click's raise reads it).
    @inline(__always) func windowNode(of toplevel: NodeID) -> NodeID {
        withToplevel(toplevel) { _, t in t.frame?.container } ?? toplevel
    }

    /// `body` with the xdg_surface and toplevel of `node`'s surface, all three borrowed (no
    /// reference counted: they hold each other, and `surfacesByNode` holds the surface);
    /// nil when `node` is not a toplevel's surface. `body` must not destroy any of them.
    @inline(__always) func withToplevel<R>(_ node: NodeID, _ body: (XdgSurfaceObject, XdgToplevel) -> R?) -> R? {
        guard let t = deliveryTargets[Int(node.index)], t.node == node else { return nil }
        return t.surface._withUnsafeGuaranteedRef { s in
            s.xdgRef?._withUnsafeGuaranteedRef { x in x.toplevelRef?._withUnsafeGuaranteedRef { top in body(x, top) } }
                ?? nil
        }
    }

    @inline(__always) func client(_ id: ClientID) -> ClientState? {
        let i = Int(id.index)
        return i < clientsByID.count ? clientsByID[i] : nil
    }
}
