// zwp_virtual_keyboard_v1 as real clients see it, both sides wl-probe: a window with the
// focus (`--keymap-names`: each keymap it is sent is named by its layout) and a typist
// with a virtual keyboard whose keymap is French, while the seat's is US. The expected lines
// are the protocol's and the users' reports' (docs/wayland.md): the focused client has the
// keymap of every key and every modifiers event before it (sway#8169), gets the seat's own
// back before the next physical key (labwc#2723, sway#6436), and sees the keys a virtual
// keyboard held released when it goes, however it goes (niri#3274).
import Foundation
import InputRouter
import InputRouterKeyboard
import Testing

@testable import InputRouterWayland

/// A keymap file of `layout` (evdev rules, pc105), for a virtual keyboard to send.
func keymapFile(layout: String) throws -> String {
    let path = runtimeDirectory + "/keymap-\(layout)-\(getpid()).xkb"
    let text = try Keymap(context: XKBContext(), names: RuleNames(layout: layout)).asString()
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

@Suite(.serialized) struct VirtualKeyboardTests {
    static let us = "keyboard.keymap format=1 size>0=true layout=English (US)"
    static let fr = "keyboard.keymap format=1 size>0=true layout=French"

    /// The focused window, and a typist (a client of its own, no window) whose virtual
    /// keyboard has the French keymap and has typed nothing yet.
    func window(and typistArguments: [String] = [], _ h: ServerHarness) throws -> (ClientProcess, ClientProcess) {
        let window = try h.mappedProbe(["--toplevel", "win", "100x100", "--keymap-names"])
        let typist = try h.probe(["--no-pointer", "--no-keyboard", "--no-touch"] + typistArguments)
        h.wait(for: typist, line: "ready")
        h.command(typist, "vk create")
        h.command(typist, "vk keymap \(try keymapFile(layout: "fr"))")
        // A keyboard joined the seat: every wl_seat is told the capabilities again, as
        // wlroots does (wtype waits for an event after its keymap). No keymap yet: it has
        // typed nothing.
        #expect(h.settle(window) == ["seat.capabilities 7"])
        return (window, typist)
    }

    @Test func theFocusGetsTheVirtualKeymapBeforeItsFirstKeyAndTheSeatsBeforeTheNextPhysicalKey() throws {
        let h = try ServerHarness()
        let (window, typist) = try window(h)
        h.command(typist, "vk key 16 pressed") // fr: a
        // The keymap first, then the modifiers in it (a client starts a keymap with none).
        #expect(h.settle(window) == [Self.fr, "keyboard.modifiers 0 0 0 0", "keyboard.key 16 pressed"])
        h.command(typist, "vk key 16 released")
        #expect(h.settle(window) == ["keyboard.key 16 released"])
        h.key(16, .pressed) // us: q
        #expect(h.settle(window) == [Self.us, "keyboard.modifiers 0 0 0 0", "keyboard.key 16 pressed"])
        h.key(16, .released)
        h.key(17, .pressed)
        h.key(17, .released)
        #expect(
            h.settle(window) == ["keyboard.key 16 released", "keyboard.key 17 pressed", "keyboard.key 17 released"])
        // And back again: each switch is sent once, before the key that needs it.
        h.command(typist, "vk key 17 pressed")
        h.command(typist, "vk key 17 released")
        #expect(
            h.settle(window) == [
                Self.fr, "keyboard.modifiers 0 0 0 0", "keyboard.key 17 pressed", "keyboard.key 17 released",
            ])
    }

    @Test func virtualModifiersComeAfterTheVirtualKeymapAndEachKeyboardKeepsItsOwn() throws {
        let h = try ServerHarness()
        let (window, typist) = try window(h)
        h.key(42, .pressed) // the physical Shift, held throughout
        #expect(h.settle(window) == ["keyboard.key 42 pressed", "keyboard.modifiers 1 0 0 0"])
        // The virtual keyboard's modifiers request, before any key of it: its keymap first.
        h.command(typist, "vk modifiers 0 0 2 0") // fr: Lock
        #expect(h.settle(window) == [Self.fr, "keyboard.modifiers 0 0 2 0"])
        h.command(typist, "vk key 16 pressed")
        #expect(h.settle(window) == ["keyboard.key 16 pressed"])
        // The physical keyboard's Shift is still down, and its Lock is not: its keymap and
        // its own modifiers come back before its key.
        h.key(30, .pressed)
        #expect(h.settle(window) == [Self.us, "keyboard.modifiers 1 0 0 0", "keyboard.key 30 pressed"])
    }

    @Test func keysHeldByAVirtualKeyboardAreReleasedWhenItIsDestroyed() throws {
        let h = try ServerHarness()
        let (window, typist) = try window(h)
        h.command(typist, "vk modifiers 1 0 0 0")
        h.command(typist, "vk key 30 pressed")
        #expect(h.settle(window) == [Self.fr, "keyboard.modifiers 1 0 0 0", "keyboard.key 30 pressed"])
        h.command(typist, "vk destroy")
        // Released in its keymap, then the seat's keymap and modifiers: nothing stays held.
        #expect(h.settle(window) == ["keyboard.key 30 released", Self.us, "keyboard.modifiers 0 0 0 0"])
        h.key(31, .pressed)
        #expect(h.settle(window) == ["keyboard.key 31 pressed"])
        #expect(h.server.seat.activeKeyboard == nil)
    }

    @Test func keysHeldByAVirtualKeyboardAreReleasedWhenItsClientDies() throws {
        let h = try ServerHarness()
        let (window, typist) = try window(h)
        h.command(typist, "vk key 30 pressed")
        h.command(typist, "vk key 42 pressed") // fr: Shift, by key this time
        #expect(
            h.settle(window) == [
                Self.fr, "keyboard.modifiers 0 0 0 0", "keyboard.key 30 pressed",
                "keyboard.key 42 pressed", "keyboard.modifiers 1 0 0 0",
            ])
        // A physical key in between: the virtual keys are released in their keymap again.
        h.key(31, .pressed)
        h.key(31, .released)
        #expect(
            h.settle(window) == [
                Self.us, "keyboard.modifiers 0 0 0 0", "keyboard.key 31 pressed", "keyboard.key 31 released",
            ])
        kill(typist.process.processIdentifier, SIGKILL)
        h.dispatch(until: "the server to see the typist go") { h.server.services(0).virtualKeyboards.isEmpty }
        // Newest first, as the core releases a device's keys.
        #expect(
            h.settle(window) == [
                Self.fr, "keyboard.modifiers 1 0 0 0", "keyboard.key 42 released", "keyboard.modifiers 0 0 0 0",
                "keyboard.key 30 released", Self.us, "keyboard.modifiers 0 0 0 0",
            ])
    }

    @Test func aNewKeymapInUseIsSentAtOnce() throws {
        let h = try ServerHarness()
        let (window, typist) = try window(h)
        h.command(typist, "vk key 16 pressed")
        h.command(typist, "vk key 16 released")
        _ = h.settle(window)
        h.command(typist, "vk keymap \(try keymapFile(layout: "de"))")
        #expect(
            h.settle(window) == ["keyboard.keymap format=1 size>0=true layout=German", "keyboard.modifiers 0 0 0 0"])
    }

    @Test func aKeymapOfFormatNoKeymapIsPassedOn() throws {
        let h = try ServerHarness()
        let (window, typist) = try window(h)
        h.command(typist, "vk keymap \(try keymapFile(layout: "fr")) 0 0")
        h.command(typist, "vk key 30 pressed")
        #expect(
            h.settle(window) == [
                "keyboard.keymap format=0 size>0=false layout=?", "keyboard.modifiers 0 0 0 0",
                "keyboard.key 30 pressed",
            ])
    }

    /// Each request that needs a keymap, sent before one: `no_keymap` (0) on the virtual keyboard.
    @Test(arguments: ["vk key 30 pressed", "vk modifiers 1 0 0 0"])
    func aKeyOrModifiersBeforeAKeymapIsNoKeymap(request: String) throws {
        let h = try ServerHarness()
        let window = try h.mappedProbe(["--toplevel", "win", "100x100", "--keymap-names"])
        let typist = try h.probe(["--no-pointer", "--no-keyboard", "--no-touch"])
        h.wait(for: typist, line: "ready")
        h.command(typist, "vk create")
        typist.send(request)
        h.wait(for: typist, awaiting: "a protocol error") { $0.hasPrefix("protocol-error") }
        #expect(
            typist.lines.last.map { $0.hasPrefix("protocol-error zwp_virtual_keyboard_v1@") && $0.hasSuffix(" code=0") }
                == true,
            "\(typist.lines)")
        h.dispatch(until: "the typist's keyboard to go") { h.server.services(0).virtualKeyboards.isEmpty }
        #expect(h.settle(window) == ["seat.capabilities 7"])
    }

    /// Keymaps the protocol names no error for: `wl_display.invalid_method` (1).
    @Test(arguments: [("7", "keymap format 7"), ("1 999999", "a size past the file's end")])
    func aKeymapThatCannotBeReadIsInvalidMethod(formatAndSize: String, what: String) throws {
        let h = try ServerHarness()
        let typist = try h.probe(["--no-pointer", "--no-keyboard", "--no-touch"])
        h.wait(for: typist, line: "ready")
        h.command(typist, "vk create")
        typist.send("vk keymap \(try keymapFile(layout: "fr")) \(formatAndSize)")
        h.wait(for: typist, awaiting: "a protocol error for \(what)") { $0.hasPrefix("protocol-error") }
        #expect(typist.lines.last == "protocol-error wl_display@1 code=1", "\(what): \(typist.lines)")
    }

    @Test func aClientTheEmbedderDeniesGetsUnauthorized() throws {
        let h = try ServerHarness()
        var asked: [(VirtualDeviceClient, VirtualDeviceKind)] = []
        h.server.policy.mayCreateVirtualDevice = { client, kind in
            asked.append((client, kind))
            return kind != .keyboard
        }
        let window = try h.mappedProbe(["--toplevel", "win", "100x100", "--keymap-names"])
        let typist = try h.probe(["--no-pointer", "--no-keyboard", "--no-touch"])
        h.wait(for: typist, line: "ready")
        typist.send("vk create")
        h.wait(for: typist, awaiting: "a protocol error") { $0.hasPrefix("protocol-error") }
        #expect(
            typist.lines.last.map {
                $0.hasPrefix("protocol-error zwp_virtual_keyboard_manager_v1@") && $0.hasSuffix(" code=0")
            } == true, "\(typist.lines)")
        #expect(asked.map(\.1) == [.keyboard])
        #expect(asked.first?.0.program == "wl-probe")
        // No keyboard was added: nobody is told anything.
        #expect(h.settle(window) == [])
    }
}
