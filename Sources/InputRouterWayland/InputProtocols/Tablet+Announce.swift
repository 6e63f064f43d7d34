// The announcements of tablet-unstable-v2: tablets and tools appear on each tablet seat
// before any event of theirs (TabletManager.swift).
import CWaylandProtocolsServer
import CWaylandServer
import InputRouter

extension WaylandServer {
    /// A tablet seat of seat `index` was made: it is told of that seat's tablets, tools and
    /// pads, and the client now takes tablet events on that seat.
    func tabletSeatCreated(_ seatResource: ResourcePointer, _ c: ClientState, seat index: Int) {
        let mine = c.onSeat(index)
        mine.tablet.seats.append(seatResource)
        if mine.tablet.seats.count == 1 { router.seats[index].setBound([.tablet], for: c.id, true) }
        let registry = services(index).tablets
        for device in registry.tablets { announceTablet(device, on: seatResource, c, seat: index) }
        for i in registry.tools.indices { announceTool(i, on: seatResource, c, seat: index) }
        announcePads(on: seatResource, c, seat: index) // TabletPad.swift
    }

    func tabletSeatDestroyed(_ seatResource: ResourcePointer, _ c: ClientState, seat index: Int) {
        let mine = c.onSeat(index)
        mine.tablet.seats.removeAll { $0 == seatResource }
        if mine.tablet.seats.isEmpty, c.alive { router.seats[index].setBound([.tablet], for: c.id, false) }
    }

    /// Routes a device added (with its source's `description`) or removed, or a pad's
    /// layout, on `seat`, keeping the seat's tablets and pads announced in step: a tablet is
    /// announced (with the name, id and path of the description the seat now keeps) before
    /// the core's first delivery of it goes out, a pad's layout before its enter, and a
    /// removed pad's objects go after its leave was sent.
    func routeDeviceChange(_ event: InputEvent, _ description: DeviceDescription?, on seat: Seat) {
        let index = Int(seat.id.index)
        seat.handle(event, description: description)
        if case .deviceAdded(let caps) = event.kind, caps.contains(.tabletTool) {
            tabletDeviceAdded(event.device, seat: index)
        }
        if case .tabletPadAdded(let layout) = event.kind { tabletPadAdded(event.device, layout, seat: index) }
        if case .deviceRemoved = event.kind { tabletDeviceRemoved(event.device, seat: index) }
        sendDeliveries()
        if case .deviceRemoved = event.kind { padDeviceRemoved(event.device, seat: index) } // TabletPad.swift
    }

    /// A device with the tablet-tool capability was added on seat `index`: that seat's
    /// tablet seats learn of it.
    func tabletDeviceAdded(_ device: DeviceID, seat index: Int) {
        let services = services(index)
        guard !services.tablets.tablets.contains(device) else { return }
        services.tablets.tablets.append(device)
        forEachTabletSeat(index) { s, c in announceTablet(device, on: s, c, seat: index) }
    }

    /// The tablet went from seat `index`: its objects there get `removed`, and so do the
    /// tools known only through it (those without a hardware serial).
    func tabletDeviceRemoved(_ device: DeviceID, seat index: Int) {
        let services = services(index)
        guard let k = services.tablets.tablets.firstIndex(of: device) else { return }
        services.tablets.tablets.remove(at: k)
        services.tablets.current.removeAll { $0.device == device }
        let tools = services.tablets.tools
        let onlyThrough = { (i: Int) in tools[i].device == device && tools[i].tool.serial == 0 }
        for c in clientsByID.compactMap({ $0 }) where c.alive && index < c.seatStates.count {
            let mine = c.seatStates[index]
            for t in mine.tablet.tablets where t.device == device { zwp_tablet_v2_send_removed(t.resource) }
            mine.tablet.tablets.removeAll { $0.device == device }
            for t in mine.tablet.tools where onlyThrough(t.index) { zwp_tablet_tool_v2_send_removed(t.resource) }
            mine.tablet.tools.removeAll { onlyThrough($0.index) }
        }
    }

    /// The index of `tool` in seat `index`'s registry; a tool seen there for the first time
    /// is announced to that seat's tablet seats first.
    func tabletToolIndex(_ tool: TabletTool, device: DeviceID, seat index: Int) -> Int {
        let services = services(index)
        if let i = services.tablets.toolIndex(tool, device: device) { return i }
        services.tablets.tools.append((tool, device))
        let i = services.tablets.tools.count - 1
        forEachTabletSeat(index) { s, c in announceTool(i, on: s, c, seat: index) }
        return i
    }

    /// Every live client's tablet seats made from seat `index`'s `wl_seat`.
    func forEachTabletSeat(_ index: Int, _ body: (ResourcePointer, ClientState) -> Void) {
        for c in clientsByID.compactMap({ $0 }) where c.alive && index < c.seatStates.count {
            for s in c.seatStates[index].tablet.seats { body(s, c) }
        }
    }

    private func announceTablet(_ device: DeviceID, on seatResource: ResourcePointer, _ c: ClientState, seat index: Int)
    {
        guard
            let t = createObject(
                .zwpTabletV2, client: c, version: wl_resource_get_version(seatResource), id: 0,
                {
                    TabletObject(server: self, owner: c, resource: $0, seatIndex: index)
                })
        else { return }
        c.onSeat(index).tablet.tablets.append((device, seatResource, t.resource))
        zwp_tablet_seat_v2_send_tablet_added(seatResource, t.resource)
        // What the tablet's source said of it with its deviceAdded, kept by the seat (GTK
        // names its devices after `name`, and gives `id` as their vendor and product).
        if let d = router.seats[index].deviceDescription(of: device) {
            if !d.name.isEmpty { zwp_tablet_v2_send_name(t.resource, d.name) }
            if d.hasHardwareID { zwp_tablet_v2_send_id(t.resource, d.vendor, d.product) }
            if let path = d.path { zwp_tablet_v2_send_path(t.resource, path) }
        }
        zwp_tablet_v2_send_done(t.resource)
    }

    private func announceTool(_ i: Int, on seatResource: ResourcePointer, _ c: ClientState, seat index: Int) {
        guard
            let t = createObject(
                .zwpTabletToolV2, client: c, version: wl_resource_get_version(seatResource), id: 0,
                {
                    TabletToolObject(server: self, owner: c, resource: $0, seatIndex: index)
                })
        else { return }
        c.onSeat(index).tablet.tools.append((i, seatResource, t.resource))
        let tool = services(index).tablets.tools[i].tool
        zwp_tablet_seat_v2_send_tool_added(seatResource, t.resource)
        zwp_tablet_tool_v2_send_type(t.resource, Self.protocolToolType(tool.type))
        if tool.serial != 0 {
            zwp_tablet_tool_v2_send_hardware_serial(
                t.resource, UInt32(truncatingIfNeeded: tool.serial >> 32), UInt32(truncatingIfNeeded: tool.serial))
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
        (.tilt, ZWP_TABLET_TOOL_V2_CAPABILITY_TILT.rawValue),
        (.pressure, ZWP_TABLET_TOOL_V2_CAPABILITY_PRESSURE.rawValue),
        (.distance, ZWP_TABLET_TOOL_V2_CAPABILITY_DISTANCE.rawValue),
        (.rotation, ZWP_TABLET_TOOL_V2_CAPABILITY_ROTATION.rawValue),
        (.slider, ZWP_TABLET_TOOL_V2_CAPABILITY_SLIDER.rawValue),
        (.wheel, ZWP_TABLET_TOOL_V2_CAPABILITY_WHEEL.rawValue),
    ]
}
