// zwp_keyboard_shortcuts_inhibit_manager_v1 as a real client (wl-probe --inhibit-shortcuts)
// sees it: compositor bindings pass to the focused inhibiting surface, Super+Escape stays
// the compositor's and gives the bindings back, focus moves switch the inhibitor on and off.
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct ShortcutsInhibitTests {
    static let superKey: UInt32 = 125, q: UInt32 = 16, escape: UInt32 = 1

    /// A Super+q binding counting its runs, as a compositor's "close window" would.
    final class Counter { var runs = 0 }
    func addBinding(_ h: ServerHarness) -> Counter {
        let counter = Counter()
        h.server.seat.addBinding(KeyBinding(keysym: 0x71, modifiers: .superKey)) { counter.runs += 1 }
        return counter
    }

    func superQ(_ h: ServerHarness) {
        h.key(Self.superKey, .pressed)
        h.key(Self.q, .pressed)
        h.key(Self.q, .released)
        h.key(Self.superKey, .released)
    }

    @Test func bindingsPassToTheFocusedInhibitorUntilTheEscapeBinding() throws {
        let h = try ServerHarness()
        let counter = addBinding(h)
        let c = try h.probe([
            "--toplevel", "win", "100x100", "--inhibit-shortcuts", "win", "--no-pointer", "--no-touch",
        ])
        h.wait(for: c, line: "mapped win")
        let start = h.settle(c)
        let enter = try #require(start.firstIndex(of: "keyboard.enter win keys=[]"))
        #expect(start.firstIndex(of: "inhibitor.active win").map { $0 > enter } == true)
        superQ(h)
        #expect(
            h.settle(c) == [
                "keyboard.key 125 pressed", "keyboard.modifiers 64 0 0 0", "keyboard.key 16 pressed",
                "keyboard.key 16 released", "keyboard.key 125 released", "keyboard.modifiers 0 0 0 0",
            ])
        #expect(counter.runs == 0)
        // The escape: Super+Escape is never the client's; the inhibitor stops.
        h.key(Self.superKey, .pressed)
        h.key(Self.escape, .pressed)
        h.key(Self.escape, .released)
        #expect(h.settle(c) == ["keyboard.key 125 pressed", "keyboard.modifiers 64 0 0 0", "inhibitor.inactive win"])
        h.key(Self.q, .pressed)
        h.key(Self.q, .released)
        h.key(Self.superKey, .released)
        #expect(h.settle(c) == ["keyboard.key 125 released", "keyboard.modifiers 0 0 0 0"])
        #expect(counter.runs == 1)
    }

    @Test func theInhibitorFollowsTheKeyboardFocus() throws {
        let h = try ServerHarness()
        let counter = addBinding(h)
        let a = try h.probe(["--toplevel", "a", "100x100", "--inhibit-shortcuts", "a", "--no-touch"])
        h.wait(for: a, line: "mapped a")
        #expect(h.settle(a).contains("inhibitor.active a"))
        let b = try h.probe(["--toplevel", "b", "100x100", "--no-touch"]) // maps at (72, 72), takes focus
        h.wait(for: b, line: "mapped b")
        let toA = h.settle(a)
        #expect(
            toA.filter { $0.hasPrefix("inhibitor.") || $0.hasPrefix("keyboard.leave") } == [
                "keyboard.leave a", "inhibitor.inactive a",
            ])
        _ = h.settle(b)
        superQ(h)
        #expect(counter.runs == 1) // b inhibits nothing
        h.warp(45, 45) // only a is there
        h.button(.pressed)
        h.button(.released)
        #expect(h.settle(a).contains("inhibitor.active a"))
        superQ(h)
        #expect(counter.runs == 1)
        #expect(h.settle(a).contains("keyboard.key 16 pressed"))
        // Destroyed: the bindings are the compositor's again, and no event goes to a dead object.
        h.command(a, "uninhibit a")
        superQ(h)
        #expect(counter.runs == 2)
        #expect(!h.settle(a).contains { $0.hasPrefix("inhibitor.") || $0 == "keyboard.key 16 pressed" })
    }

    @Test func theEscapeLastsUntilTheSurfaceGetsTheFocusAgain() throws {
        let h = try ServerHarness()
        let a = try h.probe(["--toplevel", "a", "100x100", "--inhibit-shortcuts", "a", "--no-touch"])
        h.wait(for: a, line: "mapped a")
        let b = try h.probe(["--toplevel", "b", "100x100", "--no-touch"])
        h.wait(for: b, line: "mapped b")
        h.warp(45, 45)
        h.button(.pressed)
        h.button(.released)
        _ = h.settle(a)
        h.key(Self.superKey, .pressed)
        h.key(Self.escape, .pressed)
        h.key(Self.escape, .released)
        h.key(Self.superKey, .released)
        #expect(h.settle(a).filter { $0.hasPrefix("inhibitor.") } == ["inhibitor.inactive a"])
        h.warp(160, 160) // only b
        h.button(.pressed)
        h.button(.released)
        h.warp(45, 45)
        h.button(.pressed)
        h.button(.released)
        #expect(h.settle(a).filter { $0.hasPrefix("inhibitor.") } == ["inhibitor.active a"])
    }

    @Test func aSecondInhibitorForTheSameSurfaceIsAlreadyInhibited() throws {
        let h = try ServerHarness()
        let c = try h.mappedProbe(["--toplevel", "win", "100x100", "--inhibit-shortcuts", "win"])
        c.send("inhibit win")
        h.wait(for: c) { $0.hasPrefix("protocol-error") }
        #expect(
            c.lines.last.map {
                $0.hasPrefix("protocol-error zwp_keyboard_shortcuts_inhibit_manager_v1@") && $0.hasSuffix(" code=0")
            }
                == true, "\(c.lines.last ?? "")")
        // After the first is destroyed, a new one is fine.
        let d = try h.probe(["--toplevel", "win", "100x100", "--inhibit-shortcuts", "win"])
        h.wait(for: d, line: "mapped win")
        h.command(d, "uninhibit win")
        h.command(d, "inhibit win")
        #expect(h.settle(d).contains("inhibitor.active win"))
    }

    /// One escape for both protocols, over each combination a client can hold: shortcuts
    /// inhibited or not × no constraint, a lock, a confinement. Super+Escape ends all that
    /// is active, and the client never sees the Escape key; with nothing to end, it does.
    @Test(arguments: [false, true], ["none", "lock", "confine"])
    func oneEscapeEndsInhibitionAndConstraintTogether(inhibit: Bool, constraint: String) throws {
        let h = try ServerHarness()
        let c = try h.probe(
            ["--toplevel", "win", "100x100", "--relative", "--no-touch"]
                + (inhibit ? ["--inhibit-shortcuts", "win"] : []))
        h.wait(for: c, line: "mapped win")
        h.warp(50, 50)
        if constraint != "none" { h.command(c, "\(constraint) win persistent") }
        let start = h.settle(c)
        #expect(start.contains("inhibitor.active win") == inhibit)
        #expect(start.contains("locked win") == (constraint == "lock"))
        #expect(start.contains("confined win") == (constraint == "confine"))
        h.key(Self.superKey, .pressed)
        h.key(Self.escape, .pressed)
        h.key(Self.escape, .released)
        h.key(Self.superKey, .released)
        var expected = ["keyboard.key 125 pressed", "keyboard.modifiers 64 0 0 0"]
        if inhibit { expected.append("inhibitor.inactive win") }
        if constraint == "lock" { expected.append("unlocked win") }
        if constraint == "confine" { expected.append("unconfined win") }
        if !inhibit && constraint == "none" { expected += ["keyboard.key 1 pressed", "keyboard.key 1 released"] }
        expected += ["keyboard.key 125 released", "keyboard.modifiers 0 0 0 0"]
        #expect(h.settle(c).filter { !$0.hasPrefix("done ") } == expected)
        #expect(!h.server.seat.shortcutsInhibited)
        #expect(h.server.seat.activePointerConstraint == nil)
    }
}
