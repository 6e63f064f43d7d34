// Reads the text `libinput debug-events` prints, one event a line: what users paste into
// bug reports. The events are the same values the recording reader produces, so a pasted
// log can be replayed through the core. The format (libinput 1.22's tool, which is "a
// debugging tool only, its output may change at any time") is:
//
//   -event2   DEVICE_ADDED            USB Mouse   seat0 default group2  cap:p left scroll-nat
//    event2   POINTER_MOTION          +1.234s	  1.00/  2.00 ( +1.00/ +2.00)
//    event2   POINTER_SCROLL_WHEEL    +1.300s	vert 15.00/120.0* horiz 0.00/0.0 (wheel)
//
// a '-' when the device differs from the previous line's, the sysname, the event type,
// then (not for DEVICE_ADDED/REMOVED) the time since the first event in ms precision and
// the event's own fields. Lines that are not events (libinput's log, shell prompts,
// blank lines) are skipped with a warning; an event line that does not parse is an error
// at its line and column (columns count bytes).
//
// What the text does not carry, and what the reader does instead:
// - times have millisecond resolution and start at the first event; DEVICE_ADDED and
//   DEVICE_REMOVED have none and take the previous event's time (0 at the start);
// - values have the printed precision (2 decimals; positions in percent of the device
//   range with 2 decimals, so 1/10000 of the range);
// - pinch BEGIN/END print no scale or angle (scale 1, rotation 0 here), gesture
//   unaccelerated deltas have no core field;
// - key codes are hidden unless debug-events ran with --show-keycodes (`*** (-1)`):
//   such lines are skipped with one warning;
// - tablet tool and pad events have no core event: skipped with one warning per device
//   and type, like the recording reader;
// - POINTER_AXIS lines (printed by libinput before 1.19 only; 1.19+ prints the
//   POINTER_SCROLL_* events) are read with value120 = discrete × 120.

import InputRouter

/// One device named in a debug-events log.
public struct DebugEventsDevice: Hashable, Sendable {
    /// The id its events carry, counted from the reader's `deviceIDBase` in order of appearance.
    public var id: DeviceID
    /// `event2`
    public var sysname: String
    /// From the DEVICE_ADDED line (nil when the log starts after it).
    public var name: String?
    /// What the DEVICE_ADDED line's `cap:` field lists (empty when the log starts after it).
    public var capabilities: DeviceCapabilities
}

/// A `libinput debug-events` log, read.
public struct DebugEventsLog: Sendable {
    /// The file name errors and warnings cite.
    public var file: String
    /// In order of first appearance; a device removed and added again is listed again.
    public var devices: [DebugEventsDevice]
    /// Every event line read, in the log's order, ready to feed a seat or a `Replayer`.
    public var events: [InputEvent]
    /// Lines skipped or read with less than the tool knew (keycodes hidden, tablet events).
    public var warnings: [RecordingWarning]
    /// The sysname of each event's device, parallel to `events`.
    public var sysnames: [String]
    /// What each DEVICE_ADDED line says of its device (its name, and its node from the
    /// sysname): what a replay hands the seat with that `deviceAdded`.
    public var descriptions: [DeviceID: DeviceDescription]
}

