import InputRouter

/// What `KeyboardState` remembers of one keycode between keys, so a key typed at
/// unchanged modifiers does not ask xkbcommon again.
struct KeySlot {
    /// `KeyMemo.generation` when `keysym` and `baseKeysym` were read; they hold until the
    /// state changes.
    var generation: UInt64 = 0
    /// `xkb_state_key_get_one_sym` at that generation.
    var keysym: UInt32 = 0
    /// The key's level-0 keysym in its layout at that generation.
    var baseKeysym: UInt32 = 0
    /// Presses minus releases (never below 0) of an action key: never less than the
    /// reference count of any xkbcommon filter the key owns, so 0 means it owns none.
    var held: Int = 0
    /// The key's `KeyClasses` class.
    var keyClass: UInt8 = KeyClasses.action
}

/// The state-wide part of the memo.
struct KeyMemo {
    /// Changes whenever any component of the `xkb_state` changes (and nowhere else), so a
    /// slot read at the current generation is what xkbcommon would answer now.
    var generation: UInt64 = 1
    /// Action keys whose `held` is above 0: while any is, every key goes to xkbcommon
    /// (their filters may react to it).
    var heldActionKeys = 0
    /// A latch key moved since the last inert key press xkbcommon saw: a latch may be
    /// pending, and the next key press would end it.
    var latchMayBePending = false
    /// The masks after the last transition, as `xkb_state_serialize_*` gives them.
    var modifiers = Modifiers.none
}
