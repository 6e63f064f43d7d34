/// A keyboard grab: while the seat holds one, focus requests, key presses that no binding
/// took, and modifier changes go to it — wlroots' `wlr_keyboard_grab_interface`, Smithay's
/// `KeyboardGrab`. The default implementations are what the seat does with no grab.
///
/// Bindings (and the shortcuts-inhibitor escape) still see every press first. A press the
/// grab keeps for itself (does not pass to `defaultKey`) sends its release to the grab as
/// well; a key pressed before the grab began releases where it was pressed.
///
/// Hot path: as for `PointerGrab`, one optional check with no grab; one witness-table
/// call per event with one.
public protocol KeyboardGrab: AnyObject {
    /// `setKeyboardFocus(node)` was asked for (nil: clear it). Returns whether `node` has
    /// the focus now. Default: `defaultKeyboardEnter(_:)`; a popup grab refuses all but its
    /// topmost popup.
    func enter(_ seat: Seat, node: NodeID?) -> Bool
    /// A key press (or the release of a press this grab kept). `meaning` is the key
    /// layer's reading of it. Default: to the keyboard focus (`defaultKey`).
    func key(_ seat: Seat, time: UInt64, key: UInt32, state: KeyState, meaning: KeyMeaning)
    /// `seat.modifiers` changed. Default: sent to the focus (`defaultModifiers()`).
    func modifiers(_ seat: Seat)
    /// The grab was broken from outside; it is already uninstalled.
    func cancel(_ seat: Seat)
}

extension KeyboardGrab {
    /// Default: the focus moves as with no grab (`defaultKeyboardEnter(_:)`).
    public func enter(_ seat: Seat, node: NodeID?) -> Bool { seat.defaultKeyboardEnter(node) }
    /// Default: the key goes to the keyboard focus.
    public func key(_ seat: Seat, time: UInt64, key: UInt32, state: KeyState, meaning: KeyMeaning) {
        seat.defaultKey(time: time, key: key, state: state, meaning: meaning)
    }
    /// Default: the new modifiers go to the keyboard focus.
    public func modifiers(_ seat: Seat) { seat.defaultModifiers() }
    /// Default: nothing to tidy up.
    public func cancel(_ seat: Seat) {}
}

/// The default keyboard behaviour as a grab value: installing it changes nothing.
public final class DefaultKeyboardGrab: KeyboardGrab {
    /// The empty grab; allocates one object, so make it at setup, not per event.
    public init() {}
}

/// What an input method's keyboard grab is offered (`Seat.inputMethodKeyboard`).
public enum InputMethodKeyEvent: Sendable {
    /// A key press no binding took, or the release of a press it took; `device` is the
    /// keyboard it came from.
    case key(time: UInt64, key: UInt32, state: KeyState, device: DeviceID)
    /// The seat's modifiers changed.
    case modifiers(Modifiers)
}
