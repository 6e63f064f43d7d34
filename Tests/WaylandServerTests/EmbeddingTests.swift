// The API an embedder (the WLCS harness among them) uses beyond a listening socket: a
// client handed over as a connected fd, the node of a surface by the client's object id,
// a window placed at a layout point, the list of globals, and the lenient first buffer.
import CWaylandServer
import Glibc
import InputRouter
import InputRouterWayland
import InputRouterWireClient
import Testing

@Suite struct EmbeddingTests {
    /// A server and a wire-level client on a socket pair handed to `connectClient`.
    func connect(_ configure: (inout WaylandServer.Configuration) -> Void = { _ in }) throws
        -> (WaylandServer, ClientID, WireConnection, WireSession)
    {
        var config = WaylandServer.Configuration()
        config.keyboard = usKeyboard
        config.unresponsiveTimeoutMS = 0
        configure(&config)
        let server = try WaylandServer(configuration: config)
        server.handle(InputEvent(time: 0, device: DeviceID(1), .deviceAdded(.pointer)))
        let (id, wire, session) = try server.connectWireClient(binding: [
            ("wl_compositor", 5), ("wl_shm", 1), ("wl_seat", 8), ("xdg_wm_base", 5),
        ])
        return (server, id, wire, session)
    }

    @Test func aHandedOverClientIsFoundByItsSurfaceIdAndPlaced() throws {
        let (server, client, wire, session) = try connect()
        let pointer = wire.newID("wl_pointer")
        wire.send(session.bound["wl_seat"]!, Op.seatGetPointer, [.uint(pointer)])
        let top = try #require(session.mapToplevel(width: 100, height: 80))
        let node = try #require(server.node(ofSurface: top.surface, client: client))
        #expect(server.router.tree.kind(of: node) == .toplevel)
        #expect(server.node(ofSurface: 4242, client: client) == nil)
        #expect(server.node(ofSurface: top.toplevel, client: client) == nil) // not a wl_surface

        #expect(server.placeWindow(node, x: 500, y: 300))
        #expect(server.router.tree.layoutPosition(of: node) == Point(x: 500, y: 300))
        server.seat.notifyPointerWarp(time: 1000, to: Point(x: 510, y: 305))
        server.sendDeliveries()
        let enter = try #require(session.waitFor { $0.object == pointer && $0.opcode == 0 })
        #expect(enter.uint(at: 4) == top.surface)
        #expect(Int32(bitPattern: enter.uint(at: 8)) == 10 * 256)
        #expect(Int32(bitPattern: enter.uint(at: 12)) == 5 * 256)
    }

