import InputRouter
import Testing

@testable import InputRouterKeyboard

/// A keyboard vanishing with keys held: nothing stays stuck, locks survive.
struct ReleaseAllTests {
    @Test(arguments: [[K.leftShift], [K.leftCtrl, K.leftAlt], [K.leftMeta, K.rightShift, K.a], [K.rightAlt]])
    func heldModifiersClear(_ held: [UInt32]) throws {
        let state = try makeState("de")
        for key in held { _ = state.process(key: key, state: .pressed) }
        #expect(state.modifiers.depressed != 0)
        let after = state.releaseAll()
        #expect(after == .none)
        #expect(state.modifiers == .none)
        // The next key types unshifted.
        #expect(state.tap(K.d).text == "d")
    }

    @Test func locksAndLockedLayoutSurvive() throws {
        let state = try makeState("us,ru", options: "grp:alt_shift_toggle")
        state.tap(K.capsLock)
        state.tap(K.numLock)
        state.tap(K.leftShift, holding: [K.leftAlt])
        #expect(state.effectiveLayout == 1)
        _ = state.process(key: K.leftShift, state: .pressed)
        let after = state.releaseAll()
        #expect(
            after
                == Modifiers(
                    depressed: 0, latched: 0,
                    locked: ModifierMask([.capsLock, .numLock]).rawValue, group: 1))
        #expect(state.tap(K.f).text == "А")
    }

    /// The protocol entry point the seat uses.
    @Test func translatorConformance() throws {
        let translator: any KeyTranslator = try makeState("us")
        let shift = translator.translate(key: K.leftShift, state: .pressed)
        #expect(shift.modifiers.depressed == ModifierMask.shift.rawValue)
        let q = translator.translate(key: K.q, state: .pressed)
        #expect(q.keysym == sym("Q"))
        #expect(q.baseKeysym == sym("q"))
        #expect(translator.releaseAll() == .none)
        // The stale Shift key-up after the reset changes nothing.
        #expect(translator.translate(key: K.leftShift, state: .released).modifiers == .none)
    }
}
