import InputRouter
import Testing

@Suite struct KeyboardFocusTests {
    func setUp() -> (Harness, NodeID, NodeID) {
        let h = Harness()
        h.seat.keyTranslator = CodeTranslator()
        let a = h.toplevel("A", h.client("a"), Rect(0, 0, 100, 100))
        let b = h.toplevel("B", h.client("b"), Rect(200, 0, 100, 100))
        return (h, a, b)
    }

    @Test func enterCarriesOnlyKeysForwardedToThatClientAndStillHeld() {
        let (h, a, b) = setUp()
        h.seat.setKeyboardFocus(a)
        _ = h.flush()
        _ = h.key(30, .pressed) // to A
        h.seat.setKeyboardFocus(b)
        _ = h.flush()
        _ = h.key(31, .pressed) // to B
        #expect(
            h.step { h.seat.setKeyboardFocus(a) } == [
                "seat0 keyboard.leave \"B\"", "seat0 keyboard.enter \"A\" keys [30]",
                "seat0 keyboard.modifiers \"A\" 0,0,0,0",
            ])
        // B's key is released while A has the focus: it goes nowhere.
        #expect(h.key(31, .released) == [])
        #expect(h.key(30, .released) == ["seat0 keyboard.key \"A\" 30 released"])
        h.expectClean()
    }

    @Test func modifiersOnEnterAndOnEveryChangeIncludingBindings() {
        let (h, a, _) = setUp()
        h.seat.setKeyboardFocus(a)
        _ = h.flush()
        var launched = 0
        h.seat.addBinding(KeyBinding(keysym: 28, modifiers: .superKey)) { launched += 1 }
        #expect(
            h.key(125, .pressed) == ["seat0 keyboard.key \"A\" 125 pressed", "seat0 keyboard.modifiers \"A\" 64,0,0,0"])
        #expect(h.key(28, .pressed) == ["seat0 binding #0 key 28"])
        #expect(h.key(28, .released) == []) // the binding's release never leaks
        #expect(
            h.key(125, .released) == [
                "seat0 keyboard.key \"A\" 125 released", "seat0 keyboard.modifiers \"A\" 0,0,0,0",
            ])
        #expect(h.key(28, .pressed) == ["seat0 keyboard.key \"A\" 28 pressed"]) // without Super: no binding
        #expect(launched == 1)
        h.expectClean()
    }

    @Test func bindingPressHeldAcrossFocusChangeStillConsumesItsRelease() {
        let (h, a, b) = setUp()
        h.seat.setKeyboardFocus(a)
        h.seat.addBinding(KeyBinding(keysym: 59, modifiers: [])) { h.seat.setKeyboardFocus(b) }
        _ = h.flush()
        #expect(
            h.key(59, .pressed) == [
                "seat0 binding #0 key 59", "seat0 keyboard.leave \"A\"", "seat0 keyboard.enter \"B\" keys []",
                "seat0 keyboard.modifiers \"B\" 0,0,0,0",
            ])
        #expect(h.key(59, .released) == [])
        h.expectClean()
    }

    @Test func subsurfacesAndInvisibleSurfacesCannotBecomeFirstResponder() {
        let (h, a, _) = setUp()
        let c = h.tree.client(of: a)!
        let sub = h.tree.createNode(.subsurface, client: c, parent: a, frame: Rect(0, 0, 10, 10))
        #expect(!h.seat.setKeyboardFocus(sub))
        h.tree.setMapped(a, false)
        #expect(!h.seat.setKeyboardFocus(a))
        let panel = h.tree.createNode(.compositor, name: "launcher", parent: h.output, frame: Rect(0, 0, 10, 10))
        #expect(!h.seat.setKeyboardFocus(panel))
        h.tree.setCanBecomeFirstResponder(panel, true)
        #expect(h.seat.setKeyboardFocus(panel))
    }

    /// Focus falls back to the last focused surface of the same client, then the most recent.
    @Test(arguments: ["destroy", "unmap", "resign"])
    func focusFallsBack(how: String) {
        let h = Harness()
        let a = h.client("a")
        let b = h.client("b")
        let a1 = h.toplevel("A1", a, Rect(0, 0, 10, 10))
        let a2 = h.toplevel("A2", a, Rect(0, 0, 10, 10))
        let b1 = h.toplevel("B1", b, Rect(0, 0, 10, 10))
        for n in [a1, b1, a2] { h.seat.setKeyboardFocus(n) }
        _ = h.flush()
        let gone: () -> Void = {
            switch how {
            case "destroy": h.tree.destroy(a2)
            case "unmap": h.tree.setMapped(a2, false)
            default: h.seat.resignKeyboardFocus(a2)
            }
        }
        let lines = h.step(gone)
        let leave = how == "destroy" ? [] : ["seat0 keyboard.leave \"A2\""]
        #expect(lines == leave + ["seat0 keyboard.enter \"A1\" keys []", "seat0 keyboard.modifiers \"A1\" 0,0,0,0"])
        // A1 goes too: the most recent of client a that is left (A2 when it only resigned),
        // else the most recent of any client.
        h.tree.destroy(a1)
        #expect(h.seat.keyboardFirstResponder == (how == "resign" ? a2 : b1))
        h.expectClean()
    }

    /// Focusing a surface again makes it the most recent in the history (it moves; the
    /// newer ones keep their order), which the fallback then follows.
    @Test func refocusedSurfaceBecomesTheMostRecent() {
        let h = Harness()
        let a = h.client("a")
        let b = h.client("b")
        let c = h.client("c")
        let a1 = h.toplevel("A1", a, Rect(0, 0, 10, 10))
        let a2 = h.toplevel("A2", a, Rect(0, 0, 10, 10))
        let b1 = h.toplevel("B1", b, Rect(0, 0, 10, 10))
        let c1 = h.toplevel("C1", c, Rect(0, 0, 10, 10))
        for n in [a1, b1, a2, c1, a1, c1] { h.seat.setKeyboardFocus(n) }
        _ = h.flush()
        // History, oldest first: B1, A2, A1, C1. C1 goes: no other of client c, so the most
        // recent of any (A1, refocused after A2).
        h.tree.destroy(c1)
        #expect(h.seat.keyboardFirstResponder == a1)
        h.tree.destroy(a1)
        #expect(h.seat.keyboardFirstResponder == a2)
        h.tree.destroy(a2)
        #expect(h.seat.keyboardFirstResponder == b1)
        h.expectClean()
    }

    @Test func deviceRemovedWithKeysHeldReleasesThemAndClearsModifiers() {
        let (h, a, _) = setUp()
        h.seat.notifyDeviceAdded(DeviceID(4), capabilities: .keyboard)
        h.seat.setKeyboardFocus(a)
        _ = h.flush()
        _ = h.key(42, .pressed, device: DeviceID(4))
        _ = h.key(30, .pressed, device: DeviceID(4))
        #expect(
            h.step { h.seat.handle(InputEvent(time: 9, device: DeviceID(4), .deviceRemoved)) } == [
                "seat0 keyboard.key \"A\" 30 released", "seat0 keyboard.key \"A\" 42 released",
                "seat0 keyboard.modifiers \"A\" 0,0,0,0",
            ])
        #expect(h.seat.modifiers == .none)
        h.expectClean()
    }

    @Test func keyCountRuleAcrossTwoKeyboards() {
        let (h, a, _) = setUp()
        for d in [DeviceID(1), DeviceID(2)] { h.seat.notifyDeviceAdded(d, capabilities: .keyboard) }
        h.seat.setKeyboardFocus(a)
        _ = h.flush()
        #expect(h.key(30, .pressed, device: DeviceID(1)) == ["seat0 keyboard.key \"A\" 30 pressed"])
        #expect(h.key(30, .pressed, device: DeviceID(2)) == [])
        #expect(h.key(30, .released, device: DeviceID(1)) == [])
        #expect(h.key(30, .released, device: DeviceID(2)) == ["seat0 keyboard.key \"A\" 30 released"])
        #expect(h.key(30, .released, device: DeviceID(2)) == ["seat0 dropped keyboard.key"])
        h.expectClean()
    }

    @Test func clientWithoutKeyboardBubblesKeysToCompositorHandlers() {
        let h = Harness()
        let c = h.client("nokbd", [.pointer])
        let top = h.toplevel("T", c, Rect(0, 0, 10, 10))
        var keys: [UInt32] = []
        h.router.setHandler(for: c) { e in
            if case .key(let k, .pressed, _) = e {
                keys.append(k)
                return .handled
            }
            return .notHandled
        }
        h.seat.setKeyboardFocus(top)
        #expect(h.flush() == []) // no wl_keyboard: no enter
        #expect(h.key(30, .pressed) == ["seat0 handled keyboard.key by client1(\"nokbd\")"])
        #expect(keys == [30])
        // The client binds wl_keyboard while focused: it gets enter now.
        #expect(h.step { h.seat.setBound(.keyboard, for: c, true) }.first == "seat0 keyboard.enter \"T\" keys []")
    }
}
