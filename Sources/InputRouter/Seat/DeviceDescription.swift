// What a source knows of a device besides its capabilities: the name it gives itself, its
// device node and sysfs path, and its bus and USB ids: what a compositor tells clients of
// the device (a tablet's `name`, `id` and `path`, a pad's `path`).
//
// It travels beside the event stream, never inside it: `InputEvent` stays a small trivial
// value (copying one never retains, and `deviceAdded` carries only capabilities). As with
// wlroots' `new_input`, whoever announces a device hands its description to the seat in
// the call that routes the `deviceAdded` (`Seat.handle(_:description:)`,
// `Seat.notifyDeviceAdded(_:capabilities:description:)`), and the seat's device table owns
// it from then until the device's `deviceRemoved` (Seat+DeviceDescriptions.swift). A
// source keeps the descriptions of its own devices by id (a `Recording`'s `descriptions`,
// `Replayer.description(of:)`, `LibinputSource.description(of:)`). No table is shared
// between seats or sources, and nothing depends on the clock.

/// A device as its source describes it: what a compositor tells clients about it.
public struct DeviceDescription: Hashable, Sendable {
    /// The name the device gives itself ("Wacom Intuos5 M Pen"); empty when unknown.
    public var name: String
    /// Its device node (`/dev/input/event4`), when it has one.
    public var path: String?
    /// Its sysfs path (`/sys/devices/.../input/input12/event4`), when the source knows it.
    public var sysPath: String?
    /// The bus type (`BUS_USB` = 3), 0 when unknown.
    public var bus: UInt32
    /// The USB (or Bluetooth) vendor id (0x056a), 0 when unknown.
    public var vendor: UInt32
    /// The product id (0x002a), 0 when unknown.
    public var product: UInt32
    /// The device's version number, 0 when unknown.
    public var version: UInt32

    /// A description; what the source does not know stays empty or 0.
    public init(
        name: String = "", path: String? = nil, sysPath: String? = nil, bus: UInt32 = 0, vendor: UInt32 = 0,
        product: UInt32 = 0, version: UInt32 = 0
    ) {
        self.name = name
        self.path = path
        self.sysPath = sysPath
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
    }

    /// Whether the vendor or product id is known (a tablet announces `id` only then).
    public var hasHardwareID: Bool { vendor != 0 || product != 0 }
}
