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
    /// One slot per keycode of the keymap, from `minKeycode`; allocated here, so a key
    /// allocates nothing.
    private let slots: UnsafeMutableBufferPointer<KeySlot>
    private let minKeycode: UInt32
    private let memo: UnsafeMutablePointer<KeyMemo>

    /// A state with no key down and no lock on; `compose` nil turns composing off. Allocates;
    /// call at setup (one per seat).
    public convenience init(keymap: Keymap, compose: ComposeTable? = nil) {
        self.init(keymap: keymap, compose: compose, classes: keymap.keyClasses)
    }

    /// A state whose skips follow `classes` (the keymap's own, except in tests).
    init(keymap: Keymap, compose: ComposeTable?, classes: KeyClasses) {
        self.keymap = keymap
        self.compose = compose.map(ComposeState.init(table:))
        pointer = xkb_state_new(keymap.pointer)
        minKeycode = classes.minKeycode
        slots = .allocate(capacity: classes.classes.count)
        for (index, keyClass) in classes.classes.enumerated() { slots[index] = KeySlot(keyClass: keyClass) }
        memo = .allocate(capacity: 1)
        memo.initialize(to: KeyMemo())
        memo.pointee.answers.feedsPresses = self.compose != nil
        // A fresh xkb_state has not derived its LEDs yet; xkbcommon does on the first
        // update of any kind, so derive now: a skipped key must find them as a key would.
        xkb_state_update_mask(pointer, 0, 0, 0, 0, 0, 0)
        stateReplaced()
    }

    deinit {
        xkb_state_unref(pointer)
        slots.deallocate()
        memo.deallocate()
    }

    /// The slots' answers and the memo's, which the seat reads for a key that provably
    /// changes nothing (an inert key while nothing is held or pending, and not a press while
    /// compose is on), instead of calling `translate`: the same answer `translate` would give,
    /// since `update` skips such a key.
    public var keyAnswers: KeyAnswers? {
        let state = UnsafeRawPointer(memo).advanced(by: MemoryLayout<KeyMemo>.offset(of: \.answers)!)
        guard let base = slots.baseAddress else { return nil }
        let keys = UnsafeRawPointer(base).advanced(by: MemoryLayout<KeySlot>.offset(of: \.answer)!)
        return KeyAnswers(
            state: state.assumingMemoryBound(to: KeyAnswers.State.self), keys: keys,
            stride: MemoryLayout<KeySlot>.stride, firstKey: Int(minKeycode) - Int(evdevOffset), count: slots.count)
    }

    /// The masks `wl_keyboard.modifiers` carries; `group` is the effective layout.
    public var modifiers: Modifiers {
        Modifiers(
            depressed: xkb_state_serialize_mods(pointer, XKB_STATE_MODS_DEPRESSED),
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
        let code = key &+ evdevOffset
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
                case .composed(let composed, _): text = composed
                }
            }
        }
        let before = modifiers
        update(code: code, pressed: state == .pressed)
        let after = modifiers
        return KeyResult(
            key: key, state: state, keysyms: keysyms, keysym: keysym, baseKeysym: base,
            text: text, compose: composeStatus, modifiers: after, modifiersChanged: after != before)
    }

    /// The seat's hot path: the same keysyms, compose feeding and state update as
    /// `process`, without building the keysym list or the text, so routing a key
    /// allocates nothing (core-bench --check-allocations).
    public func translate(key: UInt32, state: KeyState) -> KeyMeaning {
        let code = key &+ evdevOffset
        let pressed = state == .pressed
        var keysym: UInt32
        var base: UInt32
        let index = Int(code &- minKeycode)
        if code >= minKeycode, index < slots.count {
            // Answered once per key and state generation: the keysym and the base keysym
            // depend only on the effective modifiers and layout.
            if slots[index].answer.generation != memo.pointee.answers.generation { fill(index, code) }
            keysym = slots[index].answer.keysym
            base = slots[index].answer.baseKeysym
        } else {
            keysym = xkb_state_key_get_one_sym(pointer, code)
            base = baseKeysym(code)
        }
        var step = ComposeStep.none
        if pressed, let compose, keysym != 0 { step = compose.feedStep(keysym) }
        update(code: code, pressed: pressed)
        return KeyMeaning(keysym: keysym, baseKeysym: base, modifiers: memo.pointee.answers.modifiers, compose: step)
    }

    /// Reads a slot's answers from xkbcommon. Out of line: the hot path, a slot already
    /// read, then needs no stack for xkbcommon's out-pointer.
    @inline(never)
    private func fill(_ index: Int, _ code: UInt32) {
        slots[index].answer.keysym = xkb_state_key_get_one_sym(pointer, code)
        slots[index].answer.baseKeysym = baseKeysym(code)
        slots[index].answer.generation = memo.pointee.answers.generation
    }

    /// The key's keysym at level 0 of the layout it has now.
    @inline(never)
    private func baseKeysym(_ code: UInt32) -> UInt32 {
        let layout = xkb_state_key_get_layout(pointer, code)
        guard layout != XKB_LAYOUT_INVALID else { return 0 }
        var syms: UnsafePointer<xkb_keysym_t>?
        guard xkb_keymap_key_get_syms_by_level(keymap.pointer, code, layout, 0, &syms) > 0, let syms else { return 0 }
        return syms[0]
    }

    /// Feeds one transition to the `xkb_state`, unless it provably changes nothing: an
    /// inert key (`KeyClasses`) while no action key is held (its filter could react) and
    /// no latch may be pending (the press would end it). Everything that keeps this exact
    /// is in docs/keyboard.md.
    @inline(__always)
    private func update(code: UInt32, pressed: Bool) {
        let index = Int(code &- minKeycode)
        // Not a key of this keymap: xkbcommon ignores it, filters and all.
        guard code >= minKeycode, index < slots.count else { return }
        if slots[index].keyClass == KeyClasses.inert {
            if memo.pointee.heldActionKeys == 0 && !memo.pointee.latchMayBePending { return }
            // An inert key's press ends every pending latch (the probe proved it breaks one).
            if pressed { memo.pointee.latchMayBePending = false }
        } else {
            if pressed {
                if slots[index].held == 0 { memo.pointee.heldActionKeys += 1 }
                slots[index].held += 1
            } else if slots[index].held > 0 {
                slots[index].held -= 1
                if slots[index].held == 0 { memo.pointee.heldActionKeys -= 1 }
            }
            if slots[index].keyClass == KeyClasses.latch { memo.pointee.latchMayBePending = true }
        }
        updateXKB(code: code, pressed: pressed)
    }

    /// The update itself, and the masks it changed serialized again.
    @inline(never)
    private func updateXKB(code: UInt32, pressed: Bool) {
        let changed = xkb_state_update_key(pointer, code, pressed ? XKB_KEY_DOWN : XKB_KEY_UP).rawValue
        guard changed != 0 else { return }
        memo.pointee.answers.generation &+= 1
        // Serialize only what the update says changed.
        if changed & XKB_STATE_MODS_DEPRESSED.rawValue != 0 {
            memo.pointee.answers.modifiers.depressed = xkb_state_serialize_mods(pointer, XKB_STATE_MODS_DEPRESSED)
        }
        if changed & XKB_STATE_MODS_LATCHED.rawValue != 0 {
            memo.pointee.answers.modifiers.latched = xkb_state_serialize_mods(pointer, XKB_STATE_MODS_LATCHED)
        }
        if changed & XKB_STATE_MODS_LOCKED.rawValue != 0 {
            memo.pointee.answers.modifiers.locked = xkb_state_serialize_mods(pointer, XKB_STATE_MODS_LOCKED)
        }
        if changed & XKB_STATE_LAYOUT_EFFECTIVE.rawValue != 0 {
            memo.pointee.answers.modifiers.group = xkb_state_serialize_layout(pointer, XKB_STATE_LAYOUT_EFFECTIVE)
        }
    }

    /// The state was set from outside a key (a mask update, a new state): every slot's
    /// answers are stale and the masks are read again. Held keys and latches stay as they were.
    func stateReplaced() {
        memo.pointee.answers.generation &+= 1
        memo.pointee.answers.modifiers = modifiers
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
        // The new state has no filters: no key is held, no latch pending.
        for index in slots.indices { slots[index].held = 0 }
        memo.pointee.heldActionKeys = 0
        memo.pointee.latchMayBePending = false
        stateReplaced()
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