/// Turns a pasted `libinput debug-events` log into events a seat can replay. Reads the
/// whole text at once: for tests and tools, not per event.
public enum DebugEventsReader {
    /// Reads a log held in memory; `file` names it in errors. Throws at the first event line
    /// that does not parse; non-event lines become warnings.
    public static func parse(_ text: String, file: String, deviceIDBase: UInt32 = 0) throws(RecordingError)
        -> DebugEventsLog
    {
        var state = DebugEventsParser(file: file, deviceIDBase: deviceIDBase)
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            try state.read(Array(line.utf8), line: lineNumber)
        }
        return DebugEventsLog(
            file: file, devices: state.devices, events: state.events, warnings: state.warnings,
            sysnames: state.sysnames, descriptions: state.descriptions)
    }

    /// Reads the log at `path`; the error for an unreadable file points at 1:1.
    public static func read(path: String, deviceIDBase: UInt32 = 0) throws(RecordingError) -> DebugEventsLog {
        guard let bytes = RecordingReader.readFile(path) else {
            throw RecordingError(
                file: path, position: SourcePosition(line: 1, column: 1), message: "cannot read the file")
        }
        return try parse(String(decoding: bytes, as: UTF8.self), file: path, deviceIDBase: deviceIDBase)
    }

    /// The event types the tool prints, with their payload shapes.
    static let types: Set<String> = [
        "DEVICE_ADDED", "DEVICE_REMOVED", "KEYBOARD_KEY", "POINTER_MOTION", "POINTER_MOTION_ABSOLUTE",
        "POINTER_BUTTON", "POINTER_AXIS", "POINTER_SCROLL_WHEEL", "POINTER_SCROLL_FINGER", "POINTER_SCROLL_CONTINUOUS",
        "TOUCH_DOWN", "TOUCH_MOTION", "TOUCH_UP", "TOUCH_CANCEL", "TOUCH_FRAME",
        "GESTURE_SWIPE_BEGIN", "GESTURE_SWIPE_UPDATE", "GESTURE_SWIPE_END",
        "GESTURE_PINCH_BEGIN", "GESTURE_PINCH_UPDATE", "GESTURE_PINCH_END", "GESTURE_HOLD_BEGIN", "GESTURE_HOLD_END",
        "SWITCH_TOGGLE",
    ]
}

/// The reader's state across lines: devices by sysname, the last time, warnings said.
struct DebugEventsParser {
    let file: String
    let deviceIDBase: UInt32
    var devices: [DebugEventsDevice] = []
    var events: [InputEvent] = []
    var sysnames: [String] = []
    var descriptions: [DeviceID: DeviceDescription] = [:]
    var warnings: [RecordingWarning] = []
    private var current: [String: Int] = [:]
    private var lastTime: UInt64 = 0
    private var said: Set<String> = []

    init(file: String, deviceIDBase: UInt32) {
        self.file = file
        self.deviceIDBase = deviceIDBase
    }

    private mutating func warn(_ line: Int, _ column: Int, _ message: String, once key: String? = nil) {
        if let key, !said.insert(key).inserted { return }
        warnings.append(
            RecordingWarning(file: file, position: SourcePosition(line: line, column: column), message: message))
    }

    mutating func read(_ bytes: [UInt8], line: Int) throws(RecordingError) {
        var s = LineScanner(bytes: bytes, line: line, file: file)
        s.skipSpaces()
        if s.atEnd { return }
        if s.peek == UInt8(ascii: "-") { s.index += 1 }
        let sysStart = s.index
        let sysname = s.word()
        s.skipSpaces()
        let typeColumn = s.column
        let type = s.word()
        let looksLikeType =
            !type.isEmpty && type.utf8.allSatisfy { ($0 >= 65 && $0 <= 90) || $0 == 95 }
            && type.contains("_")
        guard !sysname.isEmpty, looksLikeType else {
            warn(line, sysStart + 1, "not a libinput debug-events line; skipped")
            return
        }
        if type == "DEVICE_ADDED" || type == "DEVICE_REMOVED" {
            try device(type, sysname: sysname, scanner: &s)
            return
        }
        s.skipSpaces()
        let time = try s.time()
        lastTime = time
        s.skipSpaces()
        guard DebugEventsReader.types.contains(type) else {
            let what =
                type.hasPrefix("TABLET_")
                ? "has no InputRouter event (debug-events tablet lines are not read yet)"
                : "is not an event type this reader knows"
            warn(line, typeColumn, "\(type) \(what); skipped (reported once per device)", once: "\(sysname) \(type)")
            return
        }
        guard let kind = try payload(type, &s, sysname: sysname) else { return }
        try s.expectEnd()
        let id: DeviceID
        if let index = current[sysname] {
            id = devices[index].id
        } else {
            warn(line, sysStart + 1, "events for \(sysname) before its DEVICE_ADDED", once: "early \(sysname)")
            id = addDevice(sysname: sysname, name: nil, capabilities: [])
        }
        events.append(InputEvent(time: time, device: id, kind))
        sysnames.append(sysname)
    }

