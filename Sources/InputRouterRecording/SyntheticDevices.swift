// The device descriptions the synthetic generator records from: what a USB keyboard,
// a wheel mouse with hi-res scrolling, a 10-slot touchscreen and a lid/tablet-mode
// switch report. Vendor 0x1209 is the pid.codes test range. Touchscreen axes use
// power-of-two ranges and resolution so that normalised positions are exact in binary.

import InputRouter

/// The devices a synthetic recording can contain: a USB keyboard, a hi-res wheel mouse, a
/// 10-slot touchscreen and a lid/tablet-mode switch.
public enum SyntheticDeviceKind: String, CaseIterable, Hashable, Sendable {
    case keyboard, mouse, touchscreen, switches
}

enum SyntheticDevices {
    static let syn: [UInt16] = Array(0...15)

    static func device(_ kind: SyntheticDeviceKind, index: Int) -> RecordedDevice {
        var device = RecordedDevice(
            id: DeviceID(UInt32(index)), node: "/dev/input/event\(10 + index)", name: "", identity: nil,
            codes: [EV.syn: syn], absinfo: [:], properties: [], udevProperties: ["ID_INPUT=1"], quirks: [], hid: [],
            libinputCapabilities: nil, libinputSize: nil, hasLibinputEvents: true, deviceClass: .other,
            position: SourcePosition(line: 1, column: 1))
        switch kind {
        case .keyboard:
            device.name = "Synthetic Keyboard \(index)"
            device.identity = DeviceIdentity(bus: 3, vendor: 0x1209, product: 0x10, version: 1)
            device.codes[EV.key] = Array(1...127)
            device.codes[EV.msc] = [4]
            device.udevProperties += ["ID_INPUT_KEY=1", "ID_INPUT_KEYBOARD=1"]
            device.libinputCapabilities = .keyboard
            device.deviceClass = .keyboard
        case .mouse:
            device.name = "Synthetic Mouse \(index)"
            device.identity = DeviceIdentity(bus: 3, vendor: 0x1209, product: 0x11, version: 1)
            device.codes[EV.key] = [BTN.left, BTN.right, BTN.middle]
            device.codes[EV.rel] = [REL.x, REL.y, REL.hwheel, REL.wheel, REL.wheelHiRes, REL.hwheelHiRes]
            device.udevProperties += ["ID_INPUT_MOUSE=1"]
            device.libinputCapabilities = .pointer
            device.deviceClass = .mouse
        case .touchscreen:
            device.name = "Synthetic Touchscreen \(index)"
            device.identity = DeviceIdentity(bus: 3, vendor: 0x1209, product: 0x12, version: 1)
            device.codes[EV.key] = [BTN.touch]
            device.codes[EV.abs] = [ABS.x, ABS.y, ABS.mtSlot, ABS.mtPositionX, ABS.mtPositionY, ABS.mtTrackingID]
            let x = AbsInfo(minimum: 0, maximum: 4095, resolution: 16)
            let y = AbsInfo(minimum: 0, maximum: 2047, resolution: 16)
            device.absinfo = [
                ABS.x: x, ABS.y: y, ABS.mtPositionX: x, ABS.mtPositionY: y,
                ABS.mtSlot: AbsInfo(minimum: 0, maximum: 9), ABS.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
            ]
            device.properties = [INPUT_PROP.direct]
            device.udevProperties += ["ID_INPUT_TOUCHSCREEN=1"]
            device.libinputCapabilities = .touch
            device.libinputSize = [256, 128]
            device.deviceClass = .touchscreen
        case .switches:
            device.name = "Synthetic Lid and Tablet Mode Switch \(index)"
            device.identity = DeviceIdentity(bus: 25, vendor: 0x1209, product: 0x13, version: 1)
            device.codes[EV.sw] = [SW.lid, SW.tabletMode]
            device.udevProperties += ["ID_INPUT_SWITCH=1"]
            device.libinputCapabilities = .switch
            device.deviceClass = .switches
        }
        return device
    }
}
