import InputRouter

/// Everything one key transition means, as the keyboard state worked it out. Keysyms and
/// text come from the state before the transition (a key means what the modifiers held
/// when it went down); `modifiers` is the state after it.
public struct KeyResult: Hashable, Sendable {
    /// The evdev key code, as it came in.
    public var key: UInt32
    /// Whether the key went down or up.
    public var state: KeyState
    /// All keysyms of the key at the current level (usually one).
    public var keysyms: [UInt32]
    /// The single keysym at the current level, with Caps Lock's capitalization; 0 when
    /// the key has none or several.
    public var keysym: UInt32
    /// The keysym at level 0 of the effective layout.
    public var baseKeysym: UInt32
    /// What the press types: the key's UTF-8, a finished compose sequence, or "" (for
    /// releases, modifier keys, dead keys and sequences in progress).
    public var text: String
    /// Where a compose sequence stands after this key (`.none` for releases and with compose off).
    public var compose: ComposeStatus
    /// The modifier masks after the transition, as `wl_keyboard.modifiers` sends them.
    public var modifiers: Modifiers
    /// Whether this transition changed `modifiers` (time to send `wl_keyboard.modifiers`).
    public var modifiersChanged: Bool

    /// The keysyms and modifiers in the form bindings match on. Its `compose` is always `.none`:
    /// the full status is in `compose` above.
    public var meaning: KeyMeaning { KeyMeaning(keysym: keysym, baseKeysym: baseKeysym, modifiers: modifiers) }
}
