import InputRouter
import Testing

@testable import InputRouterKeyboard

/// What the same physical keys mean in four layouts, plain and with Shift.
struct LayoutTests {
    struct Case: Sendable, CustomStringConvertible {
        var layout: String
        var key: UInt32
        var plain: String, shifted: String // keysym names
        var plainText: String, shiftedText: String
        var description: String { "\(layout) key \(key)" }
    }

    static let cases: [Case] = [
        Case(layout: "us", key: K.q, plain: "q", shifted: "Q", plainText: "q", shiftedText: "Q"),
        Case(layout: "us", key: K.y, plain: "y", shifted: "Y", plainText: "y", shiftedText: "Y"),
        Case(layout: "us", key: K.digits[1], plain: "2", shifted: "at", plainText: "2", shiftedText: "@"),
        Case(layout: "us", key: K.semicolon, plain: "semicolon", shifted: "colon", plainText: ";", shiftedText: ":"),
        Case(layout: "de", key: K.y, plain: "z", shifted: "Z", plainText: "z", shiftedText: "Z"),
        Case(layout: "de", key: K.z, plain: "y", shifted: "Y", plainText: "y", shiftedText: "Y"),
        Case(
            layout: "de", key: K.semicolon, plain: "odiaeresis", shifted: "Odiaeresis", plainText: "ö", shiftedText: "Ö"
        ),
        Case(layout: "de", key: K.minus, plain: "ssharp", shifted: "question", plainText: "ß", shiftedText: "?"),
        Case(layout: "de", key: K.digits[1], plain: "2", shifted: "quotedbl", plainText: "2", shiftedText: "\""),
        Case(layout: "fr", key: K.q, plain: "a", shifted: "A", plainText: "a", shiftedText: "A"),
        Case(layout: "fr", key: K.a, plain: "q", shifted: "Q", plainText: "q", shiftedText: "Q"),
        Case(layout: "fr", key: K.semicolon, plain: "m", shifted: "M", plainText: "m", shiftedText: "M"),
        Case(layout: "fr", key: K.digits[1], plain: "eacute", shifted: "2", plainText: "é", shiftedText: "2"),
        Case(
            layout: "ru", key: K.q, plain: "Cyrillic_shorti", shifted: "Cyrillic_SHORTI", plainText: "й",
            shiftedText: "Й"),
        Case(layout: "ru", key: K.f, plain: "Cyrillic_a", shifted: "Cyrillic_A", plainText: "а", shiftedText: "А"),
        Case(layout: "ru", key: K.digits[2], plain: "3", shifted: "numerosign", plainText: "3", shiftedText: "№"),
    ]

    @Test(arguments: cases)
    func plainAndShifted(_ c: Case) throws {
        let state = try makeState(c.layout)
        let plain = state.tap(c.key)
        #expect(Keysym.name(of: plain.keysym) == c.plain)
        #expect(plain.text == c.plainText)
        #expect(plain.keysyms == [plain.keysym])
        let shifted = state.tap(c.key, holding: [K.leftShift])
        #expect(Keysym.name(of: shifted.keysym) == c.shifted)
        #expect(shifted.text == c.shiftedText)
        // The base keysym is level 0 whatever the modifiers.
        #expect(Keysym.name(of: shifted.baseKeysym) == c.plain)
        #expect(state.modifiers == .none)
    }

    @Test func layoutNamesComeFromTheKeymap() throws {
        #expect(try makeState("us,ru").keymap.layoutNames == ["English (US)", "Russian"])
        #expect(try makeState("de").keymap.layoutNames == ["German"])
    }

    /// `us,ru` with Alt+Shift toggling: the group moves, is reported, and changes keysyms
    /// and the base keysym; toggling again comes back.
    @Test(arguments: [[K.leftAlt, K.leftShift], [K.leftShift, K.leftAlt]])
    func groupSwitchWithAltShift(_ chord: [UInt32]) throws {
        let state = try makeState("us,ru", options: "grp:alt_shift_toggle")
        #expect(Keysym.name(of: state.tap(K.f).keysym) == "f")
        #expect(state.effectiveLayout == 0)

        var changed: [Bool] = []
        for key in chord { changed.append(state.process(key: key, state: .pressed).modifiersChanged) }
        for key in chord.reversed() { _ = state.process(key: key, state: .released) }
        #expect(changed.allSatisfy { $0 })
        #expect(state.effectiveLayout == 1)
        #expect(state.modifiers == Modifiers(depressed: 0, latched: 0, locked: 0, group: 1))

        let russian = state.tap(K.f)
        #expect(Keysym.name(of: russian.keysym) == "Cyrillic_a")
        #expect(russian.text == "а")
        #expect(Keysym.name(of: russian.baseKeysym) == "Cyrillic_a")
        #expect(russian.meaning.modifiers.group == 1)

        for key in chord { _ = state.process(key: key, state: .pressed) }
        for key in chord.reversed() { _ = state.process(key: key, state: .released) }
        #expect(state.effectiveLayout == 0)
        #expect(state.tap(K.f).text == "f")
    }

    /// AltGr on de is a level-3 shift reported as Mod5.
    @Test(arguments: [(K.q, "at", "@"), (K.e, "EuroSign", "€"), (K.digits[6], "braceleft", "{")])
    func altGrOnGerman(_ key: UInt32, _ name: String, _ text: String) throws {
        let state = try makeState("de")
        _ = state.process(key: K.rightAlt, state: .pressed)
        #expect(state.bindingModifiers == .mod5)
        #expect(state.modifiers.depressed == ModifierMask.mod5.rawValue)
        let result = state.process(key: key, state: .pressed)
        #expect(Keysym.name(of: result.keysym) == name)
        #expect(result.text == text)
        _ = state.process(key: key, state: .released)
        let up = state.process(key: K.rightAlt, state: .released)
        #expect(up.modifiersChanged)
        #expect(state.modifiers == .none)
    }
}
