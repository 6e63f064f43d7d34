import CWaylandServer
import Foundation
import InputRouter
import InputRouterFuzzing
import InputRouterWireClient
import Testing

@testable import InputRouterWayland

/// WireFuzzer's findings in the server, each reduced to the requests that cause it, on
/// the real server with a client in this process speaking the wire format.
@Suite struct WireFindingTests {
    /// A server and one client on a socketpair; `serverSide` is the client's wl_client.
    final class Connection {
        let server: WaylandServer
        let wire: WireConnection
        let serverSide: OpaquePointer

        init() throws {
            var config = WaylandServer.Configuration()
            config.keyboard = .init(keymap: .names(.init(rules: "evdev", model: "pc105", layout: "us")), compose: false)
            config.unresponsiveTimeoutMS = 0
            server = try WaylandServer(configuration: config)
            var fds: [Int32] = [-1, -1]
            #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
            wire = WireConnection(fd: fds[0])
            serverSide = wl_client_create(server.display, fds[1])!
        }

        func send(_ object: UInt32, _ opcode: UInt16, _ args: [WireArgument] = []) {
            wire.send(object, opcode, args)
            server.dispatch(timeoutMS: 0)
            _ = wire.read(timeoutMS: 0)
        }

        /// Gets the registry and binds `interface` (the server's global of that name).
        func bind(_ interface: String, version: UInt32) -> UInt32 {
            let registry = wire.newID("wl_registry")
            wire.send(1, Op.displayGetRegistry, [.uint(registry)])
            server.dispatch(timeoutMS: 0)
            var name: UInt32 = 0
            for e in wire.read(timeoutMS: 0)
            where e.object == registry && e.opcode == 0 && e.string(at: 4).0 == interface {
                name = e.uint(at: 0)
            }
            let id = wire.newID(interface)
            send(registry, Op.registryBind, [.uint(name), .string(interface), .uint(version), .uint(id)])
            return id
        }

        /// The server's object behind the client's id.
        func object(_ id: UInt32) -> WaylandObject? { WaylandObject.from(wl_client_get_object(serverSide, id)) }

        func disconnect() {
            shutdown(wire.fd, Int32(SHUT_RDWR))
            server.dispatch(timeoutMS: 0)
            server.dispatch(timeoutMS: 0)
        }
    }

    /// `wl_subsurface.place_below(parent)` keeps the restack pending on the parent until
    /// the parent's next commit, holding the parent itself: a client that disconnected
    /// before that commit left its parent surface, with the pixels of its last buffer,
    /// alive for ever (LeakSanitizer: 46 KB per such surface).
    @Test func aRestackPendingOnAParentDoesNotOutliveIt() throws {
        let c = try Connection()
        let compositor = c.bind("wl_compositor", version: 5)
        let subcompositor = c.bind("wl_subcompositor", version: 1)
        let parent = c.wire.newID("wl_surface")
        let child = c.wire.newID("wl_surface")
        c.send(compositor, Op.compositorCreateSurface, [.uint(parent)])
        c.send(compositor, Op.compositorCreateSurface, [.uint(child)])
        let sub = c.wire.newID("wl_subsurface")
        c.send(subcompositor, Op.subcompositorGetSubsurface, [.uint(sub), .uint(child), .uint(parent)])
        c.send(sub, Op.subsurfacePlaceBelow, [.uint(parent)])
        #expect(c.wire.error == nil)
        weak let parentSurface = c.object(parent)
        #expect(parentSurface != nil)
        c.disconnect()
        #expect(parentSurface == nil, "the parent wl_surface outlived its client")
    }

