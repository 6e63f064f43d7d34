import CXKBCommon

/// Every component an `xkb_state` serializes: the four modifier masks, the four layout
/// indices and the lit LEDs. What "the state did not change" means, for the key probe
/// and for the tests that hold `KeyboardState` against a plain `xkb_state`.
struct StateComponents: Equatable, CustomStringConvertible {
    var depressedMods: UInt32, latchedMods: UInt32, lockedMods: UInt32, effectiveMods: UInt32
    var depressedLayout: UInt32, latchedLayout: UInt32, lockedLayout: UInt32, effectiveLayout: UInt32
    var leds: UInt64

    /// `leds`: the LED indices to read (`ledIndices(of:)`); all of the keymap's when nil.
    init(_ state: OpaquePointer, keymap: OpaquePointer, leds indices: [xkb_led_index_t]? = nil) {
        depressedMods = xkb_state_serialize_mods(state, XKB_STATE_MODS_DEPRESSED)
        latchedMods = xkb_state_serialize_mods(state, XKB_STATE_MODS_LATCHED)
        lockedMods = xkb_state_serialize_mods(state, XKB_STATE_MODS_LOCKED)
        effectiveMods = xkb_state_serialize_mods(state, XKB_STATE_MODS_EFFECTIVE)
        depressedLayout = xkb_state_serialize_layout(state, XKB_STATE_LAYOUT_DEPRESSED)
        latchedLayout = xkb_state_serialize_layout(state, XKB_STATE_LAYOUT_LATCHED)
        lockedLayout = xkb_state_serialize_layout(state, XKB_STATE_LAYOUT_LOCKED)
        effectiveLayout = xkb_state_serialize_layout(state, XKB_STATE_LAYOUT_EFFECTIVE)
        leds = 0
        for index in indices ?? Self.ledIndices(of: keymap) where xkb_state_led_index_is_active(state, index) == 1 {
            leds |= UInt64(1) << index
        }
    }

    /// The indices of the LEDs the keymap names (at most 64).
    static func ledIndices(of keymap: OpaquePointer) -> [xkb_led_index_t] {
        (0..<min(xkb_keymap_num_leds(keymap), 64)).filter { xkb_keymap_led_get_name(keymap, $0) != nil }
    }

    var description: String {
        "mods \(depressedMods)/\(latchedMods)/\(lockedMods)/\(effectiveMods) "
            + "layout \(Int32(bitPattern: depressedLayout))/\(Int32(bitPattern: latchedLayout))/"
            + "\(lockedLayout)/\(effectiveLayout) leds \(leds)"
    }
}
