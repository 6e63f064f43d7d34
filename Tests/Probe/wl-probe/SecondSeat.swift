// Several seats in the test client. `--seat-name NAME` binds the wl_seat whose `name` event
// says NAME (instead of the Nth one: `--seat-index`). `--also-seat-index N` binds a second
// wl_seat and its wl_pointer besides the main one, printing its pointer's events as
//   other.pointer.enter NAME X Y   other.pointer.leave NAME   other.pointer.motion X Y
//   other.pointer.button BUTTON pressed|released   other.pointer.frame
// so a test sees which seat's pointer an event came on. The command
//   cursor main|other main|other
// calls `wl_pointer.set_cursor` on the main or the other seat's pointer, citing the last
// `wl_pointer.enter` serial of the main or the other seat's pointer, with a small cursor
// surface (hotspot 1,2).
import CProbeShim
import CWaylandClient
import Foundation

var seatName: String?
var otherSeatIndex = -1
/// Every wl_seat global, in the order the registry advertised them: (name, version).
var seatGlobals: [(name: UInt32, version: UInt32)] = []
var otherSeat: OpaquePointer?
var otherPointer: OpaquePointer?
/// The serials of the last `wl_pointer.enter` on the main and on the other seat's pointer.
var lastEnterSerial: UInt32 = 0
var otherEnterSerial: UInt32 = 0
/// The serial of the other seat's pointer's last button press.
var otherPressSerial: UInt32 = 0
var cursorSurface: OpaquePointer?

/// Binds every wl_seat for a moment to read its name, and returns a fresh binding of the one
/// called `name` (the main seat, whose listener main.swift adds).
func bindSeat(named name: String, _ registry: OpaquePointer?) -> OpaquePointer? {
    var probes: [(global: UInt32, version: UInt32, proxy: OpaquePointer)] = []
    for g in seatGlobals where g.version >= 2 {
        guard let proxy = bind(registry, g.name, "wl_seat", 2) else { continue }
        probes.append((g.name, g.version, proxy))
        wl_seat_add_listener(proxy, seatNameListener, nil)
    }
    seatNames = [:]
    wl_display_roundtrip(display)
    let chosen = probes.first { seatNames[$0.proxy] == name }
    for p in probes { wl_seat_destroy(p.proxy) }
    guard let chosen else { fail("no wl_seat named \(name)") }
    return bind(registry, chosen.global, "wl_seat", min(chosen.version, seatVersion))
}

var seatNames: [OpaquePointer: String] = [:]
let seatNameListener: UnsafeMutablePointer<wl_seat_listener> = {
    let l = UnsafeMutablePointer<wl_seat_listener>.allocate(capacity: 1)
    l.initialize(to: wl_seat_listener())
    l.pointee.capabilities = { _, _, _ in }
    l.pointee.name = { _, seat, name in seatNames[seat!] = String(cString: name!) }
    return l
}()

func bindOtherSeat(_ registry: OpaquePointer?, _ name: UInt32, _ version: UInt32) {
    otherSeat = bind(registry, name, "wl_seat", min(version, seatVersion))
    wl_seat_add_listener(otherSeat, otherSeatListener, nil)
}

let otherSeatListener: UnsafeMutablePointer<wl_seat_listener> = {
    let l = UnsafeMutablePointer<wl_seat_listener>.allocate(capacity: 1)
    l.initialize(to: wl_seat_listener())
    l.pointee.capabilities = { _, seat, caps in
        guard caps & WL_SEAT_CAPABILITY_POINTER.rawValue != 0, otherPointer == nil else { return }
        otherPointer = wl_seat_get_pointer(seat)
        wl_pointer_add_listener(otherPointer, otherPointerListener, nil)
    }
    l.pointee.name = { _, _, _ in }
    return l
}()

let otherPointerListener: UnsafeMutablePointer<wl_pointer_listener> = {
    let l = UnsafeMutablePointer<wl_pointer_listener>.allocate(capacity: 1)
    l.initialize(to: wl_pointer_listener())
    l.pointee.enter = { _, _, serial, surface, x, y in
        otherEnterSerial = serial
        say("other.pointer.enter \(named(surface)) \(fixed(x)) \(fixed(y))")
    }
    l.pointee.leave = { _, _, _, surface in say("other.pointer.leave \(named(surface))") }
    l.pointee.motion = { _, _, _, x, y in say("other.pointer.motion \(fixed(x)) \(fixed(y))") }
    l.pointee.button = { _, _, serial, _, button, state in
        if state == 1 { otherPressSerial = serial }
        say("other.pointer.button \(button) \(state == 1 ? "pressed" : "released")")
    }
    l.pointee.axis = { _, _, _, _, _ in }
    l.pointee.frame = { _, _ in say("other.pointer.frame") }
    l.pointee.axis_source = { _, _, _ in }
    l.pointee.axis_stop = { _, _, _, _ in }
    l.pointee.axis_discrete = { _, _, _, _ in }
    l.pointee.axis_value120 = { _, _, _, _ in }
    return l
}()

/// `cursor main|other main|other`; false for any other command.
func runCursorCommand(_ words: [String]) -> Bool {
    guard words.count == 3, words[0] == "cursor" else { return false }
    let pointerTarget = words[1] == "other" ? otherPointer : pointer
    let serial = words[2] == "other" ? otherEnterSerial : lastEnterSerial
    guard let pointerTarget else { fail("cursor: no \(words[1]) pointer") }
    if cursorSurface == nil {
        cursorSurface = wl_compositor_create_surface(compositor)
        wl_surface_attach(cursorSurface, makeBuffer(width: 8, height: 8), 0, 0)
        wl_surface_commit(cursorSurface)
    }
    wl_pointer_set_cursor(pointerTarget, serial, cursorSurface, 1, 2)
    return true
}
