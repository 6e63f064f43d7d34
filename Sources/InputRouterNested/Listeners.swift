// The C listener tables for the parent's objects. Each entry is a plain C function that
// finds its NestedBackend (or ShmBuffer) through the proxy's user data and calls the Swift
// method named after the event. Every entry is set: libwayland aborts on an event whose
// listener entry is NULL.
import CWaylandClient
import CWaylandProtocolsClient
import Foundation

private func backend(_ data: UnsafeMutableRawPointer?) -> NestedBackend {
    CallbackContext.borrowed(data!, as: NestedBackend.self)
}

private func allocate<T>(_ value: T) -> UnsafeMutablePointer<T> {
    let p = UnsafeMutablePointer<T>.allocate(capacity: 1)
    p.initialize(to: value)
    return p
}

/// Kept by the backend for its whole life (libwayland holds the addresses).
final class Listeners {
    let registry: UnsafeMutablePointer<wl_registry_listener>
    let wmBase: UnsafeMutablePointer<xdg_wm_base_listener>
    let xdgSurface: UnsafeMutablePointer<xdg_surface_listener>
    let toplevel: UnsafeMutablePointer<xdg_toplevel_listener>
    let frame: UnsafeMutablePointer<wl_callback_listener>
    let buffer: UnsafeMutablePointer<wl_buffer_listener>
    let seat: UnsafeMutablePointer<wl_seat_listener>
    let pointer: UnsafeMutablePointer<wl_pointer_listener>
    let keyboard: UnsafeMutablePointer<wl_keyboard_listener>
    let touch: UnsafeMutablePointer<wl_touch_listener>

    init() {
        var r = wl_registry_listener()
        r.global = { data, _, name, interface, version in
            backend(data).global(name: name, interface: String(cString: interface!), version: version)
        }
        r.global_remove = { _, _, _ in } // our globals (compositor, shm, seat) never go
        registry = allocate(r)

        var w = xdg_wm_base_listener()
        w.ping = { _, base, serial in xdg_wm_base_pong(base, serial) }
        wmBase = allocate(w)

        var s = xdg_surface_listener()
        s.configure = { data, _, serial in backend(data).surfaceConfigure(serial: serial) }
        xdgSurface = allocate(s)

        var t = xdg_toplevel_listener()
        t.configure = { data, _, width, height, _ in backend(data).toplevelConfigure(width: width, height: height) }
        t.close = { data, _ in backend(data).onClose?() }
        t.configure_bounds = { _, _, _, _ in }
        t.wm_capabilities = { _, _, _ in }
        toplevel = allocate(t)

        var f = wl_callback_listener()
        f.done = { data, _, _ in backend(data).frameDone() }
        frame = allocate(f)

        var b = wl_buffer_listener()
        b.release = { data, _ in
            let buffer = CallbackContext.borrowed(data!, as: ShmBuffer.self)
            buffer.backend?.bufferReleased(buffer)
        }
        buffer = allocate(b)

        var se = wl_seat_listener()
        se.capabilities = { data, _, caps in backend(data).seatCapabilities(caps) }
        se.name = { _, _, _ in }
        seat = allocate(se)

        var p = wl_pointer_listener()
        p.enter = { data, _, serial, _, x, y in backend(data).pointerEnter(serial: serial, x: x, y: y) }
        p.leave = { data, _, _, _ in backend(data).pointerLeave() }
        p.motion = { data, _, time, x, y in backend(data).pointerMotion(time: time, x: x, y: y) }
        p.button = { data, _, _, time, button, state in
            backend(data).pointerButton(time: time, button: button, state: state)
        }
        p.axis = { data, _, time, axis, value in backend(data).pointerAxis(time: time, axis: axis, value: value) }
        p.frame = { data, _ in backend(data).pointerFrame() }
        p.axis_source = { data, _, source in backend(data).pointerAxisSource(source) }
        p.axis_stop = { data, _, time, axis in backend(data).pointerAxisStop(time: time, axis: axis) }
        // wl_pointer v5-7: one discrete step is 120 in v8's terms.
        p.axis_discrete = { data, _, axis, discrete in
            backend(data).pointerAxisValue120(axis: axis, value120: discrete * 120)
        }
        p.axis_value120 = { data, _, axis, value in backend(data).pointerAxisValue120(axis: axis, value120: value) }
        pointer = allocate(p)

        var k = wl_keyboard_listener()
        k.keymap = { data, _, format, fd, size in backend(data).keymap(format: format, fd: fd, size: size) }
        k.enter = { data, _, _, _, keys in
            var list: [UInt32] = []
            if let keys, keys.pointee.size > 0, let base = keys.pointee.data {
                let v = base.assumingMemoryBound(to: UInt32.self)
                for i in 0..<(keys.pointee.size / 4) { list.append(v[i]) }
            }
            backend(data).keyboardEnter(keys: list)
        }
        k.leave = { data, _, _, _ in backend(data).keyboardLeave() }
        k.key = { data, _, _, time, key, state in backend(data).keyboardKey(time: time, key: key, state: state) }
        k.modifiers = { data, _, _, depressed, latched, locked, group in
            backend(data).keyboardModifiers(depressed: depressed, latched: latched, locked: locked, group: group)
        }
        // The nested clients get the server's configured repeat rate and delay.
        k.repeat_info = { _, _, _, _ in }
        keyboard = allocate(k)

        var tc = wl_touch_listener()
        tc.down = { data, _, _, time, _, id, x, y in backend(data).touchDown(time: time, id: id, x: x, y: y) }
        tc.up = { data, _, _, time, id in backend(data).touchUp(time: time, id: id) }
        tc.motion = { data, _, time, id, x, y in backend(data).touchMotion(time: time, id: id, x: x, y: y) }
        tc.frame = { data, _ in backend(data).touchFrame() }
        tc.cancel = { data, _ in backend(data).touchCancel() }
        tc.shape = { _, _, _, _, _ in }
        tc.orientation = { _, _, _, _ in }
        touch = allocate(tc)
    }

    deinit {
        registry.deallocate()
        wmBase.deallocate()
        xdgSurface.deallocate()
        toplevel.deallocate()
        frame.deallocate()
        buffer.deallocate()
        seat.deallocate()
        pointer.deallocate()
        keyboard.deallocate()
        touch.deallocate()
    }
}
