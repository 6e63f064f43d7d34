// The serials a client may cite to ask for a grab: the recent button presses, touch
// downs, tablet tips and buttons, and key presses the seat delivered to it. A popup grab may
// cite any of them (xdg-shell: "a pointer press or keyboard press"); an interactive move or
// resize needs a pointer press whose button is still held, or a touch or tablet press.

/// What kind of user action a serial came with.
public enum PressKind: Sendable, Equatable {
    case button
    case touch
    case tablet
    case key
}

/// One press delivered to a client: its serial, and where it happened in layout space
/// (the cursor for buttons and keys, the touch point for touch). An interactive move is
/// anchored there, not where the pointer is when the request arrives.
public struct Press: Sendable, Equatable {
    /// The serial the client was sent with the press.
    public var serial: UInt32
    /// The client the press went to.
    public var client: ClientID
    /// Button, touch, tablet or key.
    public var kind: PressKind
    /// Where it happened, in layout space: an interactive move is anchored here.
    public var position: Point
}

/// A fixed ring of the newest presses: recording one never allocates (key presses are on
/// the hot path). 32 entries keep a press valid across a burst of typing. Inline, so a
/// record pays no uniqueness check (an array did), and the index wraps with a mask.
struct PressLog {
    private static let size = 32
    private var entries = InlineArray<32, Press>(
        repeating: Press(serial: 0, client: .compositor, kind: .button, position: .zero))
    private var next = 0

    @inline(__always) mutating func record(_ press: Press) {
        entries[next] = press
        next = (next + 1) & (PressLog.size - 1)
    }

    /// The press `serial` names, if it was delivered to `client` and is still in the ring.
    func find(serial: UInt32, client: ClientID) -> Press? {
        guard serial != 0 else { return nil }
        for i in 0..<PressLog.size where entries[i].serial == serial && entries[i].client == client {
            return entries[i]
        }
        return nil
    }

    /// The newest press of `kind` delivered to `client`.
    func newest(_ kind: PressKind, client: ClientID) -> Press? {
        for i in 1...PressLog.size {
            let e = entries[(next - i + PressLog.size) % PressLog.size]
            if e.serial != 0, e.kind == kind, e.client == client { return e }
        }
        return nil
    }
}
