// One libinput event in, at most one core event out. Every libinput event type is
// handled here; the ones the core has no value for (pad keys, unknown switches, newer
// types) come back as `.unrouted` so the source can say so once per device.
//
// Choices, spelled out:
// - Scrolling uses libinput 1.19+'s POINTER_SCROLL_WHEEL / _FINGER / _CONTINUOUS events
//   and ignores the legacy POINTER_AXIS that libinput sends alongside them (using both
//   would scroll twice). value120 comes from get_scroll_value_v120 for wheels; an axis is
//   present when libinput says it has it, so a 0 on a finger or continuous axis is the
//   scroll stop the core turns into wl_pointer.axis_stop.
// - Buttons and keys are passed per device, without libinput's seat-wide count
//   (get_seat_button_count / get_seat_key_count): the core applies the seat count rule
//   itself (a press is forwarded at count 1, a release at 0, across every source feeding
//   the seat, libinput or not), so counting twice would be wrong.
// - Absolute and touch positions are normalised to 0...1 with the *_transformed(e, 1)
//   calls ((raw - min) / (max - min + 1)), clamped like the recording reader's.

import CLibinput
import InputRouter

enum Translated {
    case event(UInt64, InputEvent.Kind)
    /// Not routed by the core (tablets); the name is for the once-per-device message.
    case unrouted(String)
    /// Consumed on purpose (legacy POINTER_AXIS); nothing to say.
    case ignored
}

