// `zwp_tablet_pad_v2` and its groups, rings and strips (tablet-unstable-v2). Each tablet
// seat is told of every pad present (`pad_added`, then its path, button count, one
// `zwp_tablet_pad_group_v2` per mode group with its buttons, rings, strips and number of
// modes, and `done`). The core decides where a pad's events go (Seat+Pad.swift: to the
// keyboard focus, with enter, leave and mode switches); Pad+Delivery.swift turns its
// deliveries into events on these objects. `set_feedback` is accepted: the server shows
// no on-screen help of its own. Pads are per seat as tablets are (TabletManager.swift): a
// pad of seat N is announced and removed only on the tablet seats of seat N's `wl_seat`.
import CWaylandProtocolsServer
import CWaylandServer
import InputRouter

/// `zwp_tablet_pad_v2`: `set_feedback` (accepted, nothing shown) and `destroy`.
final class TabletPadObject: TabletSeatBoundObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpTabletPadV2Request = decode(opcode, args) else { return }
        switch request {
        case .setFeedback: break // no feedback to show
        case .destroy: destroyResource()
        }
    }

    override func resourceDestroyed() { seatState.tablet.pads.removeAll { $0.resource == resource } }
}

/// `zwp_tablet_pad_group_v2`: its one request is `destroy`.
final class TabletPadGroupObject: TabletSeatBoundObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpTabletPadGroupV2Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource()
        }
    }

    override func resourceDestroyed() {
        let mine = seatState
        for i in mine.tablet.pads.indices {
            for g in mine.tablet.pads[i].groups.indices where mine.tablet.pads[i].groups[g] == resource {
                mine.tablet.pads[i].groups[g] = nil
            }
        }
    }
}

/// A pad's rings and strips: the same shape (a number within the pad, an object per
/// group, `source`, a value or `stop`, `frame`), two interfaces.
enum PadControlKind {
    case ring, strip

    var interface: UnsafePointer<wl_interface> { self == .ring ? .zwpTabletPadRingV2 : .zwpTabletPadStripV2 }
}

/// `zwp_tablet_pad_ring_v2` or `zwp_tablet_pad_strip_v2`: `set_feedback` (accepted) and `destroy`.
final class TabletPadControlObject: TabletSeatBoundObject {
    let kind: PadControlKind

    init(server: WaylandServer, owner: ClientState, resource: ResourcePointer, seatIndex: Int, kind: PadControlKind) {
        self.kind = kind
        super.init(server: server, owner: owner, resource: resource, seatIndex: seatIndex)
    }

    /// A ring's and a strip's requests are the same two, in the same order: the ring's enum
    /// decodes both.
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpTabletPadRingV2Request = decode(opcode, args) else { return }
        switch request {
        case .setFeedback: break // no feedback to show
        case .destroy: destroyResource()
        }
    }

    override func resourceDestroyed() {
        let mine = seatState
        for i in mine.tablet.pads.indices {
            for n in mine.tablet.pads[i][kind].indices where mine.tablet.pads[i][kind][n] == resource {
                mine.tablet.pads[i][kind][n] = nil
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

    /// Its ring or its strip objects.
    subscript(kind: PadControlKind) -> [ResourcePointer?] {
        get { kind == .ring ? rings : strips }
        set { if kind == .ring { rings = newValue } else { strips = newValue } }
    }
}

extension WaylandServer {
    /// A pad's layout arrived on seat `index` (after its deviceAdded): that seat's tablet
    /// seats learn of it, or again with the new layout (the old objects are removed first).
    func tabletPadAdded(_ device: DeviceID, _ layout: TabletPadLayout, seat index: Int) {
        let services = services(index)
        if services.tablets.pads.contains(device) { padDeviceRemoved(device, seat: index) }
        services.tablets.pads.append(device)
        forEachTabletSeat(index) { s, c in announcePad(device, layout, on: s, c, seat: index) }
    }

    /// A tablet seat of seat `index` was made: it is told of that seat's pads.
    func announcePads(on seatResource: ResourcePointer, _ c: ClientState, seat index: Int) {
        for device in services(index).tablets.pads {
            if let layout = router.seats[index].padLayout(device) {
                announcePad(device, layout, on: seatResource, c, seat: index)
            }
        }
    }

    /// The pad went from seat `index`: its objects there get `removed` (after the core's
    /// leave was sent).
    func padDeviceRemoved(_ device: DeviceID, seat index: Int) {
        let services = services(index)
        guard let k = services.tablets.pads.firstIndex(of: device) else { return }
        services.tablets.pads.remove(at: k)
        for c in clientsByID.compactMap({ $0 }) where c.alive && index < c.seatStates.count {
            let mine = c.seatStates[index]
            for p in mine.tablet.pads where p.device == device { zwp_tablet_pad_v2_send_removed(p.resource) }
            mine.tablet.pads.removeAll { $0.device == device }
        }
    }

    private func announcePad(
        _ device: DeviceID, _ layout: TabletPadLayout, on seatResource: ResourcePointer, _ c: ClientState,
        seat index: Int
    ) {
        let version = wl_resource_get_version(seatResource)
        guard
            let pad = createObject(
                .zwpTabletPadV2, client: c, version: version, id: 0,
                {
                    TabletPadObject(server: self, owner: c, resource: $0, seatIndex: index)
                })
        else { return }
        var entry = ClientPad(
            device: device, seat: seatResource, resource: pad.resource, groups: [],
            rings: Array(repeating: nil, count: Int(layout.ringCount)),
            strips: Array(repeating: nil, count: Int(layout.stripCount)))
        zwp_tablet_seat_v2_send_pad_added(seatResource, pad.resource)
        if let path = router.seats[index].deviceDescription(of: device)?.path {
            zwp_tablet_pad_v2_send_path(pad.resource, path)
        }
        if layout.buttonCount > 0 { zwp_tablet_pad_v2_send_buttons(pad.resource, UInt32(layout.buttonCount)) }
        for group in layout.groups {
            guard
                let g = createObject(
                    .zwpTabletPadGroupV2, client: c, version: version, id: 0,
                    {
                        TabletPadGroupObject(server: self, owner: c, resource: $0, seatIndex: index)
                    })
            else { return }
            entry.groups.append(g.resource)
            zwp_tablet_pad_v2_send_group(pad.resource, g.resource)
            withWaylandArray(group.buttons) { zwp_tablet_pad_group_v2_send_buttons(g.resource, $0) }
            for (kind, numbers) in [(PadControlKind.ring, group.rings), (.strip, group.strips)] {
                for n in numbers {
                    guard
                        let r = createObject(
                            kind.interface, client: c, version: version, id: 0,
                            {
                                TabletPadControlObject(
                                    server: self, owner: c, resource: $0, seatIndex: index, kind: kind)
                            })
                    else { return }
                    entry[kind][Int(n)] = r.resource
                    if kind == .ring {
                        zwp_tablet_pad_group_v2_send_ring(g.resource, r.resource)
                    } else {
                        zwp_tablet_pad_group_v2_send_strip(g.resource, r.resource)
                    }
                }
            }
            if group.modes > 1 { zwp_tablet_pad_group_v2_send_modes(g.resource, group.modes) }
            zwp_tablet_pad_group_v2_send_done(g.resource)
        }
        zwp_tablet_pad_v2_send_done(pad.resource)
        c.onSeat(index).tablet.pads.append(entry)
    }
}
