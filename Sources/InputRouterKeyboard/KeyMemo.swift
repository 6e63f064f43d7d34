import InputRouter

/// What `KeyboardState` remembers of one keycode between keys, so a key typed at
/// unchanged modifiers does not ask xkbcommon again. `answer` is what the seat reads
/// directly (`KeyAnswers`).
struct KeySlot {
    /// The keysym and base keysym (`xkb_state_key_get_one_sym`, the level-0 keysym in the
    /// key's layout) at the generation they were read at; they hold until the state changes.
    /// `inert`: the key's class is `KeyClasses.inert`.
    var answer: KeyAnswers.Key
    /// Presses minus releases (never below 0) of an action key: never less than the
    /// reference count of any xkbcommon filter the key owns, so 0 means it owns none.
    var held: Int = 0
    /// The key's `KeyClasses` class.
    var keyClass: UInt8 = KeyClasses.action

    init(keyClass: UInt8) {
        self.keyClass = keyClass
        answer = KeyAnswers.Key(generation: 0, keysym: 0, baseKeysym: 0, inert: keyClass == KeyClasses.inert)
    }
}

/// The state-wide part of the memo.
struct KeyMemo {
    /// What the seat reads (`KeyAnswers.State`): the generation, which changes whenever any
    /// component of the `xkb_state` changes (and nowhere else), so a slot read at the current
    /// generation is what xkbcommon would answer now; the masks after the last transition,
    /// as `xkb_state_serialize_*` gives them; whether an inert key changes nothing now (no
    /// action key held, no latch pending); whether compose is on.
    var answers = KeyAnswers.State(generation: 1, modifiers: .none, inertKeysChangeNothing: true, feedsPresses: false)
    /// Action keys whose `held` is above 0: while any is, every key goes to xkbcommon
    /// (their filters may react to it).
    var heldActionKeys = 0 { didSet { noteQuiet() } }
    /// A latch key moved since the last inert key press xkbcommon saw: a latch may be
    /// pending, and the next key press would end it.
    var latchMayBePending = false { didSet { noteQuiet() } }

    private mutating func noteQuiet() { answers.inertKeysChangeNothing = heldActionKeys == 0 && !latchMayBePending }
}
