// zwp_tablet_pad_v2 in the test client (with --tablet, Tablet.swift): pads, their groups,
// rings and strips are numbered P0, G0, R0, S0… in the order announced; it prints
//   pad.added P0   pad.path P0 PATH   pad.buttons P0 N   pad.group P0 G0   pad.done P0
//   group.buttons G0 [0 1 2]   group.ring G0 R0   group.strip G0 S0   group.modes G0 N
//   group.done G0   group.mode_switch G0 MODE serial=S
//   pad.enter P0 NAME T0 serial=S   pad.leave P0 NAME serial=S   pad.removed P0
//   pad.button P0 BUTTON pressed|released
//   ring.source R0 finger   ring.angle R0 DEG   ring.stop R0   ring.frame R0
//   strip.source S0 finger   strip.position S0 P   strip.stop S0   strip.frame S0
import CProbeShim
import CWaylandClient
import CWaylandProtocolsClient
import Foundation

var probePads: [OpaquePointer] = []
var probeGroups: [OpaquePointer] = []
var probeRings: [OpaquePointer] = []
var probeStrips: [OpaquePointer] = []

func numbered(_ list: [OpaquePointer], _ prefix: String, _ p: OpaquePointer?) -> String {
    list.firstIndex { $0 == p }.map { "\(prefix)\($0)" } ?? "\(prefix)?"
}

/// Rings and strips print the same lines under their own names ("ring.stop R0",
/// "strip.stop S0"); only their value differs (an angle, a position).
enum PadControlKind: String {
    case ring, strip

    var name: String { self == .ring ? "R" : "S" }
    var objects: [OpaquePointer] { self == .ring ? probeRings : probeStrips }
}

func sayControl(_ kind: PadControlKind, _ event: String, _ control: OpaquePointer?, _ value: String? = nil) {
    say("\(kind.rawValue).\(event) \(numbered(kind.objects, kind.name, control))" + (value.map { " \($0)" } ?? ""))
}

func sourceName(_ source: UInt32) -> String { source == 1 ? "finger" : "\(source)" }

/// `group.ring` or `group.strip`: the control is numbered and announced.
func controlAdded(_ kind: PadControlKind, to group: OpaquePointer?, _ control: OpaquePointer) {
    if kind == .ring { probeRings.append(control) } else { probeStrips.append(control) }
    say("group.\(kind.rawValue) \(numbered(probeGroups, "G", group)) \(numbered(kind.objects, kind.name, control))")
}

let ringListener = heapListener(zwp_tablet_pad_ring_v2_listener()) { l in
    l.source = { _, r, s in sayControl(.ring, "source", r, sourceName(s)) }
    l.angle = { _, r, a in sayControl(.ring, "angle", r, fixed(a)) }
    l.stop = { _, r in sayControl(.ring, "stop", r) }
    l.frame = { _, r, _ in sayControl(.ring, "frame", r) }
}

let stripListener = heapListener(zwp_tablet_pad_strip_v2_listener()) { l in
    l.source = { _, r, s in sayControl(.strip, "source", r, sourceName(s)) }
    l.position = { _, r, p in sayControl(.strip, "position", r, "\(p)") }
    l.stop = { _, r in sayControl(.strip, "stop", r) }
    l.frame = { _, r, _ in sayControl(.strip, "frame", r) }
}

let groupListener = heapListener(zwp_tablet_pad_group_v2_listener()) { l in
    l.buttons = { _, g, array in
        var buttons: [UInt32] = []
        if let a = array, let data = a.pointee.data {
            buttons = Array(
                UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt32.self), count: a.pointee.size / 4))
        }
        say("group.buttons \(numbered(probeGroups, "G", g)) [\(buttons.map(String.init).joined(separator: " "))]")
    }
    l.ring = { _, g, ring in
        zwp_tablet_pad_ring_v2_add_listener(ring, ringListener, nil)
        controlAdded(.ring, to: g, ring!)
    }
    l.strip = { _, g, strip in
        zwp_tablet_pad_strip_v2_add_listener(strip, stripListener, nil)
        controlAdded(.strip, to: g, strip!)
    }
    l.modes = { _, g, n in say("group.modes \(numbered(probeGroups, "G", g)) \(n)") }
    l.done = { _, g in say("group.done \(numbered(probeGroups, "G", g))") }
    l.mode_switch = { _, g, _, serial, mode in
        say("group.mode_switch \(numbered(probeGroups, "G", g)) \(mode) serial=\(serial)")
    }
}

let padListener = heapListener(zwp_tablet_pad_v2_listener()) { l in
    l.group = { _, p, group in
        probeGroups.append(group!)
        zwp_tablet_pad_group_v2_add_listener(group, groupListener, nil)
        say("pad.group \(numbered(probePads, "P", p)) \(numbered(probeGroups, "G", group))")
    }
    l.path = { _, p, path in say("pad.path \(numbered(probePads, "P", p)) \(String(cString: path!))") }
    l.buttons = { _, p, n in say("pad.buttons \(numbered(probePads, "P", p)) \(n)") }
    l.done = { _, p in say("pad.done \(numbered(probePads, "P", p))") }
    l.button = { _, p, _, button, state in
        say("pad.button \(numbered(probePads, "P", p)) \(button) \(state == 1 ? "pressed" : "released")")
    }
    l.enter = { _, p, serial, tablet, surface in
        say("pad.enter \(numbered(probePads, "P", p)) \(named(surface)) \(tabletName(tablet)) serial=\(serial)")
    }
    l.leave = { _, p, serial, surface in
        say("pad.leave \(numbered(probePads, "P", p)) \(named(surface)) serial=\(serial)")
    }
    l.removed = { _, p in say("pad.removed \(numbered(probePads, "P", p))") }
}

/// `zwp_tablet_seat_v2.pad_added` (Tablet.swift's seat listener calls it).
func padAdded(_ pad: OpaquePointer?) {
    guard let pad else { return }
    probePads.append(pad)
    zwp_tablet_pad_v2_add_listener(pad, padListener, nil)
    say("pad.added \(numbered(probePads, "P", pad))")
}