    /// A second input method on a seat is sent `unavailable` and is inert, but what its
    /// requests make must still exist (input-method-unstable-v2 has the client destroy it,
    /// not its objects vanish): the server skipped the new ids of `grab_keyboard` and
    /// `get_input_popup_surface`, so the client's release of its grab was
    /// `wl_display.invalid_object`, and its next new id `invalid_method`.
    @Test func anUnavailableInputMethodStillMakesItsObjects() throws {
        let c = try Connection()
        let seat = c.bind("wl_seat", version: 8)
        let compositor = c.bind("wl_compositor", version: 5)
        let manager = c.bind("zwp_input_method_manager_v2", version: 1)
        let first = c.wire.newID("zwp_input_method_v2")
        let second = c.wire.newID("zwp_input_method_v2")
        c.send(manager, 0, [.uint(seat), .uint(first)]) // get_input_method(seat, id)
        c.send(manager, 0, [.uint(seat), .uint(second)])
        let grab = c.wire.newID("zwp_input_method_keyboard_grab_v2")
        c.send(second, 5, [.uint(grab)]) // grab_keyboard(id)
        let surface = c.wire.newID("wl_surface")
        let popup = c.wire.newID("zwp_input_popup_surface_v2")
        c.send(compositor, Op.compositorCreateSurface, [.uint(surface)])
        c.send(second, 4, [.uint(popup), .uint(surface)]) // get_input_popup_surface(id, surface)
        c.send(grab, 0) // release
        c.send(popup, 0) // destroy
        let callback = c.wire.newID("wl_callback")
        c.send(1, Op.displaySync, [.uint(callback)])
        #expect(c.wire.error == nil, "\(c.wire.error.map { "\($0)" } ?? "")")
        #expect(!c.wire.closed)
        c.disconnect()
    }

    /// WireFuzzer's model of a client (7 December, Regressions/wire/a-released-id-…).
    /// libwayland frees an object's id as it runs the destructor, and the `delete_id` goes
    /// out only with the next event posted. A data device just released, with nothing
    /// posted since, was still "an id in use" to the model, and a `sync` that reused it as
    /// a bad new id was accepted, rightly, and read as a finding. The model now forgets the
    /// device as its release goes out.
    @Test func theFuzzersModelForgetsAnObjectAsItsDestructorGoesOut() {
        var script = WireScript()
        script.connect()
        script.request(client: 0, "wl_display", "get_registry", [.new])
        script.request(client: 0, "wl_display", "sync", [.new])
        script.bindEverything(client: 0, globals: 40)
        script.request(client: 0, "wl_data_device_manager", "get_data_device", [.new, .object(0)])
        script.request(client: 0, "wl_data_device", "release")
        // 252: the decoder's "an id in use" (the newest object the model knows).
        script.request(client: 0, "wl_display", "sync", [.object(252)])
        var log: [String] = []
        #expect(WireFuzz.run(script.bytes, log: { log.append($0) }) == [], "\(log.joined(separator: "\n"))")
    }

    /// The positioner clamp on the xdg-shell path (the layer-shell one is a regression
    /// input): a parent whose window geometry starts near Int32's end, and a positioner
    /// whose anchor rectangle and offset are as far out. Unclamped, the popup's placement
    /// overflowed Int32 and trapped, taking the compositor with it.
    @Test func anXdgPopupWithNumbersAtInt32sEdgeIsPlaced() {
        var script = WireScript()
        script.connect()
        script.request(client: 0, "wl_display", "get_registry", [.new])
        script.request(client: 0, "wl_display", "sync", [.new])
        script.bindEverything(client: 0)
        script.mapToplevel(client: 0, size: 100)
        let edge = Int32.max - 8
        script.request(client: 0, "xdg_surface", "set_window_geometry", [.int(edge), .int(edge), .int(50), .int(50)])
        script.request(client: 0, "wl_surface", "commit")
        script.request(client: 0, "xdg_wm_base", "create_positioner", [.new])
        script.request(client: 0, "xdg_positioner", "set_size", [.int(edge), .int(edge)])
        script.request(
            client: 0, "xdg_positioner", "set_anchor_rect", [.int(edge), .int(edge), .int(edge), .int(edge)])
        script.request(client: 0, "xdg_positioner", "set_offset", [.int(edge), .int(edge)])
        script.request(client: 0, "wl_compositor", "create_surface", [.new])
        script.request(client: 0, "xdg_wm_base", "get_xdg_surface", [.new, .object(0)])
        script.request(client: 0, "xdg_surface", "get_popup", [.new, .object(1), .object(0)])
        script.request(client: 0, "wl_surface", "commit")
        var log: [String] = []
        #expect(WireFuzz.run(script.bytes, log: { log.append($0) }) == [], "\(log.joined(separator: "\n"))")
    }
}
