// xdg_activation_v1 as real clients (two wl-probes) see it: a token cited with a press the
// requester really got moves the keyboard focus to the activated window and raises it; a
// forged serial, no serial, a used or an expired token change nothing (and say why in
// activationLog); a committed token cannot be changed.
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct ActivationTests {
    /// A launcher `a` at (40, 40) and an app `b` at (72, 72) that mapped last (so it had the
    /// focus); a click on a's corner gives a a press serial and the focus.
    func launcherAndApp(_ h: ServerHarness) throws -> (ClientProcess, ClientProcess) {
        let a = try h.probe(["--toplevel", "a", "100x100", "--no-touch"])
        h.wait(for: a, line: "mapped a")
        let b = try h.probe(["--toplevel", "b", "100x100", "--no-touch"])
        h.wait(for: b, line: "mapped b")
        h.warp(45, 45)
        h.button(.pressed)
        h.button(.released)
        _ = h.settle(a)
        #expect(h.settle(b).contains("keyboard.leave b"))
        return (a, b)
    }

    func token(_ h: ServerHarness, _ client: ClientProcess, _ serial: String) -> String {
        client.send("token a \(serial)")
        h.wait(for: client) { $0.hasPrefix("activation.token ") }
        let line = client.lines.last { $0.hasPrefix("activation.token ") } ?? ""
        _ = h.settle(client)
        return String(line.dropFirst("activation.token ".count))
    }

    @Test func aTokenCitingARealPressMovesTheFocusAndRaises() throws {
        let h = try ServerHarness()
        let (a, b) = try launcherAndApp(h)
        let t = token(h, a, "press")
        #expect(!t.isEmpty)
        h.command(b, "activate b \(t)")
        let toB = h.settle(b)
        #expect(toB.contains("keyboard.enter b keys=[]"))
        #expect(toB.contains("configure b 0x0 [activated]"))
        #expect(h.settle(a).contains("keyboard.leave a"))
        #expect(h.server.activationLog.last?.outcome == .granted)
        // Raised: b is on top where the windows overlap.
        h.warp(100, 100)
        #expect(h.settle(b).contains("pointer.enter b 28.00 28.00"))
    }

    @Test func aForgedSerialOrNoneNeverStealsTheFocus() throws {
        let h = try ServerHarness()
        let (a, b) = try launcherAndApp(h)
        for serial in ["forged", "none"] {
            let t = token(h, a, serial)
            h.command(b, "activate b \(t)")
            #expect(!h.settle(b).contains { $0.hasPrefix("keyboard.enter") || $0.hasPrefix("configure") }, "\(serial)")
            #expect(!h.settle(a).contains("keyboard.leave a"), "\(serial)")
            #expect(h.server.activationLog.last?.outcome == .noValidSerial, "\(serial)")
        }
        // Not raised either: a is still on top where they overlap.
        h.warp(100, 100)
        #expect(h.settle(a).contains("pointer.motion 60.00 60.00"))
    }

    @Test func aTokenWorksOnceAndExpires() throws {
        let h = try ServerHarness()
        let (a, b) = try launcherAndApp(h)
        let t = token(h, a, "press")
        h.command(b, "activate b \(t)")
        #expect(h.server.activationLog.last?.outcome == .granted)
        h.warp(45, 45)
        h.button(.pressed)
        h.button(.released) // a takes the focus back (and gets a new press)
        _ = h.settle(a)
        _ = h.settle(b)
        h.command(b, "activate b \(t)")
        #expect(h.server.activationLog.last?.outcome == .unknownToken)
        #expect(!h.settle(b).contains { $0.hasPrefix("keyboard.enter") })
        // Expired: issued, then the clock passes its lifetime.
        var now: UInt64 = 1_000
        h.server.activationTokens.clock = { now }
        let late = token(h, a, "press")
        now += h.server.activationTokens.lifetimeMS + 1
        h.command(b, "activate b \(late)")
        #expect(h.server.activationLog.last?.outcome == .expired)
        #expect(!h.settle(b).contains { $0.hasPrefix("keyboard.enter") })
        // A token never issued.
        h.command(b, "activate b 0-1-2-3")
        #expect(h.server.activationLog.last?.outcome == .unknownToken)
    }

    @Test func aCommittedTokenCannotChange() throws {
        let h = try ServerHarness()
        let (a, _) = try launcherAndApp(h)
        _ = token(h, a, "press")
        a.send("token-again")
        h.wait(for: a) { $0.hasPrefix("protocol-error") }
        #expect(
            a.lines.last.map { $0.hasPrefix("protocol-error xdg_activation_token_v1@") && $0.hasSuffix(" code=0") }
                == true,
            "\(a.lines.last ?? "")")
    }
}
