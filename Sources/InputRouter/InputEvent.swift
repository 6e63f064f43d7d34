// The values every input source produces: libinput, `libinput record` replay, the nested
// parent seat and the synthetic generator. Everything after the source is shared code.
// Each is a small trivial struct: routing one never allocates.

public enum ButtonState: UInt8, Sendable { case released = 0, pressed = 1 }
public enum KeyState: UInt8, Sendable { case released = 0, pressed = 1 }

/// `wl_pointer.axis`: 0 is vertical, 1 horizontal (the protocol's numbering).
public enum Axis: UInt8, Sendable, CaseIterable { case vertical = 0, horizontal = 1 }

/// `wl_pointer.axis_source`.
public enum AxisSource: UInt8, Sendable { case wheel = 0, finger = 1, continuous = 2, wheelTilt = 3 }

public enum SwitchKind: UInt8, Sendable { case lid = 0, tabletMode = 1, keypadSlide = 2 }

public enum GestureKind: UInt8, Sendable { case swipe, pinch, hold }
public enum GesturePhase: UInt8, Sendable { case begin, update, end }

/// What a device can do, as libinput reports it.
public struct DeviceCapabilities: OptionSet, Hashable, Sendable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public static let keyboard = DeviceCapabilities(rawValue: 1 << 0)
    public static let pointer = DeviceCapabilities(rawValue: 1 << 1)
    public static let touch = DeviceCapabilities(rawValue: 1 << 2)
    public static let tabletTool = DeviceCapabilities(rawValue: 1 << 3)
    public static let tabletPad = DeviceCapabilities(rawValue: 1 << 4)
    public static let gesture = DeviceCapabilities(rawValue: 1 << 5)
    public static let `switch` = DeviceCapabilities(rawValue: 1 << 6)
}

/// One scroll axis of a pointer axis event. `value` is in surface-local logical pixels
/// (libinput's scroll value); `value120` is the high-resolution wheel value (120 = one
/// detent), zero for finger and continuous sources.
public struct AxisValue: Hashable, Sendable {
    public var value: Double
    public var value120: Int32
    public init(value: Double, value120: Int32 = 0) { self.value = value; self.value120 = value120 }
}

/// One gesture event from a touchpad (libinput's swipe, pinch and hold).
public struct GestureEvent: Hashable, Sendable {
    public var kind: GestureKind
    public var phase: GesturePhase
    public var fingers: Int32
    public var dx: Double = 0
    public var dy: Double = 0
    public var scale: Double = 1
    public var rotation: Double = 0
    public var cancelled: Bool = false
    public init(kind: GestureKind, phase: GesturePhase, fingers: Int32, dx: Double = 0, dy: Double = 0,
                scale: Double = 1, rotation: Double = 0, cancelled: Bool = false) {
        self.kind = kind; self.phase = phase; self.fingers = fingers
        self.dx = dx; self.dy = dy; self.scale = scale; self.rotation = rotation; self.cancelled = cancelled
    }
}

/// One input event from one device. `time` is in microseconds, as libinput gives it.
public struct InputEvent: Hashable, Sendable {
    public var time: UInt64
    public var device: DeviceID
    public var kind: Kind

    public init(time: UInt64, device: DeviceID, _ kind: Kind) {
        self.time = time; self.device = device; self.kind = kind
    }

    public enum Kind: Hashable, Sendable {
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
        /// A pad button, by index (libinput's button number, not a Linux code).
        case tabletPadButton(button: UInt32, state: ButtonState)
        /// A pad ring (degrees, 0 at the top, clockwise) or strip (0...1); -1: finger lifted.
        case tabletPadRing(ring: UInt32, position: Double, source: PadSource)
        case tabletPadStrip(strip: UInt32, position: Double, source: PadSource)
    }
}

/// libinput's tablet tool types.
public enum TabletToolType: UInt8, Sendable, CaseIterable {
    case pen, eraser, brush, pencil, airbrush, mouse, lens, totem
}

/// Which tool is in proximity: its type and hardware serial (0 when the tablet has none).
public struct TabletTool: Hashable, Sendable {
    public var type: TabletToolType
    public var serial: UInt64
    public init(type: TabletToolType, serial: UInt64 = 0) { self.type = type; self.serial = serial }
}

/// A tablet tool's position and axes. `x`, `y` are normalised to 0...1 of the tablet, like
/// touch; pressure and distance 0...1; tilt in degrees; rotation in degrees; slider -1...1;
/// wheel in degrees of the tool's wheel. nil: the tool has no such axis.
public struct TabletAxes: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var pressure: Double?
    public var distance: Double?
    public var tiltX: Double?
    public var tiltY: Double?
    public var rotation: Double?
    public var slider: Double?
    public var wheel: Double?
    public init(x: Double, y: Double, pressure: Double? = nil, distance: Double? = nil, tiltX: Double? = nil,
                tiltY: Double? = nil, rotation: Double? = nil, slider: Double? = nil, wheel: Double? = nil) {
        self.x = x; self.y = y; self.pressure = pressure; self.distance = distance
        self.tiltX = tiltX; self.tiltY = tiltY; self.rotation = rotation; self.slider = slider; self.wheel = wheel
    }
}

/// What moved a pad ring or strip.
public enum PadSource: UInt8, Sendable { case unknown = 0, finger = 1 }
