// ext-idle-notify-v1 and idle-inhibit-v1 in the test client. `--idle-notify MS` (repeatable)
// makes an ext_idle_notification_v1 with that timeout, printing `idle.idled MS` and
// `idle.resumed MS`. Commands on stdin: `idle-inhibit NAME` makes a zwp_idle_inhibitor_v1 for
// surface NAME, `idle-uninhibit NAME` destroys it.
import CProbeShim
import CWaylandClient
import CWaylandProtocolsClient
import Foundation

var idleNotifier: OpaquePointer?
var idleInhibitManager: OpaquePointer?
var idleTimeouts: [UInt32] = []
var idleNotificationTimeouts: [OpaquePointer: UInt32] = [:]
var idleInhibitors: [String: OpaquePointer] = [:]

let idleNotificationListener: UnsafeMutablePointer<ext_idle_notification_v1_listener> = {
    let l = UnsafeMutablePointer<ext_idle_notification_v1_listener>.allocate(capacity: 1)
    l.initialize(to: ext_idle_notification_v1_listener())
    l.pointee.idled = { _, n in say("idle.idled \(idleNotificationTimeouts[n!] ?? 0)") }
    l.pointee.resumed = { _, n in say("idle.resumed \(idleNotificationTimeouts[n!] ?? 0)") }
    return l
}()

func createIdleNotifications() {
    guard !idleTimeouts.isEmpty else { return }
    guard let notifier = idleNotifier else { fail("the server lacks ext_idle_notifier_v1") }
    for ms in idleTimeouts {
        let n = ext_idle_notifier_v1_get_idle_notification(notifier, ms, seat)!
        idleNotificationTimeouts[n] = ms
        ext_idle_notification_v1_add_listener(n, idleNotificationListener, nil)
    }
}

/// `idle-inhibit` and `idle-uninhibit`; false when the line is not one.
func runIdleCommand(_ words: [String], _ p: ProbeSurface) -> Bool {
    switch words[0] {
    case "idle-inhibit":
        guard let manager = idleInhibitManager else { fail("the server lacks zwp_idle_inhibit_manager_v1") }
        idleInhibitors[p.spec.name] = zwp_idle_inhibit_manager_v1_create_inhibitor(manager, p.surface)
    case "idle-uninhibit":
        guard let inhibitor = idleInhibitors.removeValue(forKey: p.spec.name) else { return true }
        zwp_idle_inhibitor_v1_destroy(inhibitor)
    default: return false
    }
    return true
}
