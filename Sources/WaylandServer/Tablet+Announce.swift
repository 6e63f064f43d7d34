// The announcements of tablet-unstable-v2: tablets and tools appear on each tablet seat
// before any event of theirs (TabletManager.swift).
import CWaylandServer
import CXdgShellServer
import InputRouter

extension WaylandServer {
    func tabletSeatCreated(_ seatResource: ResourcePointer, _ c: ClientState) {
        c.tablet.seats.append(seatResource)
        if c.tablet.seats.count == 1 { seat.setBound([.tablet], for: c.id, true) }
        for device in tablets.tablets { announceTablet(device, on: seatResource, c) }
        for i in tablets.tools.indices { announceTool(i, on: seatResource, c) }
        announcePads(on: seatResource, c)  // TabletPad.swift
    }

    func tabletSeatDestroyed(_ seatResource: ResourcePointer, _ c: ClientState) {
        c.tablet.seats.removeAll { $0 == seatResource }
        if c.tablet.seats.isEmpty, c.alive { seat.setBound([.tablet], for: c.id, false) }
    }

    /// A device with the tablet-tool capability was added: every tablet seat learns of it.
    func tabletDeviceAdded(_ device: DeviceID) {
        guard !tablets.tablets.contains(device) else { return }
        tablets.tablets.append(device)
        forEachTabletSeat { s, c in announceTablet(device, on: s, c) }
    }

    /// The tablet went: its objects get `removed`, and so do the tools known only through it
    /// (those without a hardware serial).
    func tabletDeviceRemoved(_ device: DeviceID) {
        guard let k = tablets.tablets.firstIndex(of: device) else { return }
        tablets.tablets.remove(at: k)
        tablets.current.removeAll { $0.device == device }
        for c in clientsByID.compactMap({ $0 }) where c.alive {
            for t in c.tablet.tablets where t.device == device { zwp_tablet_v2_send_removed(t.resource) }
            c.tablet.tablets.removeAll { $0.device == device }
            for t in c.tablet.tools where tablets.tools[t.index].device == device && tablets.tools[t.index].tool.serial == 0 {
                zwp_tablet_tool_v2_send_removed(t.resource)
            }
            c.tablet.tools.removeAll { tablets.tools[$0.index].device == device && tablets.tools[$0.index].tool.serial == 0 }
        }
    }

    /// The index of `tool` in the registry; a tool seen for the first time is announced
    /// to every tablet seat first.
    func tabletToolIndex(_ tool: TabletTool, device: DeviceID) -> Int {
        if let i = tablets.toolIndex(tool, device: device) { return i }
        tablets.tools.append((tool, device))
        let i = tablets.tools.count - 1
        forEachTabletSeat { s, c in announceTool(i, on: s, c) }
        return i
    }

    private func forEachTabletSeat(_ body: (ResourcePointer, ClientState) -> Void) {
        for c in clientsByID.compactMap({ $0 }) where c.alive {
            for s in c.tablet.seats { body(s, c) }
        }
    }

    private func announceTablet(_ device: DeviceID, on seatResource: ResourcePointer, _ c: ClientState) {
        guard let t = createObject("zwp_tablet_v2", client: c, version: wl_resource_get_version(seatResource), id: 0, {
            TabletObject(server: self, owner: c, resource: $0)
        }) else { return }
        c.tablet.tablets.append((device, seatResource, t.resource))
        zwp_tablet_seat_v2_send_tablet_added(seatResource, t.resource)
        if let name = deviceNames[device] { zwp_tablet_v2_send_name(t.resource, name) }
        if let path = devicePaths[device] { zwp_tablet_v2_send_path(t.resource, path) }
        zwp_tablet_v2_send_done(t.resource)
    }

    private func announceTool(_ i: Int, on seatResource: ResourcePointer, _ c: ClientState) {
        guard let t = createObject("zwp_tablet_tool_v2", client: c, version: wl_resource_get_version(seatResource), id: 0, {
            TabletToolObject(server: self, owner: c, resource: $0)
        }) else { return }
        c.tablet.tools.append((i, seatResource, t.resource))
        let tool = tablets.tools[i].tool
        zwp_tablet_seat_v2_send_tool_added(seatResource, t.resource)
        zwp_tablet_tool_v2_send_type(t.resource, Self.protocolToolType(tool.type))
        if tool.serial != 0 {
            zwp_tablet_tool_v2_send_hardware_serial(t.resource, UInt32(truncatingIfNeeded: tool.serial >> 32), UInt32(truncatingIfNeeded: tool.serial))
        }
        for (cap, value) in Self.protocolCapabilities where tool.capabilities.contains(cap) {
            zwp_tablet_tool_v2_send_capability(t.resource, value)
        }
        zwp_tablet_tool_v2_send_done(t.resource)
    }

    /// tablet-unstable-v2 has no totem: one is announced as a mouse (a puck on the tablet).
    static func protocolToolType(_ type: TabletToolType) -> UInt32 {
        switch type {
        case .pen: ZWP_TABLET_TOOL_V2_TYPE_PEN.rawValue
        case .eraser: ZWP_TABLET_TOOL_V2_TYPE_ERASER.rawValue
        case .brush: ZWP_TABLET_TOOL_V2_TYPE_BRUSH.rawValue
        case .pencil: ZWP_TABLET_TOOL_V2_TYPE_PENCIL.rawValue
        case .airbrush: ZWP_TABLET_TOOL_V2_TYPE_AIRBRUSH.rawValue
        case .mouse, .totem: ZWP_TABLET_TOOL_V2_TYPE_MOUSE.rawValue
        case .lens: ZWP_TABLET_TOOL_V2_TYPE_LENS.rawValue
        }
    }

    static let protocolCapabilities: [(TabletToolCapabilities, UInt32)] = [
        (.tilt, ZWP_TABLET_TOOL_V2_CAPABILITY_TILT.rawValue), (.pressure, ZWP_TABLET_TOOL_V2_CAPABILITY_PRESSURE.rawValue),
        (.distance, ZWP_TABLET_TOOL_V2_CAPABILITY_DISTANCE.rawValue), (.rotation, ZWP_TABLET_TOOL_V2_CAPABILITY_ROTATION.rawValue),
        (.slider, ZWP_TABLET_TOOL_V2_CAPABILITY_SLIDER.rawValue), (.wheel, ZWP_TABLET_TOOL_V2_CAPABILITY_WHEEL.rawValue),
    ]
}
