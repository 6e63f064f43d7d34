// A seat's device table of descriptions: a `deviceAdded` routed on the seat takes its
// description out of flight (DeviceDescriptionCatalogue.swift), and the device's removal
// lets it go. Only device arrival and removal come here.

extension Seat {
    /// What the source said of `device` (a present device's `deviceAdded` description).
    public func deviceDescription(of device: DeviceID) -> DeviceDescription? { deviceDescriptions[device] }
}

/// A seat's descriptions of its devices present: taken from their `deviceAdded`, let go at
/// their `deviceRemoved`, a new `deviceAdded` of the same device, or the seat's end.
final class DeviceDescriptionTable {
    private var held: [UInt32: (reference: DeviceDescription.Reference, description: DeviceDescription)] = [:]

    subscript(_ device: DeviceID) -> DeviceDescription? { held[device.index]?.description }

    func deviceAdded(_ device: DeviceID, _ reference: DeviceDescription.Reference) {
        deviceRemoved(device)
        guard reference != .none,
              let d = DeviceDescriptionCatalogue.shared.withLock({ $0.take(reference) }) else { return }
        held[device.index] = (reference, d)
    }

    func deviceRemoved(_ device: DeviceID) {
        guard let gone = held.removeValue(forKey: device.index) else { return }
        DeviceDescriptionCatalogue.shared.withLock { $0.release(gone.reference) }
    }

    deinit {
        let references = held.values.map(\.reference)
        DeviceDescriptionCatalogue.shared.withLock { c in for r in references { c.release(r) } }
    }
}
