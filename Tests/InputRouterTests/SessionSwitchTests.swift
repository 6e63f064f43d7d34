import InputRouter
import Testing

/// A VT switch as the seat sees it (Seat+Session.swift): the source routes the devices'
/// own ends first (releases, removals), then the session goes away; on return the devices
/// come back, with a press of each modifier held meanwhile, then the session is back.
@Suite struct SessionSwitchTests {
    @Test func awayLeavesKeyboardAndPointerAndBackEntersWithTheModifiersHeldThen() {
        let h = Harness()
        h.seat.keyTranslator = CodeTranslator()
        let a = h.toplevel("A", h.client("a"), Rect(0, 0, 100, 100))
        let keyboard = DeviceID(4)
        let mouse = DeviceID(5)
        h.seat.notifyDeviceAdded(keyboard, capabilities: .keyboard)
        h.seat.notifyDeviceAdded(mouse, capabilities: .pointer)
        h.seat.setKeyboardFocus(a)
        _ = h.warp(50, 50)
        _ = h.flush()
        _ = h.key(42, .pressed, device: keyboard)
        _ = h.button(.pressed, device: mouse)
        #expect(h.sink.held == "keys [42], buttons [272]") // what the invariant checker's model says A holds
        // Away: what the devices held is released by their removal, then the pointer and
        // the keyboard leave: the client holds nothing and has no focus.
        _ = h.step {
            h.seat.handle(InputEvent(time: h.tick(), device: keyboard, .deviceRemoved))
            h.seat.handle(InputEvent(time: h.tick(), device: mouse, .deviceRemoved))
        }
        #expect(
            h.step { h.seat.setSessionActive(false, time: h.tick()) } == [
                "seat0 keyboard.leave \"A\"", "seat0 pointer.leave \"A\"", "seat0 pointer.frame client1(\"a\")",
            ])
        #expect(!h.seat.isSessionActive)
        #expect(h.sink.held == "nothing")
        #expect(h.seat.keyboardFirstResponder == nil)
        // Back: the keyboard again, Shift still held (pressed by the source, for no surface
        // yet); the keyboard enters A with Shift in its modifiers, the pointer enters A
        // under the cursor, and a key types shifted.
        _ = h.step {
            h.seat.notifyDeviceAdded(DeviceID(6), capabilities: .keyboard)
            h.seat.notifyDeviceAdded(DeviceID(7), capabilities: .pointer)
            h.seat.notifyKey(time: h.tick(), key: 42, state: .pressed, device: DeviceID(6))
        }
        #expect(
            h.step { h.seat.setSessionActive(true, time: h.tick()) } == [
                "seat0 keyboard.enter \"A\" keys []", "seat0 keyboard.modifiers \"A\" 1,0,0,0",
                "seat0 pointer.enter \"A\" at 50,50", "seat0 pointer.frame client1(\"a\")",
            ])
        #expect(h.seat.isSessionActive)
        #expect(h.key(30, .pressed, device: DeviceID(6)) == ["seat0 keyboard.key \"A\" 30 pressed"])
        #expect(h.seat.modifiers.depressed == 1)
        // Shift let go (the source sees it up): the modifiers follow.
        #expect(h.key(42, .released, device: DeviceID(6)).contains("seat0 keyboard.modifiers \"A\" 0,0,0,0"))
        h.expectClean()
    }

    @Test func aSecondCallWithTheSameValueDoesNothing() {
        let h = Harness()
        let a = h.toplevel("A", h.client("a"), Rect(0, 0, 100, 100))
        h.seat.setKeyboardFocus(a)
        _ = h.flush()
        #expect(h.step { h.seat.setSessionActive(true, time: h.tick()) } == [])
        #expect(h.step { h.seat.setSessionActive(false, time: h.tick()) } == ["seat0 keyboard.leave \"A\""])
        #expect(h.step { h.seat.setSessionActive(false, time: h.tick()) } == [])
        h.expectClean()
    }
}
