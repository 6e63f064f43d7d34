// The text-input focus follows the keyboard focus, so a client hears of it in that order:
// wl_keyboard.enter first, then zwp_text_input_v3.enter for the same surface. foot enables
// its text input from the text-input enter and warns ("compositor sent ime::enter() event
// before the corresponding keyboard_enter() event") when the keyboard's has not come yet.
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct TextInputEnterOrderTests {
    /// The position of the first line starting with `prefix`, or nil.
    func index(_ lines: [String], _ prefix: String) -> Int? { lines.firstIndex { $0.hasPrefix(prefix) } }

    @Test func aMappedWindowHearsOfTheKeyboardBeforeTheTextInput() throws {
        let h = try ServerHarness()
        let c = try h.probe(["--toplevel", "win", "100x100", "--text-input", "--no-touch"])
        h.wait(for: c, line: "mapped win")
        let lines = h.settle(c)
        let keyboard = try #require(index(lines, "keyboard.enter win"), "no keyboard enter: \(lines)")
        let text = try #require(index(lines, "text.enter win"), "no text-input enter: \(lines)")
        #expect(keyboard < text, "\(lines)")
    }

    @Test func aClickFocusHearsOfTheKeyboardBeforeTheTextInput() throws {
        let h = try ServerHarness()
        let a = try h.probe(["--toplevel", "a", "100x100", "--text-input", "--no-touch"])
        h.wait(for: a, line: "mapped a")
        // at (72, 72), takes the focus
        let b = try h.probe(["--toplevel", "b", "100x100", "--text-input", "--no-touch"])
        h.wait(for: b, line: "mapped b")
        _ = h.settle(a)
        h.warp(45, 45) // only a is there
        h.button(.pressed)
        h.button(.released)
        let lines = h.settle(a)
        let keyboard = try #require(index(lines, "keyboard.enter a"), "no keyboard enter: \(lines)")
        let text = try #require(index(lines, "text.enter a"), "no text-input enter: \(lines)")
        #expect(keyboard < text, "\(lines)")
    }
}