enum EventTranslation {
    static func translate(_ event: OpaquePointer, type: libinput_event_type) -> Translated {
        switch type {
        case LIBINPUT_EVENT_KEYBOARD_KEY:
            let k = libinput_event_get_keyboard_event(event)
            let pressed = libinput_event_keyboard_get_key_state(k) == LIBINPUT_KEY_STATE_PRESSED
            return .event(
                libinput_event_keyboard_get_time_usec(k),
                .keyboardKey(key: libinput_event_keyboard_get_key(k), state: pressed ? .pressed : .released))
        case LIBINPUT_EVENT_POINTER_MOTION:
            let p = libinput_event_get_pointer_event(event)
            return .event(
                libinput_event_pointer_get_time_usec(p),
                .pointerMotion(
                    dx: libinput_event_pointer_get_dx(p), dy: libinput_event_pointer_get_dy(p),
                    unacceleratedDX: libinput_event_pointer_get_dx_unaccelerated(p),
                    unacceleratedDY: libinput_event_pointer_get_dy_unaccelerated(p)))
        case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
            let p = libinput_event_get_pointer_event(event)
            return .event(
                libinput_event_pointer_get_time_usec(p),
                .pointerMotionAbsolute(
                    x: unit(libinput_event_pointer_get_absolute_x_transformed(p, 1)),
                    y: unit(libinput_event_pointer_get_absolute_y_transformed(p, 1))))
        case LIBINPUT_EVENT_POINTER_BUTTON:
            let p = libinput_event_get_pointer_event(event)
            let pressed = libinput_event_pointer_get_button_state(p) == LIBINPUT_BUTTON_STATE_PRESSED
            return .event(
                libinput_event_pointer_get_time_usec(p),
                .pointerButton(button: libinput_event_pointer_get_button(p), state: pressed ? .pressed : .released))
        case LIBINPUT_EVENT_POINTER_AXIS:
            return .ignored
        case LIBINPUT_EVENT_POINTER_SCROLL_WHEEL, LIBINPUT_EVENT_POINTER_SCROLL_FINGER,
            LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS:
            let p = libinput_event_get_pointer_event(event)
            let source: AxisSource =
                type == LIBINPUT_EVENT_POINTER_SCROLL_WHEEL
                ? .wheel
                : type == LIBINPUT_EVENT_POINTER_SCROLL_FINGER ? .finger : .continuous
            func axis(_ which: libinput_pointer_axis) -> AxisValue? {
                guard libinput_event_pointer_has_axis(p, which) != 0 else { return nil }
                let v120 = source == .wheel ? libinput_event_pointer_get_scroll_value_v120(p, which) : 0
                return scrollAxis(value: libinput_event_pointer_get_scroll_value(p, which), v120: v120)
            }
            return .event(
                libinput_event_pointer_get_time_usec(p),
                .pointerAxis(
                    source: source, vertical: axis(LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL),
                    horizontal: axis(LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL)))
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION:
            let t = libinput_event_get_touch_event(event)
            let slot = libinput_event_touch_get_seat_slot(t)
            let x = unit(libinput_event_touch_get_x_transformed(t, 1))
            let y = unit(libinput_event_touch_get_y_transformed(t, 1))
            return .event(
                libinput_event_touch_get_time_usec(t),
                type == LIBINPUT_EVENT_TOUCH_DOWN
                    ? .touchDown(slot: slot, x: x, y: y)
                    : .touchMotion(slot: slot, x: x, y: y))
        case LIBINPUT_EVENT_TOUCH_UP:
            let t = libinput_event_get_touch_event(event)
            return .event(libinput_event_touch_get_time_usec(t), .touchUp(slot: libinput_event_touch_get_seat_slot(t)))
        case LIBINPUT_EVENT_TOUCH_CANCEL:
            let t = libinput_event_get_touch_event(event)
            return .event(
                libinput_event_touch_get_time_usec(t), .touchCancel(slot: libinput_event_touch_get_seat_slot(t)))
        case LIBINPUT_EVENT_TOUCH_FRAME:
            let t = libinput_event_get_touch_event(event)
            return .event(libinput_event_touch_get_time_usec(t), .touchFrame)
        case LIBINPUT_EVENT_GESTURE_SWIPE_BEGIN, LIBINPUT_EVENT_GESTURE_SWIPE_UPDATE, LIBINPUT_EVENT_GESTURE_SWIPE_END,
            LIBINPUT_EVENT_GESTURE_PINCH_BEGIN, LIBINPUT_EVENT_GESTURE_PINCH_UPDATE, LIBINPUT_EVENT_GESTURE_PINCH_END,
            LIBINPUT_EVENT_GESTURE_HOLD_BEGIN, LIBINPUT_EVENT_GESTURE_HOLD_END:
            return gesture(event, type: type)
        case LIBINPUT_EVENT_SWITCH_TOGGLE:
            let s = libinput_event_get_switch_event(event)
            let on = libinput_event_switch_get_switch_state(s) == LIBINPUT_SWITCH_STATE_ON
            let time = libinput_event_switch_get_time_usec(s)
            switch libinput_event_switch_get_switch(s) {
            case LIBINPUT_SWITCH_LID: return .event(time, .switchToggle(.lid, on: on))
            case LIBINPUT_SWITCH_TABLET_MODE: return .event(time, .switchToggle(.tabletMode, on: on))
            default: return .unrouted("switch \(libinput_event_switch_get_switch(s).rawValue)")
            }
        case LIBINPUT_EVENT_TABLET_TOOL_AXIS, LIBINPUT_EVENT_TABLET_TOOL_PROXIMITY, LIBINPUT_EVENT_TABLET_TOOL_TIP,
            LIBINPUT_EVENT_TABLET_TOOL_BUTTON:
            return tabletTool(event, type: type)
        case LIBINPUT_EVENT_TABLET_PAD_BUTTON, LIBINPUT_EVENT_TABLET_PAD_RING, LIBINPUT_EVENT_TABLET_PAD_STRIP:
            return tabletPad(event, type: type)
        case LIBINPUT_EVENT_TABLET_PAD_KEY:
            return .unrouted("tablet pad key")
        default:
            // Device added and removed are handled by the source; a type newer than the
            // libinput this was built against would land here.
            return .unrouted("event type \(type.rawValue)")
        }
    }

    private static func gesture(_ event: OpaquePointer, type: libinput_event_type) -> Translated {
        let g = libinput_event_get_gesture_event(event)
        let kind: GestureKind
        let phase: GesturePhase
        switch type {
        case LIBINPUT_EVENT_GESTURE_SWIPE_BEGIN: (kind, phase) = (.swipe, .begin)
        case LIBINPUT_EVENT_GESTURE_SWIPE_UPDATE: (kind, phase) = (.swipe, .update)
        case LIBINPUT_EVENT_GESTURE_SWIPE_END: (kind, phase) = (.swipe, .end)
        case LIBINPUT_EVENT_GESTURE_PINCH_BEGIN: (kind, phase) = (.pinch, .begin)
        case LIBINPUT_EVENT_GESTURE_PINCH_UPDATE: (kind, phase) = (.pinch, .update)
        case LIBINPUT_EVENT_GESTURE_PINCH_END: (kind, phase) = (.pinch, .end)
        case LIBINPUT_EVENT_GESTURE_HOLD_BEGIN: (kind, phase) = (.hold, .begin)
        default: (kind, phase) = (.hold, .end)
        }
        var value = GestureEvent(kind: kind, phase: phase, fingers: libinput_event_gesture_get_finger_count(g))
        if phase == .update {
            value.dx = libinput_event_gesture_get_dx(g)
            value.dy = libinput_event_gesture_get_dy(g)
        }
        if kind == .pinch {
            value.scale = libinput_event_gesture_get_scale(g)
            value.rotation = phase == .update ? libinput_event_gesture_get_angle_delta(g) : 0
        }
        if phase == .end { value.cancelled = libinput_event_gesture_get_cancelled(g) != 0 }
        return .event(libinput_event_gesture_get_time_usec(g), .gesture(value))
    }

