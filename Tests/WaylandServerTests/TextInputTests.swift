// zwp_text_input_v3 as a real client (wl-probe --text-input) sees it: enter and leave follow
// the keyboard focus, the compositor's compose is the input method for the enabled text
// input (a dead key shows as preedit, the composed letter is committed, neither reaches
// wl_keyboard), every done carries the client's commit count, and the state requests are
// applied on commit.
import InputRouter
import InputRouterKeyboard
import Testing

@testable import InputRouterWayland

/// `us(intl)`: the apostrophe key is dead_acute. Compose from en_US.UTF-8's table.
let deadKeyKeyboard = KeyboardConfiguration(
    keymap: .names(RuleNames(layout: "us", variant: "intl")), compose: true, composeLocale: "en_US.UTF-8")

@Suite(.serialized) struct TextInputTests {
    static let apostrophe: UInt32 = 40, e: UInt32 = 18, a: UInt32 = 30, q: UInt32 = 16

    func tap(_ h: ServerHarness, _ key: UInt32) {
        h.key(key, .pressed)
        h.key(key, .released)
    }

    /// What the client printed, without the answers to the commands.
    func events(_ h: ServerHarness, _ c: ClientProcess) -> [String] { h.settle(c).filter { !$0.hasPrefix("done ") } }

    @Test func enterAndLeaveFollowTheKeyboardFocus() throws {
        let h = try ServerHarness()
        let a = try h.probe(["--toplevel", "a", "100x100", "--text-input", "--no-touch"])
        h.wait(for: a, line: "mapped a")
        #expect(h.settle(a).filter { $0.hasPrefix("text.") } == ["text.enter a"])
        // at (72, 72), takes the focus
        let b = try h.probe(["--toplevel", "b", "100x100", "--text-input", "--no-touch"])
        h.wait(for: b, line: "mapped b")
        #expect(h.settle(a).filter { $0.hasPrefix("text.") } == ["text.leave a"])
        #expect(h.settle(b).filter { $0.hasPrefix("text.") } == ["text.enter b"])
        h.warp(45, 45) // only a is there
        h.button(.pressed)
        h.button(.released)
        #expect(h.settle(b).filter { $0.hasPrefix("text.") } == ["text.leave b"])
        #expect(h.settle(a).filter { $0.hasPrefix("text.") } == ["text.enter a"])
        // a's window goes (its wl_surface stays): leave, and the focus falls back to b.
        h.command(a, "unrole a")
        #expect(h.settle(a).filter { $0.hasPrefix("text.") } == ["text.leave a"])
        #expect(h.settle(b).filter { $0.hasPrefix("text.") } == ["text.enter b"])
    }

    /// With no text input on the seat only the focus's node is kept (TextInputState's
    /// idle focus): one made later enters the window that has the keyboard then, and none
    /// other; one made again after the last went enters where the focus is now.
    @Test func aTextInputMadeLateEntersTheWindowThatHasTheKeyboard() throws {
        let h = try ServerHarness()
        let a = try h.probe(["--toplevel", "a", "100x100", "--no-touch"])
        h.wait(for: a, line: "mapped a")
        let b = try h.probe(["--toplevel", "b", "100x100", "--no-touch"]) // at (72, 72), takes the focus
        h.wait(for: b, line: "mapped b")
        h.warp(45, 45) // only a is there
        h.button(.pressed)
        h.button(.released)
        _ = h.settle(a)
        _ = h.settle(b)
        h.command(b, "text create")
        #expect(h.settle(b).filter { $0.hasPrefix("text.") }.isEmpty) // b has no keyboard
        h.command(a, "text create")
        #expect(h.settle(a).filter { $0.hasPrefix("text.") } == ["text.enter a"])
        h.command(a, "text destroy")
        h.command(b, "text destroy")
        h.warp(160, 160) // only b is there
        h.button(.pressed)
        h.button(.released)
        _ = h.settle(a)
        _ = h.settle(b)
        h.command(a, "text create")
        h.command(b, "text create")
        #expect(h.settle(a).filter { $0.hasPrefix("text.") }.isEmpty)
        #expect(h.settle(b).filter { $0.hasPrefix("text.") } == ["text.enter b"])
    }

