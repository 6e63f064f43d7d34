// Input events in: `struct ir_event` to the core's `InputEvent` and back (recordings).
import CInputRouterAPI
import InputRouter

/// The core's event for a C one; nil for a type or value out of range (a NaN coordinate,
/// a state that is neither 0 nor 1, an unknown axis source...).
func inputEvent(_ e: ir_event) -> InputEvent? {
    // Four fixed parameters, not a variadic (whose array is a heap allocation per event).
    func finite(_ a: Double, _ b: Double, _ c: Double = 0, _ d: Double = 0) -> Bool {
        a.isFinite && b.isFinite && c.isFinite && d.isFinite
    }
    func onOff(_ state: UInt32) -> Bool? { state <= 1 ? state == 1 : nil }
    let kind: InputEvent.Kind
    switch e.type {
    case IR_EVENT_DEVICE_ADDED:
        guard e.capabilities < 1 << 7 else { return nil }
        kind = .deviceAdded(DeviceCapabilities(rawValue: UInt16(e.capabilities)))
    case IR_EVENT_DEVICE_REMOVED: kind = .deviceRemoved
    case IR_EVENT_POINTER_MOTION:
        guard finite(e.dx, e.dy, e.unaccel_dx, e.unaccel_dy) else { return nil }
        kind = .pointerMotion(dx: e.dx, dy: e.dy, unacceleratedDX: e.unaccel_dx, unacceleratedDY: e.unaccel_dy)
    case IR_EVENT_POINTER_MOTION_ABSOLUTE:
        guard finite(e.x, e.y) else { return nil }
        kind = .pointerMotionAbsolute(x: e.x, y: e.y)
    case IR_EVENT_POINTER_BUTTON:
        guard let pressed = onOff(e.state) else { return nil }
        kind = .pointerButton(button: e.button, state: pressed ? .pressed : .released)
    case IR_EVENT_POINTER_AXIS:
        guard let source = AxisSource(rawValue: UInt8(truncatingIfNeeded: e.axis_source)), e.axis_source <= 3,
            finite(e.vertical, e.horizontal)
        else { return nil }
        kind = .pointerAxis(
            source: source,
            vertical: e.has_vertical ? AxisValue(value: e.vertical, value120: e.vertical_value120) : nil,
            horizontal: e.has_horizontal ? AxisValue(value: e.horizontal, value120: e.horizontal_value120) : nil)
    case IR_EVENT_KEYBOARD_KEY:
        guard let pressed = onOff(e.state) else { return nil }
        kind = .keyboardKey(key: e.key, state: pressed ? .pressed : .released)
    case IR_EVENT_TOUCH_DOWN:
        guard finite(e.x, e.y) else { return nil }
        kind = .touchDown(slot: e.slot, x: e.x, y: e.y)
    case IR_EVENT_TOUCH_MOTION:
        guard finite(e.x, e.y) else { return nil }
        kind = .touchMotion(slot: e.slot, x: e.x, y: e.y)
    case IR_EVENT_TOUCH_UP: kind = .touchUp(slot: e.slot)
    case IR_EVENT_TOUCH_CANCEL: kind = .touchCancel(slot: e.slot)
    case IR_EVENT_TOUCH_FRAME: kind = .touchFrame
    case IR_EVENT_GESTURE:
        guard e.gesture_kind <= 2, e.gesture_phase <= 2, finite(e.dx, e.dy, e.scale, e.rotation),
            let gestureKind = GestureKind(rawValue: UInt8(e.gesture_kind)),
            let phase = GesturePhase(rawValue: UInt8(e.gesture_phase))
        else { return nil }
        kind = .gesture(
            GestureEvent(
                kind: gestureKind, phase: phase, fingers: e.fingers, dx: e.dx, dy: e.dy, scale: e.scale,
                rotation: e.rotation, cancelled: e.cancelled))
    case IR_EVENT_SWITCH:
        guard e.switch_kind <= 2, let on = onOff(e.state), let switchKind = SwitchKind(rawValue: UInt8(e.switch_kind))
        else { return nil }
        kind = .switchToggle(switchKind, on: on)
    default: return nil
    }
    return InputEvent(time: e.time_usec, device: DeviceID(e.device), kind)
}

