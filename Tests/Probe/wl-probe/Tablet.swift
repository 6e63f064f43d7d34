// tablet-unstable-v2 in the test client: with --tablet it binds zwp_tablet_manager_v2,
// gets the tablet seat of its wl_seat, and prints what it is told (tablets and tools are
// numbered T0, T1… and tool0, tool1… in the order they were added):
//   tablet.added T0   tablet.done T0   tablet.removed T0
//   tool.added tool0  tool.type tool0 pen  tool.serial tool0 1234  tool.capability tool0 pressure
//   tool.done tool0   tool.removed tool0
//   tool.proximity_in tool0 NAME T0 serial=S   tool.proximity_out tool0   tool.down tool0 serial=S
//   tool.up tool0     tool.motion tool0 X Y    tool.pressure tool0 P      tool.distance tool0 D
//   tool.tilt tool0 X Y   tool.rotation tool0 DEG   tool.slider tool0 P   tool.wheel tool0 DEG CLICKS
//   tool.button tool0 BUTTON pressed|released serial=S   tool.frame tool0
// and pads' lines (Pad.swift).
import CProbeShim
import CWaylandClient
import CWaylandProtocolsClient
import Foundation

var wantTablet = false
var tabletManager: OpaquePointer?
var probeTablets: [OpaquePointer] = []
var probeTools: [OpaquePointer] = []

func tabletName(_ t: OpaquePointer?) -> String { probeTablets.firstIndex { $0 == t }.map { "T\($0)" } ?? "T?" }
func toolName(_ t: OpaquePointer?) -> String { probeTools.firstIndex { $0 == t }.map { "tool\($0)" } ?? "tool?" }

let toolTypes: [UInt32: String] = [
    0x140: "pen", 0x141: "eraser", 0x142: "brush", 0x143: "pencil", 0x144: "airbrush",
    0x145: "finger", 0x146: "mouse", 0x147: "lens",
]
let toolCapabilities: [UInt32: String] = [
    1: "tilt", 2: "pressure", 3: "distance", 4: "rotation", 5: "slider", 6: "wheel",
]

/// A listener struct on the heap, where libwayland keeps a pointer to it for as long as
/// the proxy lives, with the entries `fill` sets (the tablet and pad listeners' one shape).
func heapListener<Listener>(_ empty: Listener, _ fill: (inout Listener) -> Void) -> UnsafeMutablePointer<Listener> {
    let l = UnsafeMutablePointer<Listener>.allocate(capacity: 1)
    l.initialize(to: empty)
    fill(&l.pointee)
    return l
}

let tabletListener = heapListener(zwp_tablet_v2_listener()) { l in
    l.name = { _, t, name in say("tablet.name \(tabletName(t)) \(String(cString: name!))") }
    l.id = { _, t, vid, pid in say("tablet.id \(tabletName(t)) \(vid) \(pid)") }
    l.path = { _, t, path in say("tablet.path \(tabletName(t)) \(String(cString: path!))") }
    l.done = { _, t in say("tablet.done \(tabletName(t))") }
    l.removed = { _, t in say("tablet.removed \(tabletName(t))") }
}

let toolListener = heapListener(zwp_tablet_tool_v2_listener()) { l in
    l.type = { _, t, type in say("tool.type \(toolName(t)) \(toolTypes[type] ?? "\(type)")") }
    l.hardware_serial = { _, t, hi, lo in say("tool.serial \(toolName(t)) \(UInt64(hi) << 32 | UInt64(lo))") }
    l.hardware_id_wacom = { _, t, hi, lo in say("tool.hardware_id \(toolName(t)) \(UInt64(hi) << 32 | UInt64(lo))") }
    l.capability = { _, t, c in say("tool.capability \(toolName(t)) \(toolCapabilities[c] ?? "\(c)")") }
    l.done = { _, t in say("tool.done \(toolName(t))") }
    l.removed = { _, t in say("tool.removed \(toolName(t))") }
    l.proximity_in = { _, t, serial, tablet, surface in
        // CursorShape.swift cites them
        proximitySerials[t!, default: []] = (proximitySerials[t!] ?? []).suffix(1) + [serial]
        say("tool.proximity_in \(toolName(t)) \(named(surface)) \(tabletName(tablet)) serial=\(serial)")
    }
    l.proximity_out = { _, t in say("tool.proximity_out \(toolName(t))") }
    l.down = { _, t, serial in say("tool.down \(toolName(t)) serial=\(serial)") }
    l.up = { _, t in say("tool.up \(toolName(t))") }
    l.motion = { _, t, x, y in say("tool.motion \(toolName(t)) \(fixed(x)) \(fixed(y))") }
    l.pressure = { _, t, p in say("tool.pressure \(toolName(t)) \(p)") }
    l.distance = { _, t, d in say("tool.distance \(toolName(t)) \(d)") }
    l.tilt = { _, t, x, y in say("tool.tilt \(toolName(t)) \(fixed(x)) \(fixed(y))") }
    l.rotation = { _, t, d in say("tool.rotation \(toolName(t)) \(fixed(d))") }
    l.slider = { _, t, p in say("tool.slider \(toolName(t)) \(p)") }
    l.wheel = { _, t, d, clicks in say("tool.wheel \(toolName(t)) \(fixed(d)) \(clicks)") }
    l.button = { _, t, serial, button, state in
        say("tool.button \(toolName(t)) \(button) \(state == 1 ? "pressed" : "released") serial=\(serial)")
    }
    l.frame = { _, t, _ in say("tool.frame \(toolName(t))") }
}

let tabletSeatListener = heapListener(zwp_tablet_seat_v2_listener()) { l in
    l.tablet_added = { _, _, tablet in
        probeTablets.append(tablet!)
        zwp_tablet_v2_add_listener(tablet, tabletListener, nil)
        say("tablet.added \(tabletName(tablet))")
    }
    l.tool_added = { _, _, tool in
        probeTools.append(tool!)
        zwp_tablet_tool_v2_add_listener(tool, toolListener, nil)
        say("tool.added \(toolName(tool))")
    }
    l.pad_added = { _, _, pad in padAdded(pad) } // Pad.swift
}

/// Called once the registry is read: the tablet seat of the client's one wl_seat.
func createTabletSeat() {
    guard wantTablet else { return }
    guard let manager = tabletManager else { fail("the server lacks zwp_tablet_manager_v2") }
    zwp_tablet_seat_v2_add_listener(zwp_tablet_manager_v2_get_tablet_seat(manager, seat), tabletSeatListener, nil)
}
