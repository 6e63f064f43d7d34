// Deliveries out as protocol events (the wlroots `send_*` side). Each delivery names a
// node; the node's surface and its client's resources are found by array index, and the
// event goes to every resource of that kind the client holds, at the version it bound.
import CWaylandServer
import CXdgShellServer
import InputRouter

extension WaylandServer {
    /// Writes every queued delivery to the clients, then applies focus changes they caused,
    /// and tells toplevels whose activated state changed (whatever moved the keyboard).
    public func sendDeliveries() {
        if !router.queue.isEmpty {
            var sender = WaylandSender(server: self)
            router.flush(into: &sender)
            if let focus = pendingFocus {
                pendingFocus = nil
                let before = wl_display_get_serial(display)
                activate(focus)
                sendDeliveries()
                noteClickFocusSerials(of: focus, after: before)
            }
            if !afterDeliveries.isEmpty {
                let work = afterDeliveries
                afterDeliveries.removeAll()
                for w in work { w() }
                sendDeliveries()
            }
        }
        if seat.keyboardFirstResponder != seatServices[0].activationSource { keyboardFocusMoved(onSeat: 0) }
        if !extraSeats.isEmpty { followKeyboardFocusOfOtherSeats() }  // Seats.swift
        updateSurfaceOutputs()  // one comparison unless the scene changed (Outputs.swift)
    }
}

struct WaylandSender: DeliverySink {
    unowned(unsafe) let server: WaylandServer
    /// Read once per flush, not once per delivery.
    let observer: ((Delivery, DeliveryQueue) -> Void)?

    init(server: WaylandServer) {
        self.server = server
        observer = server.deliveryObserver
    }

    @inline(__always) private func target(_ node: NodeID) -> (Surface, ClientState)? {
        guard let s = server.surface(for: node), s.owner.alive else { return nil }
        return (s, s.owner)
    }

