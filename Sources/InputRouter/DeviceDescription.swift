// What a source knows of a device besides its capabilities: the name it gives itself, its
// device node and sysfs path, and its bus and USB ids. It travels with the device's
// `deviceAdded`, so whoever routes that event (the Wayland layer announcing a tablet's
// name, path and id) has it without a table of its own for the embedder to fill.
//
// `InputEvent` stays a trivial value (copying one never retains, and it stays the same
// size): the event carries a `DeviceDescription.Reference`, a number a process-wide
// catalogue hands out; equal descriptions share one while either is alive. The catalogue
// forgets a description once nothing refers to it (DeviceDescriptionCatalogue.swift):
//
// - `reference` hands one out *in flight*: the seat that routes the `deviceAdded` takes
//   it into its device table and lets it go at the device's `deviceRemoved` (or when the
//   seat goes). A hand-out no seat ever takes is kept until `inFlightLimit` later ones
//   were made and it is `inFlightGrace` (1 s) old, then dropped: a posted event nobody
//   routes costs a bounded amount (256 descriptions, plus those of the last second).
// - a `Hold` keeps a description while it lives: sources keep one per device present
//   (LibinputSource), readers one per device of the file they return (a `Recording`, a
//   `DebugEventsLog`, a `SyntheticLog`), a `Replayer` one per device it will announce.
//
// Nobody consuming events does anything: a seat takes and lets go by itself. So a
// compositor replugging devices under new sysfs paths, or a fuzzer reading files with
// random device names, leaves the catalogue as it found it. Device arrival is rare;
// nothing on the per-event path reads the catalogue.

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

    /// A number standing for this description, for one `deviceAdded` to carry. It is in
    /// flight until a seat routes that event (the seat then keeps the description while
    /// the device is present); one no seat takes resolves until `inFlightLimit` later
    /// hand-outs were made and it is `inFlightGrace` old. Make one per event posted: at
    /// device arrival, never per event.
    public var reference: Reference { DeviceDescriptionCatalogue.shared.withLock { $0.handOut(self) } }

    /// How many hand-outs no seat has taken yet are kept: past it, the oldest is dropped
    /// (its description forgotten unless something holds it), once `inFlightGrace` old.
    /// A few hundred bytes each.
    public static let inFlightLimit = 256
    /// How long a hand-out is kept at least, however many are made after it.
    public static let inFlightGrace = Duration.seconds(1)

    /// The descriptions the catalogue has now (held, in a seat's device table, or in
    /// flight), in no order: a diagnostic, e.g. for a test that it forgets.
    public static var catalogued: [DeviceDescription] { DeviceDescriptionCatalogue.shared.withLock { $0.descriptions } }

    /// A trivial stand-in for a description, carried by `InputEvent.Kind.deviceAdded`.
    /// Numbers are never reused while the catalogue runs (a `UInt32` counting up), so a
    /// stale one resolves to nil, never to another device's description.
    public struct Reference: Hashable, Sendable, CustomDebugStringConvertible {
        let number: UInt32
        /// No description: the source knows nothing beyond the capabilities.
        public static let none = Reference(number: 0)
        /// The description it stands for; nil for `.none`, and for one the catalogue forgot.
        public var resolved: DeviceDescription? {
            number == 0 ? nil : DeviceDescriptionCatalogue.shared.withLock { $0.description(self) }
        }
        /// The description itself, so a failed comparison of events shows what differs.
        public var debugDescription: String { resolved.map { "\($0)" } ?? "none" }
    }

    /// Keeps a description in the catalogue while it lives, so the references to it that
    /// events carry resolve (a source per device present, a reader per device of its file).
    public final class Hold: Sendable {
        /// The description's reference (not in flight: this hold keeps it).
        public let reference: Reference

        /// Holds `description`.
        public init(_ description: DeviceDescription) {
            reference = DeviceDescriptionCatalogue.shared.withLock { $0.hold(description) }
        }

        /// Holds what `reference` stands for; nil when it is `.none` or already forgotten.
        public init?(_ reference: Reference) {
            guard DeviceDescriptionCatalogue.shared.withLock({ $0.hold(reference) }) else { return nil }
            self.reference = reference
        }

        deinit { DeviceDescriptionCatalogue.shared.withLock { $0.release(reference) } }
    }

    /// One hold per distinct description the `deviceAdded` events of `events` carry (still
    /// catalogued): what a reader or a replay keeps while it lives. Reads every event once;
    /// for load time, not per event.
    public static func holds(of events: [InputEvent]) -> [Hold] {
        var seen = Set<Reference>()
        var holds: [Hold] = []
        for event in events {
            guard case .deviceAdded(_, let r) = event.kind, r != .none, seen.insert(r).inserted, let h = Hold(r) else { continue }
            holds.append(h)
        }
        return holds
    }
}

extension InputEvent {
    /// A `deviceAdded`'s description, when its source gave one; nil for every other event.
    public var deviceDescription: DeviceDescription? {
        if case .deviceAdded(_, let reference) = kind { return reference.resolved }
        return nil
    }
}
