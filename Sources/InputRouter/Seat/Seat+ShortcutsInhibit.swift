// Keyboard shortcuts inhibition (what `zwp_keyboard_shortcuts_inhibit_manager_v1` asks for):
// a surface may ask that the compositor's key bindings pass to it while it has the keyboard
// focus (a remote desktop, a virtual machine viewer, a game). The inhibitor is active exactly
// while the focus is on its surface; one binding, the seat's `escapeBinding` (Super+Escape by
// default, as in GNOME; Seat+Escape.swift), always stays the compositor's: it deactivates the
// inhibitor until the surface loses the focus and gets it back, so a user is never locked out.
extension Seat {
    /// `node` asks to inhibit the compositor's shortcuts. False (and nothing changes) when it
    /// already does: the protocol's `already_inhibited`.
    @discardableResult
    public func addShortcutsInhibitor(_ node: NodeID) -> Bool {
        guard !shortcutsInhibitors.contains(node) else { return false }
        shortcutsInhibitors.append(node)
        updateShortcutsInhibitor()
        return true
    }

    /// The inhibitor went (destroyed, or its surface did): bindings are the compositor's again.
    public func removeShortcutsInhibitor(_ node: NodeID) {
        shortcutsInhibitors.removeAll { $0 == node }
        if escapedShortcutsInhibitor == node { escapedShortcutsInhibitor = nil }
        updateShortcutsInhibitor()
    }

    /// Whether the compositor's bindings currently pass to the focused client.
    public var shortcutsInhibited: Bool { activeShortcutsInhibitor != nil }

    /// Works out which inhibitor is active after a focus or inhibitor change, and queues
    /// `inactive` for the one that stops and `active` for the one that starts.
    func updateShortcutsInhibitor() {
        // No inhibitor anywhere (most sessions): every keyboard focus change asks.
        if activeShortcutsInhibitor == nil && escapedShortcutsInhibitor == nil && shortcutsInhibitors.isEmpty { return }
        if let e = escapedShortcutsInhibitor, e != keyboard.focus { escapedShortcutsInhibitor = nil }
        var next: NodeID?
        if let f = keyboard.focus, f != escapedShortcutsInhibitor, shortcutsInhibitors.contains(f), tree.isAlive(f) {
            next = f
        }
        guard next != activeShortcutsInhibitor else { return }
        if let old = activeShortcutsInhibitor, tree.isAlive(old), shortcutsInhibitors.contains(old) {
            enqueue(.shortcutsInhibited(id, old, active: false))
        }
        activeShortcutsInhibitor = next
        if let n = next { enqueue(.shortcutsInhibited(id, n, active: true)) }
    }

    /// The escape's part: the inhibitor is inactive until its surface gets the focus again.
    func escapeShortcutsInhibitor() {
        guard activeShortcutsInhibitor != nil else { return }
        escapedShortcutsInhibitor = activeShortcutsInhibitor
        updateShortcutsInhibitor()
    }
}
