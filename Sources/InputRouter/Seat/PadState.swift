// The seat's tablet pads: one record per pad from its `tabletPadAdded` until its device
// goes (Seat+Pad.swift routes them; they follow the keyboard focus).
//
// Invariants, checked by `violations()` (InvariantChecker.swift, after each delivery):
// - a device has at most one pad record;
// - a pad that entered no surface owes no button release (what it sent was released
//   before its leave).

/// One pad of the seat, from its `tabletPadAdded` until its device is removed.
struct PadRecord {
    var device: DeviceID
    var layout: TabletPadLayout
    /// The surface the pad entered (told `padEnter`).
    var focus: NodeID?
    /// The current mode of each group, as the pad's events last reported it.
    var modes: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
    /// The buttons the focus was told were pressed (bit per button index): owed releases.
    var sentButtons: UInt64 = 0

    func mode(_ g: Int) -> UInt32 {
        switch g {
        case 0: modes.0
        case 1: modes.1
        case 2: modes.2
        default: modes.3
        }
    }

    mutating func setMode(_ g: Int, _ m: UInt32) {
        switch g {
        case 0: modes.0 = m
        case 1: modes.1 = m
        case 2: modes.2 = m
        default: modes.3 = m
        }
    }
}

/// What the seat knows of its tablet pads.
struct PadState {
    var records: [PadRecord] = []

    /// The invariants above that do not hold, each as a sentence (empty when all hold).
    func violations() -> [String] {
        var found: [String] = []
        for i in records.indices {
            let p = records[i]
            if records[(i + 1)...].contains(where: { $0.device == p.device }) {
                found.append("pad \(p.device) has two records")
            }
            if p.focus == nil && p.sentButtons != 0 {
                found.append("pad \(p.device) owes a button release with no surface entered")
            }
        }
        return found
    }
}
