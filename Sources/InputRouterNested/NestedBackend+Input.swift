// The parent's wl_seat as an input source. Each parent device is one core device; its
// events become InputEvent values for the sink. Positions are window-local on the parent
// and leave here normalised to the window (0...1), as a touch screen's would: the seat maps
// them onto `absoluteMapping`, which the window's configure sets to (0, 0, width, height).
//
// The parent only tells us about input while our window has its focus. When the pointer or
// the keyboard leaves, everything still held is released here, so nothing stays stuck in
// the nested clients; when the keyboard comes back with keys down, they are pressed.
import CWaylandClient
import Foundation
import InputRouter

extension NestedBackend {
    enum Device: CaseIterable {
        case pointer, keyboard, touch
        var capabilities: DeviceCapabilities {
            switch self {
            case .pointer: .pointer
            case .keyboard: .keyboard
            case .touch: .touch
            }
        }
    }

    /// The core's id for a device of the parent's seat.
    public var pointerDevice: DeviceID { DeviceID(configuration.firstDeviceID) }
    /// The core's id for the parent's keyboard.
    public var keyboardDevice: DeviceID { DeviceID(configuration.firstDeviceID + 1) }
    /// The core's id for the parent's touch device.
    public var touchDevice: DeviceID { DeviceID(configuration.firstDeviceID + 2) }

    func id(_ device: Device) -> DeviceID {
        switch device {
        case .pointer: pointerDevice
        case .keyboard: keyboardDevice
        case .touch: touchDevice
        }
    }

    func has(_ device: Device) -> Bool {
        switch device {
        case .pointer: pointer != nil
        case .keyboard: keyboard != nil
        case .touch: touch != nil
        }
    }

    /// Parent times are milliseconds; the core's are microseconds. Events the parent gives
    /// no time (enter, leave, frames) reuse the latest.
    func stamp(_ ms: UInt32) -> UInt64 {
        lastTime = max(lastTime, UInt64(ms) * 1000)
        return lastTime
    }

    func emit(_ device: Device, _ kind: InputEvent.Kind, time: UInt64? = nil, description: DeviceDescription? = nil) {
        sink(InputEvent(time: time ?? lastTime, device: id(device), kind), description)
    }

    // MARK: Seat capabilities

    func seatCapabilities(_ caps: UInt32) {
        let wants: [(Device, Bool)] = [
            (.pointer, caps & WL_SEAT_CAPABILITY_POINTER.rawValue != 0),
            (.keyboard, caps & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0),
            (.touch, caps & WL_SEAT_CAPABILITY_TOUCH.rawValue != 0),
        ]
        for (device, wanted) in wants where wanted != has(device) {
            if wanted { addDevice(device) } else { removeDevice(device) }
        }
    }

    private func addDevice(_ device: Device) {
        switch device {
        case .pointer:
            pointer = wl_seat_get_pointer(seat)
            pointerVersion = wl_pointer_get_version(pointer)
            wl_pointer_add_listener(pointer, listeners.pointer, selfPointer)
        case .keyboard:
            keyboard = wl_seat_get_keyboard(seat)
            wl_keyboard_add_listener(keyboard, listeners.keyboard, selfPointer)
        case .touch:
            touch = wl_seat_get_touch(seat)
            wl_touch_add_listener(touch, listeners.touch, selfPointer)
        }
        // All the parent tells of its devices is that its seat has them.
        emit(device, .deviceAdded(device.capabilities), description: DeviceDescription(name: "parent seat \(device)"))
    }

    /// The parent's seat lost the device (or the connection ended): the core releases what
    /// it held and cancels its touches (`deviceRemoved`).
    func removeDevice(_ device: Device) {
        switch device {
        case .pointer:
            if let pointer { releasePointerProxy(pointer) }
            pointer = nil
            heldButtons.removeAll()
            pendingAxis = PendingAxis()
        case .keyboard:
            if let keyboard { releaseKeyboardProxy(keyboard) }
            keyboard = nil
            heldKeys.removeAll()
        case .touch:
            if let touch { releaseTouchProxy(touch) }
            touch = nil
            activeTouches.removeAll()
        }
        emit(device, .deviceRemoved)
    }

    func releasePointerProxy(_ p: OpaquePointer) {
        wl_pointer_get_version(p) >= 3 ? wl_pointer_release(p) : wl_pointer_destroy(p)
    }
    func releaseKeyboardProxy(_ k: OpaquePointer) {
        wl_keyboard_get_version(k) >= 3 ? wl_keyboard_release(k) : wl_keyboard_destroy(k)
    }
    func releaseTouchProxy(_ t: OpaquePointer) {
        wl_touch_get_version(t) >= 3 ? wl_touch_release(t) : wl_touch_destroy(t)
    }

    // MARK: Pointer

    /// Window-local coordinates, normalised to the window.
    func normalised(_ x: wl_fixed_t, _ y: wl_fixed_t) -> (Double, Double) {
        (wl_fixed_to_double(x) / Double(max(width, 1)), wl_fixed_to_double(y) / Double(max(height, 1)))
    }

    func pointerEnter(serial: UInt32, x: wl_fixed_t, y: wl_fixed_t) {
        if configuration.hideParentCursor { wl_pointer_set_cursor(pointer, serial, nil, 0, 0) }
        let (nx, ny) = normalised(x, y)
        emit(.pointer, .pointerMotionAbsolute(x: nx, y: ny))
    }

