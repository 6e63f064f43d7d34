// `zwp_tablet_manager_v2` (tablet-unstable-v2): drawing tablets and their tools. A client
// asks for a tablet seat; the server announces on it every tablet present (`tablet_added`,
// then `done`), every tool seen so far (`tool_added` with its type, hardware serial and
// capabilities, then `done`), and later each tablet plugged in and each tool the first
// time it comes into proximity. The core decides where a tool's events go
// (Seat+Tablet.swift: proximity and tip focus per tool, like a touch point); this layer
// only turns its deliveries into `zwp_tablet_tool_v2` events (Tablet+Delivery.swift).
//
// Pads (`zwp_tablet_pad_v2`, TabletPad.swift) are announced on every tablet seat too.
//
// Per seat (docs/wayland.md, "Several seats"): a tablet seat belongs to the `wl_seat` it was
// made from. Each seat has its own registry (`SeatServices.tablets`) and each client its
// own objects per seat (`ClientSeatState.tablet`), both found by seat index; a tablet or pad
// of one seat is announced, fed and removed only on that seat's tablet seats.
import CWaylandProtocolsServer
import CWaylandServer
import InputRouter

final class TabletManagerObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpTabletManagerV2Request = decode(opcode, args) else { return }
        switch request {
        case .getTabletSeat(let tabletSeat, let seat): // get_tablet_seat(tablet_seat, seat)
            let index = server.seatIndex(from: seat.object(as: SeatObject.self))
            guard
                let seat = server.createObject(
                    .zwpTabletSeatV2, client: owner, version: version, id: tabletSeat,
                    {
                        TabletSeatObject(server: server, owner: owner, resource: $0, seatIndex: index)
                    })
            else { return }
            server.tabletSeatCreated(seat.resource, owner, seat: index)
        case .destroy: destroyResource()
        }
    }
}

/// A tablet-unstable-v2 object of one seat: every object made from a tablet seat belongs to
/// that seat's `wl_seat`, and its owner's records of it are that seat's.
class TabletSeatBoundObject: WaylandObject {
    let seatIndex: Int

    init(server: WaylandServer, owner: ClientState, resource: ResourcePointer, seatIndex: Int) {
        self.seatIndex = seatIndex
        super.init(server: server, owner: owner, resource: resource)
    }

    /// The owner's records on this object's seat (its tablet objects there).
    var seatState: ClientSeatState { owner.onSeat(seatIndex) }
}

/// `zwp_tablet_seat_v2`: its one request is `destroy`; the tablets and tools it announced live on.
final class TabletSeatObject: TabletSeatBoundObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpTabletSeatV2Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource()
        }
    }

    override func resourceDestroyed() { server.tabletSeatDestroyed(resource, owner, seat: seatIndex) }
}

/// `zwp_tablet_v2`, made by the server in `tablet_added`: its one request is `destroy`.
final class TabletObject: TabletSeatBoundObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpTabletV2Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource()
        }
    }

    override func resourceDestroyed() { seatState.tablet.tablets.removeAll { $0.resource == resource } }
}

/// `zwp_tablet_tool_v2`, made by the server in `tool_added`. `set_cursor` is accepted and
/// not shown (the server draws no cursor of its own for tools); a cursor shape is checked
/// and kept (CursorShape.swift), and not shown either.
final class TabletToolObject: TabletSeatBoundObject {
    /// The shape its client chose for this tool (`wp_cursor_shape_device_v1.set_shape`).
    var cursor: ChosenCursor?

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpTabletToolV2Request = decode(opcode, args) else { return }
        switch request {
        case .setCursor: break // a tool's cursor is chosen with wp_cursor_shape_device_v1
        case .destroy: destroyResource()
        }
    }

    /// Whether a request citing `serial` may choose this tool's cursor: the seat's newest
    /// tool `proximity_in`, sent to this client.
    func mayChooseCursor(citing serial: UInt32) -> Bool {
        server.routerSeat(seatIndex).serialEntry(serial, client: owner.id, for: .setToolCursor) != nil
    }

    override func resourceDestroyed() {
        seatState.tablet.tools.removeAll { $0.resource == resource }
        seatState.tablet.framePending.removeAll { $0 == resource }
    }
}

/// The tablets and tools one seat has, for every client alike (`SeatServices.tablets`).
struct TabletRegistry {
    /// Devices with the tablet-tool capability, in the order they were added.
    var tablets: [DeviceID] = []
    /// Tools seen in proximity, announced to every tablet seat. A tool with a hardware
    /// serial is the same tool on any tablet; one without is one per tablet and type.
    var tools: [(tool: TabletTool, device: DeviceID)] = []
    /// The tool in proximity of each tablet (index into `tools`).
    var current: [(device: DeviceID, tool: Int)] = []
    /// Pads whose layout arrived (`tabletPadAdded`), in that order (TabletPad.swift).
    var pads: [DeviceID] = []

    func toolIndex(_ tool: TabletTool, device: DeviceID) -> Int? {
        tools.firstIndex {
            $0.tool.type == tool.type
                && (tool.serial != 0 ? $0.tool.serial == tool.serial : $0.tool.serial == 0 && $0.device == device)
        }
    }

    func currentTool(_ device: DeviceID) -> Int? {
        for c in current where c.device == device { return c.tool }
        return nil
    }
}

/// A client's tablet objects on one seat (`ClientSeatState.tablet`): per tablet seat made
/// from that seat's `wl_seat`, one `zwp_tablet_v2` per tablet and one `zwp_tablet_tool_v2`
/// per tool of the seat.
struct ClientTablet {
    var seats: [ResourcePointer] = []
    var tablets: [(device: DeviceID, seat: ResourcePointer, resource: ResourcePointer)] = []
    var tools: [(index: Int, seat: ResourcePointer, resource: ResourcePointer)] = []
    /// Tool objects sent events since their last `frame`.
    var framePending: [ResourcePointer] = []
    /// Pad objects, per tablet seat and pad (TabletPad.swift).
    var pads: [ClientPad] = []
}
