import InputRouter
import Testing

@testable import InputRouterKeyboard

struct LockTests {
    /// Caps Lock locks Lock; letters capitalise, digits do not, Shift reverses letters.
    @Test(arguments: ["us", "de", "fr", "ru"])
    func capsLock(_ layout: String) throws {
        let state = try makeState(layout)
        let plain = state.tap(K.d).text
        let press = state.process(key: K.capsLock, state: .pressed)
        #expect(press.modifiersChanged)
        #expect(Keysym.name(of: press.keysym) == "Caps_Lock")
        _ = state.process(key: K.capsLock, state: .released)
        #expect(state.modifiers.locked == ModifierMask.capsLock.rawValue)
        #expect(state.tap(K.d).text == plain.uppercased())
        #expect(state.tap(K.d, holding: [K.leftShift]).text == plain)
        state.tap(K.capsLock)
        #expect(state.modifiers == .none)
        #expect(state.tap(K.d).text == plain)
    }

    /// Num Lock switches the keypad between digits and navigation.
    @Test(arguments: [
        (K.kp7, "KP_7", "KP_Home"), (K.kp8, "KP_8", "KP_Up"), (K.kp1, "KP_1", "KP_End"),
        (K.kp0, "KP_0", "KP_Insert"), (K.kp5, "KP_5", "KP_Begin"),
    ])
    func numLock(_ key: UInt32, _ on: String, _ off: String) throws {
        let state = try makeState("us")
        #expect(Keysym.name(of: state.tap(key).keysym) == off)
        state.tap(K.numLock)
        #expect(state.modifiers.locked == ModifierMask.numLock.rawValue)
        let digit = state.tap(key)
        #expect(Keysym.name(of: digit.keysym) == on)
        #expect(digit.text == String(on.last!))
        // Shift with Num Lock gives the navigation keysym back.
        #expect(Keysym.name(of: state.tap(key, holding: [K.leftShift]).keysym) == off)
        state.tap(K.numLock)
        #expect(Keysym.name(of: state.tap(key).keysym) == off)
    }

    /// Locks never take part in binding matching.
    @Test func locksDoNotBreakBindings() throws {
        let state = try makeState("us")
        state.tap(K.capsLock)
        state.tap(K.numLock)
        let binding = try KeyBinding(parsing: "Super+Return")
        _ = state.process(key: K.leftMeta, state: .pressed)
        let before = state.modifiers
        let result = state.process(key: K.enter, state: .pressed)
        #expect(binding.matches(result.meaning, modifiersBefore: before))
        #expect(
            binding.matches(keysym: result.keysym, baseKeysym: result.baseKeysym, modifiers: state.bindingModifiers))
    }
}
