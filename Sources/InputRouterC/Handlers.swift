// Compositor node handlers: a C function and its user_data behind the core's NodeHandler.
import CInputRouterAPI
import InputRouter

/// The C description of what a node is asked to handle.
func cNodeEvent(_ event: NodeEvent) -> ir_node_event {
    var e = ir_node_event()
    switch event {
    case .pointerEnter(let p):
        e.kind = IR_NODE_EVENT_POINTER_ENTER
        (e.point_x, e.point_y) = (p.x, p.y)
    case .pointerLeave: e.kind = IR_NODE_EVENT_POINTER_LEAVE
    case .pointerMotion(let p):
        e.kind = IR_NODE_EVENT_POINTER_MOTION
        (e.point_x, e.point_y) = (p.x, p.y)
    case .pointerButton(let button, let state, let p):
        e.kind = IR_NODE_EVENT_POINTER_BUTTON
        e.button = button
        e.state = UInt32(state.rawValue)
        (e.point_x, e.point_y) = (p.x, p.y)
    case .pointerAxis(let axis, _, let value, _):
        e.kind = IR_NODE_EVENT_POINTER_AXIS
        e.axis = UInt32(axis.rawValue)
        e.axis_value = value
    case .keyboardEnter: e.kind = IR_NODE_EVENT_KEYBOARD_ENTER
    case .keyboardLeave: e.kind = IR_NODE_EVENT_KEYBOARD_LEAVE
    case .key(let key, let state, let keysym):
        e.kind = IR_NODE_EVENT_KEY
        e.key = key
        e.state = UInt32(state.rawValue)
        e.keysym = keysym
    case .touchDown(let slot, let p):
        e.kind = IR_NODE_EVENT_TOUCH_DOWN
        e.touch_id = slot
        (e.point_x, e.point_y) = (p.x, p.y)
    case .touchMotion(let slot, let p):
        e.kind = IR_NODE_EVENT_TOUCH_MOTION
        e.touch_id = slot
        (e.point_x, e.point_y) = (p.x, p.y)
    case .touchUp(let slot):
        e.kind = IR_NODE_EVENT_TOUCH_UP
        e.touch_id = slot
    case .touchCancel: e.kind = IR_NODE_EVENT_TOUCH_CANCEL
    default: e.kind = IR_NODE_EVENT_OTHER
    }
    return e
}

@_cdecl("ir_router_set_node_handler")
public func irRouterSetNodeHandler(
    _ router: OpaquePointer?, _ node: UInt64, _ handler: ir_node_handler_fn?, _ userData: UnsafeMutableRawPointer?
) -> ir_error {
    changingNode(router, node) { state, n in
        guard let handler else {
            state.router.tree.setHandler(n, nil)
            return IR_OK
        }
        // Client surfaces take what their client bound; handlers are the compositor's.
        guard state.router.tree.kind(of: n) == .compositor || state.router.tree.kind(of: n) == .output else {
            return IR_ERROR_INVALID_ARGUMENT
        }
        let id = cNodeID(n)
        state.router.tree.setHandler(n) { event in
            var e = cNodeEvent(event)
            return handler(userData, id, &e) == IR_HANDLED ? .handled : .notHandled
        }
        return IR_OK
    }
}
