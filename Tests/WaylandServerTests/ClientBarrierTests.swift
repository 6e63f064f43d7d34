// The server's barrier (Server+Ping.swift) with real clients: it passes once each client
// has answered a ping sent after the events (so it handled them), read everything (no
// xdg_wm_base to ping), or gone; and it says whom it still waits for.
import Foundation
import InputRouter
import InputRouterWireClient
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct ClientBarrierTests {
    /// Dispatches until `barrier` passes; false, with whom it waited for, after `timeout`.
    @discardableResult
    func pass(
        _ h: ServerHarness, _ barrier: ClientBarrier, timeout: Double = 30,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if barrier.isPassed { return true }
            h.server.dispatch(timeoutMS: 5)
        }
        Issue.record(
            "the barrier still waits for \(barrier.waiting) after \(timeout) s", sourceLocation: sourceLocation)
        return false
    }

    @Test func aSlowClientHasPrintedEveryKeyByItsPong() throws {
        let h = try ServerHarness()
        let c = try h.mappedProbe(["--toplevel", "win", "100x100", "--slow", "10"])
        for key in UInt32(2)...21 {
            h.key(key, .pressed)
            h.key(key, .released)
        }
        let barrier = h.server.barrier()
        // The ping was only just sent: no answer can have come in.
        #expect(barrier.waiting.map(\.program) == ["wl-probe"])
        try #require(pass(h, barrier))
        c.poll()
        // 40 lines at 10 ms each: all printed before the pong, none still to come.
        #expect(c.take().filter { $0.hasPrefix("keyboard.key ") }.count == 40)
    }

    @Test func aClientThatIgnoresThePingIsNamedUntilItGoes() throws {
        let h = try ServerHarness()
        let c = try h.probe(["--toplevel", "win", "100x100", "--ignore-ping"])
        h.wait(for: c, line: "mapped win")
        let barrier = h.server.barrier()
        // A roundtrip after the ping: the probe has read the ping, and did not answer.
        _ = h.settle(c)
        #expect(!barrier.isPassed)
        let waiting = try #require(barrier.waiting.first)
        #expect(waiting.pid == c.process.processIdentifier)
        #expect(
            waiting.description.hasPrefix("wl-probe (pid \(c.process.processIdentifier)): no pong to xdg_wm_base.ping ")
        )
        // Gone, it holds nothing up.
        kill(c.process.processIdentifier, SIGKILL)
        pass(h, barrier)
    }

    /// A client without xdg_wm_base cannot be pinged: the barrier waits until it has read
    /// every byte sent before it.
    @Test func aClientWithoutXdgWmBasePassesOnceItReadEverything() throws {
        let h = try ServerHarness()
        let (_, wire, session) = try h.server.connectWireClient(binding: [("wl_seat", 8)])
        try #require(session.roundtrip())
        #expect(h.server.barrier().isPassed, "it has read everything")
        // A sync the server answers, and the client does not read yet.
        wire.send(1, Op.displaySync, [.uint(wire.newID("wl_callback"))])
        h.server.dispatch(timeoutMS: 0)
        let barrier = h.server.barrier()
        let waiting = try #require(barrier.waiting.first)
        #expect(waiting.missing.hasSuffix(" bytes unread (no xdg_wm_base to ping)"))
        session.drain()
        #expect(barrier.isPassed)
    }
}
