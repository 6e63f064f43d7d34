// pointer-gestures in the test client: with --gestures it binds zwp_pointer_gestures_v1
// (version 3) and makes a swipe, a pinch and a hold object for its wl_pointer, printing
//   gesture.swipe.begin NAME fingers N     gesture.swipe.update DX DY     gesture.swipe.end cancelled=C
//   gesture.pinch.begin NAME fingers N     gesture.pinch.update DX DY SCALE ROTATION
//   gesture.pinch.end cancelled=C          gesture.hold.begin NAME fingers N     gesture.hold.end cancelled=C
import CProbeShim
import CWaylandClient
import CWaylandProtocolsClient
import Foundation

var wantGestures = false
var pointerGestures: OpaquePointer?

let swipeListener: UnsafeMutablePointer<zwp_pointer_gesture_swipe_v1_listener> = {
    let l = UnsafeMutablePointer<zwp_pointer_gesture_swipe_v1_listener>.allocate(capacity: 1)
    l.initialize(to: zwp_pointer_gesture_swipe_v1_listener())
    l.pointee.begin = { _, _, _, _, surface, fingers in say("gesture.swipe.begin \(named(surface)) fingers \(fingers)")
    }
    l.pointee.update = { _, _, _, dx, dy in say("gesture.swipe.update \(fixed(dx)) \(fixed(dy))") }
    l.pointee.end = { _, _, _, _, cancelled in say("gesture.swipe.end cancelled=\(cancelled)") }
    return l
}()

let pinchListener: UnsafeMutablePointer<zwp_pointer_gesture_pinch_v1_listener> = {
    let l = UnsafeMutablePointer<zwp_pointer_gesture_pinch_v1_listener>.allocate(capacity: 1)
    l.initialize(to: zwp_pointer_gesture_pinch_v1_listener())
    l.pointee.begin = { _, _, _, _, surface, fingers in say("gesture.pinch.begin \(named(surface)) fingers \(fingers)")
    }
    l.pointee.update = { _, _, _, dx, dy, scale, rotation in
        say("gesture.pinch.update \(fixed(dx)) \(fixed(dy)) \(fixed(scale)) \(fixed(rotation))")
    }
    l.pointee.end = { _, _, _, _, cancelled in say("gesture.pinch.end cancelled=\(cancelled)") }
    return l
}()

let holdListener: UnsafeMutablePointer<zwp_pointer_gesture_hold_v1_listener> = {
    let l = UnsafeMutablePointer<zwp_pointer_gesture_hold_v1_listener>.allocate(capacity: 1)
    l.initialize(to: zwp_pointer_gesture_hold_v1_listener())
    l.pointee.begin = { _, _, _, _, surface, fingers in say("gesture.hold.begin \(named(surface)) fingers \(fingers)") }
    l.pointee.end = { _, _, _, _, cancelled in say("gesture.hold.end cancelled=\(cancelled)") }
    return l
}()

/// Called once the client has its wl_pointer.
func createGestures(for pointer: OpaquePointer?) {
    guard wantGestures else { return }
    guard let manager = pointerGestures else { fail("the server lacks zwp_pointer_gestures_v1") }
    guard zwp_pointer_gestures_v1_get_version(manager) >= 3 else { fail("zwp_pointer_gestures_v1 below version 3") }
    zwp_pointer_gesture_swipe_v1_add_listener(
        zwp_pointer_gestures_v1_get_swipe_gesture(manager, pointer), swipeListener, nil)
    zwp_pointer_gesture_pinch_v1_add_listener(
        zwp_pointer_gestures_v1_get_pinch_gesture(manager, pointer), pinchListener, nil)
    zwp_pointer_gesture_hold_v1_add_listener(
        zwp_pointer_gestures_v1_get_hold_gesture(manager, pointer), holdListener, nil)
}
