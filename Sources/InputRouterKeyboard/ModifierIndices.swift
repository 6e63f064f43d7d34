import CXKBCommon
import InputRouter

/// Where this keymap put each named real modifier. Stock keymaps use the bit order
/// `ModifierMask` assumes, but a keymap file may not; binding matching goes through this
/// map so it never depends on bit positions.
struct ModifierIndices {
    private let pairs: [(mask: ModifierMask, bit: UInt32)]

    init(keymap: OpaquePointer) {
        let names: [(ModifierMask, String)] = [
            (.shift, XKB_MOD_NAME_SHIFT), (.capsLock, XKB_MOD_NAME_CAPS), (.control, XKB_MOD_NAME_CTRL),
            (.alt, XKB_MOD_NAME_ALT), (.numLock, XKB_MOD_NAME_NUM), (.superKey, XKB_MOD_NAME_LOGO),
            (.mod5, "Mod5"),
        ]
        pairs = names.compactMap { mask, name in
            let index = xkb_keymap_mod_get_index(keymap, name)
            guard index != XKB_MOD_INVALID, index < 32 else { return nil }
            return (mask, UInt32(1) << index)
        }
    }

    /// Translates a raw xkb mask into the canonical `ModifierMask`.
    func canonical(_ raw: UInt32) -> ModifierMask {
        var mask: ModifierMask = []
        for pair in pairs where raw & pair.bit != 0 { mask.insert(pair.mask) }
        return mask
    }
}
