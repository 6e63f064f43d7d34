// Renders events the way `libinput debug-events` (1.22) prints them, for tools that
// print what a source produced in a form users and DebugEventsReader both know, and for
// the reader's round-trip test. Numbers go through the C library's printf formatting,
// so the text is what libinput's tool prints for the same double.

import InputRouter

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Prints events as `libinput debug-events` lines, remembering the previous device and the
/// first time across calls. Each line is a new String: for tools and logs, not the routing path.
public struct DebugEventsFormatter {
    private var lastDevice: DeviceID?
    private var start: UInt64?

    /// A formatter that has printed nothing yet (the next event starts the clock).
    public init() {}

    /// One line (no newline). `sysname` names the device (`event2`); `name` is used on
    /// DEVICE_ADDED/REMOVED lines. Times print relative to the first timed event, as
    /// the tool does. Keypad-slide switches have no libinput 1.22 name: nil.
    public mutating func line(_ event: InputEvent, sysname: String, name: String = "device") -> String? {
        let type: String
        var body: String
        switch event.kind {
        case .deviceAdded(let capabilities):
            type = "DEVICE_ADDED"
            body = Self.device(name, capabilities)
        case .deviceRemoved:
            type = "DEVICE_REMOVED"
            body = Self.device(name, [])
        default:
            guard let (t, payload) = Self.payload(event.kind) else { return nil }
            type = t
            let origin = start ?? event.time
            start = origin
            let ms = Double(event.time &- origin) / 1000 / 1000
            body = Self.c("%+6.3fs\t", ms) + payload
        }
        let prefix = lastDevice == event.device ? " " : "-"
        lastDevice = event.device
        return prefix + Self.pad(sysname, 7) + "  " + Self.pad(type, 23) + " " + body
    }

    static func device(_ name: String, _ capabilities: DeviceCapabilities) -> String {
        var letters = ""
        for (c, l) in [
            (DeviceCapabilities.keyboard, "k"), (.pointer, "p"), (.touch, "t"), (.gesture, "g"),
            (.tabletTool, "T"), (.tabletPad, "P"), (.switch, "S"),
        ] where capabilities.contains(c) {
            letters += l
        }
        return pad(name, 33) + " seat0 default group1  cap:" + letters
    }

    /// The event type name and the text after the time, or nil for device events and
    /// keypad-slide switches.
    public static func payload(_ kind: InputEvent.Kind) -> (String, String)? {
        switch kind {
        case .deviceAdded, .deviceRemoved:
            return nil
        case .keyboardKey(let key, let state):
            return ("KEYBOARD_KEY", "\(keyName(key)) (\(key)) \(state == .pressed ? "pressed" : "released")")
        case .pointerMotion(let dx, let dy, let ux, let uy):
            return ("POINTER_MOTION", c("%6.2f/%6.2f (%+6.2f/%+6.2f)", dx, dy, ux, uy))
        case .pointerMotionAbsolute(let x, let y):
            return ("POINTER_MOTION_ABSOLUTE", c("%6.2f/%6.2f", x * 100, y * 100))
        case .pointerButton(let button, let state):
            // The seat count is not part of the event value: printed as 0 or 1.
            return (
                "POINTER_BUTTON",
                "\(keyName(button)) (\(button)) \(state == .pressed ? "pressed" : "released"), "
                    + "seat count: \(state == .pressed ? 1 : 0)"
            )
        case .pointerAxis(let source, let vertical, let horizontal):
            let type: String
            let name: String
            switch source {
            case .wheel, .wheelTilt: (type, name) = ("POINTER_SCROLL_WHEEL", "wheel")
            case .finger: (type, name) = ("POINTER_SCROLL_FINGER", "finger")
            case .continuous: (type, name) = ("POINTER_SCROLL_CONTINUOUS", "continuous")
            }
            let v = vertical ?? AxisValue(value: 0)
            let h = horizontal ?? AxisValue(value: 0)
            return (
                type,
                c("vert %.2f/%.1f", v.value, Double(v.value120)) + (vertical == nil ? "" : "*")
                    + c(" horiz %.2f/%.1f", h.value, Double(h.value120)) + (horizontal == nil ? "" : "*")
                    + " (\(name))"
            )
        case .touchDown(let slot, let x, let y), .touchMotion(let slot, let x, let y):
            let type = if case .touchDown = kind { "TOUCH_DOWN" } else { "TOUCH_MOTION" }
            // The device slot and the mm position are not part of the event value: the seat
            // slot and the percentage stand in for them.
            return (type, "\(slot) (\(slot))" + c(" %5.2f/%5.2f (%5.2f/%5.2fmm)", x * 100, y * 100, x * 100, y * 100))
        case .touchUp(let slot): return ("TOUCH_UP", "\(slot) (\(slot))")
        case .touchCancel(let slot): return ("TOUCH_CANCEL", "\(slot) (\(slot))")
        case .touchFrame: return ("TOUCH_FRAME", "")
        case .gesture(let g):
            let kind = g.kind == .swipe ? "SWIPE" : g.kind == .pinch ? "PINCH" : "HOLD"
            let phase = g.phase == .begin ? "BEGIN" : g.phase == .update ? "UPDATE" : "END"
            var text: String
            if g.phase == .update {
                text = c("%d %5.2f/%5.2f (%5.2f/%5.2f unaccelerated)", g.fingers, g.dx, g.dy, g.dx, g.dy)
                if g.kind == .pinch { text += c(" %5.2f @ %5.2f", g.scale, g.rotation) }
            } else {
                text = "\(g.fingers)" + (g.cancelled ? " cancelled" : "")
            }
            return ("GESTURE_\(kind)_\(phase)", text)
        case .switchToggle(let kind, let on):
            let name: String
            switch kind {
            case .lid: name = "lid"
            case .tabletMode: name = "tablet-mode"
            case .keypadSlide: return nil
            }
            return ("SWITCH_TOGGLE", "switch \(name) state \(on ? 1 : 0)")
        case .tabletToolProximity, .tabletToolTip, .tabletToolAxis, .tabletToolButton, .tabletPadAdded,
            .tabletPadButton,
            .tabletPadRing, .tabletPadStrip:
            // debug-events' tablet lines are not written (nor read) yet.
            return nil
        }
    }

    /// libevdev's names for the codes the tool prints most; others print as "???" does
    /// not: the reader ignores the name and reads the number in parentheses.
    static func keyName(_ code: UInt32) -> String {
        switch code {
        case 0x110: "BTN_LEFT"
        case 0x111: "BTN_RIGHT"
        case 0x112: "BTN_MIDDLE"
        case 0x113: "BTN_SIDE"
        case 0x114: "BTN_EXTRA"
        default: "KEY_\(code)"
        }
    }

    /// `%-Ns`: left-justified in `width` bytes, never cut.
    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.utf8.count))
    }

    /// printf through vsnprintf, so doubles round exactly as libinput's tool rounds them.
    static func c(_ format: String, _ arguments: CVarArg...) -> String {
        withVaList(arguments) { list in
            var buffer = [CChar](repeating: 0, count: 256)
            let count = vsnprintf(&buffer, buffer.count, format, list)
            if count >= 0, Int(count) < buffer.count {
                return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            }
            return withVaList(arguments) { again in
                var big = [CChar](repeating: 0, count: Int(max(count, 0)) + 1)
                _ = vsnprintf(&big, big.count, format, again)
                return big.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            }
        }
    }
}
