// The escape binding: the one key combination a client can never keep from the compositor.
// Two protocols let a client hold on to input: keyboard shortcuts inhibition (the
// compositor's bindings pass to the client) and pointer constraints (the cursor is locked
// or confined to the client's surface). A user must always be able to get out of both, so
// there is one escape for both, defined here and nowhere else: `Seat.escapeBinding`,
// Super+Escape by default (GNOME's escape from an inhibitor), nil for none.
//
// It runs before the compositor's bindings and before any client sees the key, while an
// inhibitor is active or a lock or confinement is active; it then ends both at once
// (the inhibitor until its surface gets the keyboard focus again, a persistent constraint
// until the pointer leaves its surface and comes back), and the press and its release go
// to no client. With neither active it is an ordinary key combination: the compositor's
// bindings, then the focused client, as any other.
extension Seat {
    /// Super+Escape (XKB's `Escape` keysym).
    public static let defaultEscapeBinding = KeyBinding(keysym: 0xff1b, modifiers: .superKey)

    /// Whether the escape has anything to end (checked on key presses only).
    var escapeApplies: Bool { activeShortcutsInhibitor != nil || constraints.active != nil }

    /// The escape was pressed: traced as binding #-1; the inhibitor and the constraint end.
    func runEscape(key: UInt32) {
        enqueue(.binding(id, index: -1, key: key))
        escapeShortcutsInhibitor()
        breakPointerConstraint()
    }
}
