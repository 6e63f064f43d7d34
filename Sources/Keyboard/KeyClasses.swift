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
        let probe = Probe(keymap: keymap)
        var classes = [UInt8](repeating: Self.action, count: Int(maxKeycode - minKeycode) + 1)
        var detectors: [Probe.Detector] = []
        var uncoveredLatch = false
        for code in minKeycode...maxKeycode {
            var cls = Self.inert
            for selection in probe.selections(of: code) {
                // A key without layouts has no level, so no action: one look is enough.
                for variant in selection.level == nil ? [.zero] : Probe.Variant.allCases {
                    switch probe.press(code, at: selection, variant) {
                    case .none: break
                    case .changes: cls = max(cls, Self.action)
                    case let .latches(detector):
                        cls = Self.latch
                        if let detector {
                            if !detectors.contains(where: { $0.kindTag == detector.kindTag }) { detectors.append(detector) }
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
                let breaks = !uncoveredLatch && probe.selections(of: code).allSatisfy { selection in
                    detectors.allSatisfy { probe.breaksLatch(code, at: selection, detector: $0) }
                }
                if !breaks { classes[Int(code - minKeycode)] = Self.action }
            }
        }
        self.classes = classes
    }
}

/// The scratch-state experiments behind `KeyClasses`.
private struct Probe {
    let keymap: OpaquePointer
    /// The keymap's number of layouts (at least 1).
    let layouts: UInt32

    init(keymap: OpaquePointer) {
        self.keymap = keymap
        layouts = max(xkb_keymap_num_layouts(keymap), 1)
    }

    /// The modifiers and layout that put a key at one of its levels (`level` nil: the key
    /// has no layout, so no level to check).
    struct Selection { var mods: UInt32; var layout: UInt32; var level: UInt32? }

    /// Two starting points: every layout component at zero, and a nonzero depressed and
    /// locked layout with the same effective layout, so an absolute layout action meets a
    /// value it changes in at least one of them.
    enum Variant: CaseIterable { case zero, shifted }

    /// A latch that showed in the components: its key, where it latches, and what.
    struct Detector {
        enum Kind: Equatable { case mods(UInt32), layout(UInt32) }
        var code: UInt32, selection: Selection, variant: Variant, kind: Kind
        var kindTag: Int { if case .mods = kind { return 0 } else { return 1 } }
    }

    enum Outcome { case none, changes, latches(Detector?) }

    /// One reachable selection per level of every layout of the key.
    func selections(of code: UInt32) -> [Selection] {
        let keyLayouts = xkb_keymap_num_layouts_for_key(keymap, code)
        if keyLayouts == 0 { return [Selection(mods: 0, layout: 0, level: nil)] }
        var result: [Selection] = []
        var masks = [xkb_mod_mask_t](repeating: 0, count: 16)
        for layout in 0..<keyLayouts {
            for level in 0..<xkb_keymap_num_levels_for_key(keymap, code, layout) {
                let count = xkb_keymap_key_get_mods_for_level(keymap, code, layout, level, &masks, masks.count)
                // A level no modifiers reach is never used.
                if count > 0 { result.append(Selection(mods: masks[0], layout: layout, level: level)) }
            }
        }
        return result
    }

    /// Puts a fresh state where `selection` says and returns the depressed and locked
    /// layout it set; nil when the key does not land at the level and layout meant (then
    /// nothing is proven).
    private func select(_ state: OpaquePointer, _ code: UInt32, _ selection: Selection,
                        _ variant: Variant) -> (base: UInt32, locked: UInt32)? {
        let locked: UInt32 = variant == .shifted && layouts > 1 ? 1 : 0
        let base = variant == .shifted ? selection.layout &+ layouts &- locked : selection.layout
        xkb_state_update_mask(state, selection.mods, 0, 0, base, 0, locked)
        guard let level = selection.level else { return (base, locked) }
        guard xkb_state_key_get_layout(state, code) == selection.layout,
              xkb_state_key_get_level(state, code, selection.layout) == level else { return nil }
        return (base, locked)
    }

    /// Presses and releases the key twice at one selection, moving the depressed layout
    /// by a whole number of layouts while it is held: the effective layout and every mask
    /// stay, but a layout action that restores on release what it found on press shows.
    /// Changes are xkbcommon's own reports (every component, LEDs included); the state is
    /// serialized only once something changed, so an inert key costs ten calls.
    func press(_ code: UInt32, at selection: Selection, _ variant: Variant) -> Outcome {
        guard let state = xkb_state_new(keymap) else { return .changes }
        defer { xkb_state_unref(state) }
        guard var (base, locked) = select(state, code, selection, variant) else { return .changes }
        var changedInRound = (false, false)
        var detector: Detector?
        var latched = false
        for round in 0..<2 {
            var changed = xkb_state_update_key(state, code, XKB_KEY_DOWN).rawValue != 0
            if !changed && !(round == 1 && changedInRound.0) {
                // Untouched so far: the components are the ones selected.
                base &+= layouts
                xkb_state_update_mask(state, selection.mods, 0, 0, base, 0, locked)
            } else {
                let c = StateComponents(state, keymap: keymap)
                xkb_state_update_mask(state, c.depressedMods, c.latchedMods, c.lockedMods,
                                      c.depressedLayout &+ layouts, c.latchedLayout, c.lockedLayout)
                base = c.depressedLayout &+ layouts
                locked = c.lockedLayout
            }
            let before = changed || round == 1 && changedInRound.0 ? StateComponents(state, keymap: keymap) : nil
            let up = xkb_state_update_key(state, code, XKB_KEY_UP).rawValue
            changed = changed || up != 0
            if up & (XKB_STATE_MODS_LATCHED.rawValue | XKB_STATE_LAYOUT_LATCHED.rawValue) != 0 {
                latched = true
                let after = StateComponents(state, keymap: keymap)
                let latchedBefore = before?.latchedMods ?? 0, layoutBefore = before?.latchedLayout ?? 0
                let latchedMods = after.latchedMods & ~latchedBefore
                if round == 0 && detector == nil {
                    if latchedMods != 0 {
                        detector = Detector(code: code, selection: selection, variant: variant, kind: .mods(latchedMods))
                    } else if layoutBefore == 0 && after.latchedLayout != 0 {
                        detector = Detector(code: code, selection: selection, variant: variant,
                                            kind: .layout(after.latchedLayout))
                    }
                }
            }
            if round == 0 { changedInRound.0 = changed } else { changedInRound.1 = changed }
        }
        // Quiet the first time and not the second: the first left something pending.
        if latched || (!changedInRound.0 && changedInRound.1) { return .latches(detector) }
        return changedInRound.0 || changedInRound.1 ? .changes : .none
    }

    /// Whether pressing the key ends a pending latch: latch, hide the latched component
    /// (the latch itself stays pending), press the key, then latch again. A latch still
    /// pending turns the second latch into a set or a lock, so no latch shows; a broken
    /// one lets the second latch show.
    func breaksLatch(_ code: UInt32, at selection: Selection, detector: Detector) -> Bool {
        guard let state = xkb_state_new(keymap) else { return false }
        defer { xkb_state_unref(state) }
        func latchShows() -> Bool {
            let c = StateComponents(state, keymap: keymap)
            switch detector.kind {
            case let .mods(mask): return c.latchedMods & mask == mask
            case let .layout(value): return c.latchedLayout == value
            }
        }
        guard select(state, detector.code, detector.selection, detector.variant) != nil else { return false }
        xkb_state_update_key(state, detector.code, XKB_KEY_DOWN)
        xkb_state_update_key(state, detector.code, XKB_KEY_UP)
        guard latchShows() else { return false }
        guard select(state, code, selection, .zero) != nil else { return false }
        xkb_state_update_key(state, code, XKB_KEY_DOWN)
        guard select(state, detector.code, detector.selection, detector.variant) != nil else { return false }
        xkb_state_update_key(state, detector.code, XKB_KEY_DOWN)
        xkb_state_update_key(state, detector.code, XKB_KEY_UP)
        return latchShows()
    }
}
