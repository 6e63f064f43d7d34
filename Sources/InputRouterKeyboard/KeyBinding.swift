import InputRouter

/// The text form of the core's `KeyBinding`: `Super+Return`, `Ctrl+Alt+F2`,
/// `Super+Shift+q`. The core owns the type and the capture phase; this is the parser a
/// compositor's configuration goes through, and a matcher for raw keysyms.
extension KeyBinding {
    /// Parses `Mod+Mod+Key`. Modifier names are case-blind: Shift; Ctrl or Control; Alt or
    /// Mod1; Super, Logo, Win or Mod4; AltGr or Mod5. The key is a keysym name, exact case
    /// first, then any case ("return" works). Letters are stored in lower case, the form
    /// level 0 of a layout has, so `Super+Shift+Q` and `Super+Shift+q` are the same
    /// binding and both match whether Shift turns the key into Q or not.
    public init(parsing spec: String) throws {
        var parts = spec.split(separator: "+", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace() }
        var keyName = parts.removeLast()
        // A trailing "++" means the key is the plus sign itself ("Ctrl++").
        if keyName.isEmpty, parts.last == "" {
            parts.removeLast()
            keyName = "plus"
        }
        guard !keyName.isEmpty else { throw KeyboardError.invalidBinding(spec: spec, reason: "no key") }
        var mask: ModifierMask = []
        for name in parts {
            guard let modifier = Self.modifierNames[name.lowercased()] else {
                throw KeyboardError.invalidBinding(spec: spec, reason: "unknown modifier \"\(name)\"")
            }
            guard !mask.contains(modifier) else {
                throw KeyboardError.invalidBinding(spec: spec, reason: "modifier \"\(name)\" given twice")
            }
            mask.insert(modifier)
        }
        guard let keysym = Keysym.named(keyName) else {
            throw KeyboardError.invalidBinding(spec: spec, reason: "unknown key \"\(keyName)\"")
        }
        self.init(keysym: Keysym.lowercased(keysym), modifiers: mask)
    }

    private static let modifierNames: [String: ModifierMask] = [
        "shift": .shift, "ctrl": .control, "control": .control, "alt": .alt, "mod1": .alt,
        "super": .superKey, "logo": .superKey, "win": .superKey, "mod4": .superKey,
        "altgr": .mod5, "mod5": .mod5,
    ]

    /// Whether a press with these keysyms, under the modifiers held when it went down,
    /// triggers the binding: the same rule as the core's `matches(_:modifiersBefore:)`
    /// (level or level-0 keysym; Shift, Control, Alt, Super and Mod5 exactly; locks
    /// ignored), for callers that hold keysyms rather than a `KeyMeaning`.
    public func matches(keysym: UInt32, baseKeysym: UInt32, modifiers: ModifierMask) -> Bool {
        guard self.keysym != 0, keysym == self.keysym || baseKeysym == self.keysym else { return false }
        return modifiers.intersection(.bindingRelevant) == self.modifiers
    }

    /// The canonical text form, which parses back to the same binding.
    public var spec: String {
        let order: [(ModifierMask, String)] = [
            (.superKey, "Super"), (.control, "Ctrl"), (.alt, "Alt"),
            (.mod5, "AltGr"), (.shift, "Shift"),
        ]
        let names = order.filter { modifiers.contains($0.0) }.map(\.1)
        return (names + [Keysym.name(of: keysym)]).joined(separator: "+")
    }
}
