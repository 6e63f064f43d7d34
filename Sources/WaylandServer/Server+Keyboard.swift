// Swapping the keyboard while clients are connected: a nested compositor adopts its
// parent's keymap whenever the parent sends one (docs/nested.md).
import CWaylandServer
import Keyboard

extension WaylandServer {
    /// Replaces the seat's keyboard: `state` becomes the seat's `keyTranslator`, its keymap
    /// is sealed into a new memfd, and every bound `wl_keyboard` gets `keymap` (and
    /// `repeat_info`) again. The client with the keyboard focus is then told the modifiers,
    /// whose bits now mean what the new keymap says. Throws (and changes nothing) when the
    /// keymap file cannot be made.
    public func setKeyboard(_ state: KeyboardState) throws {
        let file = try state.keymap.clientFile()
        keyboardState = state
        keymapFile = file
        seat.keyTranslator = state
        for case let client? in clientsByID {
            for resource in client.keyboards {
                (WaylandObject.from(resource) as? KeyboardObject)?.sendKeymap()
            }
        }
        // A client rebuilds its xkb state from a new keymap, with no modifiers in it: send
        // the current ones even when their value did not change.
        let before = seat.modifiers
        seat.notifyModifiers(state.modifiers)
        sendDeliveries()
        if seat.modifiers == before, let focus = seat.keyboardFirstResponder, let surface = surface(for: focus) {
            let owner = surface.owner
            guard !owner.keyboards.isEmpty else { return }
            let m = seat.modifiers
            let serial = nextSerial(for: .router, client: owner.id)
            for r in owner.keyboards { wl_keyboard_send_modifiers(r, serial, m.depressed, m.latched, m.locked, m.group) }
        }
        wl_display_flush_clients(display)
    }
}
