// A server on a wl_display the embedder owns: the policies are the embedder's to turn on
// (placement, decorations, focus-on-click, the frame timer, pixel copies), and the server
// takes away only what it added to the display when it goes.
import CWaylandServer
import Foundation
import Glibc
import InputRouter
import InputRouterWireClient
import Testing

@testable import InputRouterWayland

@Suite struct EmbeddedServerTests {
    /// The same client and the same click, with every policy on (`Configuration()` and
    /// decorations) or none (`.embedded`): each policy shows exactly when it is on.
    @Test(arguments: [true, false])
    func policiesAreTheEmbeddersChoice(on: Bool) throws {
        let display = try #require(wl_display_create())
        defer { wl_display_destroy(display) }
        do {
            var config = on ? WaylandServer.Configuration() : .embedded
            if on { config.policy.decorationStyle = DecorationStyle(titleHeight: 24) }
            let h = try ServerHarness(configuration: config, display: display)
            // Asks for server-side decorations where the server offers them.
            let probe = try h.probe(["--toplevel", "win", "200x100"] + (on ? ["--ssd"] : []))
            h.wait(for: probe, line: "mapped win")
            let lines = h.settle(probe)
            let node = try #require(h.server.mappedToplevels.first?.node)
            let window = try #require(h.server.window(of: node))
            let tree = h.server.router.tree

            // Placement: the cascade's first place, or the layout origin.
            #expect(tree.layoutPosition(of: window) == (on ? Point(x: 40, y: 40) : Point(x: 0, y: 0)))
            // Decorations: asked for server-side and granted when the embedder has them; with
            // none, xdg-decoration is not offered (weston and Mutter offer none either).
            #expect(lines.contains("decoration.configure win server_side") == on)
            #expect(h.server.globals.contains { $0.interface == "zxdg_decoration_manager_v1" } == on)
            #expect((window != node) == on)

            // Focus-on-click: with the keyboard taken away, a click on the window gives it
            // back only when the policy is on.
            _ = h.server.seat.setKeyboardFocus(nil)
            h.server.sendDeliveries()
            _ = h.settle(probe)
            let origin = try #require(tree.layoutPosition(of: node))
            h.warp(origin.x + 50, origin.y + 50)
            h.button(.pressed)
            h.button(.released)
            // Without placement the window mapped under the cursor (at the origin): it has
            // the pointer already.
            var expected =
                on ? ["pointer.enter win 50.00 50.00", "pointer.motion 50.00 50.00"] : ["pointer.motion 50.00 50.00"]
            expected += ["pointer.frame"]
            // Focus on click goes before the press; the activated state follows it.
            if on { expected += ["keyboard.enter win keys=[]", "keyboard.modifiers 0 0 0 0"] }
            expected += ["pointer.button 272 pressed", "pointer.frame"]
            if on { expected += ["configure win 0x0 [activated]"] }
            expected += ["pointer.button 272 released", "pointer.frame"]
            #expect(h.settle(probe) == expected)
        }
    }

    /// A wire-level client on a socket pair handed to the server of `display`.
    func connect(_ server: WaylandServer) throws -> (WireConnection, WireSession) {
        let (_, wire, session) = try server.connectWireClient(binding: [
            ("wl_compositor", 5), ("wl_shm", 1), ("xdg_wm_base", 5),
        ])
        return (wire, session)
    }

