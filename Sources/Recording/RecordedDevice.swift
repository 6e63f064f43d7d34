// The description of one recorded device: what `libinput record` prints before the
// events. Kept whole (codes, absinfo, udev, quirks) so a caller can inspect or re-create
// the device, and so the translator can classify it and normalise coordinates.

import InputRouter

/// One `absinfo` row: `[minimum, maximum, fuzz, flat, resolution]`.
public struct AbsInfo: Hashable, Sendable {
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    /// Units per millimetre; 0 when the kernel does not know it.
    public var resolution: Int32
    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.minimum = minimum; self.maximum = maximum; self.fuzz = fuzz; self.flat = flat; self.resolution = resolution
    }

    /// Number of distinct values, as libinput counts the range (`max - min + 1`); at least 1.
    public var range: Double { max(1, Double(maximum) - Double(minimum) + 1) }
    /// Size of the axis in millimetres; a missing resolution counts as 1 unit per mm, as in libinput.
    public var sizeInMillimetres: Double { range / Double(max(1, resolution)) }
}

/// `id: [bus, vendor, product, version]`.
public struct DeviceIdentity: Hashable, Sendable {
    public var bus: UInt32, vendor: UInt32, product: UInt32, version: UInt32
    public init(bus: UInt32, vendor: UInt32, product: UInt32, version: UInt32) {
        self.bus = bus; self.vendor = vendor; self.product = product; self.version = version
    }
}

/// What kind of device the evdev description shows, for evdev-only replay.
public enum DeviceClass: String, Hashable, Sendable {
    case keyboard, mouse, touchscreen, touchpad, tablet, tabletPad, switches, other
}

public struct RecordedDevice: Hashable, Sendable {
    /// The id its events carry: the device's index in the file plus the reader's base.
    public var id: DeviceID
    public var node: String?
    public var name: String
    public var identity: DeviceIdentity?
    /// Supported event codes by event type (`codes: {1: [272, 273]}`).
    public var codes: [UInt16: [UInt16]]
    public var absinfo: [UInt16: AbsInfo]
    /// Input properties (INPUT_PROP_DIRECT = 1, INPUT_PROP_BUTTONPAD = 2, ...).
    public var properties: [UInt16]
    /// `KEY=VALUE` lines in file order.
    public var udevProperties: [String]
    public var quirks: [String]
    /// The HID report descriptor, when recorded.
    public var hid: [UInt8]
    /// The device's `libinput:` block, present when recorded with `--with-libinput`.
    public var libinputCapabilities: DeviceCapabilities?
    /// `libinput: size: [w, h]` in millimetres (libinput rounds it to whole mm).
    public var libinputSize: [Double]?
    /// True when at least one event entry has a `libinput` key: its events come from
    /// those entries rather than from translating evdev.
    public var hasLibinputEvents: Bool
    public var deviceClass: DeviceClass
    /// Where the device starts in the file.
    public var position: SourcePosition

    /// A description for the writer (a live backend recording what it sees).
    public init(id: DeviceID, node: String? = nil, name: String, identity: DeviceIdentity? = nil,
                codes: [UInt16: [UInt16]] = [:], absinfo: [UInt16: AbsInfo] = [:], properties: [UInt16] = [],
                udevProperties: [String] = [], quirks: [String] = [], hid: [UInt8] = [],
                libinputCapabilities: DeviceCapabilities? = nil, libinputSize: [Double]? = nil,
                hasLibinputEvents: Bool = true, deviceClass: DeviceClass = .other,
                position: SourcePosition = SourcePosition(line: 1, column: 1)) {
        self.id = id; self.node = node; self.name = name; self.identity = identity; self.codes = codes
        self.absinfo = absinfo; self.properties = properties; self.udevProperties = udevProperties
        self.quirks = quirks; self.hid = hid; self.libinputCapabilities = libinputCapabilities
        self.libinputSize = libinputSize; self.hasLibinputEvents = hasLibinputEvents
        self.deviceClass = deviceClass; self.position = position
    }

    public func supports(type: UInt16, code: UInt16) -> Bool { codes[type]?.contains(code) ?? false }
    public func hasProperty(_ property: UInt16) -> Bool { properties.contains(property) }
    public func udevProperty(_ key: String) -> String? {
        for line in udevProperties {
            let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2, parts[0] == key { return String(parts[1]) }
        }
        return nil
    }
}
