// A device with a keymap of its own (a virtual keyboard) in the core: the trace says which
// keymap keys and modifiers are in before each key that changes it, each keyboard keeps
// its modifiers, and a removed device releases its keys in its keymap and gives the seat's
// back (Seat+KeyboardDevices.swift). The invariant checker watches every step.
import InputRouter
import Testing

@Suite struct KeyboardDeviceTests {
    let virtual = DeviceID(9)

    /// A focused window "win", the seat's keyboard (device 0) and `virtual` with a
    /// translator of its own.
    func setUp() -> Harness {
        let h = Harness()
        h.seat.keyTranslator = CodeTranslator()
        h.seat.setKeyTranslator(CodeTranslator(), forDevice: virtual)
        let win = h.toplevel("win", h.client("app"), Rect(0, 0, 100, 100))
        _ = h.step { h.seat.setKeyboardFocus(win) }
        return h
    }

    @Test func eachKeyboardTypesInItsKeymapWithItsModifiers() {
        let h = setUp()
        #expect(
            h.key(42, .pressed) == [
                "seat0 keyboard.key \"win\" 42 pressed", "seat0 keyboard.modifiers \"win\" 1,0,0,0",
            ])
        #expect(
            h.key(30, .pressed, device: virtual) == [
                "seat0 keyboard.keymap of dev9", "seat0 keyboard.modifiers \"win\" 0,0,0,0",
                "seat0 keyboard.key \"win\" 30 pressed",
            ])
        #expect(h.key(30, .released, device: virtual) == ["seat0 keyboard.key \"win\" 30 released"])
        // The seat's Shift is still down for its own next key.
        #expect(
            h.key(31, .pressed) == [
                "seat0 keyboard.keymap of the seat", "seat0 keyboard.modifiers \"win\" 1,0,0,0",
                "seat0 keyboard.key \"win\" 31 pressed",
            ])
        // Modifiers set for the virtual keyboard: its keymap first, then only those.
        #expect(
            h.step { h.seat.notifyModifiers(Modifiers(locked: 2), device: virtual) } == [
                "seat0 keyboard.keymap of dev9", "seat0 keyboard.modifiers \"win\" 0,0,2,0",
            ])
        #expect(h.seat.activeKeyboard == virtual)
        h.expectClean()
    }

    @Test func aRemovedKeyboardReleasesItsKeysInItsKeymapAndGivesTheSeatsBack() {
        let h = setUp()
        _ = h.key(42, .pressed, device: virtual)
        _ = h.key(30, .pressed, device: virtual)
        _ = h.key(31, .pressed)
        #expect(
            h.step { h.seat.notifyDeviceRemoved(virtual, time: h.tick()) } == [
                "seat0 keyboard.keymap of dev9", "seat0 keyboard.modifiers \"win\" 1,0,0,0",
                "seat0 keyboard.key \"win\" 30 released",
                "seat0 keyboard.key \"win\" 42 released", "seat0 keyboard.modifiers \"win\" 0,0,0,0",
                "seat0 keyboard.keymap of the seat", "seat0 keyboard.modifiers \"win\" 0,0,0,0",
            ])
        #expect(h.seat.activeKeyboard == nil)
        // Gone with its keymap: the device's next key is the seat's.
        #expect(h.key(32, .pressed, device: virtual) == ["seat0 keyboard.key \"win\" 32 pressed"])
        h.expectClean()
    }
}