    func pointerLeave() {
        // Buttons still held were pressed in our window and will be released elsewhere.
        for button in heldButtons.reversed() { emit(.pointer, .pointerButton(button: button, state: .released)) }
        heldButtons.removeAll()
        pendingAxis = PendingAxis()
    }

    func pointerMotion(time: UInt32, x: wl_fixed_t, y: wl_fixed_t) {
        let (nx, ny) = normalised(x, y)
        emit(.pointer, .pointerMotionAbsolute(x: nx, y: ny), time: stamp(time))
    }

    func pointerButton(time: UInt32, button: UInt32, state: UInt32) {
        let pressed = state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue
        if pressed {
            guard !heldButtons.contains(button) else { return }
            heldButtons.append(button)
        } else {
            guard let i = heldButtons.firstIndex(of: button) else { return } // pressed before we had the pointer
            heldButtons.remove(at: i)
        }
        emit(.pointer, .pointerButton(button: button, state: pressed ? .pressed : .released), time: stamp(time))
    }

    // Axis events arrive in pieces (source, value, value120 or discrete, stop) and are
    // complete at `frame`: one `.pointerAxis` per frame carries them all.
    struct PendingAxis {
        var source: AxisSource?
        var values: [AxisValue?] = [nil, nil]
        var time: UInt64 = 0
        var isEmpty: Bool { values[0] == nil && values[1] == nil }
    }

    func axisIndex(_ axis: UInt32) -> Int? { axis <= 1 ? Int(axis) : nil }

    func pointerAxis(time: UInt32, axis: UInt32, value: wl_fixed_t) {
        guard let i = axisIndex(axis) else { return }
        pendingAxis.time = stamp(time)
        var v = pendingAxis.values[i] ?? AxisValue(value: 0)
        v.value += wl_fixed_to_double(value)
        pendingAxis.values[i] = v
        if pointerVersion < 5 { pointerFrame() } // no frames before wl_pointer v5
    }

    func pointerAxisSource(_ source: UInt32) {
        pendingAxis.source = AxisSource(rawValue: UInt8(truncatingIfNeeded: source))
    }

    func pointerAxisStop(time: UInt32, axis: UInt32) {
        guard let i = axisIndex(axis) else { return }
        pendingAxis.time = stamp(time)
        // A zero value on a finger or continuous source is the core's scroll stop.
        if pendingAxis.values[i] == nil { pendingAxis.values[i] = AxisValue(value: 0) }
    }

    func pointerAxisValue120(axis: UInt32, value120: Int32) {
        guard let i = axisIndex(axis) else { return }
        var v = pendingAxis.values[i] ?? AxisValue(value: 0)
        v.value120 += value120
        pendingAxis.values[i] = v
    }

    func pointerFrame() {
        guard !pendingAxis.isEmpty else { return }
        let axis = pendingAxis
        pendingAxis = PendingAxis()
        emit(
            .pointer, .pointerAxis(source: axis.source ?? .wheel, vertical: axis.values[0], horizontal: axis.values[1]),
            time: axis.time)
    }

    // MARK: Keyboard

    func keyboardEnter(keys: [UInt32]) {
        // Keys the user holds as the window gets the keyboard are pressed for the nested
        // clients too (the parent's modifiers event follows).
        for key in keys where !heldKeys.contains(key) {
            heldKeys.append(key)
            emit(.keyboard, .keyboardKey(key: key, state: .pressed))
        }
    }

    func keyboardLeave() {
        for key in heldKeys.reversed() { emit(.keyboard, .keyboardKey(key: key, state: .released)) }
        heldKeys.removeAll()
        // The parent sends its modifiers again on the next enter; until then nothing is
        // held, and only locks (Caps Lock, a locked layout) stay.
        if let adopted = adoptedKeyboard {
            let m = adopted.parentModifiers
            adoptModifiers(Modifiers(depressed: 0, latched: 0, locked: m.locked, group: m.group))
        }
    }

    func keyboardKey(time: UInt32, key: UInt32, state: UInt32) {
        let pressed = state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue
        if pressed {
            guard !heldKeys.contains(key) else { return }
            heldKeys.append(key)
        } else {
            guard let i = heldKeys.firstIndex(of: key) else { return }
            heldKeys.remove(at: i)
        }
        emit(.keyboard, .keyboardKey(key: key, state: pressed ? .pressed : .released), time: stamp(time))
    }

    // MARK: Touch

    func touchDown(time: UInt32, id: Int32, x: wl_fixed_t, y: wl_fixed_t) {
        guard !activeTouches.contains(id) else { return }
        activeTouches.append(id)
        let (nx, ny) = normalised(x, y)
        emit(.touch, .touchDown(slot: id, x: nx, y: ny), time: stamp(time))
    }

    func touchMotion(time: UInt32, id: Int32, x: wl_fixed_t, y: wl_fixed_t) {
        guard activeTouches.contains(id) else { return }
        let (nx, ny) = normalised(x, y)
        emit(.touch, .touchMotion(slot: id, x: nx, y: ny), time: stamp(time))
    }

    func touchUp(time: UInt32, id: Int32) {
        guard let i = activeTouches.firstIndex(of: id) else { return }
        activeTouches.remove(at: i)
        emit(.touch, .touchUp(slot: id), time: stamp(time))
    }

    func touchFrame() { emit(.touch, .touchFrame) }

    /// The parent took the touch sequence: every point is cancelled, then one frame.
    func touchCancel() {
        guard !activeTouches.isEmpty else { return }
        for id in activeTouches { emit(.touch, .touchCancel(slot: id)) }
        activeTouches.removeAll()
        emit(.touch, .touchFrame)
    }
}
