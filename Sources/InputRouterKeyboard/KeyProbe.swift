import CXKBCommon

/// The scratch-state experiments behind `KeyClasses`.
struct KeyProbe {
    let keymap: OpaquePointer
    /// The keymap's number of layouts (at least 1).
    let layouts: UInt32

    init(keymap: OpaquePointer) {
        self.keymap = keymap
        layouts = max(xkb_keymap_num_layouts(keymap), 1)
    }

    /// The modifiers and layout that put a key at one of its levels (`level` nil: the key
    /// has no layout, so no level to check).
    struct Selection {
        var mods: UInt32
        var layout: UInt32
        var level: UInt32?
    }

    /// Two starting points: every layout component at zero, and a nonzero depressed and
    /// locked layout with the same effective layout, so an absolute layout action meets a
    /// value it changes in at least one of them.
    enum Variant: CaseIterable { case zero, shifted }

    /// A latch that showed in the components: its key, where it latches, and what.
    struct Detector {
        enum Kind: Equatable {
            case mods(UInt32)
            case layout(UInt32)
        }
        var code: UInt32, selection: Selection, variant: Variant, kind: Kind
        var kindTag: Int { if case .mods = kind { return 0 } else { return 1 } }
    }

    enum Outcome {
        case none, changes
        case latches(Detector?)
    }

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
    private func select(
        _ state: OpaquePointer, _ code: UInt32, _ selection: Selection,
        _ variant: Variant
    ) -> (base: UInt32, locked: UInt32)? {
        let locked: UInt32 = variant == .shifted && layouts > 1 ? 1 : 0
        let base = variant == .shifted ? selection.layout &+ layouts &- locked : selection.layout
        xkb_state_update_mask(state, selection.mods, 0, 0, base, 0, locked)
        guard let level = selection.level else { return (base, locked) }
        guard xkb_state_key_get_layout(state, code) == selection.layout,
            xkb_state_key_get_level(state, code, selection.layout) == level
        else { return nil }
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
                xkb_state_update_mask(
                    state, c.depressedMods, c.latchedMods, c.lockedMods,
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
                let latchedBefore = before?.latchedMods ?? 0
                let layoutBefore = before?.latchedLayout ?? 0
                let latchedMods = after.latchedMods & ~latchedBefore
                if round == 0 && detector == nil {
                    if latchedMods != 0 {
                        detector = Detector(
                            code: code, selection: selection, variant: variant, kind: .mods(latchedMods))
                    } else if layoutBefore == 0 && after.latchedLayout != 0 {
                        detector = Detector(
                            code: code, selection: selection, variant: variant,
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
            case .mods(let mask): return c.latchedMods & mask == mask
            case .layout(let value): return c.latchedLayout == value
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
