// Serials: the one record of what each serial a seat sent stood for, and the one rule table
// that says which requests may cite it (docs/routing.md, "Serials").
//
// A client cites a serial to prove that the user just did something to it: xdg_toplevel.move
// and resize, wl_data_device.start_drag, xdg_popup.grab, wl_pointer.set_cursor (and
// cursor-shape's set_shape, for a pointer or a tablet tool),
// set_selection and xdg_activation_token_v1.set_serial all carry one. The seat writes an
// entry at the one place a serial is made for a client (`recordedSerial`, when it queues
// the delivery that carries it), and a request is checked at one place
// (`Seat.serialEntry(_:client:for:)`), with the rules in one `switch` (`SerialRules`).
// wlroots keeps the same split (`wlr_seat_client_next_serial` beside
// `wlr_seat_validate_pointer_grab_serial` and `wlr_seat_client_validate_event_serial`).
//
// Focus on click is decided before the press is delivered (`Seat.beforePress`): the
// keyboard's enter goes out before the button, so the newest serial a toolkit cites is the
// press itself, and no serial needs to stand for another.

/// A serial as `wl_display_next_serial` hands them out: a 32-bit counter that wraps. Two
/// serials compare by their distance, so the order holds across the wrap (as Smithay's
/// `Serial` does): `a < b` when `b` came less than 2³¹ serials after `a`.
public struct Serial: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The value on the wire.
    public var rawValue: UInt32
    @inlinable public init(_ rawValue: UInt32) { self.rawValue = rawValue }

    @inlinable public static func < (a: Serial, b: Serial) -> Bool {
        Int32(bitPattern: b.rawValue &- a.rawValue) > 0
    }

    public var description: String { "\(rawValue)" }
}

/// What the user did that a serial came with: the delivery that carried it.
public enum SerialAction: UInt8, Sendable, CaseIterable {
    case buttonPress, buttonRelease
    case keyPress, keyRelease
    /// `wl_keyboard.modifiers` (GTK's Ctrl+C cites the modifiers that followed the Ctrl release).
    case modifiers
    case touchDown, touchUp
    /// The tablet tool's tip down, and its buttons' presses.
    case tabletDown, tabletButtonPress
    case pointerEnter
    case keyboardEnter
    /// A tablet tool's `proximity_in`: the tool's enter.
    case tabletProximityIn
}

/// A request that must cite a serial.
public enum SerialRequest: Sendable, CaseIterable {
    /// `xdg_toplevel.move`.
    case move
    /// `xdg_toplevel.resize`.
    case resize
    /// `wl_data_device.start_drag`.
    case drag
    /// `xdg_popup.grab`.
    case popupGrab
    /// `wl_pointer.set_cursor`, and `wp_cursor_shape_device_v1.set_shape` on a pointer.
    case setCursor
    /// `wl_data_device.set_selection` and `zwp_primary_selection_device_v1.set_selection`.
    case selection
    /// `xdg_activation_token_v1.set_serial`.
    case activation
    /// `wp_cursor_shape_device_v1.set_shape` on a tablet tool.
    case setToolCursor
}

/// One serial a seat sent a client: what it came with, and where (in layout space: the
/// cursor for buttons, keys and enters, the touch point, the tablet tool). An interactive
/// move is anchored there, not where the pointer is when the request arrives.
public struct SerialEntry: Sendable, Equatable {
    public var serial: Serial
    public var client: ClientID
    public var action: SerialAction
    public var position: Point
}

/// The rule table: which deliveries a request may cite, before the seat's state is asked
/// (a button still held, the focus still the client's). One `switch`, documented in
/// docs/routing.md against wlroots, Mutter and Smithay.
public enum SerialRules {
    /// Whether `request` may cite a serial that came with `action`.
    public static func permits(_ request: SerialRequest, citing action: SerialAction) -> Bool {
        switch (request, action) {
        // A grab that follows the pointer or a finger needs a press that is still going on.
        case (.move, .buttonPress), (.move, .touchDown), (.move, .tabletDown),
            (.resize, .buttonPress), (.resize, .touchDown), (.resize, .tabletDown),
            (.drag, .buttonPress), (.drag, .touchDown), (.drag, .tabletDown):
            return true
        case (.move, _), (.resize, _), (.drag, _):
            return false
        // A menu opens on a press or a release, of a button, a key (GTK's MenuButton opens
        // on the key's release), a finger or a tablet; a nested menu opened from the
        // keyboard cites the keyboard enter its parent menu received.
        case (.popupGrab, .modifiers), (.popupGrab, .pointerEnter), (.popupGrab, .tabletProximityIn):
            return false
        case (.popupGrab, _):
            return true
        // The cursor is set by the client the pointer entered, citing that enter.
        case (.setCursor, .pointerEnter):
            return true
        case (.setCursor, _):
            return false
        // A tool's cursor is set by the client the tool came into proximity of, citing that.
        case (.setToolCursor, .tabletProximityIn):
            return true
        case (.setToolCursor, _):
            return false
        // A copy cites the newest serial the client saw: a key or its release, the
        // modifiers after them, a click, a touch, or the keyboard enter of a focus it holds.
        case (.selection, .pointerEnter), (.selection, .tabletProximityIn):
            return false
        case (.selection, _):
            return true
        // Activation is passed on by a user action: presses and releases, not the focus's
        // events (a window must not pass on focus it was merely given).
        case (.activation, .pointerEnter), (.activation, .keyboardEnter), (.activation, .modifiers),
            (.activation, .tabletProximityIn):
            return false
        case (.activation, _):
            return true
        }
    }
}

