// Turns one `libinput:` event entry (`{time: 0.017009, type: POINTER_MOTION, ...}`) into
// the core's event value. These entries are what libinput itself produced during the
// recording, so they are replayed as they are; only coordinates are normalised.

import InputRouter

struct LibinputEntryDecoder {
    let device: RecordedDevice
    private let touchSize: (Double, Double)?
    private let pointerSize: (Double, Double)?

    init(device: RecordedDevice) {
        self.device = device
        touchSize = Normalisation.size(of: device, touch: true)
        pointerSize = Normalisation.size(of: device, touch: false)
    }

    enum Outcome {
        case event(UInt64, InputEvent.Kind)
        /// A type the core has no value for (tablets, newer libinput types): a warning.
        case unsupported(String)
    }

    func decode(_ entry: YAMLNode, frameTime: UInt64) throws(PositionedError) -> Outcome {
        _ = try entry.mapping("libinput event")
        let type = try entry.required("type", in: "libinput event").string("type")
        let time =
            try entry["time"].map { (node) throws(PositionedError) in try node.microseconds("time") } ?? frameTime
        func field(_ key: String) throws(PositionedError) -> YAMLNode { try entry.required(key, in: type) }
        let kind: InputEvent.Kind
        switch type {
        case "DEVICE_ADDED":
            kind = .deviceAdded(device.libinputCapabilities ?? DeviceClassifier.capabilities(device))
        case "DEVICE_REMOVED":
            kind = .deviceRemoved
        case "POINTER_MOTION":
            let (dx, dy) = try field("delta").pair("delta")
            let (ux, uy) = try entry["unaccel"]?.pair("unaccel") ?? (dx, dy)
            kind = .pointerMotion(dx: dx, dy: dy, unacceleratedDX: ux, unacceleratedDY: uy)
        case "POINTER_MOTION_ABSOLUTE":
            let (x, y) = try position(entry, size: pointerSize, what: type)
            kind = .pointerMotionAbsolute(x: x, y: y)
        case "POINTER_BUTTON":
            kind = .pointerButton(
                button: try field("button").integer("button", as: UInt32.self),
                state: try pressed(field("state")) ? .pressed : .released)
        case "POINTER_AXIS", "POINTER_SCROLL_WHEEL", "POINTER_SCROLL_FINGER", "POINTER_SCROLL_CONTINUOUS":
            kind = try axis(entry, type: type)
        case "KEYBOARD_KEY":
            kind = .keyboardKey(
                key: try field("key").integer("key", as: UInt32.self),
                state: try pressed(field("state")) ? .pressed : .released)
        case "TOUCH_DOWN", "TOUCH_MOTION":
            let slot = try seatSlot(entry, type: type)
            let (x, y) = try position(entry, size: touchSize, what: type)
            kind = type == "TOUCH_DOWN" ? .touchDown(slot: slot, x: x, y: y) : .touchMotion(slot: slot, x: x, y: y)
        case "TOUCH_UP":
            kind = .touchUp(slot: try seatSlot(entry, type: type))
        case "TOUCH_CANCEL":
            kind = .touchCancel(slot: try seatSlot(entry, type: type))
        case "TOUCH_FRAME":
            kind = .touchFrame
        case "SWITCH_TOGGLE":
            let which = try field("switch").integer("switch")
            let kindOfSwitch: SwitchKind
            switch which {
            case 1: kindOfSwitch = .lid
            case 2: kindOfSwitch = .tabletMode
            default: return .unsupported("SWITCH_TOGGLE for switch \(which)")
            }
            kind = .switchToggle(kindOfSwitch, on: try field("state").bool("state"))
        case "TABLET_TOOL_PROXIMITY":
            let proximity = try field("proximity")
            guard let inProximity = ["in": true, "out": false][proximity.scalarText ?? ""] else {
                throw proximity.fail("proximity: expected in or out")
            }
            let tool = TabletTool(
                type: try toolType(entry["tool-type"]),
                serial: try entry["serial"]?.integer("serial", as: UInt64.self) ?? 0,
                capabilities: try toolCapabilities(entry["axes"]))
            kind = .tabletToolProximity(tool, inProximity: inProximity, try tabletAxes(entry, type: type))
        case "TABLET_TOOL_TIP":
            let tip = try field("tip")
            guard let down = ["down": true, "up": false][tip.scalarText ?? ""] else {
                throw tip.fail("tip: expected down or up")
            }
            kind = .tabletToolTip(down: down, try tabletAxes(entry, type: type))
        case "TABLET_TOOL_AXIS":
            kind = .tabletToolAxis(try tabletAxes(entry, type: type))
        case "TABLET_TOOL_BUTTON", "TABLET_PAD_BUTTON":
            let button = try field("button").integer("button", as: UInt32.self)
            let state: ButtonState = try pressed(field("state")) ? .pressed : .released
            kind =
                type == "TABLET_TOOL_BUTTON"
                ? .tabletToolButton(button: button, state: state)
                : .tabletPadButton(button: button, state: state, mode: try padMode(entry))
        case "TABLET_PAD_RING", "TABLET_PAD_STRIP":
            let number = try field("number").integer("number", as: UInt32.self)
            let position = try field("position").double("position")
            let source: PadSource = entry["source"]?.scalarText == "finger" ? .finger : .unknown
            let mode = try padMode(entry)
            kind =
                type == "TABLET_PAD_RING"
                ? .tabletPadRing(ring: number, position: position, source: source, mode: mode)
                : .tabletPadStrip(strip: number, position: position, source: source, mode: mode)
        default:
            if let gesture = try gesture(entry, type: type) {
                kind = .gesture(gesture)
            } else {
                return .unsupported(type)
            }
        }
        return .event(time, kind)
    }

