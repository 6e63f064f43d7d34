// What a source knows of a device besides its capabilities: the name it gives itself, its
// device node and sysfs path, and its bus and USB ids. It travels with the device's
// `deviceAdded`, so whoever routes that event (the Wayland layer announcing a tablet's
// name, path and id) has it without a table of its own for the embedder to fill.
//
// `InputEvent` stays a trivial value (copying one never retains, and it stays the same
// size): the event carries a `DeviceDescription.Reference`, a number a process-wide
// catalogue hands out per distinct description. Equal descriptions get the same number, so
// a replayed or re-announced device does not grow the catalogue; it keeps each distinct
// description once (a few hundred bytes; a device replugged under a new sysfs path counts
// again). Device arrival is rare; nothing on the per-event path reads it.

import Synchronization

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
    public init(name: String = "", path: String? = nil, sysPath: String? = nil, bus: UInt32 = 0, vendor: UInt32 = 0,
                product: UInt32 = 0, version: UInt32 = 0) {
        self.name = name; self.path = path; self.sysPath = sysPath
        self.bus = bus; self.vendor = vendor; self.product = product; self.version = version
    }

    /// Whether the vendor or product id is known (a tablet announces `id` only then).
    public var hasHardwareID: Bool { vendor != 0 || product != 0 }

    /// This description's number in the catalogue, for a `deviceAdded` to carry.
    /// Allocates the first time a description is seen: at device arrival, never per event.
    public var reference: Reference { Self.catalogue.withLock { $0.reference(for: self) } }

    /// A trivial stand-in for a description, carried by `InputEvent.Kind.deviceAdded`.
    public struct Reference: Hashable, Sendable, CustomDebugStringConvertible {
        let number: UInt32
        /// No description: the source knows nothing beyond the capabilities.
        public static let none = Reference(number: 0)
        /// The description it stands for; nil for `.none`.
        public var resolved: DeviceDescription? {
            number == 0 ? nil : DeviceDescription.catalogue.withLock { $0.descriptions[Int(number) - 1] }
        }
        /// The description itself, so a failed comparison of events shows what differs.
        public var debugDescription: String { resolved.map { "\($0)" } ?? "none" }
    }

    private struct Catalogue {
        var descriptions: [DeviceDescription] = []
        var numbers: [DeviceDescription: UInt32] = [:]

        mutating func reference(for d: DeviceDescription) -> Reference {
            if let n = numbers[d] { return Reference(number: n) }
            descriptions.append(d)
            let n = UInt32(descriptions.count)
            numbers[d] = n
            return Reference(number: n)
        }
    }

    private static let catalogue = Mutex(Catalogue())
}

extension InputEvent {
    /// A `deviceAdded`'s description, when its source gave one; nil for every other event.
    public var deviceDescription: DeviceDescription? {
        if case .deviceAdded(_, let reference) = kind { return reference.resolved }
        return nil
    }
}
