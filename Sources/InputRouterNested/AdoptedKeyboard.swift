// The parent's keymap and modifier state are adopted, not re-derived. The keymap the
// parent sends becomes the server's keyboard (every nested client gets it); the modifiers
// the parent sends are the only source of the nested seat's modifiers, so clients are
// told exactly the parent's masks, in the parent's order.
import Foundation
import InputRouter
import InputRouterKeyboard

/// The seat's key translator while nested: keysyms come from the parent's keymap at the
/// parent's modifiers; the modifiers never change because of a key, only when the parent
/// says so (`wl_keyboard.modifiers`).
final class AdoptedKeyboard: KeyTranslator {
    let state: KeyboardState
    /// The parent's latest `wl_keyboard.modifiers`, as it sent them.
    var parentModifiers: Modifiers

    init(state: KeyboardState, modifiers: Modifiers) {
        self.state = state
        self.parentModifiers = modifiers
        state.adoptModifiers(modifiers)
    }

    func translate(key: UInt32, state keyState: KeyState) -> KeyMeaning {
        // The keysym is read before xkb's own update (KeyboardState.translate), and the
        // update's effect on the modifiers is then undone: the parent's state stands.
        let meaning = state.translate(key: key, state: keyState)
        state.adoptModifiers(parentModifiers)
        return KeyMeaning(keysym: meaning.keysym, baseKeysym: meaning.baseKeysym, modifiers: parentModifiers)
    }

    func releaseAll() -> Modifiers {
        // The parent's keyboard went away: nothing is held any more, locks stay.
        let m = parentModifiers
        parentModifiers = Modifiers(depressed: 0, latched: 0, locked: m.locked, group: m.group)
        _ = state.releaseAll()
        state.adoptModifiers(parentModifiers)
        return parentModifiers
    }
}

extension NestedBackend {
    /// `wl_keyboard.keymap`: read the parent's keymap (xkb v1 text in a memfd) and make it
    /// the server's keyboard. A keymap that does not compile leaves the current one.
    func keymap(format: UInt32, fd: Int32, size: UInt32) {
        defer { close(fd) }
        guard format == 1 else { // WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1; no_keymap is 0
            return onWarning("the parent sent no xkb keymap (format \(format)); keeping ours")
        }
        guard size > 1 else { return onWarning("the parent sent an empty keymap; keeping ours") }
        // MAP_PRIVATE: from wl_keyboard v7 the parent may hand out a read-only sealed file.
        guard let map = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else {
            return onWarning("cannot map the parent's keymap: \(String(cString: strerror(errno)))")
        }
        defer { munmap(map, Int(size)) }
        let bytes = UnsafeRawBufferPointer(start: map, count: Int(size))
        let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        do {
            let context = try XKBContext(includePaths: server.configuration.keyboard.includePaths)
            let keymap = try Keymap(context: context, string: text)
            let keyboardConfiguration = server.configuration.keyboard
            if keyboardConfiguration.compose, composeTable == nil {
                composeTable = try ComposeTable(
                    context: context, locale: keyboardConfiguration.composeLocale ?? ComposeTable.locale())
            }
            let state = KeyboardState(keymap: keymap, compose: composeTable)
            let modifiers = adoptedKeyboard?.parentModifiers ?? server.seat.modifiers
            try server.setKeyboard(state)
            let adopted = AdoptedKeyboard(state: state, modifiers: modifiers)
            adoptedKeyboard = adopted
            server.seat.keyTranslator = adopted
            adoptedKeymapCount += 1
        } catch {
            onWarning("the parent's keymap was not adopted: \(error)")
        }
    }

    /// `wl_keyboard.modifiers`: the parent's masks become the seat's and the xkb state's.
    func keyboardModifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        adoptModifiers(Modifiers(depressed: depressed, latched: latched, locked: locked, group: group))
    }

    func adoptModifiers(_ m: Modifiers) {
        if let adoptedKeyboard {
            adoptedKeyboard.parentModifiers = m
            adoptedKeyboard.state.adoptModifiers(m)
        }
        server.seat.notifyModifiers(m)
        server.sendDeliveries()
    }
}
