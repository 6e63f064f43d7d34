// Relative pointer and pointer constraints in the test client. With --relative, wl-probe
// gets a zwp_relative_pointer_v1 for its wl_pointer and prints every event as
// `relative.motion DX DY raw UDX UDY us=MICROSECONDS`. Commands (Commands.swift):
//
//   lock NAME oneshot|persistent [x,y,w,h]      zwp_pointer_constraints_v1.lock_pointer
//   confine NAME oneshot|persistent [x,y,w,h]   confine_pointer (the optional rectangle is the region)
//   constraint-region NAME x,y,w,h|none         set_region (pending until `commit NAME`)
//   hint NAME x,y                               set_cursor_position_hint (pending until commit)
//   unconstrain NAME                            destroy the lock or confinement
//
// The constraint's events print as `locked NAME`, `unlocked NAME`, `confined NAME`,
// `unconfined NAME`. The hostile mode `constraint-twice` locks one surface twice.
import CProbeShim
import CWaylandClient
import CWaylandProtocolsClient
import Foundation

var wantRelative = false
var relativeManager: OpaquePointer?
var pointerConstraints: OpaquePointer?
/// Each surface's lock or confinement: (object, is a lock).
var constraintObjects: [String: (object: OpaquePointer, lock: Bool)] = [:]

let relativeListener: UnsafeMutablePointer<zwp_relative_pointer_v1_listener> = {
    let l = UnsafeMutablePointer<zwp_relative_pointer_v1_listener>.allocate(capacity: 1)
    l.initialize(to: zwp_relative_pointer_v1_listener())
    l.pointee.relative_motion = { _, _, hi, lo, dx, dy, udx, udy in
        let us = UInt64(hi) << 32 | UInt64(lo)
        say("relative.motion \(fixed(dx)) \(fixed(dy)) raw \(fixed(udx)) \(fixed(udy)) us=\(us)")
    }
    return l
}()

/// After the wl_pointer exists (main.swift's seat listener).
func bindRelativePointer(_ pointer: OpaquePointer?) {
    guard wantRelative else { return }
    guard let manager = relativeManager else { fail("the server lacks zwp_relative_pointer_manager_v1") }
    let r = zwp_relative_pointer_manager_v1_get_relative_pointer(manager, pointer)
    zwp_relative_pointer_v1_add_listener(r, relativeListener, nil)
}

func constraintName(_ object: OpaquePointer?) -> String {
    constraintObjects.first { $0.value.object == object }?.key ?? "?"
}

let lockedListener: UnsafeMutablePointer<zwp_locked_pointer_v1_listener> = {
    let l = UnsafeMutablePointer<zwp_locked_pointer_v1_listener>.allocate(capacity: 1)
    l.initialize(to: zwp_locked_pointer_v1_listener())
    l.pointee.locked = { _, lock in say("locked \(constraintName(lock))") }
    l.pointee.unlocked = { _, lock in say("unlocked \(constraintName(lock))") }
    return l
}()

let confinedListener: UnsafeMutablePointer<zwp_confined_pointer_v1_listener> = {
    let l = UnsafeMutablePointer<zwp_confined_pointer_v1_listener>.allocate(capacity: 1)
    l.initialize(to: zwp_confined_pointer_v1_listener())
    l.pointee.confined = { _, c in say("confined \(constraintName(c))") }
    l.pointee.unconfined = { _, c in say("unconfined \(constraintName(c))") }
    return l
}()

func makeRegion(_ spec: String) -> OpaquePointer? {
    guard spec != "none" else { return nil }
    let r = rect(spec)
    let region = wl_compositor_create_region(compositor)
    wl_region_add(region, r.0, r.1, r.2, r.3)
    return region
}

func lifetime(_ word: String) -> UInt32? {
    switch word {
    case "oneshot": ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_ONESHOT.rawValue
    case "persistent": ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT.rawValue
    default: nil
    }
}

/// The constraint commands; false when `words` is not one of them.
func runConstraintCommand(_ words: [String], _ p: ProbeSurface) -> Bool {
    let name = p.spec.name
    switch words[0] {
    case "lock", "confine":
        guard words.count >= 3, let manager = pointerConstraints, let life = lifetime(words[2]) else { return false }
        let region = words.count == 4 ? makeRegion(words[3]) : nil
        if words[0] == "lock" {
            let lock = zwp_pointer_constraints_v1_lock_pointer(manager, p.surface, pointer, region, life)!
            constraintObjects[name] = (lock, true)
            zwp_locked_pointer_v1_add_listener(lock, lockedListener, nil)
        } else {
            let confine = zwp_pointer_constraints_v1_confine_pointer(manager, p.surface, pointer, region, life)!
            constraintObjects[name] = (confine, false)
            zwp_confined_pointer_v1_add_listener(confine, confinedListener, nil)
        }
        if let region { wl_region_destroy(region) }
    case "constraint-region":
        guard words.count == 3, let c = constraintObjects[name] else { return false }
        let region = makeRegion(words[2])
        if c.lock {
            zwp_locked_pointer_v1_set_region(c.object, region)
        } else {
            zwp_confined_pointer_v1_set_region(c.object, region)
        }
        if let region { wl_region_destroy(region) }
    case "hint":
        guard words.count == 3, let c = constraintObjects[name], c.lock else { return false }
        let (x, y) = pair(words[2], ",")
        zwp_locked_pointer_v1_set_cursor_position_hint(c.object, wl_fixed_from_int(x), wl_fixed_from_int(y))
    case "unconstrain":
        guard let c = constraintObjects.removeValue(forKey: name) else { return false }
        if c.lock { zwp_locked_pointer_v1_destroy(c.object) } else { zwp_confined_pointer_v1_destroy(c.object) }
    default:
        return false
    }
    return true
}

func runHostileConstraint(_ mode: String) -> Never {
    guard let manager = pointerConstraints else { fail("the server lacks zwp_pointer_constraints_v1") }
    wl_display_roundtrip(display) // the seat's capabilities, and so the wl_pointer
    let surface = wl_compositor_create_surface(compositor)!
    switch mode {
    case "constraint-twice":
        let life = ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT.rawValue
        _ = zwp_pointer_constraints_v1_lock_pointer(manager, surface, pointer, nil, life)
        _ = zwp_pointer_constraints_v1_confine_pointer(manager, surface, pointer, nil, life)
    case "constraint-bad-lifetime":
        _ = zwp_pointer_constraints_v1_lock_pointer(manager, surface, pointer, nil, 9)
    default:
        fail("unknown hostile mode \(mode)")
    }
    wl_display_roundtrip(display)
    while wl_display_dispatch(display) != -1 {}
    reportError()
    exit(1)
}