    /// Tool events: positions normalised like touch; an axis the tool lacks is nil.
    private static func tabletTool(_ event: OpaquePointer, type: libinput_event_type) -> Translated {
        let t = libinput_event_get_tablet_tool_event(event)
        let time = libinput_event_tablet_tool_get_time_usec(t)
        if type == LIBINPUT_EVENT_TABLET_TOOL_BUTTON {
            let pressed = libinput_event_tablet_tool_get_button_state(t) == LIBINPUT_BUTTON_STATE_PRESSED
            return .event(
                time,
                .tabletToolButton(
                    button: libinput_event_tablet_tool_get_button(t),
                    state: pressed ? .pressed : .released))
        }
        let tool = libinput_event_tablet_tool_get_tool(t)
        func finite(_ v: Double) -> Double { v.isFinite ? v : 0 }
        var axes = TabletAxes(
            x: unit(libinput_event_tablet_tool_get_x_transformed(t, 1)),
            y: unit(libinput_event_tablet_tool_get_y_transformed(t, 1)))
        if libinput_tablet_tool_has_pressure(tool) != 0 {
            axes.pressure = unit(libinput_event_tablet_tool_get_pressure(t))
        }
        if libinput_tablet_tool_has_distance(tool) != 0 {
            axes.distance = unit(libinput_event_tablet_tool_get_distance(t))
        }
        if libinput_tablet_tool_has_tilt(tool) != 0 {
            axes.tiltX = finite(libinput_event_tablet_tool_get_tilt_x(t))
            axes.tiltY = finite(libinput_event_tablet_tool_get_tilt_y(t))
        }
        if libinput_tablet_tool_has_rotation(tool) != 0 {
            axes.rotation = finite(libinput_event_tablet_tool_get_rotation(t))
        }
        if libinput_tablet_tool_has_slider(tool) != 0 {
            axes.slider = finite(libinput_event_tablet_tool_get_slider_position(t))
        }
        if libinput_tablet_tool_has_wheel(tool) != 0 {
            axes.wheel = finite(libinput_event_tablet_tool_get_wheel_delta(t))
        }
        switch type {
        case LIBINPUT_EVENT_TABLET_TOOL_PROXIMITY:
            let value = TabletTool(
                type: toolType(libinput_tablet_tool_get_type(tool)), serial: libinput_tablet_tool_get_serial(tool),
                capabilities: capabilities(tool))
            let inProximity =
                libinput_event_tablet_tool_get_proximity_state(t) == LIBINPUT_TABLET_TOOL_PROXIMITY_STATE_IN
            return .event(time, .tabletToolProximity(value, inProximity: inProximity, axes))
        case LIBINPUT_EVENT_TABLET_TOOL_TIP:
            let down = libinput_event_tablet_tool_get_tip_state(t) == LIBINPUT_TABLET_TOOL_TIP_DOWN
            return .event(time, .tabletToolTip(down: down, axes))
        default:
            return .event(time, .tabletToolAxis(axes))
        }
    }

    /// The axes the tool has, as zwp_tablet_tool_v2.capability will announce them.
    static func capabilities(_ tool: OpaquePointer?) -> TabletToolCapabilities {
        var c = TabletToolCapabilities()
        if libinput_tablet_tool_has_distance(tool) != 0 { c.insert(.distance) }
        if libinput_tablet_tool_has_pressure(tool) != 0 { c.insert(.pressure) }
        if libinput_tablet_tool_has_tilt(tool) != 0 { c.insert(.tilt) }
        if libinput_tablet_tool_has_rotation(tool) != 0 { c.insert(.rotation) }
        if libinput_tablet_tool_has_slider(tool) != 0 { c.insert(.slider) }
        if libinput_tablet_tool_has_wheel(tool) != 0 { c.insert(.wheel) }
        return c
    }

