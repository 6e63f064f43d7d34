// The values every input source produces: libinput, `libinput record` replay, the nested
// parent seat and the synthetic generator. Everything after the source is shared code.
// Each is a small trivial struct: routing one never allocates.

/// Whether a button was pressed or released (`wl_pointer.button_state`).
public enum ButtonState: UInt8, Sendable {
    case released = 0
    case pressed = 1
}
/// Whether a key was pressed or released (`wl_keyboard.key_state`; repeats are the client's).
public enum KeyState: UInt8, Sendable {
    case released = 0
    case pressed = 1
}

/// `wl_pointer.axis`: 0 is vertical, 1 horizontal (the protocol's numbering).
public enum Axis: UInt8, Sendable, CaseIterable {
    case vertical = 0
    case horizontal = 1
}

/// `wl_pointer.axis_source`.
public enum AxisSource: UInt8, Sendable {
    case wheel = 0
    case finger = 1
    case continuous = 2
    case wheelTilt = 3
}

/// The switches libinput reports (`LIBINPUT_SWITCH_*`): routed to switch observers, not hit-tested.
public enum SwitchKind: UInt8, Sendable {
    case lid = 0
    case tabletMode = 1
    case keypadSlide = 2
}

/// libinput's touchpad gestures: swipe, pinch and hold.
public enum GestureKind: UInt8, Sendable { case swipe, pinch, hold }
/// Where a gesture is: its begin picks the target, updates and the end go to it.
public enum GesturePhase: UInt8, Sendable { case begin, update, end }

/// What a device can do, as libinput reports it.
public struct DeviceCapabilities: OptionSet, Hashable, Sendable {
    /// The capability bits, one per option below.
    public var rawValue: UInt16
    /// A set from raw bits, as an `OptionSet` requires.
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// Keys (`LIBINPUT_DEVICE_CAP_KEYBOARD`).
    public static let keyboard = DeviceCapabilities(rawValue: 1 << 0)
    /// A relative or absolute pointer.
    public static let pointer = DeviceCapabilities(rawValue: 1 << 1)
    /// A touch screen.
    public static let touch = DeviceCapabilities(rawValue: 1 << 2)
    /// A tablet's tools (pen, eraser...).
    public static let tabletTool = DeviceCapabilities(rawValue: 1 << 3)
    /// A tablet's pad (buttons, rings, strips).
    public static let tabletPad = DeviceCapabilities(rawValue: 1 << 4)
    /// Touchpad gestures.
    public static let gesture = DeviceCapabilities(rawValue: 1 << 5)
    /// Lid, tablet-mode and similar switches.
    public static let `switch` = DeviceCapabilities(rawValue: 1 << 6)
}

/// One scroll axis of a pointer axis event. `value` is in surface-local logical pixels
/// (libinput's scroll value); `value120` is the high-resolution wheel value (120 = one
/// detent), zero for finger and continuous sources.
public struct AxisValue: Hashable, Sendable {
    /// Scroll distance in surface-local logical pixels (`wl_pointer.axis` value).
    public var value: Double
    /// High-resolution wheel steps, 120 per detent (`axis_value120`); 0 for finger and continuous.
    public var value120: Int32
    /// An axis value; `value120` defaults to 0, as for non-wheel sources.
    public init(value: Double, value120: Int32 = 0) {
        self.value = value
        self.value120 = value120
    }
}

/// One gesture event from a touchpad (libinput's swipe, pinch and hold).
public struct GestureEvent: Hashable, Sendable {
    /// Swipe, pinch or hold.
    public var kind: GestureKind
    /// Begin, update or end.
    public var phase: GesturePhase
    /// How many fingers are on the touchpad.
    public var fingers: Int32
    /// Horizontal motion of the fingers' centre since the last event (swipe and pinch).
    public var dx: Double = 0
    /// Vertical motion of the fingers' centre since the last event (swipe and pinch).
    public var dy: Double = 0
    /// Pinch scale relative to the begin (1 at the start).
    public var scale: Double = 1
    /// Pinch rotation in degrees since the last event, clockwise.
    public var rotation: Double = 0
    /// On an end: the gesture was cancelled rather than completed.
    public var cancelled: Bool = false
    /// A gesture event; the motion fields default to "no change".
    public init(
        kind: GestureKind, phase: GesturePhase, fingers: Int32, dx: Double = 0, dy: Double = 0,
        scale: Double = 1, rotation: Double = 0, cancelled: Bool = false
    ) {
        self.kind = kind
        self.phase = phase
        self.fingers = fingers
        self.dx = dx
        self.dy = dy
        self.scale = scale
        self.rotation = rotation
        self.cancelled = cancelled
    }
}

/// One input event from one device. `time` is in microseconds, as libinput gives it.
public struct InputEvent: Hashable, Sendable {
    /// When the device produced it, in microseconds (libinput's clock).
    public var time: UInt64
    /// Which device of the seat produced it (libinput device index).
    public var device: DeviceID
    /// What happened.
    public var kind: Kind