    @Test func aDeadKeyAndALetterReachTheEnabledTextInputComposed() throws {
        let h = try ServerHarness(keyboard: deadKeyKeyboard)
        var trace: [String] = []
        h.server.deliveryObserver = { [unowned h] d, q in
            trace.append(TraceSink.line(d, queue: q, router: h.server.router))
        }
        let c = try h.probe(["--toplevel", "win", "100x100", "--text-input-auto", "--no-pointer", "--no-touch"])
        h.wait(for: c, line: "mapped win")
        #expect(h.settle(c).filter { $0.hasPrefix("text.") } == ["text.enter win"])
        trace.removeAll()
        tap(h, Self.apostrophe)
        tap(h, Self.e)
        #expect(
            h.settle(c) == [
                "text.preedit \"´\" 2 2", "text.done 1 commits=1", "text.commit_string \"é\"", "text.done 1 commits=1",
            ])
        #expect(
            trace == [
                "seat0 input_method key 40 for \"client1 wl-probe: win\"",
                "seat0 input_method key 18 for \"client1 wl-probe: win\"",
            ])
        // A plain key is the client's, as always.
        tap(h, Self.a)
        #expect(h.settle(c) == ["keyboard.key 30 pressed", "keyboard.key 30 released"])
        // A broken sequence: the dead key's preedit is cleared, the key that broke it is eaten.
        tap(h, Self.apostrophe)
        tap(h, Self.q)
        #expect(h.settle(c) == ["text.preedit \"´\" 2 2", "text.done 1 commits=1", "text.done 1 commits=1"])
    }

    @Test func withoutAnEnabledTextInputTheClientGetsTheRawKeys() throws {
        let h = try ServerHarness(keyboard: deadKeyKeyboard)
        let c = try h.mappedProbe(["--toplevel", "win", "100x100", "--text-input", "--no-pointer", "--no-touch"])
        tap(h, Self.apostrophe)
        tap(h, Self.e)
        let raw = [
            "keyboard.key 40 pressed", "keyboard.key 40 released", "keyboard.key 18 pressed",
            "keyboard.key 18 released",
        ]
        #expect(h.settle(c) == raw)
        // Enabled, then disabled again: raw keys once more.
        h.command(c, "text enable")
        h.command(c, "text commit")
        h.command(c, "text disable")
        h.command(c, "text commit")
        tap(h, Self.apostrophe)
        tap(h, Self.e)
        #expect(events(h, c) == raw)
        // A client without any text input composes itself, from raw keys.
        let plain = try h.mappedProbe(["--toplevel", "plain", "100x100", "--no-pointer", "--no-touch"])
        tap(h, Self.apostrophe)
        tap(h, Self.e)
        #expect(h.settle(plain) == raw)
    }

    @Test func doneCarriesTheNumberOfCommitsSoFar() throws {
        let h = try ServerHarness(keyboard: deadKeyKeyboard)
        let c = try h.mappedProbe(["--toplevel", "win", "100x100", "--text-input", "--no-pointer", "--no-touch"])
        // Commits before the enable count too, and so do those that change nothing.
        h.command(c, "text commit")
        h.command(c, "text enable")
        h.command(c, "text commit")
        h.command(c, "text surrounding abc 3 3")
        h.command(c, "text commit")
        h.command(c, "text commit")
        tap(h, Self.apostrophe)
        #expect(events(h, c) == ["text.preedit \"´\" 2 2", "text.done 4 commits=4"])
        tap(h, Self.e)
        #expect(h.settle(c) == ["text.commit_string \"é\"", "text.done 4 commits=4"])
    }

    @Test func stateRequestsApplyOnCommitAndEnableResetsThem() throws {
        let h = try ServerHarness()
        let c = try h.mappedProbe(["--toplevel", "win", "100x100", "--text-input", "--no-pointer", "--no-touch"])
        let input = try #require(h.server.textInput.inputs.first)
        h.command(c, "text enable")
        h.command(c, "text surrounding héllo 3 1")
        h.command(c, "text content 514 4") // spellcheck|multiline, phone
        h.command(c, "text cursor 5,6,1,16")
        #expect(input.current.enabled == false) // pending until the commit
        h.command(c, "text commit")
        var expected = TextInputObject.State(
            enabled: true, surroundingText: "héllo", cursor: 3, anchor: 1, contentHint: 514,
            contentPurpose: 4, cursorRectangle: Rect(5, 6, 1, 16))
        #expect(input.current == expected)
        #expect(h.server.textInput.active === input)
        // A commit changing one thing keeps the others.
        h.command(c, "text cursor 7,6,1,16")
        h.command(c, "text commit")
        expected.cursorRectangle = Rect(7, 6, 1, 16)
        #expect(input.current == expected)
        // enable starts afresh; disable drops everything.
        h.command(c, "text enable")
        h.command(c, "text commit")
        #expect(input.current == TextInputObject.State(enabled: true))
        h.command(c, "text disable")
        h.command(c, "text commit")
        #expect(input.current == TextInputObject.State())
        #expect(h.server.textInput.active == nil)
        #expect(h.server.seat.inputMethod == nil)
    }

    @Test func afterLeaveRequestsAreIgnoredAndTheKeysGoRaw() throws {
        let h = try ServerHarness(keyboard: deadKeyKeyboard)
        let a = try h.mappedProbe(["--toplevel", "a", "100x100", "--text-input-auto", "--no-touch"])
        let b = try h.probe(["--toplevel", "b", "100x100", "--no-touch"]) // no text input
        h.wait(for: b, line: "mapped b")
        #expect(h.settle(a).filter { $0.hasPrefix("text.") } == ["text.leave a"])
        _ = h.settle(b)
        h.command(a, "text enable")
        h.command(a, "text commit") // ignored: a has no text-input focus
        #expect(h.server.textInput.inputs.first?.current.enabled == false)
        tap(h, Self.apostrophe)
        tap(h, Self.e)
        #expect(
            h.settle(b) == [
                "keyboard.key 40 pressed", "keyboard.key 40 released", "keyboard.key 18 pressed",
                "keyboard.key 18 released",
            ])
        #expect(!h.settle(a).contains { $0.hasPrefix("text.") })
    }

    @Test func aDeadKeyPendingWhenTheFocusMovesDoesNotFinishElsewhere() throws {
        let h = try ServerHarness(keyboard: deadKeyKeyboard)
        let a = try h.mappedProbe(["--toplevel", "a", "100x100", "--text-input-auto", "--no-touch"])
        tap(h, Self.apostrophe)
        #expect(h.settle(a) == ["text.preedit \"´\" 2 2", "text.done 1 commits=1"])
        // b enables a text input of its own: the letter must not complete a's accent there.
        let b = try h.probe(["--toplevel", "b", "100x100", "--text-input-auto", "--no-touch"])
        h.wait(for: b, line: "mapped b")
        #expect(h.settle(a).filter { $0.hasPrefix("text.") } == ["text.leave a"])
        _ = h.settle(b)
        tap(h, Self.e)
        #expect(h.settle(b) == ["keyboard.key 18 pressed", "keyboard.key 18 released"])
    }
}
