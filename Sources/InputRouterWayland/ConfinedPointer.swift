// `zwp_confined_pointer_v1`: while `confined`, the cursor stays inside the region (the
// one given, intersected with the surface's input region); motion that would leave it
// stops at its nearest point.
import CWaylandServer
import CXdgShellServer
import InputRouter

final class ConfinedPointerObject: ConstraintObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        switch opcode {
        case 0: destroyResource()  // destroy
        case 1: setRegion(args, at: 0)  // set_region(region?)
        default: break
        }
    }

    override func send(active: Bool) {
        if active { zwp_confined_pointer_v1_send_confined(resource) } else { zwp_confined_pointer_v1_send_unconfined(resource) }
    }
}