    /// The frame timer answers a frame callback by itself; without it the callback waits
    /// until the embedder presents and calls `sendFrameCallbacks()`.
    @Test(arguments: [true, false])
    func frameCallbacksWaitForTheEmbedderWithoutTheTimer(timer: Bool) throws {
        let display = try #require(wl_display_create())
        defer { wl_display_destroy(display) }
        do {
            var config = WaylandServer.Configuration.embedded
            config.policy.framePacing = timer ? .timer(milliseconds: 16) : .onPresent
            config.keyboard = .init(keymap: .names(.init(rules: "evdev", model: "pc105", layout: "us")), compose: false)
            let server = try WaylandServer(display: display, configuration: config)
            let (wire, session) = try connect(server)
            let top = try #require(session.mapToplevel(width: 40, height: 30))
            let callback = wire.newID("wl_callback")
            wire.send(top.surface, Op.surfaceFrame, [.uint(callback)])
            wire.send(top.surface, Op.surfaceCommit)
            // With the timer, the callback comes (however slow the machine); without, it has
            // not come by the answer to a sync sent after the commit.
            var done = false
            let sync = timer ? nil : wire.newID("wl_callback")
            if let sync { wire.send(1, Op.displaySync, [.uint(sync)]) }
            #expect(
                session.waitFor { e in
                    if e.object == callback && e.opcode == 0 { done = true }
                    return sync.map { e.object == $0 && e.opcode == 0 } ?? done
                } != nil)
            #expect(done == timer)
            #expect(server.hasWaitingFrameCallbacks == !timer)
            if !timer {
                server.sendFrameCallbacks()
                #expect(session.waitFor { $0.object == callback && $0.opcode == 0 } != nil)
                #expect(!server.hasWaitingFrameCallbacks)
            }
        }
    }

    /// When the server goes, the embedder's display stays: a client that bound none of the
    /// server's globals stays connected and sees them removed (wl_shm, which libwayland
    /// cannot remove apart from the display, stays); a client holding the server's objects
    /// is disconnected. A new server on the same display serves that first client, which
    /// connected before the server existed, and is told of no second wl_shm.
    @Test func theServerTakesAwayOnlyWhatItAdded() throws {
        let display = try #require(wl_display_create())
        defer { wl_display_destroy(display) }
        let loop = try #require(wl_display_get_event_loop(display))
        func client() -> (WireConnection, WireSession) {
            var fds: [Int32] = [0, 0]
            #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0)
            #expect(wl_client_create(display, fds[0]) != nil) // the embedder's own client
            let wire = WireConnection(fd: fds[1])
            let session = WireSession(wire)
            session.pump = {
                wl_event_loop_dispatch(loop, 0)
                wl_display_flush_clients(display)
            }
            return (wire, session)
        }
        let (bystanderWire, bystander) = client()
        var config = WaylandServer.Configuration.embedded
        config.keyboard = .init(keymap: .names(.init(rules: "evdev", model: "pc105", layout: "us")), compose: false)
        var server: WaylandServer? = try WaylandServer(display: display, configuration: config)
        let offered = server!.globals.count
        #expect(bystander.start())
        #expect(bystander.globals.count == offered)
        let (userWire, user) = client()
        #expect(user.start())
        user.bind("wl_compositor", version: 5)
        #expect(user.roundtrip())

        server = nil
        var removed = 0
        let sync = bystanderWire.newID("wl_callback")
        bystanderWire.send(1, Op.displaySync, [.uint(sync)])
        #expect(
            bystander.waitFor { e in
                if e.object == bystander.registry, e.opcode == 1 { removed += 1 } // global_remove
                return e.object == sync && e.opcode == 0
            } != nil)
        #expect(removed == offered - 1)
        #expect(!bystanderWire.closed)
        _ = userWire.readUntilClosed(timeoutMS: 10_000) // returns once closed
        #expect(userWire.closed)

        // A second server on the display; the bystander binds its wl_seat and is served.
        // The display still offers the first server's wl_shm: this one must not add another.
        config.offersShm = false
        server = try WaylandServer(display: display, configuration: config)
        server!.handle(InputEvent(time: 0, device: DeviceID(1), .deviceAdded(.pointer)))
        // Its globals were announced before the answer to a sync sent now.
        var announced: [(name: UInt32, interface: String)] = []
        let announcedBy = bystanderWire.newID("wl_callback")
        bystanderWire.send(1, Op.displaySync, [.uint(announcedBy)])
        #expect(
            bystander.waitFor { e in
                if e.object == bystander.registry, e.opcode == 0 {
                    announced.append((e.uint(at: 0), e.string(at: 4).0))
                }
                return e.object == announcedBy && e.opcode == 0
            } != nil)
        #expect(announced.count == offered - 1 && !announced.contains { $0.interface == "wl_shm" })
        let global = try #require(announced.first { $0.interface == "wl_seat" }?.name)
        let seat = bystanderWire.newID("wl_seat")
        bystanderWire.send(
            bystander.registry, Op.registryBind, [.uint(global), .string("wl_seat"), .uint(8), .uint(seat)])
        let capabilities = bystander.waitFor { $0.object == seat && $0.opcode == 0 }
        #expect(capabilities?.uint(at: 0) == 1) // pointer
        server = nil
    }
}
