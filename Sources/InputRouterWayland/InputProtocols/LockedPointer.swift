// `zwp_locked_pointer_v1`: while `locked`, the cursor does not move and the surface gets
// motion only as relative motion. On unlock (the client destroys the lock, or the escape
// breaks it) the cursor goes to the committed position hint, if the surface still has
// the pointer.
import CWaylandProtocolsServer
import CWaylandServer
import InputRouter

final class LockedPointerObject: ConstraintObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpLockedPointerV1Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource() // destroy
        // set_cursor_position_hint(x, y)
        case .setCursorPositionHint(let surfaceX, let surfaceY): pendingHint = Point(surfaceX, surfaceY)
        case .setRegion(let region): setRegion(region) // set_region(region?)
        }
    }

    override func send(active: Bool) {
        if active { zwp_locked_pointer_v1_send_locked(resource) } else { zwp_locked_pointer_v1_send_unlocked(resource) }
    }
}