    private mutating func addDevice(sysname: String, name: String?, capabilities: DeviceCapabilities) -> DeviceID {
        let id = DeviceID(deviceIDBase &+ UInt32(devices.count))
        devices.append(DebugEventsDevice(id: id, sysname: sysname, name: name, capabilities: capabilities))
        current[sysname] = devices.count - 1
        return id
    }

    /// `USB Mouse   seat0 default group2  cap:kp  size 10x20mm tap(dl off) left ...`
    private mutating func device(_ type: String, sysname: String, scanner s: inout LineScanner) throws(RecordingError) {
        s.skipSpaces()
        let rest = s.rest
        guard let cap = rest.firstRange(of: " cap:") else { throw s.error(at: s.column, "\(type): no 'cap:' field") }
        var column = s.column + rest.utf8.distance(from: rest.startIndex, to: cap.upperBound) - 1
        var capabilities: DeviceCapabilities = []
        for ch in rest[cap.upperBound...].prefix(while: { $0 != " " }) {
            column += 1
            switch ch {
            case "k": capabilities.insert(.keyboard)
            case "p": capabilities.insert(.pointer)
            case "t": capabilities.insert(.touch)
            case "g": capabilities.insert(.gesture)
            case "T": capabilities.insert(.tabletTool)
            case "P": capabilities.insert(.tabletPad)
            case "S": capabilities.insert(.switch)
            default: throw s.error(at: column, "\(type): unknown capability '\(ch)'")
            }
        }
        // The name is what precedes "<seat> <logical seat> groupN".
        var words = rest[..<cap.lowerBound].split(separator: " ", omittingEmptySubsequences: true)
        if words.count >= 3, words[words.count - 1].hasPrefix("group") { words.removeLast(3) }
        let name = words.joined(separator: " ")
        if type == "DEVICE_ADDED" {
            let id = addDevice(sysname: sysname, name: name, capabilities: capabilities)
            // debug-events names the device and its node's sysname (`event4`), nothing more.
            descriptions[id] = DeviceDescription(name: name, path: "/dev/input/" + sysname)
            events.append(InputEvent(time: lastTime, device: id, .deviceAdded(capabilities)))
        } else {
            guard let index = current.removeValue(forKey: sysname) else {
                warn(s.line, 1, "DEVICE_REMOVED for \(sysname), which was never added; skipped")
                return
            }
            events.append(InputEvent(time: lastTime, device: devices[index].id, .deviceRemoved))
        }
        sysnames.append(sysname)
    }

