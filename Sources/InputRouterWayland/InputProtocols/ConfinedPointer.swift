// `zwp_confined_pointer_v1`: while `confined`, the cursor stays inside the region (the
// one given, intersected with the surface's input region); motion that would leave it
// stops at its nearest point.
import CWaylandProtocolsServer
import CWaylandServer
import InputRouter

final class ConfinedPointerObject: ConstraintObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpConfinedPointerV1Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource() // destroy
        case .setRegion(let region): setRegion(region) // set_region(region?)
        }
    }

    override func send(active: Bool) {
        if active {
            zwp_confined_pointer_v1_send_confined(resource)
        } else {
            zwp_confined_pointer_v1_send_unconfined(resource)
        }
    }
}