    @Test func theGlobalsAreTheOnesOffered() throws {
        let (server, _, _, session) = try connect()
        let offered = server.globals.map { "\($0.interface) \($0.version)" }
        #expect(
            offered == [
                "wl_shm 1", "wl_compositor 5", "wl_subcompositor 1", "wl_output 4", "zxdg_output_manager_v1 3",
                "wl_seat 8",
                // No zxdg_decoration_manager_v1: this server draws no title bars.
                "wl_data_device_manager 3", "xdg_wm_base 5",
                "zwp_relative_pointer_manager_v1 1", "zwp_pointer_constraints_v1 1",
                "zwp_pointer_gestures_v1 3", "zwp_keyboard_shortcuts_inhibit_manager_v1 1", "zwp_tablet_manager_v2 1",
                "wp_cursor_shape_manager_v1 2", // cursors by name (CursorShape.swift)
                // Text input, activation, idle.
                "zwp_text_input_manager_v3 1", "xdg_activation_v1 1", "ext_idle_notifier_v1 1",
                "zwp_idle_inhibit_manager_v1 1",
                "zwp_primary_selection_device_manager_v1 1",
                // Panels, launchers and lock screens.
                "zwlr_layer_shell_v1 4",
                "zwp_input_method_manager_v2 1", // input method programs (InputMethod.swift)
                "ext_session_lock_manager_v1 1", // lock screens (SessionLock.swift)
                // Virtual keyboards.
                "zwp_virtual_keyboard_manager_v1 1",
                // Virtual input devices.
                "zwlr_virtual_pointer_manager_v1 2",
            ])
        #expect(Set(session.globals.map { "\($0.interface) \($0.version)" }) == Set(offered))
    }

    /// A toplevel whose first commit carries its buffer, never acknowledging a configure
    /// (what WLCS 1.5.0 does): refused by default, mapped with the option.
    @Test(arguments: [false, true])
    func bufferWithTheFirstCommit(lenient: Bool) throws {
        let (server, _, wire, session) = try connect { $0.acceptsBufferBeforeFirstConfigure = lenient }
        let surface = wire.newID("wl_surface")
        wire.send(session.bound["wl_compositor"]!, Op.compositorCreateSurface, [.uint(surface)])
        let xdg = wire.newID("xdg_surface")
        wire.send(session.bound["xdg_wm_base"]!, Op.wmGetXdgSurface, [.uint(xdg), .uint(surface)])
        wire.send(xdg, Op.xdgSurfaceGetToplevel, [.uint(wire.newID("xdg_toplevel"))])
        let buffer = try #require(session.buffer(width: 50, height: 50))
        wire.send(surface, Op.surfaceAttach, [.uint(buffer), .int(0), .int(0)])
        wire.send(surface, Op.surfaceCommit)
        if lenient {
            #expect(session.roundtrip())
            #expect(server.mappedToplevels.count == 1)
        } else {
            let error = try #require(session.waitFor { $0.object == 1 && $0.opcode == 0 }) // wl_display.error
            #expect(error.uint(at: 0) == xdg)
            #expect(error.uint(at: 4) == 3) // xdg_surface.unconfigured_buffer
            #expect(server.mappedToplevels.isEmpty)
        }
    }

    /// xdg_wm_base 5: wm_capabilities (maximize 2, fullscreen 3) before the first configure.
    @Test func toplevelGetsWmCapabilitiesFirst() throws {
        let (_, _, wire, session) = try connect()
        let surface = wire.newID("wl_surface")
        wire.send(session.bound["wl_compositor"]!, Op.compositorCreateSurface, [.uint(surface)])
        let xdg = wire.newID("xdg_surface")
        wire.send(session.bound["xdg_wm_base"]!, Op.wmGetXdgSurface, [.uint(xdg), .uint(surface)])
        let top = wire.newID("xdg_toplevel")
        wire.send(xdg, Op.xdgSurfaceGetToplevel, [.uint(top)])
        wire.send(surface, Op.surfaceCommit)
        var seen: [String] = []
        _ = session.waitFor { e in
            if e.object == top && e.opcode == 3 {
                // wl_array: byte length, then the values.
                let n = Int(e.uint(at: 0)) / 4
                seen.append("wm_capabilities " + (0..<n).map { String(e.uint(at: 4 + 4 * $0)) }.joined(separator: ","))
            }
            if e.object == top && e.opcode == 0 { seen.append("toplevel.configure") }
            if e.object == xdg && e.opcode == 0 { seen.append("configure") }
            return e.object == xdg
        }
        #expect(seen == ["wm_capabilities 2,3", "toplevel.configure", "configure"])
    }

    /// A reactive popup that flips: placed again when its parent is moved near the
    /// output's right edge, and configured with the flipped place.
    @Test func reactivePopupIsPlacedAgainWhenItsParentMoves() throws {
        let (server, client, wire, session) = try connect()
        let top = try #require(session.mapToplevel(width: 100, height: 80))
        let positioner = wire.newID("xdg_positioner")
        wire.send(session.bound["xdg_wm_base"]!, Op.wmCreatePositioner, [.uint(positioner)])
        wire.send(positioner, 1, [.int(200), .int(50)]) // set_size
        wire.send(positioner, 2, [.int(90), .int(10), .int(10), .int(10)]) // set_anchor_rect
        wire.send(positioner, 3, [.uint(8)]) // set_anchor bottom_right
        wire.send(positioner, 4, [.uint(8)]) // set_gravity bottom_right
        wire.send(positioner, 5, [.uint(4)]) // set_constraint_adjustment flip_x
        wire.send(positioner, 7) // set_reactive
        let surface = wire.newID("wl_surface")
        wire.send(session.bound["wl_compositor"]!, Op.compositorCreateSurface, [.uint(surface)])
        let xdg = wire.newID("xdg_surface")
        wire.send(session.bound["xdg_wm_base"]!, Op.wmGetXdgSurface, [.uint(xdg), .uint(surface)])
        let popup = wire.newID("xdg_popup")
        wire.send(xdg, Op.xdgSurfaceGetPopup, [.uint(popup), .uint(top.xdgSurface), .uint(positioner)])
        wire.send(surface, Op.surfaceCommit)
        func nextPlace() -> [Int32]? {
            session.waitFor { $0.object == popup && $0.opcode == 0 }.map { e in
                (0..<4).map { Int32(bitPattern: e.uint(at: 4 * $0)) }
            }
        }
        // The parent is at (40, 40): the popup fits to the right of the anchor.
        #expect(nextPlace() == [100, 20, 200, 50])
        let node = try #require(server.node(ofSurface: top.surface, client: client))
        server.placeWindow(node, x: 1000, y: 40) // 1000 + 100 + 200 > 1280: flipped left
        #expect(nextPlace() == [-110, 20, 200, 50])
    }
}
