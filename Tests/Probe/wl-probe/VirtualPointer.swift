// wlr-virtual-pointer in the test client: the probe drives a virtual pointer, as a remote
// desktop or wlrctl does, from stdin commands (each answered "done COMMAND" once the server
// has processed it). One virtual pointer at a time; each request's time is a counter from 1.
//
//   vpointer create [seat] [output oN]   create_virtual_pointer (null seat), or with `seat`
//                                        the probe's wl_seat; with `output oN` (needs
//                                        --outputs) create_virtual_pointer_with_output
//   vpointer motion DX DY [COUNT]        relative motion (wl_fixed), COUNT requests of it
//   vpointer absolute X Y XEXT YEXT      absolute motion
//   vpointer button CODE pressed|released|N
//   vpointer axis AXIS VALUE / vpointer discrete AXIS VALUE STEPS / vpointer stop AXIS
//   vpointer source N                    axis_source (raw numbers: errors are tested too)
//   vpointer frame / vpointer destroy
import CWaylandClient
import CWaylandProtocolsClient
import Foundation

var virtualPointerManager: OpaquePointer?
var virtualPointer: OpaquePointer?
var virtualPointerTime: UInt32 = 0

func bindVirtualPointerManager(_ registry: OpaquePointer?, _ name: UInt32, _ version: UInt32) {
    virtualPointerManager = bind(registry, name, "zwlr_virtual_pointer_manager_v1", min(version, 2))
}

/// A `vpointer` command; false when the line is not one.
func runVirtualPointerCommand(_ words: [String]) -> Bool {
    guard words.count >= 2, words[0] == "vpointer" else { return false }
    func number(_ i: Int) -> Double {
        guard i < words.count, let v = Double(words[i]) else { fail("vpointer \(words[1]): a number expected") }
        return v
    }
    func uint(_ i: Int) -> UInt32 {
        guard i < words.count, let v = UInt32(words[i]) else { fail("vpointer \(words[1]): a whole number expected") }
        return v
    }
    if words[1] == "create" {
        guard let manager = virtualPointerManager else { fail("the server lacks zwlr_virtual_pointer_manager_v1") }
        let onSeat = words.contains("seat") ? seat : nil
        if let k = words.firstIndex(of: "output") {
            guard k + 1 < words.count, let output = probeOutputs.first(where: { $0.label == words[k + 1] }) else {
                fail("vpointer create output oN: no such output (--outputs binds them)")
            }
            virtualPointer = zwlr_virtual_pointer_manager_v1_create_virtual_pointer_with_output(
                manager, onSeat, output.proxy)
        } else {
            virtualPointer = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(manager, onSeat)
        }
        return true
    }
    guard let pointer = virtualPointer else { fail("vpointer \(words[1]) before vpointer create") }
    virtualPointerTime += 1
    let t = virtualPointerTime
    switch words[1] {
    case "motion":
        // An optional count: that many requests at once (a client that never frames).
        for k in 0..<(words.count > 4 ? uint(4) : 1) {
            zwlr_virtual_pointer_v1_motion(
                pointer, t &+ k, wl_fixed_from_double(number(2)), wl_fixed_from_double(number(3)))
        }
    case "absolute": zwlr_virtual_pointer_v1_motion_absolute(pointer, t, uint(2), uint(3), uint(4), uint(5))
    case "button":
        let state: UInt32 =
            words.count > 3 && words[3] == "pressed" ? 1 : words.count > 3 && words[3] == "released" ? 0 : uint(3)
        zwlr_virtual_pointer_v1_button(pointer, t, uint(2), state)
    case "axis": zwlr_virtual_pointer_v1_axis(pointer, t, uint(2), wl_fixed_from_double(number(3)))
    case "discrete":
        zwlr_virtual_pointer_v1_axis_discrete(pointer, t, uint(2), wl_fixed_from_double(number(3)), Int32(number(4)))
    case "stop": zwlr_virtual_pointer_v1_axis_stop(pointer, t, uint(2))
    case "source": zwlr_virtual_pointer_v1_axis_source(pointer, uint(2))
    case "frame": zwlr_virtual_pointer_v1_frame(pointer)
    case "destroy":
        zwlr_virtual_pointer_v1_destroy(pointer)
        virtualPointer = nil
    default: fail("unknown vpointer command \(words[1])")
    }
    return true
}