    /// `mode:` of a pad event: the mode its group is in after it (0 when not recorded).
    private func padMode(_ entry: YAMLNode) throws(PositionedError) -> UInt32 {
        try entry["mode"]?.integer("mode", as: UInt32.self) ?? 0
    }

    private func pressed(_ node: YAMLNode) throws(PositionedError) -> Bool {
        switch node.scalarText {
        case "pressed": return true
        case "released": return false
        default: return try node.bool("state")
        }
    }

    private func seatSlot(_ entry: YAMLNode, type: String) throws(PositionedError) -> Int32 {
        guard let node = entry["seat_slot"] ?? entry["slot"] else {
            throw entry.fail("\(type): missing key 'seat_slot'")
        }
        let slot = try node.integer("seat_slot", as: Int32.self)
        guard slot >= 0 else { throw node.fail("seat_slot: \(slot) is negative") }
        return slot
    }

    /// `point: [mm, mm]` normalised by the device's size; `transformed` (percent of the
    /// range, as libinput record prints it) when the size is unknown.
    private func position(
        _ entry: YAMLNode, size: (Double, Double)?,
        what: String
    ) throws(PositionedError) -> (Double, Double) {
        if let size, let point = entry["point"] {
            let (x, y) = try point.pair("point")
            return (Normalisation.fromMillimetres(x, size: size.0), Normalisation.fromMillimetres(y, size: size.1))
        }
        if let transformed = entry["transformed"] {
            let (x, y) = try transformed.pair("transformed")
            return (Normalisation.clamp(x / 100), Normalisation.clamp(y / 100))
        }
        throw entry.fail("\(what): no absinfo or size for this device, and no 'transformed' position")
    }

