import CXKBCommon
import InputRouter

/// Owns one `xkb_state`: the modifiers, latches, locks and group of one seat's keyboards,
/// fed with evdev key codes. The seat's `KeyTranslator`.
public final class KeyboardState: KeyTranslator {
    /// The keymap the state interprets keys with.
    public let keymap: Keymap
    /// The compose sequence in progress, when compose is on.
    public let compose: ComposeState?
    private(set) var pointer: OpaquePointer

    /// A state with no key down and no lock on; `compose` nil turns composing off. Allocates;
    /// call at setup (one per seat).
    public init(keymap: Keymap, compose: ComposeTable? = nil) {
        self.keymap = keymap
        self.compose = compose.map(ComposeState.init(table:))
        pointer = xkb_state_new(keymap.pointer)
    }

    deinit { xkb_state_unref(pointer) }

    /// The masks `wl_keyboard.modifiers` carries; `group` is the effective layout.
    public var modifiers: Modifiers {
        Modifiers(depressed: xkb_state_serialize_mods(pointer, XKB_STATE_MODS_DEPRESSED),
                  latched: xkb_state_serialize_mods(pointer, XKB_STATE_MODS_LATCHED),
                  locked: xkb_state_serialize_mods(pointer, XKB_STATE_MODS_LOCKED),
                  group: xkb_state_serialize_layout(pointer, XKB_STATE_LAYOUT_EFFECTIVE))
    }

    /// The effective modifiers in canonical bits, whatever order the keymap uses.
    public var bindingModifiers: ModifierMask {
        keymap.modifierIndices.canonical(xkb_state_serialize_mods(pointer, XKB_STATE_MODS_EFFECTIVE))
    }

    /// Index of the effective layout (group) into `keymap.layoutNames`.
    public var effectiveLayout: UInt32 { xkb_state_serialize_layout(pointer, XKB_STATE_LAYOUT_EFFECTIVE) }

    /// Applies one key transition and says what it meant.
    public func process(key: UInt32, state: KeyState) -> KeyResult {
        let code = key + evdevOffset
        // Read before updating: the key means what the held modifiers made it mean.
        let keysyms = currentKeysyms(code)
        let keysym = xkb_state_key_get_one_sym(pointer, code)
        let layout = xkb_state_key_get_layout(pointer, code)
        let base = layout == XKB_LAYOUT_INVALID ? 0 : keymap.keysyms(key: key, layout: layout, level: 0).first ?? 0
        var text = ""
        var composeStatus = ComposeStatus.none
        if state == .pressed {
            text = readUTF8 { xkb_state_key_get_utf8(pointer, code, $0, $1) }
            if let compose, keysym != 0 {
                composeStatus = compose.feed(keysym)
                switch composeStatus {
                case .none: break
                case .composing, .cancelled: text = ""
                case let .composed(composed, _): text = composed
                }
            }
        }
        let before = modifiers
        xkb_state_update_key(pointer, code, state == .pressed ? XKB_KEY_DOWN : XKB_KEY_UP)
        let after = modifiers
        return KeyResult(key: key, state: state, keysyms: keysyms, keysym: keysym, baseKeysym: base,
                         text: text, compose: composeStatus, modifiers: after, modifiersChanged: after != before)
    }

    /// The seat's hot path: the same keysyms, compose feeding and state update as
    /// `process`, without building the keysym list or the text, so routing a key
    /// allocates nothing (core-bench --check-allocations).
    public func translate(key: UInt32, state: KeyState) -> KeyMeaning {
        let code = key + evdevOffset
        let keysym = xkb_state_key_get_one_sym(pointer, code)
        let layout = xkb_state_key_get_layout(pointer, code)
        var base: UInt32 = 0
        if layout != XKB_LAYOUT_INVALID {
            var syms: UnsafePointer<xkb_keysym_t>?
            if xkb_keymap_key_get_syms_by_level(keymap.pointer, code, layout, 0, &syms) > 0, let syms { base = syms[0] }
        }
        var step = ComposeStep.none
        if state == .pressed, let compose, keysym != 0 { step = compose.feedStep(keysym) }
        xkb_state_update_key(pointer, code, state == .pressed ? XKB_KEY_DOWN : XKB_KEY_UP)
        return KeyMeaning(keysym: keysym, baseKeysym: base, modifiers: modifiers, compose: step)
    }

    /// Every key is up (the device vanished): a fresh state that keeps only the locks
    /// (Caps Lock, Num Lock, a locked layout), so no Shift or Ctrl stays stuck and no
    /// latch fires on the next key. A compose sequence in progress is dropped.
    public func releaseAll() -> Modifiers {
        let lockedMods = xkb_state_serialize_mods(pointer, XKB_STATE_MODS_LOCKED)
        let lockedLayout = xkb_state_serialize_layout(pointer, XKB_STATE_LAYOUT_LOCKED)
        // A new state rather than a mask update: xkb_state also remembers which keys are
        // down, and stale entries would act on the next press of the same key.
        xkb_state_unref(pointer)
        pointer = xkb_state_new(keymap.pointer)
        xkb_state_update_mask(pointer, 0, 0, lockedMods, 0, 0, lockedLayout)
        compose?.reset()
        return modifiers
    }

    /// Keyboard focus moved: a half-typed compose sequence must not finish in another client.
    public func focusChanged() { compose?.reset() }

    private func currentKeysyms(_ code: UInt32) -> [UInt32] {
        var syms: UnsafePointer<xkb_keysym_t>?
        let count = xkb_state_key_get_syms(pointer, code, &syms)
        guard count > 0, let syms else { return [] }
        return Array(UnsafeBufferPointer(start: syms, count: Int(count)))
    }
}
