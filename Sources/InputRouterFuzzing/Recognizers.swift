import InputRouter

// Small capture-phase participants for the router fuzz target and the chaos tests: they
// claim sequences the way a compositor's would, so claims can land at any moment.

/// Claims the touch sequence when a third finger comes down.
public final class ThreeFingerTouch: GestureRecognizer {
    override public func touchDown(slot: Int32, at: Point, touchCount: Int, time: UInt64) -> State {
        touchCount >= 3 ? .recognized : .possible
    }
}

/// Claims the pointer when a button goes down with Super held (a compositor's window drag).
public final class SuperButton: GestureRecognizer {
    override public func pointerButton(
        _ button: UInt32, _ state: ButtonState, at: Point, modifiers: ModifierMask,
        time: UInt64
    ) -> State {
        state == .pressed && modifiers.contains(.superKey) ? .recognized : .possible
    }
    override public func pointerMotion(at: Point, time: UInt64) -> State { .possible }
}

/// Claims touchpad swipes of four fingers.
public final class FourFingerSwipe: GestureRecognizer {
    override public func gesture(_ event: GestureEvent, time: UInt64) -> State {
        event.kind == .swipe && event.fingers == 4 ? .recognized : .failed
    }
}

/// keysym = key code; Shift (42), Ctrl (29), Alt (56) and Super (125) set their modifier
/// bits, Caps Lock (58) toggles a lock: enough keyboard layer to exercise bindings and
/// modifier updates without xkbcommon.
public final class CodeKeyTranslator: KeyTranslator {
    var depressed: UInt32 = 0
    var locked: UInt32 = 0
    var held: [UInt32: Int] = [:]
    static let bits: [UInt32: UInt32] = [42: 1, 29: 4, 56: 8, 125: 64]
    public init() {}
    public func translate(key: UInt32, state: KeyState) -> KeyMeaning {
        if let b = Self.bits[key] {
            held[b, default: 0] += state == .pressed ? 1 : -1
            if held[b]! <= 0 {
                held[b] = nil
                depressed &= ~b
            } else {
                depressed |= b
            }
        }
        if key == 58 && state == .pressed { locked ^= 2 }
        return KeyMeaning(keysym: key, baseKeysym: key, modifiers: Modifiers(depressed: depressed, locked: locked))
    }
    public func releaseAll() -> Modifiers {
        depressed = 0
        held = [:]
        return Modifiers(locked: locked)
    }
}
