// Commands read from stdin, one a line, to change the scene after it is built: tests use
// them to check that pending state takes effect only on commit. Each is answered with
// "done COMMAND" once the server has processed it.
//
//   region NAME x,y,w,h    set NAME's input region to one rectangle (pending)
//   commit NAME            commit NAME
//   position NAME x,y      wl_subsurface.set_position (applied on the parent's commit)
//   sync NAME / desync NAME
//   frame NAME             request a frame callback, attach a fresh buffer and commit; prints
//                          "frame.done NAME" when the server answers, "buffer.release NAME"
//                          when it gives the buffer back
//   decoration NAME server|client|unset|destroy   NAME's zxdg_toplevel_decoration_v1 (Decoration.swift)
//   maximize NAME / unmaximize NAME / fullscreen NAME / minimize NAME   xdg_toplevel's requests
//   unmap NAME             attach no buffer and commit: NAME unmaps
//   unrole NAME            destroy NAME's role object (wl_subsurface, or xdg_toplevel and
//                          xdg_surface), keeping the wl_surface
//   roundtrip TAG          nothing but the answer: a barrier for "what was sent by now"
//   lock, confine, constraint-region, hint, unconstrain   pointer constraints (Constraints.swift)
//   inhibit NAME / uninhibit NAME   a keyboard shortcuts inhibitor for NAME (ShortcutsInhibit.swift)
//   text ..., token, activate, idle-inhibit, idle-uninhibit   TextInput.swift, Activation.swift, Idle.swift
//   copy, clear, paste, destroy-source...   the selections (DataDevice.swift)
//   cursor main|other main|other   set_cursor on a seat's pointer citing a seat's enter (SecondSeat.swift)
//   vk create|keymap|key|modifiers|destroy   a virtual keyboard (VirtualKeyboard.swift)
//   shape SHAPE [stale], tool-shape SHAPE   cursor-shape-v1's set_shape (CursorShape.swift)
//   vpointer create|motion|absolute|button|axis|discrete|stop|source|frame|destroy ...
//                          a virtual pointer (VirtualPointer.swift)
import CWaylandClient
import CWaylandProtocolsClient
import Foundation

func runCommand(_ line: String) {
    let words = line.split(separator: " ").map(String.init)
    if words.first == "roundtrip" { return announceAfterServerSaw("done \(line)") }
    if runTextInputCommand(words) || words.first == "token-again" && runActivationCommand(words, surfaces[0]) {
        return announceAfterServerSaw("done \(line)")
    }
    if runSelectionCommand(words) { return announceAfterServerSaw("done \(line)") } // DataDevice.swift
    // SecondSeat.swift, CursorShape.swift
    if runCursorCommand(words) || runShapeCommand(words) { return announceAfterServerSaw("done \(line)") }
    if runVirtualKeyboardCommand(words) { return announceAfterServerSaw("done \(line)") } // VirtualKeyboard.swift
    if runVirtualPointerCommand(words) { return announceAfterServerSaw("done \(line)") } // VirtualPointer.swift
    guard words.count >= 2, let p = probe(words[1]) else { return say("bad command: \(line)") }
    switch words[0] {
    case "region" where words.count == 3:
        let r = rect(words[2])
        let region = wl_compositor_create_region(compositor)
        wl_region_add(region, r.0, r.1, r.2, r.3)
        wl_surface_set_input_region(p.surface, region)
        wl_region_destroy(region)
    case "commit": wl_surface_commit(p.surface)
    case "position" where words.count == 3:
        let (x, y) = pair(words[2], ",")
        wl_subsurface_set_position(p.subsurface, x, y)
    case "frame":
        let callback = wl_surface_frame(p.surface)
        frameNames[callback!] = p.spec.name
        wl_callback_add_listener(callback, frameListener, nil)
        let buffer = makeBuffer(width: p.spec.width, height: p.spec.height)
        releaseNames[buffer!] = p.spec.name
        wl_buffer_add_listener(buffer, releaseListener, nil)
        wl_surface_attach(p.surface, buffer, 0, 0)
        wl_surface_commit(p.surface)
    case "inhibit": inhibitShortcuts(p)
    case "uninhibit": uninhibitShortcuts(p)
    case "sync": wl_subsurface_set_sync(p.subsurface)
    case "desync": wl_subsurface_set_desync(p.subsurface)
    case "unrole":
        if let sub = p.subsurface {
            wl_subsurface_destroy(sub)
            p.subsurface = nil
        }
        // The decoration goes first: a toplevel destroyed before it is `orphaned`.
        if let d = decorationNames.first(where: { $0.value == p.spec.name })?.key {
            decorationNames[d] = nil
            zxdg_toplevel_decoration_v1_destroy(d)
        }
        if let top = p.toplevel {
            xdg_toplevel_destroy(top)
            p.toplevel = nil
        }
        if let x = p.xdgSurface {
            xdg_surface_destroy(x)
            p.xdgSurface = nil
        }
    // Window-management requests, for the compositor's policy to grant or refuse.
    case "maximize": xdg_toplevel_set_maximized(p.toplevel)
    case "unmaximize": xdg_toplevel_unset_maximized(p.toplevel)
    case "fullscreen": xdg_toplevel_set_fullscreen(p.toplevel, nil)
    case "minimize": xdg_toplevel_set_minimized(p.toplevel)
    case "unmap":
        wl_surface_attach(p.surface, nil, 0, 0)
        wl_surface_commit(p.surface)
    default:
        guard
            runDecorationCommand(words, p) || runConstraintCommand(words, p) || runActivationCommand(words, p)
                || runIdleCommand(words, p)
        else { return say("bad command: \(line)") }
    }
    announceAfterServerSaw("done \(line)")
}

var frameNames: [OpaquePointer: String] = [:]
var releaseNames: [OpaquePointer: String] = [:]
let frameListener: UnsafeMutablePointer<wl_callback_listener> = {
    let l = UnsafeMutablePointer<wl_callback_listener>.allocate(capacity: 1)
    l.initialize(to: wl_callback_listener())
    l.pointee.done = { _, callback, _ in
        say("frame.done \(frameNames.removeValue(forKey: callback!) ?? "?")")
        wl_callback_destroy(callback)
    }
    return l
}()
let releaseListener: UnsafeMutablePointer<wl_buffer_listener> = {
    let l = UnsafeMutablePointer<wl_buffer_listener>.allocate(capacity: 1)
    l.initialize(to: wl_buffer_listener())
    l.pointee.release = { _, buffer in
        say("buffer.release \(releaseNames.removeValue(forKey: buffer!) ?? "?")")
        wl_buffer_destroy(buffer)
    }
    return l
}()
