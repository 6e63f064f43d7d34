// `zwp_tablet_pad_v2` and its groups, rings and strips (tablet-unstable-v2). Each tablet
// seat is told of every pad present (`pad_added`, then its path, button count, one
// `zwp_tablet_pad_group_v2` per mode group with its buttons, rings, strips and number of
// modes, and `done`). The core decides where a pad's events go (Seat+Pad.swift: to the
// keyboard focus, with enter, leave and mode switches); Pad+Delivery.swift turns its
// deliveries into events on these objects. `set_feedback` is accepted: the server shows
// no on-screen help of its own.
import CWaylandServer
import CXdgShellServer
import InputRouter

/// `zwp_tablet_pad_v2`: `set_feedback` (accepted, nothing shown) and `destroy`.
final class TabletPadObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        if opcode == 1 { destroyResource() }  // 0 is set_feedback(button, description, serial)
    }

    override func resourceDestroyed() { owner.tablet.pads.removeAll { $0.resource == resource } }
}

/// `zwp_tablet_pad_group_v2`: its one request is `destroy`.
final class TabletPadGroupObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        if opcode == 0 { destroyResource() }
    }

    override func resourceDestroyed() {
        for i in owner.tablet.pads.indices {
            for g in owner.tablet.pads[i].groups.indices where owner.tablet.pads[i].groups[g] == resource {
                owner.tablet.pads[i].groups[g] = nil
            }
        }
    }
}

/// `zwp_tablet_pad_ring_v2` and `zwp_tablet_pad_strip_v2`: `set_feedback` (accepted) and `destroy`.
final class TabletPadControlObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        if opcode == 1 { destroyResource() }  // 0 is set_feedback(description, serial)
    }

    override func resourceDestroyed() {
        for i in owner.tablet.pads.indices {
            for r in owner.tablet.pads[i].rings.indices where owner.tablet.pads[i].rings[r] == resource {
                owner.tablet.pads[i].rings[r] = nil
            }
            for s in owner.tablet.pads[i].strips.indices where owner.tablet.pads[i].strips[s] == resource {
                owner.tablet.pads[i].strips[s] = nil
            }
        }
    }
}

/// One client's objects for one pad on one tablet seat. Rings and strips are indexed by
/// the pad's ring and strip numbers, groups by group index; nil once the client destroyed
/// one (or for one in no group).
struct ClientPad {
    var device: DeviceID
    var seat: ResourcePointer
    var resource: ResourcePointer
    var groups: [ResourcePointer?]
    var rings: [ResourcePointer?]
    var strips: [ResourcePointer?]
    /// The surface it was sent `enter` for: a leave goes only where an enter went.
    var entered: ResourcePointer?
}

extension WaylandServer {
    /// A pad's layout arrived (after its deviceAdded): every tablet seat learns of it, or
    /// again with the new layout (the old objects are removed first).
    func tabletPadAdded(_ device: DeviceID, _ layout: TabletPadLayout) {
        if tablets.pads.contains(device) { padDeviceRemoved(device) }
        tablets.pads.append(device)
        for c in clientsByID.compactMap({ $0 }) where c.alive {
            for s in c.tablet.seats { announcePad(device, layout, on: s, c) }
        }
    }

    /// A tablet seat was made: it is told of the pads present.
    func announcePads(on seatResource: ResourcePointer, _ c: ClientState) {
        for device in tablets.pads {
            if let layout = seat.padLayout(device) { announcePad(device, layout, on: seatResource, c) }
        }
    }

    /// The pad went: its objects get `removed` (after the core's leave was sent).
    func padDeviceRemoved(_ device: DeviceID) {
        guard let k = tablets.pads.firstIndex(of: device) else { return }
        tablets.pads.remove(at: k)
        for c in clientsByID.compactMap({ $0 }) where c.alive {
            for p in c.tablet.pads where p.device == device { zwp_tablet_pad_v2_send_removed(p.resource) }
            c.tablet.pads.removeAll { $0.device == device }
        }
    }

    private func announcePad(_ device: DeviceID, _ layout: TabletPadLayout, on seatResource: ResourcePointer, _ c: ClientState) {
        let version = wl_resource_get_version(seatResource)
        guard let pad = createObject("zwp_tablet_pad_v2", client: c, version: version, id: 0, {
            TabletPadObject(server: self, owner: c, resource: $0)
        }) else { return }
        var entry = ClientPad(device: device, seat: seatResource, resource: pad.resource, groups: [],
                              rings: Array(repeating: nil, count: Int(layout.ringCount)),
                              strips: Array(repeating: nil, count: Int(layout.stripCount)))
        zwp_tablet_seat_v2_send_pad_added(seatResource, pad.resource)
        if let path = devicePaths[device] { zwp_tablet_pad_v2_send_path(pad.resource, path) }
        if layout.buttonCount > 0 { zwp_tablet_pad_v2_send_buttons(pad.resource, UInt32(layout.buttonCount)) }
        for group in layout.groups {
            guard let g = createObject("zwp_tablet_pad_group_v2", client: c, version: version, id: 0, {
                TabletPadGroupObject(server: self, owner: c, resource: $0)
            }) else { return }
            entry.groups.append(g.resource)
            zwp_tablet_pad_v2_send_group(pad.resource, g.resource)
            withWaylandArray(group.buttons) { zwp_tablet_pad_group_v2_send_buttons(g.resource, $0) }
            for ring in group.rings {
                guard let r = createObject("zwp_tablet_pad_ring_v2", client: c, version: version, id: 0, {
                    TabletPadControlObject(server: self, owner: c, resource: $0)
                }) else { return }
                entry.rings[Int(ring)] = r.resource
                zwp_tablet_pad_group_v2_send_ring(g.resource, r.resource)
            }
            for strip in group.strips {
                guard let s = createObject("zwp_tablet_pad_strip_v2", client: c, version: version, id: 0, {
                    TabletPadControlObject(server: self, owner: c, resource: $0)
                }) else { return }
                entry.strips[Int(strip)] = s.resource
                zwp_tablet_pad_group_v2_send_strip(g.resource, s.resource)
            }
            if group.modes > 1 { zwp_tablet_pad_group_v2_send_modes(g.resource, group.modes) }
            zwp_tablet_pad_group_v2_send_done(g.resource)
        }
        zwp_tablet_pad_v2_send_done(pad.resource)
        c.tablet.pads.append(entry)
    }
}