    /// `axes: [horizontal, vertical]`, `discrete: [h, v]` (whole detents). An axis is
    /// present when it moved; for finger and continuous sources both zero is a scroll
    /// stop on both axes (the printed form does not say which axis stopped).
    private func axis(_ entry: YAMLNode, type: String) throws(PositionedError) -> InputEvent.Kind {
        let (h, v) = try entry.required("axes", in: type).pair("axes")
        var (dh, dv) = (0.0, 0.0)
        if let discrete = entry["discrete"] ?? entry["v120"] {
            (dh, dv) = try discrete.pair("discrete")
            if entry["v120"] == nil { (dh, dv) = (dh * 120, dv * 120) }
        }
        let sourceName = try entry["source"]?.string("source") ?? "wheel"
        let source: AxisSource
        switch (type, sourceName) {
        case ("POINTER_SCROLL_FINGER", _), (_, "finger"): source = .finger
        case ("POINTER_SCROLL_CONTINUOUS", _), (_, "continuous"): source = .continuous
        case (_, "wheel-tilt"), (_, "tilt"): source = .wheelTilt
        case (_, "wheel"): source = .wheel
        default:
            throw entry["source"].map { $0.fail("source: unknown axis source '\(sourceName)'") }
                ?? entry.fail("source: unknown axis source '\(sourceName)'")
        }
        let wheelLike = source == .wheel || source == .wheelTilt
        let stop = !wheelLike && h == 0 && v == 0
        // `axes_present: [h, v]` is InputRouter's own key (LiveRecorder writes it for finger
        // and continuous scrolling): which axes libinput reported, so a stop on one axis
        // reads back as exactly that.
        var present: (Bool, Bool)?
        if let node = entry["axes_present"] {
            let items = try node.sequence("axes_present")
            guard items.count == 2 else { throw node.fail("axes_present: expected [horizontal, vertical] booleans") }
            present = (try items[0].bool("axes_present"), try items[1].bool("axes_present"))
        }
        func value(_ amount: Double, _ steps: Double, _ isPresent: Bool?) -> AxisValue? {
            if let isPresent {
                guard isPresent else { return nil }
            } else {
                guard amount != 0 || steps != 0 || stop else { return nil }
            }
            return AxisValue(value: amount, value120: wheelLike ? Int32(clamping: Int64(steps.rounded())) : 0)
        }
        return .pointerAxis(source: source, vertical: value(v, dv, present?.1), horizontal: value(h, dh, present?.0))
    }

    /// libinput record's `tool-type:`. 1.22 prints pencils as "brush" and totems as
    /// "unknown"; unknown reads as a pen.
    private func toolType(_ node: YAMLNode?) throws(PositionedError) -> TabletToolType {
        guard let node else { return .pen }
        let name = try node.string("tool-type")
        return TabletToolType.allCases.first { EventText.name($0) == name } ?? .pen
    }

    /// `axes: dptrsw` on a proximity event: the axes the tool has (libinput record's
    /// letters; empty or absent: none, as in recordings made before it was read).
    private func toolCapabilities(_ node: YAMLNode?) throws(PositionedError) -> TabletToolCapabilities {
        guard let node, let text = node.scalarText, !text.isEmpty else { return [] }
        guard let c = TabletToolCapabilities(letters: Substring(text)) else {
            throw node.fail("axes: expected the tool's axis letters (d, p, t, r, s, w)")
        }
        return c
    }

    /// `point: [mm, mm]` from the tablet's top left (or `transformed`), `tilt: [x, y]`,
    /// and the single axes the tool has; absent keys are axes the tool lacks.
    private func tabletAxes(_ entry: YAMLNode, type: String) throws(PositionedError) -> TabletAxes {
        let (x, y) = try position(entry, size: pointerSize, what: type)
        var axes = TabletAxes(x: x, y: y)
        if let tilt = entry["tilt"] { (axes.tiltX, axes.tiltY) = try tilt.pair("tilt") }
        axes.pressure = try entry["pressure"]?.double("pressure")
        axes.distance = try entry["distance"]?.double("distance")
        axes.rotation = try entry["rotation"]?.double("rotation")
        axes.slider = try entry["slider"]?.double("slider")
        axes.wheel = try entry["wheel"]?.double("wheel")
        return axes
    }

    private func gesture(_ entry: YAMLNode, type: String) throws(PositionedError) -> GestureEvent? {
        let parts = type.split(separator: "_")
        guard parts.count == 3, parts[0] == "GESTURE" else { return nil }
        let kind: GestureKind
        switch parts[1] {
        case "SWIPE": kind = .swipe
        case "PINCH": kind = .pinch
        case "HOLD": kind = .hold
        default: return nil
        }
        let phase: GesturePhase
        switch parts[2] {
        case "BEGIN": phase = .begin
        case "UPDATE": phase = .update
        case "END": phase = .end
        default: return nil
        }
        var event = GestureEvent(
            kind: kind, phase: phase,
            fingers: try entry.required("nfingers", in: type).integer("nfingers", as: Int32.self))
        if let delta = entry["delta"] { (event.dx, event.dy) = try delta.pair("delta") }
        if let scale = entry["scale"] { event.scale = try scale.double("scale") }
        if let angle = entry["angle_delta"] { event.rotation = try angle.double("angle_delta") }
        if let cancelled = entry["cancelled"] { event.cancelled = try cancelled.bool("cancelled") }
        return event
    }
}
