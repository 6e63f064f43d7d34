// Requests a well-behaved client never sends: each mode breaks one rule, then waits for
// the server's verdict (main.swift prints the protocol error it receives).
import CProbeShim
import CWaylandClient
import CXdgShellClient
import Foundation

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
        wl_display_roundtrip(display)  // the buffer commit reaches the server
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
