// The seam between the core and the keyboard layer (xkbcommon lives in the Keyboard
// module, never here). The seat asks it what a key means and which modifiers hold.

/// Keyboard modifier state as `wl_keyboard.modifiers` carries it (xkb masks).
public struct Modifiers: Hashable, Sendable, CustomStringConvertible {
    /// Modifiers physically held (xkb depressed mask).
    public var depressed: UInt32
    /// Modifiers latched for the next key (sticky keys).
    public var latched: UInt32
    /// Modifiers locked on (Caps Lock, Num Lock).
    public var locked: UInt32
    /// The active layout group (xkb effective group).
    public var group: UInt32
    /// A modifier state; all masks default to nothing held.
    public init(depressed: UInt32 = 0, latched: UInt32 = 0, locked: UInt32 = 0, group: UInt32 = 0) {
        self.depressed = depressed
        self.latched = latched
        self.locked = locked
        self.group = group
    }
    /// No modifier and group 0: the state with no keyboard layer.
    public static let none = Modifiers()
    /// Depressed, latched and locked together: what is in effect.
    public var effective: ModifierMask { ModifierMask(rawValue: depressed | latched | locked) }
    /// "depressed,latched,locked,group", for traces.
    public var description: String { "\(depressed),\(latched),\(locked),\(group)" }
}

/// Modifier bits in the order of xkbcommon's default keymaps (the real-modifier indices
/// every `evdev` keymap uses): Shift 0, Lock 1, Control 2, Mod1 (Alt) 3, Mod2 (NumLock) 4,
/// Mod4 (Super) 6, Mod5 (AltGr on many layouts) 7.
public struct ModifierMask: OptionSet, Hashable, Sendable {
    /// The mask bits, one per option below.
    public var rawValue: UInt32
    /// A mask from raw xkb bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Shift (real modifier 0).
    public static let shift = ModifierMask(rawValue: 1 << 0)
    /// Lock (Caps Lock, real modifier 1).
    public static let capsLock = ModifierMask(rawValue: 1 << 1)
    /// Control (real modifier 2).
    public static let control = ModifierMask(rawValue: 1 << 2)
    /// Mod1, Alt (real modifier 3).
    public static let alt = ModifierMask(rawValue: 1 << 3)
    /// Mod2, Num Lock (real modifier 4).
    public static let numLock = ModifierMask(rawValue: 1 << 4)
    /// Mod4, Super/Logo (real modifier 6).
    public static let superKey = ModifierMask(rawValue: 1 << 6)
    /// Mod5, AltGr on many layouts (real modifier 7).
    public static let mod5 = ModifierMask(rawValue: 1 << 7)
    /// The modifiers a binding is matched on; lock modifiers never change a binding.
    public static let bindingRelevant: ModifierMask = [.shift, .control, .alt, .superKey, .mod5]
}

/// What a key press did to the compose sequence (dead keys, Multi_key), as the keyboard
/// layer worked it out. The composed text itself stays in the keyboard layer.
public enum ComposeStep: UInt8, Hashable, Sendable {
    /// Not part of a sequence (compose off, a plain key, a modifier, a release).
    case none
    /// Started or continued a sequence.
    case composing
    /// Finished one: there is composed text.
    case composed
    /// Broke one: neither the key nor the sequence types anything.
    case cancelled
}

/// What one key transition means, after the keyboard layer has updated its state.
public struct KeyMeaning: Hashable, Sendable {
    /// The keysym of the key at the current level (0 when unknown).
    public var keysym: UInt32
    /// The keysym at shift level 0 of the current group, so `Super+Shift+Return`-style
    /// bindings can be written without the shifted symbol (0 when unknown).
    public var baseKeysym: UInt32
    /// Modifier state after this transition.
    public var modifiers: Modifiers
    /// The press's effect on the compose sequence.
    public var compose: ComposeStep
    /// A key's meaning; `baseKeysym` and `compose` default to unknown and no sequence.
    public init(keysym: UInt32, baseKeysym: UInt32 = 0, modifiers: Modifiers, compose: ComposeStep = .none) {
        self.keysym = keysym
        self.baseKeysym = baseKeysym
        self.modifiers = modifiers
        self.compose = compose
    }
}

