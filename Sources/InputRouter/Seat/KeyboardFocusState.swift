// The seat's keyboard focus and the keys held: which surface has the focus and whether
// it was told so, the recent focus order, and who got each held key (Seat+Keyboard.swift
// routes them). The keymap in use, the modifiers and the bindings are the seat's: they
// cross keyboards (Seat+KeyboardDevices.swift).
//
// Invariants, checked by `violations()` (InvariantChecker.swift, after each delivery):
// - an entered focus is a focus: `entered` only with `focus` set;
// - `heldKeys` lists each key code some device holds, once (a key held on several devices
//   is forwarded once, first press and last release);
// - the focus history keeps at most `Seat.historyLimit` surfaces.

/// What the seat knows of its keyboard focus and keys.
struct KeyboardFocusState {
    var focus: NodeID?
    var focusClient = ClientID.compositor
    /// The focus's client was told `enter` (it has bound a keyboard): it is owed a leave.
    var entered = false
    // Fixed storage, freed by the seat's deinit (CodeTable.swift): no uniqueness or bounds
    // check per key.
    let keyCounts = CodeTable<UInt8>(repeating: 0)
    let keyRecipients = CodeTable<Seat.KeyRecipient>(repeating: .none)
    var heldKeys = HeldCodes()
    /// The surfaces that had the focus, the latest last: where it goes back to.
    var focusHistory: [NodeID] = []

    init() {
        focusHistory.reserveCapacity(Seat.historyLimit)
    }

    func deallocate() {
        keyCounts.deallocate()
        keyRecipients.deallocate()
        heldKeys.deallocate()
    }

    /// The invariants above that do not hold, each as a sentence (empty when all hold).
    func violations() -> [String] {
        var found: [String] = []
        if entered && focus == nil { found.append("keyboard entered with no focus") }
        var held = 0
        for code in 0..<Seat.codeCount where keyCounts[code] > 0 {
            held += 1
            if !heldKeys.contains(UInt32(code)) { found.append("key \(code) held but not listed held") }
        }
        if held != heldKeys.count { found.append("\(heldKeys.count) keys listed held, \(held) held") }
        if focusHistory.count > Seat.historyLimit { found.append("focus history of \(focusHistory.count) surfaces") }
        return found
    }
}
