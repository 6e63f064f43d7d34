import CXKBCommon

/// Keysym names, so callers and tests never need xkbcommon themselves.
public enum Keysym {
    /// The keysym for a name such as "Return", "q" or "dead_acute"; tries an exact
    /// match first (so "q" and "Q" differ), then any case ("return"). Nil if unknown.
    public static func named(_ name: String) -> UInt32? {
        let exact = xkb_keysym_from_name(name, XKB_KEYSYM_NO_FLAGS)
        if exact != 0 { return exact }
        let folded = xkb_keysym_from_name(name, XKB_KEYSYM_CASE_INSENSITIVE)
        return folded == 0 ? nil : folded
    }

    /// The name of a keysym ("Return", "eacute", "0x1000000" style for unnamed ones).
    public static func name(of keysym: UInt32) -> String {
        readUTF8 { xkb_keysym_get_name(keysym, $0, $1) }
    }

    /// The character a keysym types ("" for keys that type none, such as dead keys).
    public static func text(of keysym: UInt32) -> String {
        readUTF8 { xkb_keysym_to_utf8(keysym, $0, $1) }
    }

    /// The lower-case form (same keysym when it has none), for case-blind matching.
    public static func lowercased(_ keysym: UInt32) -> UInt32 { xkb_keysym_to_lower(keysym) }
}
