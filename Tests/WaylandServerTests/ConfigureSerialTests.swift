// xdg_surface.ack_configure against the configure serials kept (ConfigureSerials.swift,
// a ring of the newest 64 a client has not acknowledged) and the server's serial log (a
// ring of the newest 256), on the raw wire: what a client that acks late, or never, sees.
import Foundation
import InputRouter
import InputRouterWireClient
import Testing

@testable import InputRouterWayland

@Suite struct ConfigureSerialTests {
    /// A server with one wire client holding two mapped toplevels, and their nodes.
    func twoWindows() throws -> (WaylandServer, WireConnection, WireSession, WireSession.Toplevel, NodeID, NodeID) {
        var config = WaylandServer.Configuration()
        config.keyboard = usKeyboard
        config.unresponsiveTimeoutMS = 0
        let server = try WaylandServer(configuration: config)
        server.handle(InputEvent(time: 0, device: DeviceID(1), .deviceAdded(.keyboard)))
        let (client, wire, session) = try server.connectWireClient(binding: [
            ("wl_compositor", 5), ("wl_shm", 1), ("xdg_wm_base", 5),
        ])
        let a = try #require(session.mapToplevel(width: 100, height: 80))
        let b = try #require(session.mapToplevel(width: 100, height: 80))
        let nodeA = try #require(server.node(ofSurface: a.surface, client: client))
        let nodeB = try #require(server.node(ofSurface: b.surface, client: client))
        return (server, wire, session, a, nodeA, nodeB)
    }

    /// Activating a then b (which has the focus, mapped last), `times` times: each
    /// activation configures both; a's
    /// `xdg_surface.configure` serials, in order, and the activated state of each.
    func flip(
        _ server: WaylandServer, _ session: WireSession, _ a: WireSession.Toplevel, _ nodeA: NodeID, _ nodeB: NodeID,
        times: Int
    ) -> (serials: [UInt32], activated: [Bool]) {
        var serials: [UInt32] = []
        var activated: [Bool] = []
        var pendingActivated = false
        for _ in 0..<times {
            server.activate(nodeA)
            server.activate(nodeB)
        }
        // Every event up to a sync's done (a roundtrip would skip them).
        let callback = session.wire.newID("wl_callback")
        session.wire.send(1, Op.displaySync, [.uint(callback)])
        _ = session.waitFor { e in
            if e.object == a.toplevel, e.opcode == 0 {
                // configure(width, height, states): the states array's words after its length.
                let length = Int(e.uint(at: 8)) / 4
                // XDG_TOPLEVEL_STATE_ACTIVATED
                pendingActivated = (0..<length).contains { e.uint(at: 12 + 4 * $0) == 4 }
            }
            if e.object == a.xdgSurface, e.opcode == 0 {
                serials.append(e.uint(at: 0))
                activated.append(pendingActivated)
            }
            return e.object == callback && e.opcode == 0
        }
        return (serials, activated)
    }

    @Test func theNewest64ConfiguresMayBeAckedAndAnAckDropsTheOlderOnes() throws {
        let (server, wire, session, a, nodeA, nodeB) = try twoWindows()
        let (serials, activated) = flip(server, session, a, nodeA, nodeB, times: 35)
        try #require(serials.count == 70)
        // Each flip activates a, then deactivates it: the states alternate.
        #expect(activated == (0..<70).map { $0 % 2 == 0 })
        // serials[6] is the oldest of the newest 64: still waiting, so accepted.
        wire.send(a.xdgSurface, Op.xdgSurfaceAckConfigure, [.uint(serials[6])])
        #expect(session.roundtrip())
        #expect(wire.error == nil)
        // That ack dropped it and everything older; the newest is still waiting.
        wire.send(a.xdgSurface, Op.xdgSurfaceAckConfigure, [.uint(serials[69])])
        #expect(session.roundtrip())
        #expect(wire.error == nil)
        wire.send(a.xdgSurface, Op.xdgSurfaceAckConfigure, [.uint(serials[40])])
        session.roundtrip()
        #expect(wire.error?.code == 4) // XDG_SURFACE_ERROR_INVALID_SERIAL
        #expect(wire.error?.message == "serial \(serials[40]) was not sent in a configure")
    }

    @Test func aConfigureOlderThanTheNewest64IsForgotten() throws {
        let (server, wire, session, a, nodeA, nodeB) = try twoWindows()
        let (serials, _) = flip(server, session, a, nodeA, nodeB, times: 35)
        try #require(serials.count == 70)
        wire.send(a.xdgSurface, Op.xdgSurfaceAckConfigure, [.uint(serials[5])])
        session.roundtrip()
        #expect(wire.error?.code == 4)
        #expect(wire.error?.message == "serial \(serials[5]) was not sent in a configure")
    }
}
