/// Key repeat settings, sent to clients as `wl_keyboard.repeat_info` (clients repeat
/// keys themselves) and used by the compositor's own repeater for bindings.
public struct RepeatInfo: Hashable, Sendable {
    /// Repeats per second; 0 turns repeat off (the protocol's meaning).
    public var rate: Int32
    /// Milliseconds from press to the first repeat.
    public var delay: Int32

    /// 25 per second after 600 ms, the common X11 and compositor default.
    public static let `default` = RepeatInfo(rate: 25, delay: 600)

    /// Negative values are clamped to 0; the protocol has no meaning for them.
    public init(rate: Int32, delay: Int32) {
        self.rate = max(0, rate)
        self.delay = max(0, delay)
    }
}