    /// An event to pass to `Seat.handle(_:)`; a trivial value, no allocation.
    public init(time: UInt64, device: DeviceID, _ kind: Kind) {
        self.time = time
        self.device = device
        self.kind = kind
    }

    /// The events a seat accepts, mirroring libinput's event types.
    public enum Kind: Hashable, Sendable {
        /// A device appeared with these capabilities. Its source's description of it (name,
        /// node, ids) travels beside the event, handed to the seat in the call that routes
        /// it (`Seat.handle(_:description:)`), so the event stays trivial.
        case deviceAdded(DeviceCapabilities)
        case deviceRemoved
        /// Relative motion: accelerated deltas and the raw ones (`wp_relative_pointer`).
        case pointerMotion(dx: Double, dy: Double, unacceleratedDX: Double, unacceleratedDY: Double)
        /// Absolute motion, normalised to 0...1 of the device's range; the seat maps it.
        case pointerMotionAbsolute(x: Double, y: Double)
        /// Linux input button code (BTN_LEFT = 0x110).
        case pointerButton(button: UInt32, state: ButtonState)
        /// A scroll event; a nil axis did not change. A zero value with source `.finger` or
        /// `.continuous` is a scroll stop on that axis.
        case pointerAxis(source: AxisSource, vertical: AxisValue?, horizontal: AxisValue?)
        /// Linux evdev key code (KEY_A = 30).
        case keyboardKey(key: UInt32, state: KeyState)
        /// Touch coordinates normalised to 0...1 of the device's range; `slot` is libinput's
        /// seat slot, unique across the seat's touch devices.
        case touchDown(slot: Int32, x: Double, y: Double)
        case touchMotion(slot: Int32, x: Double, y: Double)
        case touchUp(slot: Int32)
        case touchCancel(slot: Int32)
        case touchFrame
        case gesture(GestureEvent)
        case switchToggle(SwitchKind, on: Bool)
        /// A tablet tool entered (`true`) or left the tablet's proximity, at `axes`.
        case tabletToolProximity(TabletTool, inProximity: Bool, TabletAxes)
        /// The tool's tip touched (`down`) or left the surface of the tablet.
        case tabletToolTip(down: Bool, TabletAxes)
        /// The tool moved or an axis changed.
        case tabletToolAxis(TabletAxes)
        /// A button on the tool (Linux code: BTN_STYLUS = 0x14b).
        case tabletToolButton(button: UInt32, state: ButtonState)
        /// A pad's layout (buttons, rings, strips, mode groups), sent by sources right after
        /// the pad's `deviceAdded`: the seat needs it before the pad's first event.
        case tabletPadAdded(TabletPadLayout)
        /// A pad button, by index (libinput's button number, not a Linux code). `mode` is the
        /// mode its group is in after the event (libinput_event_tablet_pad_get_mode): a
        /// mode-switch button's press carries the new mode.
        case tabletPadButton(button: UInt32, state: ButtonState, mode: UInt32 = 0)
        /// A pad ring (degrees, 0 at the top, clockwise) or strip (0...1); -1: finger lifted.
        case tabletPadRing(ring: UInt32, position: Double, source: PadSource, mode: UInt32 = 0)
        case tabletPadStrip(strip: UInt32, position: Double, source: PadSource, mode: UInt32 = 0)
    }
}

/// libinput's tablet tool types.
public enum TabletToolType: UInt8, Sendable, CaseIterable {
    case pen, eraser, brush, pencil, airbrush, mouse, lens, totem
}

/// Which tool is in proximity: its type, hardware serial (0 when the tablet has none) and
/// the axes it has (libinput_tablet_tool_has_*; what zwp_tablet_tool_v2.capability
/// announces to clients).
public struct TabletTool: Hashable, Sendable {
    /// Pen, eraser, brush... as libinput reports it.
    public var type: TabletToolType
    /// The tool's hardware serial, to tell two pens apart; 0 when the tablet has none.
    public var serial: UInt64
    /// The axes the tool has (what `zwp_tablet_tool_v2.capability` announces to clients).
    public var capabilities: TabletToolCapabilities
    /// A tool; serial and capabilities default to "unknown".
    public init(type: TabletToolType, serial: UInt64 = 0, capabilities: TabletToolCapabilities = []) {
        self.type = type
        self.serial = serial
        self.capabilities = capabilities
    }
}

/// The axes a tablet tool has besides x and y. The letters are `libinput record`'s (its
/// `axes:` field on a proximity event, in this order: d p t r s w).
public struct TabletToolCapabilities: OptionSet, Hashable, Sendable {
    /// The capability bits, one per option below.
    public let rawValue: UInt8
    /// A set from raw bits, as an `OptionSet` requires.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Reports distance (hovering height).
    public static let distance = TabletToolCapabilities(rawValue: 1 << 0)
    /// Reports pressure.
    public static let pressure = TabletToolCapabilities(rawValue: 1 << 1)
    /// Reports tilt on both axes.
    public static let tilt = TabletToolCapabilities(rawValue: 1 << 2)
    /// Reports rotation about its own axis.
    public static let rotation = TabletToolCapabilities(rawValue: 1 << 3)
    /// Has a slider (airbrush finger wheel).
    public static let slider = TabletToolCapabilities(rawValue: 1 << 4)
    /// Has a wheel (mouse tool).
    public static let wheel = TabletToolCapabilities(rawValue: 1 << 5)

