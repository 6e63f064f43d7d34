import CXKBCommon
import InputRouter

extension KeyboardState {
    /// Sets the whole modifier and layout state at once, as `wl_keyboard.modifiers` gives it
    /// (`group` is taken as the locked layout, the one a client's state serializes back):
    /// what a nested compositor adopts from its parent instead of deriving it from keys.
    /// Keys already down keep their xkb bookkeeping. Returns the state now in effect.
    @discardableResult
    public func adoptModifiers(_ m: Modifiers) -> Modifiers {
        xkb_state_update_mask(pointer, m.depressed, m.latched, m.locked, 0, 0, m.group)
        // The mask update leaves xkbcommon's filters alone, so held keys and pending
        // latches are still what translate's bookkeeping says.
        stateReplaced()
        return modifiers
    }
}
