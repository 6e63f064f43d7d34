// Deliveries out: each one as a `struct ir_delivery` to the caller's callback, and to the
// trace while it is on. The invariant checker sits in front (RouterState.checker).
import CInputRouterAPI
import InputRouter

/// The C id of a node (RouterState.cID), for code that has no state at hand.
func cNodeID(_ node: NodeID) -> UInt64 { UInt64(node.generation) << 32 | UInt64(node.index) }

/// The sink behind the invariant checker: forwards to the C callback of the drain under way.
struct DeliveryForwarder: DeliverySink {
    var callback: ir_delivery_fn?
    var userData: UnsafeMutableRawPointer?
    /// How many deliveries this drain handed over.
    var count = 0
    /// The trace's lines while it is on (docs/trace.md), nil while off.
    var trace: [String]?
    var router: Router?

    mutating func deliver(_ d: Delivery, from queue: DeliveryQueue) {
        if trace != nil, let router { trace?.append(TraceSink.line(d, queue: queue, router: router)) }
        guard let callback, let router else { return }
        var c = ir_delivery()
        c.seat = d.seat.index
        c.client = UInt32.max // IR_CLIENT_NONE until known
        c.scale = 1
        if let node = d.surface {
            // Nothing goes to a surface destroyed since the delivery was queued.
            guard let client = router.tree.client(of: node) else { return }
            c.node = cNodeID(node)
            c.client = client.index
        }
        func time(_ t: UInt64) {
            c.time_usec = t
            c.time_msec = UInt32(truncatingIfNeeded: t / 1000)
        }
        func point(_ p: Point) { (c.x, c.y) = (p.x, p.y) }
        switch d {
        case .pointerEnter(_, _, let p, let serial):
            c.kind = IR_DELIVERY_POINTER_ENTER
            point(p)
            c.serial = serial
        case .pointerLeave(_, _, let serial):
            c.kind = IR_DELIVERY_POINTER_LEAVE
            c.serial = serial
        case .pointerMotion(_, _, let t, let p):
            c.kind = IR_DELIVERY_POINTER_MOTION
            time(t)
            point(p)
        case .pointerButton(_, _, let t, let button, let state, let serial):
            c.kind = IR_DELIVERY_POINTER_BUTTON
            time(t)
            c.button = button
            c.state = UInt32(state.rawValue)
            c.serial = serial
        case .pointerAxis(_, _, let t, let axis, let source, let value, let value120):
            c.kind = IR_DELIVERY_POINTER_AXIS
            time(t)
            c.axis = UInt32(axis.rawValue)
            c.axis_source = UInt32(source.rawValue)
            c.axis_value = value
            c.value120 = value120
        case .pointerAxisStop(_, _, let t, let axis):
            c.kind = IR_DELIVERY_POINTER_AXIS_STOP
            time(t)
            c.axis = UInt32(axis.rawValue)
        case .pointerFrame(_, let client):
            c.kind = IR_DELIVERY_POINTER_FRAME
            c.client = client.index
        case .keyboardEnter(_, _, let keys, let serial):
            c.kind = IR_DELIVERY_KEYBOARD_ENTER
            c.serial = serial
            let held = Array(queue.keys(keys))
            held.withUnsafeBufferPointer { buffer in
                c.keys = buffer.baseAddress
                c.key_count = buffer.count
                callback(userData, &c)
            }
            count += 1
            return
        case .keyboardLeave(_, _, let serial):
            c.kind = IR_DELIVERY_KEYBOARD_LEAVE
            c.serial = serial
        case .key(_, _, let t, let key, let state, let serial):
            c.kind = IR_DELIVERY_KEY
            time(t)
            c.key = key
            c.state = UInt32(state.rawValue)
            c.serial = serial
        case .modifiers(_, _, let m, let serial):
            c.kind = IR_DELIVERY_MODIFIERS
            (c.depressed, c.latched, c.locked, c.group) = (m.depressed, m.latched, m.locked, m.group)
            c.serial = serial
        case .touchDown(_, _, let t, let slot, let p, let serial):
            c.kind = IR_DELIVERY_TOUCH_DOWN
            time(t)
            c.touch_id = slot
            point(p)
            c.serial = serial
        case .touchMotion(_, _, let t, let slot, let p):
            c.kind = IR_DELIVERY_TOUCH_MOTION
            time(t)
            c.touch_id = slot
            point(p)
        case .touchUp(_, _, let t, let slot, let serial):
            c.kind = IR_DELIVERY_TOUCH_UP
            time(t)
            c.touch_id = slot
            c.serial = serial
        case .touchReleased(_, let client, let t, let slot, let serial):
            // The point's surface is gone: wl_touch.up to its client, which cannot name it.
            c.kind = IR_DELIVERY_TOUCH_UP
            c.client = client.index
            time(t)
            c.touch_id = slot
            c.serial = serial
        case .touchFrame(_, let client):
            c.kind = IR_DELIVERY_TOUCH_FRAME
            c.client = client.index
        case .touchCancel(_, let client):
            c.kind = IR_DELIVERY_TOUCH_CANCEL
            c.client = client.index
        case .gesture(_, _, let t, let g):
            c.kind = IR_DELIVERY_GESTURE
            time(t)
            c.gesture_kind = UInt32(g.kind.rawValue)
            c.gesture_phase = UInt32(g.phase.rawValue)
            c.fingers = g.fingers
            (c.dx, c.dy, c.scale, c.rotation) = (g.dx, g.dy, g.scale, g.rotation)
        case .handled(_, let responder, _):
            c.kind = IR_DELIVERY_HANDLED
            switch responder {
            case .node(let n):
                c.node = cNodeID(n)
                c.client = router.tree.client(of: n)?.index ?? UInt32.max
            case .client(let client): c.client = client.index
            case .seat: break
            }
        case .binding(_, let index, let key):
            c.kind = IR_DELIVERY_BINDING
            c.binding = index
            c.key = key
        case .switchToggled(_, let kind, let on):
            c.kind = IR_DELIVERY_SWITCH
            c.switch_kind = UInt32(kind.rawValue)
            c.state = on ? 1 : 0
        case .dropped:
            c.kind = IR_DELIVERY_DROPPED
        default:
            c.kind = IR_DELIVERY_OTHER
        }
        callback(userData, &c)
        count += 1
    }
}

