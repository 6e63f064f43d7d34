// keyboard-shortcuts-inhibit in the test client: --inhibit-shortcuts NAME makes a
// zwp_keyboard_shortcuts_inhibitor_v1 for toplevel NAME before its initial commit; the
// commands `inhibit NAME` and `uninhibit NAME` make another one or destroy NAME's. Events are
// printed as `inhibitor.active NAME` and `inhibitor.inactive NAME`.
import CProbeShim
import CWaylandClient
import CWaylandProtocolsClient
import Foundation

var shortcutsInhibitManager: OpaquePointer?
var inhibitShortcutsOf: Set<String> = []
var inhibitors: [String: OpaquePointer] = [:]
var inhibitorNames: [OpaquePointer: String] = [:]

let inhibitorListener: UnsafeMutablePointer<zwp_keyboard_shortcuts_inhibitor_v1_listener> = {
    let l = UnsafeMutablePointer<zwp_keyboard_shortcuts_inhibitor_v1_listener>.allocate(capacity: 1)
    l.initialize(to: zwp_keyboard_shortcuts_inhibitor_v1_listener())
    l.pointee.active = { _, inhibitor in say("inhibitor.active \(inhibitorNames[inhibitor!] ?? "?")") }
    l.pointee.inactive = { _, inhibitor in say("inhibitor.inactive \(inhibitorNames[inhibitor!] ?? "?")") }
    return l
}()

func inhibitShortcuts(_ p: ProbeSurface) {
    guard let manager = shortcutsInhibitManager else {
        fail("the server lacks zwp_keyboard_shortcuts_inhibit_manager_v1")
    }
    let inhibitor = zwp_keyboard_shortcuts_inhibit_manager_v1_inhibit_shortcuts(manager, p.surface, seat)!
    inhibitors[p.spec.name] = inhibitor
    inhibitorNames[inhibitor] = p.spec.name
    zwp_keyboard_shortcuts_inhibitor_v1_add_listener(inhibitor, inhibitorListener, nil)
}

func uninhibitShortcuts(_ p: ProbeSurface) {
    guard let inhibitor = inhibitors.removeValue(forKey: p.spec.name) else { return }
    zwp_keyboard_shortcuts_inhibitor_v1_destroy(inhibitor)
}
