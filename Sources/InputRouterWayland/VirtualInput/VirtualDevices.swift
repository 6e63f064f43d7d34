// The devices clients create are devices of the core's seat, as libinput's are: a virtual
// keyboard's keys go through the same routing, and when it goes, what it held is released
// (the core's `notifyDeviceRemoved`). Their ids are the server's own range
// (VirtualDeviceIDs.swift), used again once their device is gone.
import CWaylandServer
import InputRouter

extension WaylandServer {
    /// Adds a device that can do `kinds` to seat `index` and returns its id. Every `wl_seat`
    /// of that seat is told the capabilities again, changed or not, as wlroots does for each
    /// new device: wtype 0.4 waits for an event after sending its keymap, and with a keyboard
    /// already present nothing else would come.
    func addVirtualDevice(_ kinds: DeviceCapabilities, seat index: Int) -> DeviceID {
        let device = virtualDeviceIDs.take()
        let seat = routerSeat(index)
        seat.notifyDeviceAdded(device, capabilities: kinds)
        updateCapabilities(of: seat, always: true)
        return device
    }

    /// Removes a device `addVirtualDevice` made: what it held is released (at `time`, on its
    /// client's clock), the deliveries are sent, and its id is free again.
    func removeVirtualDevice(_ device: DeviceID, seat index: Int, time: UInt64) {
        handle(InputEvent(time: time, device: device, .deviceRemoved), seat: routerSeat(index))
        virtualDeviceIDs.give(back: device)
    }
}