@_cdecl("ir_router_drain")
public func irRouterDrain(
    _ router: OpaquePointer?, _ callback: ir_delivery_fn?, _ userData: UnsafeMutableRawPointer?,
    _ count: UnsafeMutablePointer<Int>?
) -> ir_error {
    changing(router) { state in
        guard let callback else { return IR_ERROR_NULL_ARGUMENT }
        // Drained in place: `changing` refuses every call that could reach the checker from
        // a callback (busy), so it need not be taken out of the state. Taking it out and
        // putting it back copied the whole checker twice per drain: about 1,100 of
        // tinywl-ir's 7,380 instructions per motion (benchmarks/tinywl-bench, --profile).
        guard state.checker != nil else { return IR_ERROR_BUSY }
        state.checker!.inner.callback = callback
        state.checker!.inner.userData = userData
        state.checker!.inner.count = 0
        if state.checksInvariants {
            state.router.flush(into: &state.checker!)
        } else {
            state.router.flush(into: &state.checker!.inner)
        }
        count?.pointee = state.checker!.inner.count
        state.checker!.inner.callback = nil
        state.checker!.inner.userData = nil
        return IR_OK
    }
}

@_cdecl("ir_router_set_trace")
public func irRouterSetTrace(_ router: OpaquePointer?, _ enabled: Bool) -> ir_error {
    changing(router) { state in
        guard state.checker != nil else { return IR_ERROR_BUSY }
        if enabled {
            if state.checker?.inner.trace == nil { state.checker?.inner.trace = [] }
        } else {
            state.checker?.inner.trace = nil
        }
        state.checker?.inner.router = state.router
        return IR_OK
    }
}

@_cdecl("ir_router_trace_text")
public func irRouterTraceText(
    _ router: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ length: UnsafeMutablePointer<Int>?
) -> ir_error {
    readingOutsideCallbacks(router) { state in
        let lines = state.checker?.inner.trace ?? []
        return copyOut(lines.map { $0 + "\n" }.joined(), buffer, size, length)
    }
}

@_cdecl("ir_router_clear_trace")
public func irRouterClearTrace(_ router: OpaquePointer?) -> ir_error {
    changing(router) { state in
        if state.checker?.inner.trace != nil { state.checker?.inner.trace = [] }
        return IR_OK
    }
}

@_cdecl("ir_router_set_invariant_checks")
public func irRouterSetInvariantChecks(_ router: OpaquePointer?, _ enabled: Bool) -> ir_error {
    changing(router) { state in
        // A checker that missed the deliveries drained while off would see a leave with no
        // enter, a key up with no key down: off is for good.
        if enabled, !state.checksInvariants { return IR_ERROR_INVALID_ARGUMENT }
        state.checksInvariants = enabled
        return IR_OK
    }
}

@_cdecl("ir_router_check_invariants")
public func irRouterCheckInvariants(
    _ router: OpaquePointer?, _ count: UnsafeMutablePointer<Int>?, _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int,
    _ length: UnsafeMutablePointer<Int>?
) -> ir_error {
    readingOutsideCallbacks(router) { state in
        guard let count else { return IR_ERROR_NULL_ARGUMENT }
        let violations = state.checker?.violations ?? []
        let result = copyOut(violations.map { $0 + "\n" }.joined(), buffer, size, length)
        if result == IR_OK { count.pointee = violations.count }
        return result
    }
}
