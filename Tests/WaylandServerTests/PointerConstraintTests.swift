// Relative pointer and pointer constraints with a real wl-probe client: the exact events
// it receives, and where the server's cursor is.
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct PointerConstraintTests {
    /// The first toplevel maps at (40, 40): layout = surface-local + 40.
    static let origin = 40.0

    /// Relative motion as libinput reports it: accelerated and unaccelerated deltas.
    static func move(_ h: ServerHarness, _ dx: Double, _ dy: Double, raw: (Double, Double)? = nil) {
        h.time += 1000
        let (udx, udy) = raw ?? (dx, dy)
        h.server.handle(
            InputEvent(
                time: h.time, device: DeviceID(1),
                .pointerMotion(dx: dx, dy: dy, unacceleratedDX: udx, unacceleratedDY: udy)))
    }

    /// A probe with one 100×100 toplevel, the pointer at (10, 10) on it.
    static func probeWithPointer(_ h: ServerHarness, _ extra: [String] = []) throws -> ClientProcess {
        let c = try h.probe(["--toplevel", "win", "100x100", "--relative"] + extra)
        h.wait(for: c, line: "mapped win")
        _ = h.settle(c)
        h.warp(origin + 10, origin + 10)
        #expect(h.settle(c) == ["pointer.enter win 10.00 10.00", "pointer.motion 10.00 10.00", "pointer.frame"])
        return c
    }

    /// What the client received, without wl-probe's acknowledgements of commands.
    static func events(_ h: ServerHarness, _ c: ClientProcess) -> [String] {
        h.settle(c).filter { !$0.hasPrefix("done ") }
    }

    @Test func relativeMotionArrivesBeforeAbsoluteMotionWithBothDeltasAndMicroseconds() throws {
        let h = try ServerHarness()
        let c = try Self.probeWithPointer(h)
        Self.move(h, 3, 4, raw: (1.5, 2))
        #expect(
            Self.events(h, c) == [
                "relative.motion 3.00 4.00 raw 1.50 2.00 us=\(h.time)", "pointer.motion 13.00 14.00", "pointer.frame",
            ])
    }

    @Test func aClientWithoutARelativePointerGetsOnlyAbsoluteMotion() throws {
        let h = try ServerHarness()
        let c = try h.probe(["--toplevel", "win", "100x100"])
        h.wait(for: c, line: "mapped win")
        h.warp(Self.origin + 10, Self.origin + 10)
        _ = Self.events(h, c)
        Self.move(h, 3, 4)
        #expect(Self.events(h, c) == ["pointer.motion 13.00 14.00", "pointer.frame"])
    }

    @Test func aLockedPointerStaysStillAndMotionArrivesOnlyAsRelativeMotion() throws {
        let h = try ServerHarness()
        let c = try Self.probeWithPointer(h)
        h.command(c, "lock win oneshot")
        #expect(Self.events(h, c) == ["locked win"])
        Self.move(h, 30, -5, raw: (20, -3))
        #expect(Self.events(h, c) == ["relative.motion 30.00 -5.00 raw 20.00 -3.00 us=\(h.time)", "pointer.frame"])
        #expect(h.server.seat.cursor == Point(Self.origin + 10, Self.origin + 10))
        // Locked means still for absolute devices too.
        h.warp(Self.origin + 90, Self.origin + 90)
        #expect(Self.events(h, c) == [])
        #expect(h.server.seat.cursor == Point(Self.origin + 10, Self.origin + 10))
    }

    @Test func unlockPutsTheCursorAtTheCommittedHint() throws {
        let h = try ServerHarness()
        let c = try Self.probeWithPointer(h)
        h.command(c, "lock win persistent")
        h.command(c, "hint win 60,70")
        // Not committed: no hint yet.
        #expect(Self.events(h, c) == ["locked win"])
        h.command(c, "commit win")
        h.command(c, "unconstrain win")
        #expect(Self.events(h, c) == ["pointer.motion 60.00 70.00", "pointer.frame"])
        #expect(h.server.seat.cursor == Point(Self.origin + 60, Self.origin + 70))
        Self.move(h, 1, 1)
        #expect(
            Self.events(h, c) == [
                "relative.motion 1.00 1.00 raw 1.00 1.00 us=\(h.time)", "pointer.motion 61.00 71.00", "pointer.frame",
            ])
    }

    @Test func aLockActivatesOnlyWhenThePointerIsInItsRegion() throws {
        let h = try ServerHarness()
        let c = try Self.probeWithPointer(h)
        h.command(c, "lock win oneshot 50,50,20,20")
        #expect(Self.events(h, c) == [])
        h.warp(Self.origin + 55, Self.origin + 55)
        #expect(Self.events(h, c) == ["pointer.motion 55.00 55.00", "locked win", "pointer.frame"])
    }

    @Test(arguments: ["oneshot", "persistent"])
    func leaveDeactivatesAndOnlyAPersistentLockComesBack(lifetime: String) throws {
        let h = try ServerHarness()
        let c = try h.mappedProbe(["--toplevel", "win", "100x100", "--relative"])
        h.command(c, "lock win \(lifetime)")
        #expect(Self.events(h, c) == []) // no pointer focus: not active
        h.warp(Self.origin + 10, Self.origin + 10)
        #expect(
            Self.events(h, c) == [
                "pointer.enter win 10.00 10.00", "pointer.motion 10.00 10.00", "locked win", "pointer.frame",
            ])
        // The window moves away from the cursor: the lock ends before the leave.
        let win = h.server.windowNode(of: try #require(h.server.seat.pointerFocusNode))
        h.server.router.tree.move(win, to: (300, 300))
        h.server.sendDeliveries()
        #expect(Self.events(h, c) == ["unlocked win", "pointer.leave win", "pointer.frame"])
        // Back under the cursor: a persistent lock activates again, a oneshot one never does.
        h.server.router.tree.move(win, to: (40, 40))
        h.server.sendDeliveries()
        #expect(
            Self.events(h, c) == ["pointer.enter win 10.00 10.00"] + (lifetime == "persistent" ? ["locked win"] : [])
                + ["pointer.frame"])
    }

    /// WLCS's reselection (PointerConstraints.when_surface_is_reselected_persistent_*): the
    /// pointer stays on the surface while another window takes the keyboard and gives it
    /// back. A persistent constraint ends and comes back; a oneshot one ends for good.
    @Test(arguments: ["lock", "confine"], ["oneshot", "persistent"])
    func aConstraintEndsWhenAnotherWindowIsSelectedAndComesBack(kind: String, lifetime: String) throws {
        let h = try ServerHarness()
        let c = try h.probe(["--toplevel", "win", "100x100", "--relative", "--no-touch"])
        h.wait(for: c, line: "mapped win")
        h.warp(45, 45) // on win only, once the other window is there
        h.command(c, "\(kind) win \(lifetime)")
        let on = kind == "lock" ? "locked win" : "confined win"
        let off = kind == "lock" ? "unlocked win" : "unconfined win"
        #expect(Self.events(h, c).last == on)
        // maps at (72, 72), takes the keyboard
        let other = try h.probe(["--toplevel", "other", "100x100", "--no-touch"])
        h.wait(for: other, line: "mapped other")
        #expect(Self.events(h, c).filter { !$0.hasPrefix("configure") } == ["keyboard.leave win", off])
        #expect(h.server.seat.activePointerConstraint == nil)
        // A click selects win again (the pointer never left it; a lock kept it still).
        h.button(.pressed)
        h.button(.released)
        let back = Self.events(h, c).filter { !$0.hasPrefix("configure") }
        // The keyboard first (focus on click goes before the press), and with it the constraint.
        #expect(
            back == ["keyboard.enter win keys=[]", "keyboard.modifiers 0 0 0 0"]
                + (lifetime == "persistent" ? [on] : [])
                + ["pointer.button 272 pressed", "pointer.frame", "pointer.button 272 released", "pointer.frame"])
        #expect((h.server.seat.activePointerConstraint != nil) == (lifetime == "persistent"))
    }

    @Test func confinementClampsTheCursorToTheRegionIntersectedWithTheInputRegion() throws {
        let h = try ServerHarness()
        // Input region 0,0 60x100; confinement region 0,0 80x50: the cursor stays in 60×50.
        let c = try Self.probeWithPointer(h, ["--input", "win", "0,0,60,100"])
        h.command(c, "confine win persistent 0,0,80,50")
        #expect(Self.events(h, c) == ["confined win"])
        Self.move(h, 200, 200)
        let edge = 1.0 // the last whole pixel inside (as Mir; WLCS checks it)
        #expect(h.server.seat.cursor == Point(Self.origin + 60 - edge, Self.origin + 50 - edge))
        #expect(
            Self.events(h, c) == [
                "relative.motion 200.00 200.00 raw 200.00 200.00 us=\(h.time)", "pointer.motion 59.00 49.00",
                "pointer.frame",
            ])
        Self.move(h, -20, -100)
        #expect(h.server.seat.cursor == Point(Self.origin + 40 - edge, Self.origin))
        _ = Self.events(h, c)
        // A new region, applied at commit.
        h.command(c, "constraint-region win 0,0,20,20")
        Self.move(h, 0, 30)
        #expect(h.server.seat.cursor == Point(Self.origin + 40 - edge, Self.origin + 30))
        _ = Self.events(h, c)
        h.command(c, "commit win")
        // The cursor was outside the new region: it goes to the region's nearest point.
        #expect(h.server.seat.cursor == Point(Self.origin + 20 - edge, Self.origin + 20 - edge))
        #expect(Self.events(h, c) == ["pointer.motion 19.00 19.00", "pointer.frame"])
    }

    @Test func theEscapeBindingBreaksALockAndTheClientNeverSeesTheKeys() throws {
        let h = try ServerHarness()
        let c = try Self.probeWithPointer(h)
        h.command(c, "lock win persistent")
        _ = Self.events(h, c)
        h.key(125, .pressed) // Super
        h.key(1, .pressed) // Escape
        h.key(1, .released)
        h.key(125, .released)
        let lines = Self.events(h, c)
        #expect(lines.contains("unlocked win"))
        #expect(!lines.contains { $0.hasPrefix("keyboard.key") && $0.contains(" 1 ") })
        #expect(h.server.seat.activePointerConstraint == nil)
        // The cursor moves again, and the broken persistent lock waits for a new enter.
        Self.move(h, 5, 0)
        #expect(
            Self.events(h, c) == [
                "relative.motion 5.00 0.00 raw 5.00 0.00 us=\(h.time)", "pointer.motion 15.00 10.00", "pointer.frame",
            ])
    }

    static let errors: [(mode: String, line: String)] = [
        ("constraint-twice", "zwp_pointer_constraints_v1@ code=1"), // already_constrained
        ("constraint-bad-lifetime", "zwp_pointer_constraints_v1@ code=1"), // wl_display.invalid_method
    ]

    @Test(arguments: errors.map(\.mode))
    func aBrokenRuleIsTheOffendersProtocolError(mode: String) throws {
        let h = try ServerHarness()
        let bad = try h.probe(["--hostile", mode])
        var errorLine = ""
        h.wait(for: bad) { line in
            if line.hasPrefix("protocol-error") || line.hasPrefix("disconnected") {
                errorLine = line
                return true
            }
            return false
        }
        let words = errorLine.split(separator: " ")
        let shown = words.count == 3 ? "\(words[1].prefix { $0 != "@" })@ \(words[2])" : errorLine
        #expect(shown == Self.errors.first { $0.mode == mode }!.line)
    }
}
