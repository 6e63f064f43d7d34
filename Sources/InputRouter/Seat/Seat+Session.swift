// A session switch (a VT switch): the session that runs the compositor loses its seat's
// devices to another session and later gets them back (libseat's disable and enable,
// logind's pause and resume). While it is away no client may go on believing it has the
// keyboard or the pointer, and once back the keyboard enters where it was, with the
// modifiers held then. The devices' own ends come first: the source routes their
// releases, touch cancels and removals before telling the seat (LibinputSource does);
// this does what no device event can: the leaves, and the enters on return.
extension Seat {
    /// Whether the session has its seat (true unless `setSessionActive(false, ...)`).
    public var isSessionActive: Bool { !sessionAway }

    /// The session lost (`false`) or regained (`true`) its seat. Losing it: the keyboard
    /// leaves its surface, which is remembered, and the pointer leaves its own. Regaining
    /// it: the keyboard enters the remembered surface again if it can still take the focus
    /// (with the keys its client was sent and still held, and the modifiers held now), and
    /// the pointer enters the surface under the cursor. Call it after the source has routed
    /// what the devices did at the switch; a second call with the same value does nothing.
    public func setSessionActive(_ active: Bool, time: UInt64) {
        guard active == sessionAway else { return }
        sessionAway = !active
        if !active {
            sessionAwayFocus = keyboard.focus
            moveKeyboardFocus(to: nil)
            setPointerFocus(nil)
        } else {
            if let focus = sessionAwayFocus, tree.isAlive(focus) { setKeyboardFocus(focus) }
            sessionAwayFocus = nil
            repick(time: time, motion: false)
        }
        flushPointerFrames()
    }
}
