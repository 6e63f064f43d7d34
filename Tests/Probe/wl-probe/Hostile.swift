// Requests a well-behaved client never sends: each mode breaks one rule, then waits for
// the server's verdict (main.swift prints the protocol error it receives).
import CProbeShim
import CWaylandClient
import CWaylandProtocolsClient
import Foundation

/// An ARGB8888 buffer with the stride and pool size given, whatever they are.
func createShmBuffer(width: Int32, height: Int32, stride: Int32, poolSize: Int32) -> OpaquePointer? {
    var template = Array(
        "\(ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"] ?? "/tmp")/wl-probe-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    guard fd >= 0, ftruncate(fd, off_t(poolSize)) == 0 else { fail("shm file failed") }
    let pool = wl_shm_create_pool(shm, fd, poolSize)
    close(fd)
    return wl_shm_pool_create_buffer(pool, 0, width, height, stride, UInt32(WL_SHM_FORMAT_ARGB8888.rawValue))
}

func runHostile(_ mode: String) -> Never {
    let a = wl_compositor_create_surface(compositor)!
    let b = wl_compositor_create_surface(compositor)!
    switch mode {
    case "subsurface-self":
        _ = wl_subcompositor_get_subsurface(subcompositor, a, a)
    case "subsurface-cycle":
        _ = wl_subcompositor_get_subsurface(subcompositor, b, a)
        _ = wl_subcompositor_get_subsurface(subcompositor, a, b)
    case "two-roles":
        _ = xdg_wm_base_get_xdg_surface(wmBase, a)
        _ = wl_subcompositor_get_subsurface(subcompositor, a, b)
    case "region-negative":
        wl_region_add(wl_compositor_create_region(compositor), 0, 0, -5, 10)
    case "region-overflow":
        wl_region_add(wl_compositor_create_region(compositor), Int32.max - 10, 0, 100, 10)
    case "shm-short-stride":
        // A stride of 200 bytes for 200 ARGB8888 pixels: a quarter of a row. libwayland
        // 1.21 alone checks only stride >= width and accepts it.
        _ = createShmBuffer(width: 200, height: 200, stride: 200, poolSize: 200 * 200)
    case "shm-pool-overrun":
        // A right stride, but the buffer runs past the end of its pool.
        _ = createShmBuffer(width: 200, height: 200, stride: 800, poolSize: 800 * 199)
    case "unconfigured-buffer":
        // No commit: attaching before the first configure is the error by itself.
        let x = xdg_wm_base_get_xdg_surface(wmBase, a)
        _ = xdg_surface_get_toplevel(x)
        wl_surface_attach(a, makeBuffer(width: 10, height: 10), 0, 0)
    case "unacked-buffer":
        // The first configure comes, is never acknowledged, and a buffer is committed.
        let x = xdg_wm_base_get_xdg_surface(wmBase, a)
        _ = xdg_surface_get_toplevel(x)
        wl_surface_commit(a)
        wl_display_roundtrip(display)
        wl_surface_attach(a, makeBuffer(width: 10, height: 10), 0, 0)
        wl_surface_commit(a)
    case "parent-loop":
        // b's parent is a, then a's parent is b.
        let ta = xdg_surface_get_toplevel(xdg_wm_base_get_xdg_surface(wmBase, a))
        let tb = xdg_surface_get_toplevel(xdg_wm_base_get_xdg_surface(wmBase, b))
        xdg_toplevel_set_parent(tb, ta)
        xdg_toplevel_set_parent(ta, tb)
    case "defunct-role":
        let x = xdg_wm_base_get_xdg_surface(wmBase, a)
        _ = xdg_surface_get_toplevel(x)
        xdg_surface_destroy(x)
    case "bad-ack":
        let x = xdg_wm_base_get_xdg_surface(wmBase, a)
        _ = xdg_surface_get_toplevel(x)
        xdg_surface_ack_configure(x, 0xdead)
    case "orphaned-role":
        // The wl_surface goes first; its role objects stay and keep being used. Allowed
        // by the protocol (the roles become inert); the server must not trip over them.
        let x = xdg_wm_base_get_xdg_surface(wmBase, a)
        let t = xdg_surface_get_toplevel(x)
        wl_surface_commit(a)
        wl_display_roundtrip(display)
        wl_surface_destroy(a)
        xdg_toplevel_set_title(t, "orphan")
        xdg_toplevel_set_maximized(t)
        xdg_toplevel_move(t, seat, 1)
        xdg_surface_set_window_geometry(x, 0, 0, 10, 10)
        xdg_toplevel_destroy(t)
        xdg_surface_destroy(x)
        wl_display_roundtrip(display)
        say("survived")
        while wl_display_dispatch(display) != -1 {}
        reportError()
        exit(1)
    case "no-read":
        // Maps a window, then never reads its socket again.
        createToplevel(SurfaceSpec(name: "mute", width: 400, height: 300))
        wl_display_roundtrip(display)
        while wl_display_dispatch_pending(display) >= 0 {
            if surfaces.first?.configured == true { break }
            wl_display_roundtrip(display)
        }
        wl_display_roundtrip(display) // the buffer commit reaches the server
        say("ready")
        while true { sleep(1000) }
    default:
        fail("unknown hostile mode \(mode)")
    }
    wl_display_roundtrip(display)
    while wl_display_dispatch(display) != -1 {}
    reportError()
    exit(1)
}