/// Implemented by the keyboard layer (xkbcommon) and by tests. Called once per key
/// transition of the seat's keyboards, after the seat-wide key count rule, unless
/// `keyAnswers` already says what the key means.
public protocol KeyTranslator: AnyObject {
    func translate(key: UInt32, state: KeyState) -> KeyMeaning
    /// All keys are up (device gone): clear depressed modifiers, keep locks.
    func releaseAll() -> Modifiers
    /// What the seat may answer without calling `translate` (nil: every key is a call). Read
    /// when the translator is set: the memory must stay where it is while the translator lives.
    var keyAnswers: KeyAnswers? { get }
}

extension KeyTranslator {
    /// No answers: every key calls `translate`.
    public var keyAnswers: KeyAnswers? { nil }
}

/// Answers a translator keeps current in its own memory, which the seat reads instead of
/// calling it for the commonest key: one that provably changes no state and whose keysyms
/// are known at the current state (for xkbcommon: an inert key at unchanged modifiers, the
/// translator's own skip, docs/keyboard.md). Called through the protocol, such a key cost
/// the seat about 90 instructions (the witness call, the translator's checks, the
/// registers around it) to learn what these few loads tell.
public struct KeyAnswers {
    /// The translator-wide part.
    public struct State {
        /// Changes whenever any key's keysyms could change; a `Key` read at this generation
        /// is current.
        public var generation: UInt64
        /// The modifiers now: what a key that changes nothing leaves in effect.
        public var modifiers: Modifiers
        /// Whether an inert key would change nothing now (the translator has nothing pending
        /// that such a key could end or feed: for xkbcommon, no action key held and no latch).
        public var inertKeysChangeNothing: Bool
        /// Whether presses with a keysym must reach the translator anyway (compose is on).
        public var feedsPresses: Bool
        public init(generation: UInt64, modifiers: Modifiers, inertKeysChangeNothing: Bool, feedsPresses: Bool) {
            self.generation = generation
            self.modifiers = modifiers
            self.inertKeysChangeNothing = inertKeysChangeNothing
            self.feedsPresses = feedsPresses
        }
    }
    /// One key's part.
    public struct Key {
        /// `State.generation` when `keysym` and `baseKeysym` were found.
        public var generation: UInt64
        public var keysym: UInt32
        public var baseKeysym: UInt32
        /// Never changes the translator's state by itself.
        public var inert: Bool
        public init(generation: UInt64, keysym: UInt32, baseKeysym: UInt32, inert: Bool) {
            self.generation = generation
            self.keysym = keysym
            self.baseKeysym = baseKeysym
            self.inert = inert
        }
    }

    /// The translator-wide answers.
    public let state: UnsafePointer<State>
    /// The first key's answers.
    public let keys: UnsafeRawPointer
    /// The distance in bytes from one key's answers to the next's.
    public let stride: Int
    /// The evdev code of the first key (may be negative: xkb codes are evdev + 8).
    public let firstKey: Int
    /// How many keys have answers.
    public let count: Int

    /// `count` keys' answers for evdev codes from `firstKey` on, the first at `keys`, each
    /// `stride` bytes after the one before (they may sit inside larger records).
    public init(state: UnsafePointer<State>, keys: UnsafeRawPointer, stride: Int, firstKey: Int, count: Int) {
        self.state = state
        self.keys = keys
        self.stride = stride
        self.firstKey = firstKey
        self.count = count
    }

    /// What `key` means when the answers hold it, or nil: then only `translate` can tell.
    @inline(__always) public func meaning(key: UInt32, state direction: KeyState) -> KeyMeaning? {
        let index = Int(key) &- firstKey
        guard UInt(bitPattern: index) < UInt(bitPattern: count) else { return nil }
        let k = (keys + index &* stride).load(as: Key.self)
        let s = state.pointee
        // A press is fed to compose when it is on, whatever the key.
        guard k.generation == s.generation, k.inert, s.inertKeysChangeNothing,
            direction == .released || !s.feedsPresses
        else { return nil }
        return KeyMeaning(keysym: k.keysym, baseKeysym: k.baseKeysym, modifiers: s.modifiers)
    }
}
