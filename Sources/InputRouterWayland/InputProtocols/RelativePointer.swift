// `zwp_relative_pointer_manager_v1` and `zwp_relative_pointer_v1` (relative-pointer): a
// client that holds one gets every pointer motion's deltas (accelerated and not, with a
// microsecond timestamp) at its surface with the pointer focus, just before the absolute
// motion and in the same `wl_pointer.frame`; while its pointer is locked, only these. The
// core decides who gets them (Seat+Constraints.swift): a client's surfaces take them from
// its first relative pointer until its last is destroyed. A relative pointer belongs to the
// seat of the `wl_pointer` it was made for, and gets that seat's motion only.
import CWaylandProtocolsServer
import CWaylandServer
import InputRouter

final class RelativePointerManagerObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpRelativePointerManagerV1Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource() // relative pointers made with the manager live on
        case .getRelativePointer(let id, let pointer): // get_relative_pointer(id, pointer)
            let seatIndex = pointer.object(as: PointerObject.self)?.seatIndex ?? 0
            guard
                let pointer = server.createObject(
                    .zwpRelativePointerV1, client: owner, version: version, id: id,
                    {
                        RelativePointerObject(server: server, owner: owner, resource: $0, seatIndex: seatIndex)
                    })
            else { return }
            owner.onSeat(seatIndex).relativePointers.append(pointer.resource)
            server.router.seats[seatIndex].setBound(.relativePointer, for: owner.id, true)
        }
    }
}

final class RelativePointerObject: WaylandObject {
    let seatIndex: Int

    init(server: WaylandServer, owner: ClientState, resource: ResourcePointer, seatIndex: Int) {
        self.seatIndex = seatIndex
        super.init(server: server, owner: owner, resource: resource)
    }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpRelativePointerV1Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource() // destroy
        }
    }

    override func resourceDestroyed() {
        let onSeat = owner.onSeat(seatIndex)
        onSeat.relativePointers.removeAll { $0 == resource }
        if owner.alive, onSeat.relativePointers.isEmpty {
            server.router.seats[seatIndex].setBound(.relativePointer, for: owner.id, false)
        }
    }
}

extension WaylandServer {
    /// `relative_motion` to each of the client's relative pointers on seat `index`.
    func sendRelativeMotion(to node: NodeID, seat index: Int, time: UInt64, _ m: RelativeMotion) {
        guard let s = surface(for: node), s.owner.alive else { return }
        let hi = UInt32(truncatingIfNeeded: time >> 32)
        let lo = UInt32(truncatingIfNeeded: time)
        for r in s.owner.onSeat(index).relativePointers {
            zwp_relative_pointer_v1_send_relative_motion(
                r, hi, lo, wl_fixed_from_double(m.dx), wl_fixed_from_double(m.dy),
                wl_fixed_from_double(m.unacceleratedDX), wl_fixed_from_double(m.unacceleratedDY))
        }
    }
}
