// The description of one recorded device: what `libinput record` prints before the
// events. Kept whole (codes, absinfo, udev, quirks) so a caller can inspect or re-create
// the device, and so the translator can classify it and normalise coordinates.

import InputRouter

/// One `absinfo` row: `[minimum, maximum, fuzz, flat, resolution]`.
public struct AbsInfo: Hashable, Sendable {
    /// The smallest value the axis reports.
    public var minimum: Int32
    /// The largest value the axis reports.
    public var maximum: Int32
    /// Noise the kernel filters out, in axis units.
    public var fuzz: Int32
    /// The dead zone around the centre, in axis units.
    public var flat: Int32
    /// Units per millimetre; 0 when the kernel does not know it.
    public var resolution: Int32
    /// One row; fuzz, flat and resolution default to 0, as for most devices.
    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }

    /// Number of distinct values, as libinput counts the range (`max - min + 1`); at least 1.
    public var range: Double { max(1, Double(maximum) - Double(minimum) + 1) }
    /// Size of the axis in millimetres; a missing resolution counts as 1 unit per mm, as in libinput.
    public var sizeInMillimetres: Double { range / Double(max(1, resolution)) }
}

/// `id: [bus, vendor, product, version]`.
public struct DeviceIdentity: Hashable, Sendable {
    /// The bus type, vendor and product ids and version, as the kernel reports them.
    public var bus: UInt32, vendor: UInt32, product: UInt32, version: UInt32
    /// The four ids in `id:` order.
    public init(bus: UInt32, vendor: UInt32, product: UInt32, version: UInt32) {
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
    }
}

/// What kind of device the evdev description shows, for evdev-only replay.
public enum DeviceClass: String, Hashable, Sendable {
    case keyboard, mouse, touchscreen, touchpad, tablet, tabletPad, switches, other
}

/// One device from a recording: its evdev description and what libinput said about it, as
/// the file had it, with the id its events carry.
public struct RecordedDevice: Hashable, Sendable {
    /// The id its events carry: the device's index in the file plus the reader's base.
    public var id: DeviceID
    /// Its device node (`/dev/input/event4`), when the file names one.
    public var node: String?
    /// The name the device reports (`evdev: name:`).
    public var name: String
    /// Bus, vendor, product and version, when the file gives them.
    public var identity: DeviceIdentity?
    /// Supported event codes by event type (`codes: {1: [272, 273]}`).
    public var codes: [UInt16: [UInt16]]
    /// The range and resolution of each absolute axis, by `ABS_*` code.
    public var absinfo: [UInt16: AbsInfo]
    /// Input properties (INPUT_PROP_DIRECT = 1, INPUT_PROP_BUTTONPAD = 2, ...).
    public var properties: [UInt16]
    /// `KEY=VALUE` lines in file order.
    public var udevProperties: [String]
    /// The libinput quirks the recording lists for the device, as written.
    public var quirks: [String]
    /// The HID report descriptor, when recorded.
    public var hid: [UInt8]
    /// The device's `libinput:` block, present when recorded with `--with-libinput`.
    public var libinputCapabilities: DeviceCapabilities?
    /// `libinput: size: [w, h]` in millimetres (libinput rounds it to whole mm).
    public var libinputSize: [Double]?
    /// A pad's layout: the device's `libinput: pad:` (InputRouter's own key, which the
    /// writer adds), else what the evdev description and the recorded pad events show
    /// (PadLayoutReading.swift); its tablet is the file's tablet of the same device group.
    public var padLayout: TabletPadLayout?
    /// True when at least one event entry has a `libinput` key: its events come from
    /// those entries rather than from translating evdev.
    public var hasLibinputEvents: Bool
    /// What the evdev description shows the device to be; used to translate evdev-only recordings.
    public var deviceClass: DeviceClass
    /// Where the device starts in the file.
    public var position: SourcePosition

    /// A description for the writer (a live backend recording what it sees).
    public init(
        id: DeviceID, node: String? = nil, name: String, identity: DeviceIdentity? = nil,
        codes: [UInt16: [UInt16]] = [:], absinfo: [UInt16: AbsInfo] = [:], properties: [UInt16] = [],
        udevProperties: [String] = [], quirks: [String] = [], hid: [UInt8] = [],
        libinputCapabilities: DeviceCapabilities? = nil, libinputSize: [Double]? = nil,
        hasLibinputEvents: Bool = true, deviceClass: DeviceClass = .other,
        position: SourcePosition = SourcePosition(line: 1, column: 1), padLayout: TabletPadLayout? = nil
    ) {
        self.padLayout = padLayout
        self.id = id
        self.node = node
        self.name = name
        self.identity = identity
        self.codes = codes
        self.absinfo = absinfo
        self.properties = properties
        self.udevProperties = udevProperties
        self.quirks = quirks
        self.hid = hid
        self.libinputCapabilities = libinputCapabilities
        self.libinputSize = libinputSize
        self.hasLibinputEvents = hasLibinputEvents
        self.deviceClass = deviceClass
        self.position = position
    }

    /// What the recording says of the device beside its `deviceAdded`: its name, node and
    /// ids, as the file gives them (a compositor tells clients of a tablet with them).
    public var deviceDescription: DeviceDescription {
        DeviceDescription(
            name: name, path: node, bus: identity?.bus ?? 0, vendor: identity?.vendor ?? 0,
            product: identity?.product ?? 0, version: identity?.version ?? 0)
    }

    /// Whether `codes` lists this code for this event type.
    public func supports(type: UInt16, code: UInt16) -> Bool { codes[type]?.contains(code) ?? false }
    /// Whether the device has this input property (`INPUT_PROP_DIRECT`, ...).
    public func hasProperty(_ property: UInt16) -> Bool { properties.contains(property) }
    /// The value of a udev property (`ID_INPUT_TOUCHPAD` gives "1"); nil when not recorded.
    public func udevProperty(_ key: String) -> String? {
        for line in udevProperties {
            let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2, parts[0] == key { return String(parts[1]) }
        }
        return nil
    }
}