    static func toolType(_ type: libinput_tablet_tool_type) -> TabletToolType {
        switch type {
        case LIBINPUT_TABLET_TOOL_TYPE_ERASER: .eraser
        case LIBINPUT_TABLET_TOOL_TYPE_BRUSH: .brush
        case LIBINPUT_TABLET_TOOL_TYPE_PENCIL: .pencil
        case LIBINPUT_TABLET_TOOL_TYPE_AIRBRUSH: .airbrush
        case LIBINPUT_TABLET_TOOL_TYPE_MOUSE: .mouse
        case LIBINPUT_TABLET_TOOL_TYPE_LENS: .lens
        case LIBINPUT_TABLET_TOOL_TYPE_TOTEM: .totem
        default: .pen
        }
    }

    /// Pad buttons by index; ring and strip positions as libinput gives them (-1: lifted).
    private static func tabletPad(_ event: OpaquePointer, type: libinput_event_type) -> Translated {
        let p = libinput_event_get_tablet_pad_event(event)
        let time = libinput_event_tablet_pad_get_time_usec(p)
        switch type {
        case LIBINPUT_EVENT_TABLET_PAD_BUTTON:
            let pressed = libinput_event_tablet_pad_get_button_state(p) == LIBINPUT_BUTTON_STATE_PRESSED
            return .event(
                time,
                .tabletPadButton(
                    button: libinput_event_tablet_pad_get_button_number(p),
                    state: pressed ? .pressed : .released, mode: libinput_event_tablet_pad_get_mode(p)))
        case LIBINPUT_EVENT_TABLET_PAD_RING:
            let source: PadSource =
                libinput_event_tablet_pad_get_ring_source(p) == LIBINPUT_TABLET_PAD_RING_SOURCE_FINGER
                ? .finger : .unknown
            let position = libinput_event_tablet_pad_get_ring_position(p)
            return .event(
                time,
                .tabletPadRing(
                    ring: libinput_event_tablet_pad_get_ring_number(p),
                    position: position.isFinite ? position : -1, source: source,
                    mode: libinput_event_tablet_pad_get_mode(p)))
        default:
            let source: PadSource =
                libinput_event_tablet_pad_get_strip_source(p) == LIBINPUT_TABLET_PAD_STRIP_SOURCE_FINGER
                ? .finger : .unknown
            let position = libinput_event_tablet_pad_get_strip_position(p)
            return .event(
                time,
                .tabletPadStrip(
                    strip: libinput_event_tablet_pad_get_strip_number(p),
                    position: position.isFinite ? position : -1, source: source,
                    mode: libinput_event_tablet_pad_get_mode(p)))
        }
    }

    static func capabilities(of device: OpaquePointer) -> DeviceCapabilities {
        let pairs: [(libinput_device_capability, DeviceCapabilities)] = [
            (LIBINPUT_DEVICE_CAP_KEYBOARD, .keyboard), (LIBINPUT_DEVICE_CAP_POINTER, .pointer),
            (LIBINPUT_DEVICE_CAP_TOUCH, .touch), (LIBINPUT_DEVICE_CAP_TABLET_TOOL, .tabletTool),
            (LIBINPUT_DEVICE_CAP_TABLET_PAD, .tabletPad), (LIBINPUT_DEVICE_CAP_GESTURE, .gesture),
            (LIBINPUT_DEVICE_CAP_SWITCH, .switch),
        ]
        var capabilities: DeviceCapabilities = []
        for (c, value) in pairs where libinput_device_has_capability(device, c) != 0 { capabilities.insert(value) }
        return capabilities
    }

    /// One scroll axis; `v120` is libinput's double, rounded and clamped to Int32.
    static func scrollAxis(value: Double, v120: Double) -> AxisValue {
        let steps = v120.isFinite ? Int32(clamping: Int64(max(-1e12, min(1e12, v120)).rounded())) : 0
        return AxisValue(value: value.isFinite ? value : 0, value120: steps)
    }

    /// Clamps a normalised coordinate to 0...1 (devices report slightly out of range).
    static func unit(_ value: Double) -> Double { value.isNaN ? 0 : min(1, max(0, value)) }
}
