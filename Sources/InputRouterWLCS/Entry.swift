// The functions the C vtables (Sources/CWlcs) call. Harness and devices cross the C
// boundary as retained opaque pointers, released by ir_wlcs_destroy and
// ir_wlcs_device_destroy.
import CWlcs
import Glibc
import InputRouter

private func harness(_ p: UnsafeMutableRawPointer?) -> Harness { CallbackContext.borrowed(p!, as: Harness.self) }
private func device(_ p: UnsafeMutableRawPointer?) -> InputDevice { CallbackContext.borrowed(p!, as: InputDevice.self) }

@_cdecl("ir_wlcs_create")
func irWlcsCreate(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> UnsafeMutableRawPointer? {
    // A client that disconnects mid-write must not kill the test process.
    signal(SIGPIPE, SIG_IGN)
    do {
        return CallbackContext.retained(try Harness())
    } catch {
        fputs("wlcs integration: \(error)\n", stderr)
        return nil
    }
}

@_cdecl("ir_wlcs_destroy")
func irWlcsDestroy(_ p: UnsafeMutableRawPointer?) {
    guard let p else { return }
    CallbackContext.release(p, as: Harness.self)
}

@_cdecl("ir_wlcs_run")
func irWlcsRun(_ p: UnsafeMutableRawPointer?, _ loop: OpaquePointer?) {
    guard let loop else { return }
    harness(p).run(dispatching: loop)
}

@_cdecl("ir_wlcs_stop")
func irWlcsStop(_ p: UnsafeMutableRawPointer?) { harness(p).stop() }

@_cdecl("ir_wlcs_client_socket")
func irWlcsClientSocket(_ p: UnsafeMutableRawPointer?) -> Int32 { harness(p).createClientSocket() }

@_cdecl("ir_wlcs_position_window")
func irWlcsPositionWindow(_ p: UnsafeMutableRawPointer?, _ fd: Int32, _ surface: UInt32, _ x: Int32, _ y: Int32) {
    harness(p).positionWindow(clientFD: fd, surfaceID: surface, x: x, y: y)
}

@_cdecl("ir_wlcs_global_count")
func irWlcsGlobalCount(_ p: UnsafeMutableRawPointer?) -> Int { harness(p).globalNames.count }

@_cdecl("ir_wlcs_global_name")
func irWlcsGlobalName(_ p: UnsafeMutableRawPointer?, _ i: Int) -> UnsafePointer<CChar>? {
    UnsafePointer(harness(p).globalNames[i])
}

@_cdecl("ir_wlcs_global_version")
func irWlcsGlobalVersion(_ p: UnsafeMutableRawPointer?, _ i: Int) -> UInt32 { harness(p).globalVersions[i] }

@_cdecl("ir_wlcs_pointer_create")
func irWlcsPointerCreate(_ p: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    CallbackContext.retained(harness(p).addDevice(.pointer))
}

@_cdecl("ir_wlcs_touch_create")
func irWlcsTouchCreate(_ p: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    CallbackContext.retained(harness(p).addDevice(.touch))
}

@_cdecl("ir_wlcs_device_destroy")
func irWlcsDeviceDestroy(_ p: UnsafeMutableRawPointer?) {
    guard let p else { return }
    let d = device(p)
    d.harness.removeDevice(d)
    CallbackContext.release(p, as: InputDevice.self)
}

@_cdecl("ir_wlcs_pointer_move")
func irWlcsPointerMove(_ p: UnsafeMutableRawPointer?, _ x: Double, _ y: Double, _ relative: Int32) {
    let d = device(p)
    d.harness.withSeat { seat in
        if relative != 0 {
            seat.notifyPointerMotion(time: Harness.now, dx: x, dy: y)
        } else {
            seat.notifyPointerWarp(time: Harness.now, to: Point(x: x, y: y))
        }
    }
}

@_cdecl("ir_wlcs_pointer_button")
func irWlcsPointerButton(_ p: UnsafeMutableRawPointer?, _ button: Int32, _ pressed: Int32) {
    let d = device(p)
    d.harness.withSeat { seat in
        seat.notifyPointerButton(
            time: Harness.now, button: UInt32(button), state: pressed != 0 ? .pressed : .released, device: d.id)
    }
}

@_cdecl("ir_wlcs_touch")
func irWlcsTouch(_ p: UnsafeMutableRawPointer?, _ phase: Int32, _ x: Double, _ y: Double) {
    let d = device(p)
    d.harness.onServerThread {
        d.harness.withSeat { seat in
            let now = Harness.now
            d.touching = phase != 2
            switch phase {
            case 0: seat.notifyTouchDown(time: now, slot: d.touchSlot, at: Point(x: x, y: y), device: d.id)
            case 1: seat.notifyTouchMotion(time: now, slot: d.touchSlot, at: Point(x: x, y: y))
            default: seat.notifyTouchUp(time: now, slot: d.touchSlot)
            }
            seat.notifyTouchFrame()
        }
    }
}
