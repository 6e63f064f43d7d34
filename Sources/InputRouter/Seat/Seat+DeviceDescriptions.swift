// A seat's device table of descriptions. The call that routes a device's `deviceAdded`
// hands the seat its description (DeviceDescription.swift); the seat keeps it until the
// device's `deviceRemoved`, a new `deviceAdded` of the same device, or the seat's end, and
// nothing else keeps it for the seat. Only device arrival and removal come here: the
// per-event path never reads the table.

extension Seat {
    /// What the source said of `device` when it was added; nil for a device not present or
    /// added without a description.
    public func deviceDescription(of device: DeviceID) -> DeviceDescription? { deviceDescriptions[device.index] }

    /// The present devices that came with a description, in no order.
    public var describedDevices: [DeviceID] { deviceDescriptions.keys.map { DeviceID($0) } }

    /// Routes `event`; when it is a `deviceAdded`, the seat keeps `description` for the
    /// device while it is present. For a source whose descriptions travel beside its events
    /// (a replay, libinput): device arrival is rare, so this is off the per-event path, but
    /// any event may go through it.
    public func handle(_ event: InputEvent, description: DeviceDescription?) {
        if case .deviceAdded(let capabilities) = event.kind {
            notifyDeviceAdded(event.device, capabilities: capabilities, description: description)
        } else {
            handle(event)
        }
    }
}
