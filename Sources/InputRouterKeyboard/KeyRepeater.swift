import InputRouter

/// The compositor's own key repeat (for bindings that repeat, such as volume keys), as
/// pure logic: the caller supplies times in microseconds (libinput's clock) and asks
/// which repeats are due. Only the most recently pressed key repeats, as in X11 and
/// every Wayland client; it stops on release, focus change and device removal.
public struct KeyRepeater: Sendable {
    /// Delay and rate of the repeat; changing it affects the next `due` and `nextRepeat`.
    public var info: RepeatInfo

    private struct Held: Sendable {
        var key: UInt32
        var device: DeviceID
        var pressedAt: UInt64
        /// Repeats already handed out.
        var fired: UInt64
    }
    private var held: Held?

    /// A repeater with nothing held.
    public init(info: RepeatInfo = .default) { self.info = info }

    /// The key repeating now, if any.
    public var repeatingKey: UInt32? { held?.key }

    /// A key went down. `repeats` is the keymap's word on it (`Keymap.keyRepeats`):
    /// modifiers and locks never repeat. A non-repeating press still stops the previous key.
    public mutating func press(key: UInt32, device: DeviceID, at time: UInt64, repeats: Bool = true) {
        held = repeats && info.rate > 0 ? Held(key: key, device: device, pressedAt: time, fired: 0) : nil
    }

    /// A key went up; only the repeating key's release stops the repeat.
    public mutating func release(key: UInt32) {
        if held?.key == key { held = nil }
    }

    /// The focus moved: the repeat belonged to the old target.
    public mutating func focusChanged() { held = nil }

    /// A device went away; a key held on it can never be released.
    public mutating func deviceRemoved(_ device: DeviceID) {
        if held?.device == device { held = nil }
    }

    /// How many repeats of `repeatingKey` are due by `time` and not yet handed out (0
    /// when nothing repeats). Repeat n falls at press + delay + (n-1)/rate, computed from
    /// the press time so late polling never drifts.
    public mutating func due(at time: UInt64) -> Int {
        guard var current = held, info.rate > 0 else { return 0 }
        let firstAt = current.pressedAt + UInt64(info.delay) * 1000
        guard time >= firstAt else { return 0 }
        let total = (time - firstAt) * UInt64(info.rate) / 1_000_000 + 1
        let fresh = total - current.fired
        current.fired = total
        held = current
        return Int(fresh)
    }

    /// When the next repeat falls, so the caller can arm a timer; nil when nothing repeats.
    public func nextRepeat() -> UInt64? {
        guard let current = held, info.rate > 0 else { return nil }
        let firstAt = current.pressedAt + UInt64(info.delay) * 1000
        // Repeat n (0-based) is the first instant where floor(elapsed*rate/1e6) reaches n.
        let n = current.fired
        return firstAt + (n * 1_000_000 + UInt64(info.rate) - 1) / UInt64(info.rate)
    }
}
