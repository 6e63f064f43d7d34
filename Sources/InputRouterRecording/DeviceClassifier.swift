// Decides what a device is from its evdev description (and udev's ID_INPUT_* tags when
// present), the way a compositor author would read the `codes` block. Only used for
// evdev-only recordings; with libinput entries the events say what they are.

import InputRouter

enum DeviceClassifier {
    static func classify(_ device: RecordedDevice) -> DeviceClass {
        let keys = device.codes[EV.key] ?? []
        let abs = device.codes[EV.abs] ?? []
        let hasMTPosition = abs.contains(ABS.mtPositionX) && abs.contains(ABS.mtPositionY)
        let hasPosition = hasMTPosition || (abs.contains(ABS.x) && abs.contains(ABS.y))
        if device.udevProperty("ID_INPUT_TABLET_PAD") == "1" { return .tabletPad }
        if device.udevProperty("ID_INPUT_TABLET") == "1" || keys.contains(BTN.toolPen) || keys.contains(BTN.stylus) {
            return .tablet
        }
        if device.udevProperty("ID_INPUT_TOUCHPAD") == "1"
            || (hasPosition && keys.contains(BTN.toolFinger) && !device.hasProperty(INPUT_PROP.direct))
        {
            return .touchpad
        }
        if device.udevProperty("ID_INPUT_TOUCHSCREEN") == "1"
            || (hasPosition && device.hasProperty(INPUT_PROP.direct) && keys.contains(BTN.touch))
        {
            return .touchscreen
        }
        if !(device.codes[EV.sw] ?? []).isEmpty { return .switches }
        let rel = device.codes[EV.rel] ?? []
        if (rel.contains(REL.x) && rel.contains(REL.y)) || rel.contains(REL.wheel) || rel.contains(REL.hwheel) {
            return .mouse
        }
        if keys.contains(where: { $0.isKeyboardKey }) { return .keyboard }
        return .other
    }

    /// The capabilities libinput would give the device, for evdev-only DEVICE_ADDED.
    static func capabilities(_ device: RecordedDevice) -> DeviceCapabilities {
        var capabilities: DeviceCapabilities = []
        switch device.deviceClass {
        case .mouse: capabilities.insert(.pointer)
        case .touchscreen: capabilities.insert(.touch)
        case .touchpad: capabilities.formUnion([.pointer, .gesture])
        case .tablet: capabilities.insert(.tabletTool)
        case .tabletPad: capabilities.insert(.tabletPad)
        case .switches: capabilities.insert(.switch)
        case .keyboard, .other: break
        }
        if (device.codes[EV.key] ?? []).contains(where: { $0.isKeyboardKey }) && device.deviceClass != .tablet
            && device.deviceClass != .tabletPad
        {
            capabilities.insert(.keyboard)
        }
        if device.deviceClass == .keyboard,
            (device.codes[EV.key] ?? []).contains(where: { (BTN.mouse...BTN.task).contains($0) })
        {
            capabilities.insert(.pointer)
        }
        return capabilities
    }
}
