// Seats, their devices, what each client bound, focus and the cursor.
import CInputRouterAPI
import InputRouter

@_cdecl("ir_router_add_seat")
public func irRouterAddSeat(
    _ router: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ seat: UnsafeMutablePointer<UInt32>?
)
    -> ir_error
{
    changing(router) { state in
        guard let seat else { return IR_ERROR_NULL_ARGUMENT }
        let added = state.router.addSeat(name: string(name, or: "seat\(state.router.seats.count)"))
        state.presentDevices.append([])
        seat.pointee = added.id.index
        return IR_OK
    }
}

/// Runs `body` on the seat `seat` names, inside a changing call.
@inline(__always) func changingSeat(_ router: OpaquePointer?, _ seat: UInt32, _ body: (RouterState, Seat) -> ir_error)
    -> ir_error
{
    changing(router) { state in
        guard let s = state.resolveSeat(seat) else { return IR_ERROR_UNKNOWN_SEAT }
        return body(state, s)
    }
}

@_cdecl("ir_seat_add_device")
public func irSeatAddDevice(_ router: OpaquePointer?, _ seat: UInt32, _ device: UInt32, _ capabilities: UInt32)
    -> ir_error
{
    var event = ir_event()
    event.type = IR_EVENT_DEVICE_ADDED
    event.device = device
    event.capabilities = capabilities
    return irRouterHandleEvent(router, seat, &event)
}

@_cdecl("ir_seat_remove_device")
public func irSeatRemoveDevice(_ router: OpaquePointer?, _ seat: UInt32, _ device: UInt32, _ time: UInt64) -> ir_error {
    var event = ir_event()
    event.type = IR_EVENT_DEVICE_REMOVED
    event.device = device
    event.time_usec = time
    return irRouterHandleEvent(router, seat, &event)
}

@_cdecl("ir_seat_set_bound")
public func irSeatSetBound(_ router: OpaquePointer?, _ seat: UInt32, _ client: UInt32, _ bound: UInt32) -> ir_error {
    changingSeat(router, seat) { state, s in
        let id = ClientID(index: client)
        guard !id.isCompositor, state.router.isAlive(id) else { return IR_ERROR_UNKNOWN_CLIENT }
        let all = IR_BOUND_POINTER.rawValue | IR_BOUND_KEYBOARD.rawValue | IR_BOUND_TOUCH.rawValue
        guard bound & ~all == 0 else { return IR_ERROR_INVALID_ARGUMENT }
        for (bit, devices) in [
            (IR_BOUND_POINTER.rawValue, BoundDevices.pointer), (IR_BOUND_KEYBOARD.rawValue, .keyboard),
            (IR_BOUND_TOUCH.rawValue, .touch),
        ] {
            s.setBound(devices, for: id, bound & bit != 0)
        }
        return IR_OK
    }
}

@_cdecl("ir_seat_set_keyboard_focus")
public func irSeatSetKeyboardFocus(_ router: OpaquePointer?, _ seat: UInt32, _ node: UInt64) -> ir_error {
    changingSeat(router, seat) { state, s in
        if node == 0 {
            s.setKeyboardFocus(nil)
            return IR_OK
        }
        switch state.resolveNode(node) {
        case .success(let n):
            // A subsurface, a compositor node, an unmapped node cannot take the focus.
            return s.setKeyboardFocus(n) ? IR_OK : IR_ERROR_INVALID_ARGUMENT
        case .failure(let e): return e.code
        }
    }
}

/// Runs `body` on the seat, for a call that only reads.
@inline(__always) func readingSeat(_ router: OpaquePointer?, _ seat: UInt32, _ body: (RouterState, Seat) -> ir_error)
    -> ir_error
{
    reading(router) { state in
        guard let s = state.resolveSeat(seat) else { return IR_ERROR_UNKNOWN_SEAT }
        return body(state, s)
    }
}

@_cdecl("ir_seat_keyboard_focus")
public func irSeatKeyboardFocus(_ router: OpaquePointer?, _ seat: UInt32, _ node: UnsafeMutablePointer<UInt64>?)
    -> ir_error
{
    readingSeat(router, seat) { state, s in
        guard let node else { return IR_ERROR_NULL_ARGUMENT }
        node.pointee = s.keyboardFirstResponder.map(state.issued) ?? 0
        return IR_OK
    }
}

@_cdecl("ir_seat_pointer_focus")
public func irSeatPointerFocus(_ router: OpaquePointer?, _ seat: UInt32, _ node: UnsafeMutablePointer<UInt64>?)
    -> ir_error
{
    readingSeat(router, seat) { state, s in
        guard let node else { return IR_ERROR_NULL_ARGUMENT }
        node.pointee = s.pointerFocusNode.map(state.issued) ?? 0
        return IR_OK
    }
}

@_cdecl("ir_seat_cursor")
public func irSeatCursor(
    _ router: OpaquePointer?, _ seat: UInt32, _ x: UnsafeMutablePointer<Double>?, _ y: UnsafeMutablePointer<Double>?
) -> ir_error {
    readingSeat(router, seat) { _, s in
        guard let x, let y else { return IR_ERROR_NULL_ARGUMENT }
        x.pointee = s.cursor.x
        y.pointee = s.cursor.y
        return IR_OK
    }
}
