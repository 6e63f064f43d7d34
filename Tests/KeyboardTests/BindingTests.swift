import InputRouter
import Testing

@testable import InputRouterKeyboard

struct BindingTests {
    @Test(
        arguments: [
            ("Super+Return", "Return", [.superKey]),
            ("Ctrl+Alt+F2", "F2", [.control, .alt]),
            ("Super+Shift+q", "q", [.superKey, .shift]),
            ("super+shift+Q", "q", [.superKey, .shift]),
            ("Control+Mod1+Delete", "Delete", [.control, .alt]),
            ("Logo+return", "Return", [.superKey]),
            ("AltGr+e", "e", [.mod5]),
            ("Ctrl++", "plus", [.control]),
            (" Super + space ", "space", [.superKey]),
            ("XF86AudioRaiseVolume", "XF86AudioRaiseVolume", []),
        ] as [(String, String, ModifierMask)])
    func parses(_ spec: String, _ keysym: String, _ modifiers: ModifierMask) throws {
        let binding = try KeyBinding(parsing: spec)
        #expect(Keysym.name(of: binding.keysym) == keysym)
        #expect(binding.modifiers == modifiers)
    }

    @Test(arguments: [
        ("", "no key"),
        ("Super+", "no key"),
        ("Hyper+a", #"unknown modifier "Hyper""#),
        ("Super+Super+a", #"modifier "Super" given twice"#),
        ("Super+nosuchkey", #"unknown key "nosuchkey""#),
    ])
    func rejects(_ spec: String, _ reason: String) {
        #expect {
            _ = try KeyBinding(parsing: spec)
        } throws: { error in
            "\(error)" == "invalid key binding \"\(spec)\": \(reason)"
        }
    }

    /// Bindings typed on real layouts: held keys, then the key; whether it matches.
    struct Typed: Sendable, CustomStringConvertible {
        var spec: String, layout: String, held: [UInt32], key: UInt32, matches: Bool
        var description: String { "\(spec) on \(layout) \(held)+\(key) → \(matches)" }
    }

    static let typed: [Typed] = [
        Typed(spec: "Super+Return", layout: "us", held: [K.leftMeta], key: K.enter, matches: true),
        Typed(spec: "Super+Return", layout: "us", held: [], key: K.enter, matches: false),
        Typed(spec: "Super+Return", layout: "us", held: [K.leftMeta, K.leftShift], key: K.enter, matches: false),
        Typed(spec: "Ctrl+Alt+F2", layout: "us", held: [K.leftCtrl, K.leftAlt], key: K.f2, matches: true),
        Typed(spec: "Ctrl+Alt+F2", layout: "de", held: [K.leftAlt, K.leftCtrl], key: K.f2, matches: true),
        Typed(spec: "Ctrl+Alt+F2", layout: "us", held: [K.leftCtrl], key: K.f2, matches: false),
        // Shift levels: the shifted keysym (Q) and the base (q) both count.
        Typed(spec: "Super+Shift+q", layout: "us", held: [K.leftMeta, K.leftShift], key: K.q, matches: true),
        Typed(spec: "Super+Shift+Q", layout: "us", held: [K.leftMeta, K.leftShift], key: K.q, matches: true),
        Typed(spec: "Super+Shift+q", layout: "us", held: [K.leftMeta], key: K.q, matches: false),
        Typed(spec: "Super+q", layout: "us", held: [K.leftMeta], key: K.q, matches: true),
        Typed(spec: "Super+Q", layout: "us", held: [K.leftMeta], key: K.q, matches: true),
        Typed(spec: "Super+Cyrillic_A", layout: "ru", held: [K.leftMeta], key: K.f, matches: true),
        Typed(spec: "Super+Shift+2", layout: "us", held: [K.leftMeta, K.leftShift], key: K.digits[1], matches: true),
        Typed(spec: "Super+Shift+at", layout: "us", held: [K.leftMeta, K.leftShift], key: K.digits[1], matches: true),
        // Layouts move letters: de's z is on the Y key, fr's a on the Q key.
        Typed(spec: "Super+z", layout: "de", held: [K.leftMeta], key: K.y, matches: true),
        Typed(spec: "Super+z", layout: "de", held: [K.leftMeta], key: K.z, matches: false),
        Typed(spec: "Super+Shift+a", layout: "fr", held: [K.leftMeta, K.leftShift], key: K.q, matches: true),
        Typed(spec: "AltGr+q", layout: "de", held: [K.rightAlt], key: K.q, matches: true),
    ]

    @Test(arguments: typed)
    func matchesTypedKeys(_ c: Typed) throws {
        let binding = try KeyBinding(parsing: c.spec)
        let state = try makeState(c.layout)
        for key in c.held { _ = state.process(key: key, state: .pressed) }
        let held = state.bindingModifiers
        let before = state.modifiers
        let result = state.process(key: c.key, state: .pressed)
        #expect(binding.matches(keysym: result.keysym, baseKeysym: result.baseKeysym, modifiers: held) == c.matches)
        // The core's capture phase applies the same rule to the same key.
        #expect(binding.matches(result.meaning, modifiersBefore: before) == c.matches)
    }

    @Test func capsLockIgnored() throws {
        let state = try makeState("us")
        state.tap(K.capsLock)
        _ = state.process(key: K.leftMeta, state: .pressed)
        let before = state.modifiers
        let result = state.process(key: K.q, state: .pressed)
        #expect(Keysym.name(of: result.keysym) == "Q")
        #expect(try KeyBinding(parsing: "Super+q").matches(result.meaning, modifiersBefore: before))
        #expect(try !KeyBinding(parsing: "Super+Shift+q").matches(result.meaning, modifiersBefore: before))
    }

    @Test(arguments: [
        "Super+Return", "Ctrl+Alt+F2", "Super+Shift+q", "AltGr+e", "Ctrl+plus", "Super+Ctrl+Alt+AltGr+Shift+x",
    ])
    func specRoundTrips(_ spec: String) throws {
        let binding = try KeyBinding(parsing: spec)
        #expect(binding.spec == spec)
        #expect(try KeyBinding(parsing: binding.spec) == binding)
    }
}