    /// Each capability with its letter, in libinput's order.
    public static let letters: [(TabletToolCapabilities, Character)] = [
        (.distance, "d"), (.pressure, "p"), (.tilt, "t"), (.rotation, "r"), (.slider, "s"), (.wheel, "w"),
    ]

    /// From `libinput record`'s letters; nil when one is not a capability letter (`S`,
    /// size, has no InputRouter axis and is skipped, not refused).
    public init?(letters: Substring) {
        var c = TabletToolCapabilities()
        for ch in letters where ch != " " {
            if ch == "S" { continue }
            guard let (cap, _) = Self.letters.first(where: { $0.1 == ch }) else { return nil }
            c.insert(cap)
        }
        self = c
    }

    /// The letters of the set, as `libinput record` writes them (the inverse of `init?(letters:)`).
    /// Allocates a string: for recording and traces, not per event.
    public var letterString: String { String(Self.letters.filter { contains($0.0) }.map(\.1)) }
}

/// A tablet tool's position and axes. `x`, `y` are normalised to 0...1 of the tablet, like
/// touch; pressure and distance 0...1; tilt in degrees; rotation in degrees; slider -1...1;
/// wheel in degrees of the tool's wheel. nil: the tool has no such axis.
///
/// The optional axes are kept as Floats with a presence mask (48 bytes, not 128), so events
/// carrying them stay small; they hold what a tool reports, to Float precision.
public struct TabletAxes: Hashable, Sendable {
    /// Horizontal position, 0...1 of the tablet width.
    public var x: Double
    /// Vertical position, 0...1 of the tablet height.
    public var y: Double
    private var present: UInt8 = 0
    private var a0: Float = 0, a1: Float = 0, a2: Float = 0, a3: Float = 0, a4: Float = 0, a5: Float = 0, a6: Float = 0

    /// A position with the axes the tool reported; omitted axes are absent (nil).
    public init(
        x: Double, y: Double, pressure: Double? = nil, distance: Double? = nil, tiltX: Double? = nil,
        tiltY: Double? = nil, rotation: Double? = nil, slider: Double? = nil, wheel: Double? = nil
    ) {
        self.x = x
        self.y = y
        self.pressure = pressure
        self.distance = distance
        self.tiltX = tiltX
        self.tiltY = tiltY
        self.rotation = rotation
        self.slider = slider
        self.wheel = wheel
    }

    /// Tip pressure 0...1; nil when the tool has no pressure axis.
    public var pressure: Double? {
        get { value(0) }
        set { setValue(0, newValue) }
    }
    /// Hover distance 0...1; nil when the tool has no distance axis.
    public var distance: Double? {
        get { value(1) }
        set { setValue(1, newValue) }
    }
    /// Tilt across, in degrees; nil when the tool has no tilt.
    public var tiltX: Double? {
        get { value(2) }
        set { setValue(2, newValue) }
    }
    /// Tilt down, in degrees; nil when the tool has no tilt.
    public var tiltY: Double? {
        get { value(3) }
        set { setValue(3, newValue) }
    }
    /// Rotation about the tool's axis, in degrees; nil when it has none.
    public var rotation: Double? {
        get { value(4) }
        set { setValue(4, newValue) }
    }
    /// Slider position -1...1; nil when the tool has none.
    public var slider: Double? {
        get { value(5) }
        set { setValue(5, newValue) }
    }
    /// Wheel rotation in degrees; nil when the tool has none.
    public var wheel: Double? {
        get { value(6) }
        set { setValue(6, newValue) }
    }

    private func value(_ k: UInt8) -> Double? {
        guard present & (1 << k) != 0 else { return nil }
        switch k {
        case 0: return Double(a0)
        case 1: return Double(a1)
        case 2: return Double(a2)
        case 3: return Double(a3)
        case 4: return Double(a4)
        case 5: return Double(a5)
        default: return Double(a6)
        }
    }

    /// An absent axis is stored as 0, so equal axes compare and hash equal.
    private mutating func setValue(_ k: UInt8, _ v: Double?) {
        if v != nil { present |= 1 << k } else { present &= ~(1 << k) }
        let f = v.map { Float($0) } ?? 0
        switch k {
        case 0: a0 = f
        case 1: a1 = f
        case 2: a2 = f
        case 3: a3 = f
        case 4: a4 = f
        case 5: a5 = f
        default: a6 = f
        }
    }
}

/// What moved a pad ring or strip.
public enum PadSource: UInt8, Sendable {
    case unknown = 0
    case finger = 1
}
