/// A gesture recognizer sees pointer, touch and touchpad-gesture events before their
/// target (the capture phase), like a UIKit gesture recognizer sees touches before its
/// view. While `.possible` it only watches; when a method returns `.recognized` it claims
/// the sequence: the clients that were getting it are told (`wl_touch.cancel`, or a
/// pointer leave) and the rest of the sequence goes to the recognizer alone. A sequence
/// ends when the last touch is up, or the last button released; then `reset()` runs.
open class GestureRecognizer {
    /// What a recognizer makes of the sequence so far: still watching, claiming it, or out
    /// (then it sees nothing more until `reset()`).
    public enum State: Sendable { case possible, recognized, failed }

    /// A recognizer that fails everything; subclass it. Allocates: make recognizers at setup.
    public init() {}

    /// `touchCount` includes this touch. `at` is in layout space.
    open func touchDown(slot: Int32, at: Point, touchCount: Int, time: UInt64) -> State { .failed }
    open func touchMotion(slot: Int32, at: Point, time: UInt64) -> State { .possible }
    open func touchUp(slot: Int32, time: UInt64) -> State { .possible }
    open func pointerButton(_ button: UInt32, _ state: ButtonState, at: Point, modifiers: ModifierMask, time: UInt64)
        -> State
    { .failed }
    open func pointerMotion(at: Point, time: UInt64) -> State { .possible }
    open func gesture(_ event: GestureEvent, time: UInt64) -> State { .failed }
    /// The sequence ended (claimed or not); get ready for the next one.
    open func reset() {}
}

/// A key binding: a keysym with exact modifiers (Shift, Control, Alt, Super, Mod5; lock
/// modifiers ignored). It consumes the press and the release of the key that triggers it.
public struct KeyBinding: Hashable, Sendable {
    /// The keysym that triggers the binding, as the key translator reports it.
    public var keysym: UInt32
    /// The modifiers that must be held, exactly; only binding-relevant ones are kept.
    public var modifiers: ModifierMask
    /// A binding; modifiers outside `bindingRelevant` (the locks) are dropped, as matching
    /// ignores them too, so Caps Lock or Num Lock does not stop it.
    public init(keysym: UInt32, modifiers: ModifierMask) {
        self.keysym = keysym
        self.modifiers = modifiers.intersection(.bindingRelevant)
    }

    /// Matches the keysym at the current level or at level 0, so `Super+Shift+q` matches
    /// whether the layout gives `q` or `Q` with Shift held.
    public func matches(_ meaning: KeyMeaning, modifiersBefore: Modifiers) -> Bool {
        guard keysym != 0, meaning.keysym == keysym || meaning.baseKeysym == keysym else { return false }
        return modifiersBefore.effective.intersection(.bindingRelevant) == modifiers
    }
}