/// A fixed ring of the newest serials a seat sent to clients: recording one is a store and
/// never allocates (keys are on the hot path). 128 entries keep a press citable across a
/// burst of typing (a key is two entries, with modifiers three). The latest enters are kept
/// apart as well, so a client that was typed into for a long time can still set its cursor
/// and a focused client its selection.
struct SerialRecord {
    private static let size = 128
    private var entries = InlineArray<128, SerialEntry>(
        repeating: SerialEntry(serial: Serial(0), client: .compositor, action: .buttonPress, position: .zero))
    private var next = 0
    /// The seat's newest `wl_pointer.enter`, `wl_keyboard.enter` and tool `proximity_in`.
    private(set) var pointerEnter: SerialEntry?
    private(set) var keyboardEnter: SerialEntry?
    private(set) var toolProximityIn: SerialEntry?

    @inline(__always) mutating func record(_ entry: SerialEntry) {
        entries[next] = entry
        next = (next + 1) & (SerialRecord.size - 1)
        if entry.action == .pointerEnter { pointerEnter = entry }
        if entry.action == .keyboardEnter { keyboardEnter = entry }
        if entry.action == .tabletProximityIn { toolProximityIn = entry }
    }

    /// The entry of `serial`, if it went to `client` and is still recorded.
    func find(_ serial: UInt32, client: ClientID) -> SerialEntry? {
        guard serial != 0 else { return nil }
        if let e = pointerEnter, e.serial.rawValue == serial, e.client == client { return e }
        if let e = keyboardEnter, e.serial.rawValue == serial, e.client == client { return e }
        if let e = toolProximityIn, e.serial.rawValue == serial, e.client == client { return e }
        for i in 0..<SerialRecord.size where entries[i].serial.rawValue == serial && entries[i].client == client {
            return entries[i]
        }
        return nil
    }

    /// The newest entry with `action` sent to `client`.
    func newest(_ action: SerialAction, client: ClientID) -> SerialEntry? {
        for i in 1...SerialRecord.size {
            let e = entries[(next - i + SerialRecord.size) & (SerialRecord.size - 1)]
            if e.serial.rawValue != 0, e.action == action, e.client == client { return e }
        }
        return nil
    }

    /// The newest user action sent to `client`, or to anyone when nil: a button, key, touch
    /// or tablet event, not an enter (nor a tool's proximity) nor the modifiers (sent with
    /// every keyboard enter too).
    func newestAction(client: ClientID?) -> SerialEntry? {
        for i in 1...SerialRecord.size {
            let e = entries[(next - i + SerialRecord.size) & (SerialRecord.size - 1)]
            if e.serial.rawValue == 0 { continue } // never written, or its client went
            if e.action != .pointerEnter, e.action != .keyboardEnter, e.action != .modifiers,
                e.action != .tabletProximityIn,
                client == nil || e.client == client
            {
                return e
            }
        }
        return nil
    }

    /// A client went: its serials are forgotten, so a new client given its index cannot
    /// cite them.
    mutating func forget(_ client: ClientID) {
        for i in 0..<SerialRecord.size where entries[i].client == client { entries[i].serial = Serial(0) }
        if pointerEnter?.client == client { pointerEnter = nil }
        if keyboardEnter?.client == client { keyboardEnter = nil }
        if toolProximityIn?.client == client { toolProximityIn = nil }
    }
}

extension Seat {
    /// The next serial, for a delivery to `client` that a request may cite later: written
    /// to the seat's record with what it came with and where.
    @inline(__always) func recordedSerial(_ action: SerialAction, client: ClientID, at position: Point) -> UInt32 {
        let serial = nextSerial()
        serials.record(SerialEntry(serial: Serial(serial), client: client, action: action, position: position))
        return serial
    }

    /// The serial of the newest user action (a button, key, touch or tablet event)
    /// this seat sent `client`, or any client when nil: which seat a client's new window
    /// answers (the Wayland layer's `seatForNewWindow`).
    public func newestActionSerial(to client: ClientID?) -> Serial? {
        serials.newestAction(client: client)?.serial
    }

    /// What `serial` stood for when `client` cites it in `request` on this seat, or nil when
    /// the request may not cite it: never sent to `client` on this seat, forgotten, of a kind
    /// the rule table refuses (`SerialRules`), or no longer current:
    /// - move, resize and drag from a button press: the client's newest press, with a button
    ///   still held (one begun after the release would follow a cursor with no button down);
    /// - set_cursor: the seat's newest pointer enter, and it was this client's;
    /// - a tool's set_shape: the seat's newest tool proximity-in, and it was this client's;
    /// - a keyboard enter: the seat's newest, and the client still has the keyboard.
    public func serialEntry(_ serial: UInt32, client: ClientID, for request: SerialRequest) -> SerialEntry? {
        guard let e = serials.find(serial, client: client), SerialRules.permits(request, citing: e.action) else {
            return nil
        }
        switch e.action {
        case .buttonPress where request == .move || request == .resize || request == .drag:
            guard pointer.heldButtonCount > 0, serials.newest(.buttonPress, client: client)?.serial == e.serial else {
                return nil
            }
        case .pointerEnter:
            guard serials.pointerEnter == e else { return nil }
        case .tabletProximityIn:
            guard serials.toolProximityIn == e else { return nil }
        case .keyboardEnter:
            guard serials.keyboardEnter == e, keyboard.focus != nil, keyboard.focusClient == client else { return nil }
        default:
            break
        }
        return e
    }
}
