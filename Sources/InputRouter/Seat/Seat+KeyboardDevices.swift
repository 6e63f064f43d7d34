// Keyboards with a keymap of their own. A virtual keyboard (a typing tool, an on-screen
// keyboard, an input method's) is a keyboard device of the seat, as in wlroots, but it
// brings its own keymap and so its own translator and modifier state. The seat has one
// keymap in use at a time, the one of the keyboard that typed last: a key from a device
// whose keymap is not in use switches to its keymap first (`keymapChanged`, then the
// modifiers of that keyboard, changed or not: a client rebuilds its state from a new keymap
// with no modifier in it), so a client is never sent a key or modifiers in a keymap it does
// not have. The next key of the seat's own keyboards switches back the same way: a virtual
// keymap never replaces the seat's for good (labwc#2723, sway#6436), and a virtual
// keyboard's modifiers never reach a client before its keymap (sway#8169).
//
// Everything here is off the hot path: a key pays one comparison (its device against the
// last key's), and only a key from another device looks further.

/// A device with a keymap of its own, and the modifiers it left while another keymap was in
/// use.
struct OwnKeyboard {
    let device: DeviceID
    var translator: KeyTranslator?
    var modifiers: Modifiers
}

extension Seat {
    /// No device yet: the first key looks its device up.
    static let noKeyDevice = DeviceID(.max)

    /// Gives `device` a keymap of its own: its keys are translated by `translator` (nil: they
    /// carry no keysym, as with a keymap of format `no_keymap`), starting from `modifiers`,
    /// and what it types switches the seat to its keymap first (`Delivery.keymapChanged`).
    /// Called again, it replaces the device's keymap; while that keymap is in use, the
    /// switch is announced again with the new one's modifiers. The device keeps its keymap
    /// until `notifyDeviceRemoved`. Allocates: call when a keymap is set, not per key.
    public func setKeyTranslator(_ translator: KeyTranslator?, forDevice device: DeviceID, modifiers: Modifiers = .none)
    {
        lastKeyDevice = Seat.noKeyDevice // the next key looks its device up again
        guard let i = ownKeyboards.firstIndex(where: { $0.device == device }) else {
            ownKeyboards.append(OwnKeyboard(device: device, translator: translator, modifiers: modifiers))
            return
        }
        ownKeyboards[i].translator = translator
        ownKeyboards[i].modifiers = modifiers
        if activeKeyboard == device {
            useTranslator(translator)
            announceKeymap(modifiers)
        }
    }

    /// Sets the modifier state of `device`'s keymap as its client says (a virtual keyboard's
    /// `modifiers` request), switching the seat to that keymap first if another is in use.
    public func notifyModifiers(_ new: Modifiers, device: DeviceID) {
        lastKeyDevice = device
        let keyboard = ownKeyboardDevice(device)
        if keyboard == activeKeyboard { return updateModifiers(new) }
        // The new state is what the switch announces: one `modifiers`, after the keymap.
        if let k = keyboard, let i = ownKeyboards.firstIndex(where: { $0.device == k }) {
            ownKeyboards[i].modifiers = new
        } else {
            seatKeyboardModifiers = new
        }
        switchKeyboard(to: keyboard)
    }

    /// Sets the modifier state of the seat's own keyboards directly (the nested backend
    /// adopts the parent's), switching back to the seat's keymap first if a device's is in use.
    public func notifyModifiers(_ new: Modifiers) {
        guard activeKeyboard != nil else { return updateModifiers(new) }
        lastKeyDevice = Seat.noKeyDevice
        seatKeyboardModifiers = new
        switchKeyboard(to: nil)
    }

    /// A key from `device`, which did not type the last key: the seat switches to its keymap
    /// if that is not the one in use. Out of line: most keys come from the last key's device.
    @inline(never) func keyDeviceChanged(_ device: DeviceID) {
        lastKeyDevice = device
        let keyboard = ownKeyboardDevice(device)
        if keyboard != activeKeyboard { switchKeyboard(to: keyboard) }
    }

    /// `device` if it has a keymap of its own, else nil (the seat's keymap).
    func ownKeyboardDevice(_ device: DeviceID) -> DeviceID? {
        ownKeyboards.contains { $0.device == device } ? device : nil
    }

    /// Puts `keyboard`'s keymap in use (nil: the seat's own): the modifiers of the keymap in
    /// use are kept for when it comes back, and the new one's are announced after it.
    func switchKeyboard(to keyboard: DeviceID?) {
        if let old = activeKeyboard {
            if let i = ownKeyboards.firstIndex(where: { $0.device == old }) { ownKeyboards[i].modifiers = modifiers }
        } else {
            seatKeyboardModifiers = modifiers
        }
        activeKeyboard = keyboard
        if let k = keyboard, let own = ownKeyboards.first(where: { $0.device == k }) {
            useTranslator(own.translator)
            announceKeymap(own.modifiers)
        } else {
            useTranslator(keyTranslator)
            announceKeymap(seatKeyboardModifiers)
        }
    }

    /// Queues the keymap change and then `new`, the modifiers in that keymap, to the focus
    /// (or the keyboard grab), even unchanged: its client starts the new keymap with none.
    private func announceKeymap(_ new: Modifiers) {
        enqueue(.keymapChanged(id, keyboard: activeKeyboard))
        modifiers = new
        if let g = keyboardGrab { g.modifiers(self) } else { defaultModifiers() }
    }

    /// `device` went away with its keymap: the seat's own comes back if `device`'s was in use.
    func forgetOwnKeyboard(_ device: DeviceID) {
        if lastKeyDevice == device { lastKeyDevice = Seat.noKeyDevice }
        ownKeyboards.removeAll { $0.device == device }
        // Its modifiers go with it: the seat's are announced after the seat's keymap.
        if activeKeyboard == device { switchKeyboard(to: nil) }
    }
}
