// The evdev constants the reader and the generator use (linux/input-event-codes.h
// values, which are kernel ABI).

enum EV {
    static let syn: UInt16 = 0x00, key: UInt16 = 0x01, rel: UInt16 = 0x02, abs: UInt16 = 0x03
    static let msc: UInt16 = 0x04, sw: UInt16 = 0x05
    /// EV_MAX: a larger type does not exist.
    static let max: UInt16 = 0x1f
    /// KEY_MAX: the largest code of any type.
    static let codeMax: UInt16 = 0x2ff
}

enum SYN { static let report: UInt16 = 0, dropped: UInt16 = 3 }

enum REL {
    static let x: UInt16 = 0x00, y: UInt16 = 0x01, hwheel: UInt16 = 0x06, wheel: UInt16 = 0x08
    static let wheelHiRes: UInt16 = 0x0b, hwheelHiRes: UInt16 = 0x0c
}

enum ABS {
    static let x: UInt16 = 0x00, y: UInt16 = 0x01
    static let mtSlot: UInt16 = 0x2f, mtPositionX: UInt16 = 0x35, mtPositionY: UInt16 = 0x36
    static let mtTrackingID: UInt16 = 0x39
}

enum BTN {
    static let misc: UInt16 = 0x100, mouse: UInt16 = 0x110, left: UInt16 = 0x110, right: UInt16 = 0x111
    static let middle: UInt16 = 0x112, task: UInt16 = 0x117
    static let toolPen: UInt16 = 0x140, toolFinger: UInt16 = 0x145, touch: UInt16 = 0x14a, stylus: UInt16 = 0x14b
    /// Key codes below this are keyboard keys; BTN_MISC...0x15f are buttons.
    static let lastButtonOfFirstBlock: UInt16 = 0x15f
}

enum SW { static let lid: UInt16 = 0x00, tabletMode: UInt16 = 0x01, keypadSlide: UInt16 = 0x0a }

enum INPUT_PROP { static let direct: UInt16 = 1 }

extension UInt16 {
    /// A keyboard key as opposed to a mouse, joystick, tablet or gamepad button.
    var isKeyboardKey: Bool {
        if self < BTN.misc { return true }
        if self <= BTN.lastButtonOfFirstBlock { return false }
        if (0x220...0x223).contains(self) || (0x2c0...0x2e7).contains(self) { return false } // dpad, trigger-happy
        return self <= EV.codeMax
    }
}
