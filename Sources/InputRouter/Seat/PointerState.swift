// The seat's pointer: where the cursor is, who has the pointer focus, which buttons are
// held and who is owed a `wl_pointer.frame` (Seat+Pointer.swift routes the events; the
// grabs and a recognizer's claim on the pointer are the seat's, which cross devices).
//
// Invariants, checked by `violations()` (InvariantChecker.swift, after each delivery):
// - `heldButtonCount` is the number of button codes some device holds: a button held on
//   several devices counts once (first press and last release are the ones forwarded);
// - a button whose release is swallowed (`consumedButtons`) is held;
// - a client is owed at most one frame: the two clients in `pendingFrame` differ, and the
//   second is set only with the first.

/// What the seat knows of its pointer.
struct PointerState {
    /// Where the pointer is, in layout coordinates, after clamping and any confinement.
    var cursor = Point.zero
    var focus: Responder?
    /// `clientSurface(focus)` as last resolved (Seat+Pointer.swift).
    var focusSurface = FocusSurfaceCache()
    var lastFirstResponder: Responder?
    /// The surface-local position the pointer focus was last told (enter or motion).
    var local = Point.zero
    // Fixed storage, freed by the seat's deinit, as for keys (CodeTable.swift): as arrays,
    // each press and release paid their uniqueness and bounds checks.
    let buttonCounts = CodeTable<UInt8>(repeating: 0)
    let consumedButtons = CodeTable<Bool>(repeating: false)
    var heldButtonCount = 0
    var gestureTarget: Seat.GestureTarget = .none
    /// The clients told something by the event being routed, owed a frame at its end.
    var pendingFrame: (ClientID?, ClientID?) = (nil, nil)

    func deallocate() {
        buttonCounts.deallocate()
        consumedButtons.deallocate()
    }

    /// The invariants above that do not hold, each as a sentence (empty when all hold).
    func violations() -> [String] {
        var found: [String] = []
        var held = 0
        for code in 0..<Seat.codeCount {
            if buttonCounts[code] > 0 {
                held += 1
            } else if consumedButtons[code] {
                found.append("button \(code) is consumed but not held")
            }
        }
        if held != heldButtonCount { found.append("\(heldButtonCount) buttons counted held, \(held) held") }
        if pendingFrame.1 != nil && (pendingFrame.0 == nil || pendingFrame.0 == pendingFrame.1) {
            found.append("a pointer frame owed twice, or the second without the first")
        }
        return found
    }
}
