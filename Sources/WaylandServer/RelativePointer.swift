// `zwp_relative_pointer_manager_v1` and `zwp_relative_pointer_v1` (relative-pointer): a
// client that holds one gets every pointer motion's deltas (accelerated and not, with a
// microsecond timestamp) at its surface with the pointer focus, just before the absolute
// motion and in the same `wl_pointer.frame`; while its pointer is locked, only these. The
// core decides who gets them (Seat+Constraints.swift): a client's surfaces take them from
// its first relative pointer until its last is destroyed.
import CWaylandServer
import CXdgShellServer
import InputRouter

final class RelativePointerManagerObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        switch opcode {
        case 0: destroyResource()  // relative pointers made with the manager live on
        case 1:  // get_relative_pointer(id, pointer)
            guard let pointer = server.createObject(
                "zwp_relative_pointer_v1", client: owner, version: version, id: args.newID(0), {
                    RelativePointerObject(server: server, owner: owner, resource: $0)
                })
            else { return }
            owner.relativePointers.append(pointer.resource)
            server.seat.setBound(.relativePointer, for: owner.id, true)
        default: break
        }
    }
}

final class RelativePointerObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        if opcode == 0 { destroyResource() }  // destroy
    }

    override func resourceDestroyed() {
        owner.relativePointers.removeAll { $0 == resource }
        if owner.alive, owner.relativePointers.isEmpty { server.seat.setBound(.relativePointer, for: owner.id, false) }
    }
}

extension WaylandServer {
    /// `relative_motion` to each of the client's relative pointers.
    func sendRelativeMotion(to node: NodeID, time: UInt64, _ m: RelativeMotion) {
        guard let s = surface(for: node), s.owner.alive else { return }
        let hi = UInt32(truncatingIfNeeded: time >> 32), lo = UInt32(truncatingIfNeeded: time)
        for r in s.owner.relativePointers {
            zwp_relative_pointer_v1_send_relative_motion(
                r, hi, lo, wl_fixed_from_double(m.dx), wl_fixed_from_double(m.dy),
                wl_fixed_from_double(m.unacceleratedDX), wl_fixed_from_double(m.unacceleratedDY))
        }
    }
}
