// Swapping the keyboard while clients are connected: a nested compositor adopts its
// parent's keymap whenever the parent sends one (docs/nested.md).
import CWaylandServer
import InputRouterKeyboard

extension WaylandServer {
    /// Replaces the seat's keyboard: `state` becomes the seat's `keyTranslator`, its keymap
    /// is sealed into a new memfd, and every bound `wl_keyboard` gets `keymap` (and
    /// `repeat_info`) again. The client with the keyboard focus is then told the modifiers,
    /// whose bits now mean what the new keymap says; a virtual keyboard's keymap in use
    /// gives way to the new one (Seat+KeyboardDevices.swift). Throws (and changes nothing) when the
    /// keymap file cannot be made.
    public func setKeyboard(_ state: KeyboardState) throws {
        let file = try state.keymap.clientFile()
        keyboardState = state
        servedSeats[0].keyboardState = state
        keymapFile = file
        seat.keyTranslator = state
        for case let client? in clientsByID {
            for resource in client.keyboards(on: seat.id) {
                (WaylandObject.from(resource) as? KeyboardObject)?.sendKeymap()
            }
            // Its keyboards now hold the server's keymap (ClientKeymaps.swift): a virtual
            // keyboard's in use is sent again before the next key that needs it.
            client.setKeymapSent(0, on: seat.id)
        }
        // A client rebuilds its xkb state from a new keymap, with no modifiers in it: send
        // the current ones even when their value did not change.
        let before = seat.modifiers
        seat.notifyModifiers(state.modifiers)
        sendDeliveries()
        if seat.modifiers == before {
            // Through the seat, which records the serial (a client may cite it in a copy).
            seat.defaultModifiers()
            sendDeliveries()
        }
        wl_display_flush_clients(display)
    }
}