    private mutating func payload(
        _ type: String, _ s: inout LineScanner,
        sysname: String
    ) throws(RecordingError) -> InputEvent.Kind? {
        switch type {
        case "KEYBOARD_KEY":
            let nameColumn = s.column
            let name = s.word()
            s.skipSpaces()
            let code = try s.parenthesisedInteger()
            let pressed = try s.pressedOrReleased()
            if name == "***" || code < 0 {
                warn(
                    s.line, nameColumn,
                    "key codes are hidden (run `libinput debug-events --show-keycodes`); "
                        + "hidden keys skipped", once: "hidden keys")
                return nil
            }
            guard code <= 0x2ff else { throw s.error(at: nameColumn, "key code \(code) is out of range") }
            return .keyboardKey(key: UInt32(code), state: pressed ? .pressed : .released)
        case "POINTER_MOTION":
            let (dx, dy) = try s.pair()
            s.skipSpaces()
            try s.expect("(")
            let (ux, uy) = try s.pair()
            try s.expect(")")
            return .pointerMotion(dx: dx, dy: dy, unacceleratedDX: ux, unacceleratedDY: uy)
        case "POINTER_MOTION_ABSOLUTE":
            let (x, y) = try s.pair()
            return .pointerMotionAbsolute(x: Normalisation.clamp(x / 100), y: Normalisation.clamp(y / 100))
        case "POINTER_BUTTON":
            let nameColumn = s.column
            _ = s.word()
            s.skipSpaces()
            let code = try s.parenthesisedInteger()
            guard (0...0x2ff).contains(code) else {
                throw s.error(at: nameColumn, "button code \(code) is out of range")
            }
            let pressed = try s.pressedOrReleased()
            try s.expect(",")
            s.skipSpaces()
            try s.expect("seat")
            s.skipSpaces()
            try s.expect("count:")
            s.skipSpaces()
            _ = try s.integer()
            return .pointerButton(button: UInt32(code), state: pressed ? .pressed : .released)
        case "POINTER_AXIS", "POINTER_SCROLL_WHEEL", "POINTER_SCROLL_FINGER", "POINTER_SCROLL_CONTINUOUS":
            return try scroll(type, &s)
        case "TOUCH_DOWN", "TOUCH_MOTION", "TOUCH_UP", "TOUCH_CANCEL":
            _ = try s.integer() // the device slot
            s.skipSpaces()
            let seatSlotColumn = s.column
            let seatSlot = try s.parenthesisedInteger()
            guard let slot = Int32(exactly: seatSlot), slot >= 0 else {
                throw s.error(at: seatSlotColumn, "seat slot \(seatSlot) is out of range")
            }
            if type == "TOUCH_UP" { return .touchUp(slot: slot) }
            if type == "TOUCH_CANCEL" { return .touchCancel(slot: slot) }
            s.skipSpaces()
            let (x, y) = try s.pair()
            s.skipSpaces()
            try s.expect("(")
            _ = try s.pair()
            try s.expect("mm)")
            let (nx, ny) = (Normalisation.clamp(x / 100), Normalisation.clamp(y / 100))
            return type == "TOUCH_DOWN" ? .touchDown(slot: slot, x: nx, y: ny) : .touchMotion(slot: slot, x: nx, y: ny)
        case "TOUCH_FRAME":
            return .touchFrame
        case "SWITCH_TOGGLE":
            try s.expect("switch")
            s.skipSpaces()
            let whichColumn = s.column
            let which = s.word()
            s.skipSpaces()
            try s.expect("state")
            s.skipSpaces()
            let stateColumn = s.column
            let state = try s.integer()
            guard state == 0 || state == 1 else {
                throw s.error(at: stateColumn, "switch state \(state) is not 0 or 1")
            }
            switch which {
            case "lid": return .switchToggle(.lid, on: state == 1)
            case "tablet-mode": return .switchToggle(.tabletMode, on: state == 1)
            default: throw s.error(at: whichColumn, "unknown switch '\(which)'")
            }
        default:
            return try gesture(type, &s)
        }
    }

