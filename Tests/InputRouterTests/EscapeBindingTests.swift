// The one escape binding (Seat+Escape.swift) over every combination of what a client may
// hold: shortcuts inhibited or not × no constraint, a lock or a confinement (each
// lifetime). The escape ends all it finds at once and the keys reach no client; with
// nothing to end it is an ordinary key.
import InputRouter
import Testing

@Suite struct EscapeBindingTests {
    enum Constraint: CaseIterable { case none, lock, confine }

    @Test(arguments: [false, true], Constraint.allCases)
    func theEscapeEndsWhatIsActiveAndNoClientSeesIt(inhibited: Bool, constraint: Constraint) {
        for lifetime in [ConstraintLifetime.oneshot, .persistent] {
            let h = Harness()
            h.seat.keyTranslator = CodeTranslator()
            h.seat.escapeBinding = KeyBinding(keysym: 1, modifiers: .superKey) // Super+Escape (code 1)
            let a = h.client("a", [.pointer, .keyboard, .relativePointer])
            let top = h.toplevel("top", a, Rect(0, 0, 100, 100))
            _ = h.step { h.seat.setKeyboardFocus(top) }
            _ = h.warp(10, 10)
            if inhibited { _ = h.step { h.seat.addShortcutsInhibitor(top) } }
            switch constraint {
            case .none: break
            case .lock: _ = h.step { h.seat.addPointerConstraint(.lock, on: top, region: nil, lifetime: lifetime) }
            case .confine:
                _ = h.step { h.seat.addPointerConstraint(.confine, on: top, region: nil, lifetime: lifetime) }
            }
            #expect(h.seat.shortcutsInhibited == inhibited)
            #expect((h.seat.activePointerConstraint != nil) == (constraint != .none))
            _ = h.key(125, .pressed)
            var expected: [String]
            if !inhibited && constraint == .none {
                expected = ["seat0 keyboard.key \"top\" 1 pressed"]
            } else {
                expected = ["seat0 binding #-1 key 1"]
                if inhibited { expected.append("seat0 shortcuts_inhibitor \"top\" inactive") }
                if constraint == .lock { expected.append("seat0 pointer.unlocked \"top\"") }
                if constraint == .confine { expected.append("seat0 pointer.unconfined \"top\"") }
            }
            #expect(h.key(1, .pressed) == expected, "inhibited \(inhibited) \(constraint) \(lifetime)")
            let release = h.key(1, .released)
            #expect(
                release
                    == (expected.count == 1 && !expected[0].contains("#-1")
                        ? ["seat0 keyboard.key \"top\" 1 released"] : []))
            #expect(!h.seat.shortcutsInhibited)
            #expect(h.seat.activePointerConstraint == nil)
            // Pressed again with nothing left to end: an ordinary key, the client's.
            #expect(h.key(1, .pressed) == ["seat0 keyboard.key \"top\" 1 pressed"])
            _ = h.key(1, .released)
            _ = h.key(125, .released)
            h.expectClean()
        }
    }

    @Test func noEscapeBindingLeavesBothToTheClient() {
        let h = Harness()
        h.seat.keyTranslator = CodeTranslator()
        h.seat.escapeBinding = nil
        let a = h.client("a", [.pointer, .keyboard, .relativePointer])
        let top = h.toplevel("top", a, Rect(0, 0, 100, 100))
        _ = h.step { h.seat.setKeyboardFocus(top) }
        _ = h.warp(10, 10)
        _ = h.step { h.seat.addShortcutsInhibitor(top) }
        _ = h.step { h.seat.addPointerConstraint(.lock, on: top, region: nil, lifetime: .persistent) }
        _ = h.key(125, .pressed)
        #expect(h.key(1, .pressed) == ["seat0 keyboard.key \"top\" 1 pressed"])
        #expect(h.seat.shortcutsInhibited && h.seat.activePointerConstraint != nil)
        h.expectClean()
    }
}