/// The C event for a core one; nil for the kinds the header does not describe (tablets, pads).
func cEvent(_ event: InputEvent) -> ir_event? {
    var e = ir_event()
    e.time_usec = event.time
    e.device = event.device.index
    e.scale = 1
    switch event.kind {
    case .deviceAdded(let caps):
        e.type = IR_EVENT_DEVICE_ADDED
        e.capabilities = UInt32(caps.rawValue)
    case .deviceRemoved: e.type = IR_EVENT_DEVICE_REMOVED
    case .pointerMotion(let dx, let dy, let udx, let udy):
        e.type = IR_EVENT_POINTER_MOTION
        (e.dx, e.dy, e.unaccel_dx, e.unaccel_dy) = (dx, dy, udx, udy)
    case .pointerMotionAbsolute(let x, let y):
        e.type = IR_EVENT_POINTER_MOTION_ABSOLUTE
        (e.x, e.y) = (x, y)
    case .pointerButton(let button, let state):
        e.type = IR_EVENT_POINTER_BUTTON
        e.button = button
        e.state = UInt32(state.rawValue)
    case .pointerAxis(let source, let vertical, let horizontal):
        e.type = IR_EVENT_POINTER_AXIS
        e.axis_source = UInt32(source.rawValue)
        if let vertical {
            e.has_vertical = true
            e.vertical = vertical.value
            e.vertical_value120 = vertical.value120
        }
        if let horizontal {
            e.has_horizontal = true
            e.horizontal = horizontal.value
            e.horizontal_value120 = horizontal.value120
        }
    case .keyboardKey(let key, let state):
        e.type = IR_EVENT_KEYBOARD_KEY
        e.key = key
        e.state = UInt32(state.rawValue)
    case .touchDown(let slot, let x, let y):
        e.type = IR_EVENT_TOUCH_DOWN
        (e.slot, e.x, e.y) = (slot, x, y)
    case .touchMotion(let slot, let x, let y):
        e.type = IR_EVENT_TOUCH_MOTION
        (e.slot, e.x, e.y) = (slot, x, y)
    case .touchUp(let slot):
        e.type = IR_EVENT_TOUCH_UP
        e.slot = slot
    case .touchCancel(let slot):
        e.type = IR_EVENT_TOUCH_CANCEL
        e.slot = slot
    case .touchFrame: e.type = IR_EVENT_TOUCH_FRAME
    case .gesture(let g):
        e.type = IR_EVENT_GESTURE
        e.gesture_kind = UInt32(g.kind.rawValue)
        e.gesture_phase = UInt32(g.phase.rawValue)
        e.fingers = g.fingers
        (e.dx, e.dy, e.scale, e.rotation, e.cancelled) = (g.dx, g.dy, g.scale, g.rotation, g.cancelled)
    case .switchToggle(let kind, let on):
        e.type = IR_EVENT_SWITCH
        e.switch_kind = UInt32(kind.rawValue)
        e.state = on ? 1 : 0
    case .tabletToolProximity, .tabletToolTip, .tabletToolAxis, .tabletToolButton, .tabletPadAdded, .tabletPadButton,
        .tabletPadRing, .tabletPadStrip:
        return nil
    }
    return e
}

@_cdecl("ir_router_handle_event")
public func irRouterHandleEvent(_ router: OpaquePointer?, _ seat: UInt32, _ event: UnsafePointer<ir_event>?) -> ir_error
{
    changingSeat(router, seat) { state, s in
        guard let event else { return IR_ERROR_NULL_ARGUMENT }
        guard let input = inputEvent(event.pointee) else { return IR_ERROR_INVALID_ARGUMENT }
        let device = input.device.index
        switch input.kind {
        case .deviceAdded:
            if !state.isPresent(device, seat: seat) { state.presentDevices[Int(seat)].append(device) }
        case .deviceRemoved:
            guard let i = state.presentDevices[Int(seat)].firstIndex(of: device) else { return IR_ERROR_UNKNOWN_DEVICE }
            state.presentDevices[Int(seat)].remove(at: i)
        default:
            guard state.isPresent(device, seat: seat) else { return IR_ERROR_UNKNOWN_DEVICE }
        }
        s.handle(input)
        return IR_OK
    }
}
