// `zwp_locked_pointer_v1`: while `locked`, the cursor does not move and the surface gets
// motion only as relative motion. On unlock (the client destroys the lock, or the escape
// breaks it) the cursor goes to the committed position hint, if the surface still has
// the pointer.
import CWaylandServer
import CXdgShellServer
import InputRouter

final class LockedPointerObject: ConstraintObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        switch opcode {
        case 0: destroyResource()  // destroy
        case 1: pendingHint = Point(args.fixed(0), args.fixed(1))  // set_cursor_position_hint(x, y)
        case 2: setRegion(args, at: 0)  // set_region(region?)
        default: break
        }
    }

    override func send(active: Bool) {
        if active { zwp_locked_pointer_v1_send_locked(resource) } else { zwp_locked_pointer_v1_send_unlocked(resource) }
    }
}
