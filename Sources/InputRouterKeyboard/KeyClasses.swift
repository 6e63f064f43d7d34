import CXKBCommon

/// What each key of a keymap can do to an `xkb_state`, found once per keymap by pressing
/// the key in scratch states at every level of every layout. `KeyboardState` skips
/// `xkb_state_update_key` for an inert key while nothing that could react to it is active;
/// any key this probe cannot prove inert is an action key, so the skip is always exact.
///
/// Why the probe is enough: xkbcommon changes a state on a key only through the action
/// the key has at the level it is pressed at (a filter it creates: SetMods, LatchMods,
/// LockMods and the group actions) and through the filters of keys still held or latched.
/// A key is inert when, at every level, pressing and releasing it twice (its own second
/// press reveals a latch it left pending) changes no serialized component, whether the
/// layout and lock components are zero or not and even when the depressed layout moves
/// while it is held (a SetGroup restores the layout it found on release). When the keymap
/// has latch keys, an inert key must also provably break a pending latch, as a plain key
/// does: a key with an action that keeps latches (a SetMods of no modifier, MovePtr) is
/// not inert.
struct KeyClasses {
    /// Never changes the state by itself, and breaks pending latches.
    static let inert: UInt8 = 0
    /// Has an action at some level, or could not be proven inert.
    static let action: UInt8 = 1
    /// Has a latch at some level: after it moves, a latch may be pending.
    static let latch: UInt8 = 2

    /// The lowest keycode of the keymap (xkb codes, evdev + 8).
    let minKeycode: UInt32
    /// One class per keycode from `minKeycode` to the keymap's highest.
    let classes: [UInt8]

    /// Classes as given (tests: a deliberately wrong classification must be caught).
    init(minKeycode: UInt32, classes: [UInt8]) {
        self.minKeycode = minKeycode
        self.classes = classes
    }

    init(keymap: OpaquePointer) {
        minKeycode = xkb_keymap_min_keycode(keymap)
        let maxKeycode = max(xkb_keymap_max_keycode(keymap), minKeycode)
        let probe = KeyProbe(keymap: keymap)
        var classes = [UInt8](repeating: Self.action, count: Int(maxKeycode - minKeycode) + 1)
        var detectors: [KeyProbe.Detector] = []
        var uncoveredLatch = false
        for code in minKeycode...maxKeycode {
            var cls = Self.inert
            for selection in probe.selections(of: code) {
                // A key without layouts has no level, so no action: one look is enough.
                for variant in selection.level == nil ? [.zero] : KeyProbe.Variant.allCases {
                    switch probe.press(code, at: selection, variant) {
                    case .none: break
                    case .changes: cls = max(cls, Self.action)
                    case .latches(let detector):
                        cls = Self.latch
                        if let detector {
                            if !detectors.contains(where: { $0.kindTag == detector.kindTag }) {
                                detectors.append(detector)
                            }
                        } else {
                            uncoveredLatch = true
                        }
                    }
                }
            }
            classes[Int(code - minKeycode)] = cls
        }
        // A pending latch must end on an inert key's press: prove it against one latch of
        // each kind (modifier, layout), or, when a latch cannot serve as the proof, trust no key.
        if classes.contains(Self.latch) {
            for code in minKeycode...maxKeycode where classes[Int(code - minKeycode)] == Self.inert {
                let breaks =
                    !uncoveredLatch
                    && probe.selections(of: code).allSatisfy { selection in
                        detectors.allSatisfy { probe.breaksLatch(code, at: selection, detector: $0) }
                    }
                if !breaks { classes[Int(code - minKeycode)] = Self.action }
            }
        }
        self.classes = classes
    }
}