    /// `vert 15.00/120.0* horiz 0.00/0.0 (wheel)`; 1.18 and older printed POINTER_AXIS
    /// with whole detents: `vert 15.00/1* horiz 0.00/0 (wheel)`.
    private func scroll(_ type: String, _ s: inout LineScanner) throws(RecordingError) -> InputEvent.Kind {
        func axis(_ label: String) throws(RecordingError) -> (AxisValue, Bool) {
            try s.expect(label)
            s.skipSpaces()
            let value = try s.number()
            try s.expect("/")
            let stepsColumn = s.column
            var steps = try s.number()
            if type == "POINTER_AXIS" { steps *= 120 }
            guard abs(steps) <= Double(Int32.max) else {
                throw s.error(at: stepsColumn, "scroll steps \(steps) out of range")
            }
            let present = s.peek == UInt8(ascii: "*")
            if present { s.index += 1 }
            s.skipSpaces()
            return (AxisValue(value: value, value120: Int32(steps.rounded())), present)
        }
        let (v, hasV) = try axis("vert")
        let (h, hasH) = try axis("horiz")
        try s.expect("(")
        let sourceColumn = s.column
        let name = s.word(until: UInt8(ascii: ")"))
        try s.expect(")")
        let source: AxisSource
        switch (type, name) {
        case ("POINTER_SCROLL_WHEEL", "wheel"), ("POINTER_AXIS", "wheel"): source = .wheel
        case ("POINTER_SCROLL_FINGER", "finger"), ("POINTER_AXIS", "finger"): source = .finger
        case ("POINTER_SCROLL_CONTINUOUS", "continuous"), ("POINTER_AXIS", "continuous"): source = .continuous
        case ("POINTER_AXIS", "tilt"): source = .wheelTilt
        default: throw s.error(at: sourceColumn, "\(type): unexpected scroll source '\(name)'")
        }
        let wheelLike = source == .wheel || source == .wheelTilt
        func keep(_ value: AxisValue) -> AxisValue { wheelLike ? value : AxisValue(value: value.value) }
        return .pointerAxis(source: source, vertical: hasV ? keep(v) : nil, horizontal: hasH ? keep(h) : nil)
    }

    /// BEGIN/END: `3` or `3 cancelled`; UPDATE: `3  1.00/ 2.00 ( 1.00/ 2.00 unaccelerated)`
    /// and, for pinch, ` 1.05 @  2.00` (scale @ angle delta).
    private func gesture(_ type: String, _ s: inout LineScanner) throws(RecordingError) -> InputEvent.Kind? {
        let parts = type.split(separator: "_")
        guard parts.count == 3 else { return nil }
        let kind: GestureKind = parts[1] == "SWIPE" ? .swipe : parts[1] == "PINCH" ? .pinch : .hold
        let phase: GesturePhase = parts[2] == "BEGIN" ? .begin : parts[2] == "UPDATE" ? .update : .end
        let fingersColumn = s.column
        let fingers = try s.integer()
        guard let count = Int32(exactly: fingers), count >= 0 else {
            throw s.error(at: fingersColumn, "finger count \(fingers) is out of range")
        }
        var event = GestureEvent(kind: kind, phase: phase, fingers: count)
        s.skipSpaces()
        if phase == .update {
            (event.dx, event.dy) = try s.pair()
            s.skipSpaces()
            try s.expect("(")
            _ = try s.pair()
            s.skipSpaces()
            try s.expect("unaccelerated)")
            if kind == .pinch {
                s.skipSpaces()
                event.scale = try s.number()
                s.skipSpaces()
                try s.expect("@")
                s.skipSpaces()
                event.rotation = try s.number()
            }
        } else if phase == .end, !s.atEnd {
            try s.expect("cancelled")
            event.cancelled = true
        }
        return .gesture(event)
    }
}

/// A cursor over one line's bytes, with errors at 1-based byte columns.
struct LineScanner {
    let bytes: [UInt8]
    let line: Int
    let file: String
    var index = 0

    init(bytes: [UInt8], line: Int, file: String) {
        // A pasted log may carry Windows line ends.
        var bytes = bytes
        if bytes.last == 13 { bytes.removeLast() }
        self.bytes = bytes
        self.line = line
        self.file = file
    }

    var atEnd: Bool { index >= bytes.count }
    var peek: UInt8? { atEnd ? nil : bytes[index] }
    var column: Int { index + 1 }
    var rest: String { String(decoding: bytes[min(index, bytes.count)...], as: UTF8.self) }

