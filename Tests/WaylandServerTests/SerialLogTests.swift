// The server's serial log (`WaylandServer.serialLog`): every serial a client was sent, with
// what it was for. On a display the server made, the router's serials are the ones the
// log was not told of; on an embedder's display each of the router's is recorded, and the
// embedder's own serials are not in it.
import CWaylandServer
import Foundation
import Glibc
import InputRouter
import Testing
import WireClient

@testable import WaylandServer

@Suite struct SerialLogTests {
    /// A server (on `display`, or its own) with one wire client bound to the seat's pointer
    /// and keyboard and holding two mapped toplevels, a under b: their surfaces' object ids.
    func twoWindows(display: OpaquePointer? = nil) throws
        -> (WaylandServer, WireConnection, WireSession, pointer: UInt32, keyboard: UInt32, a: WireSession.Toplevel, b: WireSession.Toplevel)
    {
        var config = display == nil ? WaylandServer.Configuration() : .embedded
        config.keyboard = usKeyboard
        config.unresponsiveTimeoutMS = 0
        config.focusOnClick = true
        let server = try display.map { try WaylandServer(display: $0, configuration: config) } ?? WaylandServer(configuration: config)
        server.handle(InputEvent(time: 0, device: DeviceID(1), .deviceAdded(.pointer)))
        server.handle(InputEvent(time: 0, device: DeviceID(2), .deviceAdded(.keyboard)))
        let (client, wire, session) = try server.connectWireClient(binding: [("wl_compositor", 5), ("wl_shm", 1), ("wl_seat", 8), ("xdg_wm_base", 5)])
        let pointer = wire.newID("wl_pointer"), keyboard = wire.newID("wl_keyboard")
        wire.send(session.bound["wl_seat"]!, Op.seatGetPointer, [.uint(pointer)])
        wire.send(session.bound["wl_seat"]!, Op.seatGetKeyboard, [.uint(keyboard)])
        let a = try #require(session.mapToplevel(width: 100, height: 80))
        let b = try #require(session.mapToplevel(width: 100, height: 80))
        let nodeA = try #require(server.node(ofSurface: a.surface, client: client))
        let nodeB = try #require(server.node(ofSurface: b.surface, client: client))
        #expect(server.placeWindow(nodeA, x: 0, y: 0))
        #expect(server.placeWindow(nodeB, x: 50, y: 0))
        server.activate(nodeB)
        server.seat.notifyPointerWarp(time: 500, to: Point(x: 60, y: 10))  // b
        server.sendDeliveries()
        #expect(session.roundtrip())
        return (server, wire, session, pointer, keyboard, a, b)
    }

    /// Every serial the client is sent up to a sync's done, as "what serial" in order:
    /// pointer enter, leave and button, keyboard enter, leave, key and modifiers,
    /// xdg_surface configure, xdg_wm_base ping.
    func serialsSent(_ session: WireSession, pointer: UInt32, keyboard: UInt32, _ a: WireSession.Toplevel,
                     _ b: WireSession.Toplevel) -> [(String, UInt32)] {
        var seen: [(String, UInt32)] = []
        let callback = session.wire.newID("wl_callback")
        session.wire.send(1, Op.displaySync, [.uint(callback)])
        _ = session.waitFor { e in
            let name: String? = switch (e.object, e.opcode) {
            case (pointer, 0): "pointer.enter"
            case (pointer, 1): "pointer.leave"
            case (pointer, 3): "pointer.button"
            case (keyboard, 1): "keyboard.enter"
            case (keyboard, 2): "keyboard.leave"
            case (keyboard, 3): "keyboard.key"
            case (keyboard, 4): "keyboard.modifiers"
            case (a.xdgSurface, 0), (b.xdgSurface, 0): "configure"
            case (session.bound["xdg_wm_base"]!, 0): "ping"
            default: nil
            }
            if let name { seen.append((name, e.uint(at: 0))) }
            return e.object == callback && e.opcode == 0
        }
        return seen
    }

