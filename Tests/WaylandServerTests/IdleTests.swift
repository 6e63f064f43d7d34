// ext_idle_notifier_v1 and zwp_idle_inhibit_manager_v1 as a real client (wl-probe
// --idle-notify) sees them: idled after the timeout without input, resumed on the next input
// event, held while a mapped surface inhibits, released when the inhibitor goes or its
// surface unmaps. Timeouts are tens of milliseconds and the tests wait for the lines.
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct IdleTests {
    /// Dispatches for `ms` of real time: the proof that nothing happens within it.
    func quiet(_ h: ServerHarness, _ client: ClientProcess, ms: Int) -> [String] {
        let until = monotonicMilliseconds64() + UInt64(ms)
        while monotonicMilliseconds64() < until { h.server.dispatch(timeoutMS: 5) }
        return h.settle(client)
    }

    @Test func idledAfterTheTimeoutResumedOnInput() throws {
        let h = try ServerHarness()
        let c = try h.probe([
            "--toplevel", "win", "100x100", "--idle-notify", "40", "--idle-notify", "600000", "--no-touch",
        ])
        h.wait(for: c, line: "idle.idled 40")
        _ = c.take()
        h.key(30, .pressed)
        #expect(h.settle(c).filter { $0.hasPrefix("idle.") } == ["idle.resumed 40"])
        h.key(30, .released)
        h.wait(for: c, line: "idle.idled 40")
        _ = c.take()
        // Pointer motion is input too; the long notification never went idle, so it hears nothing.
        h.server.handle(
            InputEvent(
                time: h.time + 1000, device: DeviceID(1),
                .pointerMotion(dx: 1, dy: 0, unacceleratedDX: 1, unacceleratedDY: 0)))
        #expect(h.settle(c).filter { $0.hasPrefix("idle.") } == ["idle.resumed 40"])
    }

    @Test func aMappedInhibitingSurfaceHoldsTheTimers() throws {
        let h = try ServerHarness()
        let player = try h.probe(["--toplevel", "video", "100x100", "--no-touch"])
        h.wait(for: player, line: "mapped video")
        h.command(player, "idle-inhibit video")
        #expect(h.server.idle.inhibited)
        let c = try h.probe(["--toplevel", "locker", "10x10", "--idle-notify", "30", "--no-touch"])
        h.wait(for: c, line: "mapped locker")
        #expect(!quiet(h, c, ms: 150).contains("idle.idled 30"))
        // The inhibitor goes: the timeout counts from then.
        h.command(player, "idle-uninhibit video")
        h.wait(for: c, line: "idle.idled 30")
        // Again with an inhibitor whose surface then unmaps.
        h.key(30, .pressed)
        h.key(30, .released)
        h.command(player, "idle-inhibit video")
        _ = h.settle(c)
        #expect(!quiet(h, c, ms: 150).contains("idle.idled 30"))
        h.command(player, "unrole video")
        #expect(!h.server.idle.inhibited)
        h.wait(for: c, line: "idle.idled 30")
    }

    @Test func anInhibitorOnAnUnmappedSurfaceHoldsNothing() throws {
        let h = try ServerHarness()
        let player = try h.probe(["--toplevel", "video", "100x100", "--no-touch"])
        h.wait(for: player, line: "mapped video")
        h.command(player, "unrole video")
        h.command(player, "idle-inhibit video")
        #expect(!h.server.idle.inhibited)
        let c = try h.probe(["--toplevel", "locker", "10x10", "--idle-notify", "30", "--no-touch"])
        h.wait(for: c, line: "idle.idled 30")
    }
}