    func error(at column: Int, _ message: String) -> RecordingError {
        RecordingError(file: file, position: SourcePosition(line: line, column: column), message: message)
    }

    mutating func skipSpaces() {
        while let c = peek, c == 32 || c == 9 { index += 1 }
    }

    /// Up to the next space or tab (or `stop`).
    mutating func word(until stop: UInt8? = nil) -> String {
        let start = index
        while let c = peek, c != 32, c != 9, c != stop { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    mutating func expect(_ text: String) throws(RecordingError) {
        let expected = Array(text.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            let found =
                atEnd ? "the end of the line" : "'\(String(decoding: bytes[index...].prefix(12), as: UTF8.self))'"
            throw error(at: column, "expected '\(text)', found \(found)")
        }
        index += expected.count
    }

    mutating func expectEnd() throws(RecordingError) {
        skipSpaces()
        guard atEnd else { throw error(at: column, "unexpected '\(rest)' after the event") }
    }

    /// A decimal number as printf's %f writes it (sign, digits, optional fraction).
    mutating func number() throws(RecordingError) -> Double {
        skipSpaces()
        let start = index
        if let c = peek, c == 43 || c == 45 { index += 1 }
        var digits = 0
        while let c = peek, (48...57).contains(c) || c == 46 {
            index += 1
            digits += 1
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard digits > 0, let value = Double(text), value.isFinite, abs(value) <= 1e7 else {
            index = start
            throw error(
                at: start + 1, text.isEmpty ? "expected a number" : "'\(text)' is not a number this reader takes")
        }
        return value
    }

    mutating func integer() throws(RecordingError) -> Int64 {
        let start = index
        if let c = peek, c == 43 || c == 45 { index += 1 }
        while let c = peek, (48...57).contains(c) { index += 1 }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Int64(text), abs(value) <= Int64(Int32.max) else {
            index = start
            throw error(at: start + 1, text.isEmpty ? "expected an integer" : "integer '\(text)' is out of range")
        }
        return value
    }

    /// `x/y` with optional spaces after the slash, as `%6.2f/%6.2f` prints.
    mutating func pair() throws(RecordingError) -> (Double, Double) {
        let a = try number()
        try expect("/")
        let b = try number()
        return (a, b)
    }

    mutating func parenthesisedInteger() throws(RecordingError) -> Int64 {
        try expect("(")
        let value = try integer()
        try expect(")")
        return value
    }

    mutating func pressedOrReleased() throws(RecordingError) -> Bool {
        skipSpaces()
        let start = column
        let word = self.word(until: 44) // stops at ','
        switch word {
        case "pressed": return true
        case "released": return false
        default: throw error(at: start, "expected 'pressed' or 'released', found '\(word)'")
        }
    }

    /// `+1.234s`: seconds with millisecond precision since the first event, read exactly
    /// as microseconds.
    mutating func time() throws(RecordingError) -> UInt64 {
        let start = index
        if peek == 43 { index += 1 }
        guard peek != 45 else { throw error(at: start + 1, "negative time") }
        var seconds: UInt64 = 0
        var micros: UInt64 = 0
        var digits = 0
        var fraction = -1
        while let c = peek, (48...57).contains(c) || (c == 46 && fraction < 0) {
            index += 1
            if c == 46 {
                fraction = 0
                continue
            }
            if fraction < 0 {
                digits += 1
                guard digits <= 9 else { throw error(at: start + 1, "time out of range") }
                seconds = seconds * 10 + UInt64(c - 48)
            } else if fraction < 6 {
                micros = micros * 10 + UInt64(c - 48)
                fraction += 1
            }
        }
        guard digits > 0, peek == UInt8(ascii: "s") else {
            index = start
            throw error(at: start + 1, "expected a time like '+1.234s'")
        }
        index += 1
        for _ in 0..<max(0, 6 - max(fraction, 0)) { micros *= 10 }
        return seconds * 1_000_000 + micros
    }
}