    @inline(__always) private func ms(_ time: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: time / 1000) }

    mutating func deliver(_ delivery: Delivery, from queue: DeliveryQueue) {
        observer?(delivery, queue)
        switch delivery {
        case let .pointerEnter(sid, node, p, serial):
            guard let (s, c) = target(node) else { return }
            c.onSeat(Int(sid.index)).lastEnterSerial = serial
            c.wheelClicks.resetAll()
            for r in c.pointers(on: sid) {
                wl_pointer_send_enter(r, serial, s.resource, wl_fixed_from_double(p.x), wl_fixed_from_double(p.y))
            }
        case let .pointerLeave(sid, node, serial):
            guard let (s, c) = target(node) else { return }
            for r in c.pointers(on: sid) { wl_pointer_send_leave(r, serial, s.resource) }
        case let .pointerMotion(sid, node, time, p):
            guard let (_, c) = target(node) else { return }
            for r in c.pointers(on: sid) { wl_pointer_send_motion(r, ms(time), wl_fixed_from_double(p.x), wl_fixed_from_double(p.y)) }
        case let .pointerButton(sid, node, time, button, state, serial):
            guard let (_, c) = target(node) else { return }
            for r in c.pointers(on: sid) { wl_pointer_send_button(r, serial, ms(time), button, UInt32(state.rawValue)) }
            c.onSeat(Int(sid.index)).inputSerials.record(serial)
            if state == .released { c.onSeat(Int(sid.index)).lastReleaseSerial = serial }
            if state == .pressed, server.configuration.focusOnClick {
                c.clickFocus = ClickFocusSerials(press: serial, after: serial, upTo: serial)
                if sid.index == 0 { server.pendingFocus = node } else { server.focusOnClick(node, seat: sid) }
            }
        case let .pointerAxis(sid, node, time, axis, source, value, value120):
            guard let (_, c) = target(node) else { return }
            // Before v8: whole clicks only (WheelClicks.swift); nil while within a click.
            let legacy = value120 == 0 ? (clicks: 0, value: value) : c.wheelClicks.add(axis, value120: value120, value: value)
            let a = UInt32(axis.rawValue)
            for r in c.pointers(on: sid) {
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
        case let .pointerAxisStop(sid, node, time, axis):
            guard let (_, c) = target(node) else { return }
            c.wheelClicks.reset(axis)
            for r in c.pointers(on: sid) where wl_resource_get_version(r) >= 5 {
                wl_pointer_send_axis_stop(r, ms(time), UInt32(axis.rawValue))
            }
        case let .pointerFrame(sid, client):
            guard let c = server.client(client) else { return }
            c.axisSourceSent = false
            c.legacyAxisSourceSent = false
            for r in c.pointers(on: sid) where wl_resource_get_version(r) >= 5 { wl_pointer_send_frame(r) }

        case let .keyboardEnter(sid, node, keys, serial):
            guard let (s, c) = target(node) else { return }
            c.onSeat(Int(sid.index)).lastKeyboardEnterSerial = serial
            server.selectionsFollowKeyboard(to: c, seat: Int(sid.index))
            withWaylandArray(Array(queue.keys(keys))) { array in
                for r in c.keyboards(on: sid) { wl_keyboard_send_enter(r, serial, s.resource, array) }
            }
        case let .keyboardLeave(sid, node, serial):
            guard let (s, c) = target(node) else { return }
            for r in c.keyboards(on: sid) { wl_keyboard_send_leave(r, serial, s.resource) }
        case let .key(sid, node, time, key, state, serial):
            guard let (_, c) = target(node) else { return }
            for r in c.keyboards(on: sid) { wl_keyboard_send_key(r, serial, ms(time), key, UInt32(state.rawValue)) }
            c.onSeat(Int(sid.index)).inputSerials.record(serial)
        case let .modifiers(sid, node, m, serial):
            guard let (_, c) = target(node) else { return }
            for r in c.keyboards(on: sid) { wl_keyboard_send_modifiers(r, serial, m.depressed, m.latched, m.locked, m.group) }
            c.onSeat(Int(sid.index)).inputSerials.record(serial)

        case let .touchDown(sid, node, time, slot, p, serial):
            guard let (s, c) = target(node) else { return }
            for r in c.touches(on: sid) {
                wl_touch_send_down(r, serial, ms(time), s.resource, slot, wl_fixed_from_double(p.x), wl_fixed_from_double(p.y))
            }
        case let .touchMotion(sid, node, time, slot, p):
            guard let (_, c) = target(node) else { return }
            for r in c.touches(on: sid) { wl_touch_send_motion(r, ms(time), slot, wl_fixed_from_double(p.x), wl_fixed_from_double(p.y)) }
        case let .touchUp(sid, node, time, slot, serial):
            guard let (_, c) = target(node) else { return }
            for r in c.touches(on: sid) { wl_touch_send_up(r, serial, ms(time), slot) }
            c.onSeat(Int(sid.index)).inputSerials.record(serial)
        case let .touchFrame(sid, client):
            guard let c = server.client(client) else { return }
            for r in c.touches(on: sid) { wl_touch_send_frame(r) }
        case let .touchCancel(sid, client):
            guard let c = server.client(client) else { return }
            for r in c.touches(on: sid) { wl_touch_send_cancel(r) }
        case let .touchReleased(sid, client, time, slot, serial):
            guard let c = server.client(client), c.alive else { return }
            for r in c.touches(on: sid) { wl_touch_send_up(r, serial, ms(time), slot) }

        case let .popupDone(_, node):
            guard let s = server.surface(for: node), case .xdg(let x) = s.role, case .popup(let p) = x.roleObject else { return }
            xdg_popup_send_popup_done(p.resource)
        case let .resizeRequest(_, node, width, height):
            guard let s = server.surface(for: node), case .xdg(let x) = s.role, case .toplevel(let t) = x.roleObject else { return }
            t.requestSize(width: width, height: height)
        case let .relativeMotion(sid, node, time, motion):
            server.sendRelativeMotion(to: node, seat: Int(sid.index), time: time, motion)
        case let .pointerConstraint(sid, node, _, active):
            server.sendConstraintChange(node, seat: Int(sid.index), active: active)
        case let .gesture(sid, node, time, g):
            server.sendGesture(node, seat: Int(sid.index), time: time, g)
        case let .shortcutsInhibited(sid, node, active):
            server.surface(for: node)?.shortcutsInhibitor(seat: Int(sid.index))?.send(active: active)
        case .handled, .action, .binding, .claimed, .switchToggled, .dropped, .inputMethodKey:
            // The compositor's own business.
            break
        case .tabletProximityIn, .tabletProximityOut, .tabletDown, .tabletUp, .tabletMotion, .tabletButton,
             .tabletFrame, .padButton, .padRing, .padStrip:
            server.sendTablet(delivery, from: queue)  // Tablet+Delivery.swift
        }
    }
}

extension WaylandServer {
    /// The node that moves and restacks for a toplevel: its decoration container, if any.
    func windowNode(of toplevel: NodeID) -> NodeID {
        guard let s = surface(for: toplevel), case .xdg(let x) = s.role, case .toplevel(let t) = x.roleObject else { return toplevel }
        return t.windowNode ?? toplevel
    }

    @inline(__always) func client(_ id: ClientID) -> ClientState? {
        let i = Int(id.index)
        return i < clientsByID.count ? clientsByID[i] : nil
    }
}