    /// A click into the window below (it raises it and moves the keyboard there), a key,
    /// and a barrier's ping: each serial the client sees is in the log for what it came
    /// with, the router's included, and the log holds every serial of the display, in order.
    @Test(arguments: [false, true])
    func everySerialSentIsInTheLogForWhatItCameWith(embedded: Bool) throws {
        let display = embedded ? try #require(wl_display_create()) : nil
        defer { if let display { wl_display_destroy(display) } }
        do {
            let (server, _, session, pointer, keyboard, a, b) = try twoWindows(display: display)
            let before = wl_display_get_serial(server.display)
            server.seat.notifyPointerWarp(time: 2000, to: Point(x: 20, y: 10))  // a, below b
            server.seat.notifyPointerButton(time: 3000, button: 0x110, state: .pressed)
            server.sendDeliveries()
            server.seat.notifyPointerButton(time: 4000, button: 0x110, state: .released)
            server.seat.notifyKey(time: 5000, key: 30, state: .pressed)
            server.sendDeliveries()
            _ = server.barrier()
            let sent = serialsSent(session, pointer: pointer, keyboard: keyboard, a, b)
            #expect(sent.map(\.0) == [
                "pointer.leave", "pointer.enter", "pointer.button",
                "keyboard.leave", "keyboard.enter", "keyboard.modifiers", "configure", "configure",
                "pointer.button", "keyboard.key", "ping",
            ])
            let log = server.serialLog
            for (what, serial) in sent {
                let purpose: SerialLog.Purpose = what == "configure" ? .configure : what == "ping" ? .ping : .router
                #expect(log.purpose(of: serial) == purpose, "\(what) \(serial)")
            }
            // Nothing else took a serial: they are the display's, one after the other.
            #expect(sent.map(\.1) == (1...UInt32(sent.count)).map { before &+ $0 })
            #expect(log.entries.suffix(sent.count).map(\.serial) == sent.map(\.1))
            #expect(log.purpose(of: before &+ UInt32(sent.count) &+ 1) == nil)  // not sent yet
        }
    }

    /// An embedder's own serials (its display's, taken without the server) are not the
    /// server's: the log does not take them for the router's.
    @Test func anEmbeddersOwnSerialIsNotInTheLog() throws {
        let display = try #require(wl_display_create())
        defer { wl_display_destroy(display) }
        do {
            let (server, _, session, pointer, keyboard, a, b) = try twoWindows(display: display)
            let own = wl_display_next_serial(display)
            server.seat.notifyPointerWarp(time: 1000, to: Point(x: 20, y: 10))
            server.sendDeliveries()
            let sent = serialsSent(session, pointer: pointer, keyboard: keyboard, a, b)
            #expect(sent.map(\.0) == ["pointer.leave", "pointer.enter"])
            #expect(sent.map(\.1) == [own &+ 1, own &+ 2])
            let log = server.serialLog
            for (_, serial) in sent { #expect(log.purpose(of: serial) == .router) }
            #expect(log.purpose(of: own) == nil)
            #expect(!log.entries.contains { $0.serial == own })
        }
    }

    /// On a display of its own, the log covers the display's newest 256 serials: the ones
    /// recorded for what they were, every other one the router's; older ones are forgotten,
    /// across the display's serial wrapping past zero.
    @Test(arguments: [UInt32(0), UInt32.max - 100])
    func theRoutersSerialsAreTheOnesNotRecorded(start: UInt32) {
        var log = SerialLog(routerSerialsImpliedSince: start)
        log.newest = start
        #expect(log.entries.isEmpty)
        #expect(log.purpose(of: start) == nil)
        for i in UInt32(1)...300 where i % 3 == 0 { log.record(start &+ i, .configure, ClientID(index: 1)) }
        log.newest = start &+ 300
        let entries = log.entries
        #expect(entries.map(\.serial) == (45...300).map { start &+ UInt32($0) })
        #expect(entries.map(\.purpose) == (45...300).map { $0 % 3 == 0 ? .configure : .router })
        #expect(entries.filter { $0.purpose == .configure }.allSatisfy { $0.client == ClientID(index: 1) })
        #expect(log.purpose(of: start &+ 44) == nil)  // older than the newest 256
        #expect(log.purpose(of: start &+ 45) == .configure)
        #expect(log.purpose(of: start &+ 46) == .router)
        #expect(log.purpose(of: start &+ 301) == nil)  // not sent yet
    }
}
