// The `libinput:` entry for one event, in the flow-mapping form `libinput record` uses.
// The inverse of LibinputEntryDecoder.

import InputRouter

struct EntryFormatter {
    let device: RecordedDevice
    let touchSize: (Double, Double)?
    let pointerSize: (Double, Double)?

    init(device: RecordedDevice) {
        self.device = device
        touchSize = Normalisation.size(of: device, touch: true)
        pointerSize = Normalisation.size(of: device, touch: false)
    }

    /// nil for events libinput record has no entry for (keypad slide).
    func format(_ event: InputEvent, buttonCounts: inout [UInt32: Int]) -> String? {
        let time = "time: \(EventText.seconds(event.time))"
        switch event.kind {
        case .deviceAdded: return "{type: DEVICE_ADDED, seat: seat0, logical_seat: default}"
        case .deviceRemoved: return "{\(time), type: DEVICE_REMOVED}"
        case .pointerMotion(let dx, let dy, let ux, let uy):
            return "{\(time), type: POINTER_MOTION, delta: \(pair(dx, dy)), unaccel: \(pair(ux, uy))}"
        case .pointerMotionAbsolute(let x, let y):
            return "{\(time), type: POINTER_MOTION_ABSOLUTE, \(position(x, y, size: pointerSize))}"
        case .pointerButton(let button, let state):
            let count = max(0, (buttonCounts[button] ?? 0) + (state == .pressed ? 1 : -1))
            buttonCounts[button] = count
            return
                "{\(time), type: POINTER_BUTTON, button: \(button), state: \(EventText.name(state == .pressed)), seat_count: \(count)}"
        case .pointerAxis(let source, let vertical, let horizontal):
            let h = horizontal ?? AxisValue(value: 0)
            let v = vertical ?? AxisValue(value: 0)
            let name = EventText.name(source)
            switch source {
            case .finger, .continuous:
                // Which axes are present (a stop on one axis) is not in libinput's form.
                return "{\(time), type: POINTER_AXIS, axes: \(pair(h.value, v.value)), source: \(name), "
                    + "axes_present: [\(horizontal != nil), \(vertical != nil)]}"
            case .wheel, .wheelTilt:
                if h.value120 % 120 == 0 && v.value120 % 120 == 0 {
                    return "{\(time), type: POINTER_AXIS, axes: \(pair(h.value, v.value)), "
                        + "discrete: [\(h.value120 / 120), \(v.value120 / 120)], source: \(name)}"
                }
                // A partial detent: libinput 1.22's record has no entry for it; write the
                // scroll-wheel event with its v120 values, which the reader takes.
                return "{\(time), type: POINTER_SCROLL_WHEEL, axes: \(pair(h.value, v.value)), "
                    + "v120: [\(h.value120), \(v.value120)], source: \(name)}"
            }
        case .keyboardKey(let key, let state):
            return "{\(time), type: KEYBOARD_KEY, key: \(key), state: \(EventText.name(state == .pressed))}"
        case .touchDown(let slot, let x, let y):
            return "{\(time), type: TOUCH_DOWN, slot: \(slot), seat_slot: \(slot), \(position(x, y, size: touchSize))}"
        case .touchMotion(let slot, let x, let y):
            return
                "{\(time), type: TOUCH_MOTION, slot: \(slot), seat_slot: \(slot), \(position(x, y, size: touchSize))}"
        case .touchUp(let slot): return "{\(time), type: TOUCH_UP, slot: \(slot), seat_slot: \(slot)}"
        case .touchCancel(let slot): return "{\(time), type: TOUCH_CANCEL, slot: \(slot), seat_slot: \(slot)}"
        case .touchFrame: return "{\(time), type: TOUCH_FRAME}"
        case .gesture(let g):
            let kind = g.kind == .swipe ? "SWIPE" : g.kind == .pinch ? "PINCH" : "HOLD"
            let phase = g.phase == .begin ? "BEGIN" : g.phase == .update ? "UPDATE" : "END"
            var line = "{\(time), type: GESTURE_\(kind)_\(phase), nfingers: \(g.fingers)"
            if g.kind != .hold { line += ", delta: \(pair(g.dx, g.dy)), unaccel: \(pair(g.dx, g.dy))" }
            if g.kind == .pinch { line += ", angle_delta: \(g.rotation), scale: \(g.scale)" }
            if g.cancelled { line += ", cancelled: true" }
            return line + "}"
        case .switchToggle(let kind, let on):
            let number: Int
            switch kind {
            case .lid: number = 1
            case .tabletMode: number = 2
            case .keypadSlide: return nil
            }
            return "{\(time), type: SWITCH_TOGGLE, switch: \(number), state: \(on ? "on" : "off")}"
        case .tabletToolProximity(let tool, let inProximity, let axes):
            return "{\(time), type: TABLET_TOOL_PROXIMITY, proximity: \(inProximity ? "in" : "out"), "
                + "tool-type: \(EventText.name(tool.type)), serial: \(tool.serial), axes: \(tool.capabilities.letterString), "
                + "\(tabletAxes(axes))}"
        case .tabletToolTip(let down, let axes):
            return "{\(time), type: TABLET_TOOL_TIP, tip: \(down ? "down" : "up"), \(tabletAxes(axes))}"
        case .tabletToolAxis(let axes):
            return "{\(time), type: TABLET_TOOL_AXIS, \(tabletAxes(axes))}"
        case .tabletToolButton(let button, let state):
            return "{\(time), type: TABLET_TOOL_BUTTON, button: \(button), state: \(EventText.name(state == .pressed))}"
        case .tabletPadAdded:
            return nil // the layout is the device's `libinput: pad:` (RecordWriter)
        case .tabletPadButton(let button, let state, let mode):
            let toggle = device.padLayout?.isToggle(button) ?? false
            return "{\(time), type: TABLET_PAD_BUTTON, button: \(button), state: \(EventText.name(state == .pressed)), "
                + "mode: \(mode), is-toggle: \(toggle)}"
        case .tabletPadRing(let n, let position, let source, let mode):
            return
                "{\(time), type: TABLET_PAD_RING, number: \(n), position: \(position), source: \(EventText.name(source)), mode: \(mode)}"
        case .tabletPadStrip(let n, let position, let source, let mode):
            return
                "{\(time), type: TABLET_PAD_STRIP, number: \(n), position: \(position), source: \(EventText.name(source)), mode: \(mode)}"
        }
    }

    /// libinput record's tablet axes (`point` in mm), plus `transformed` and every axis
    /// the value has (the tool prints pressure or distance, not both).
    private func tabletAxes(_ a: TabletAxes) -> String {
        var text = position(a.x, a.y, size: pointerSize)
        if a.tiltX != nil || a.tiltY != nil { text += ", tilt: \(pair(a.tiltX ?? 0, a.tiltY ?? 0))" }
        for (label, value) in [
            ("pressure", a.pressure), ("distance", a.distance), ("rotation", a.rotation),
            ("slider", a.slider), ("wheel", a.wheel),
        ] {
            if let value { text += ", \(label): \(value)" }
        }
        return text
    }

    private func pair(_ a: Double, _ b: Double) -> String { "[\(a), \(b)]" }

    /// `point` in mm (what the reader uses) and `transformed` in percent, like libinput.
    private func position(_ x: Double, _ y: Double, size: (Double, Double)?) -> String {
        let transformed = "transformed: \(pair(x * 100, y * 100))"
        guard let size else { return transformed }
        return "point: \(pair(x * size.0, y * size.1)), " + transformed
    }
}
