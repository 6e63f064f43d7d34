// What libinput, libseat and the backend itself have to say, as values a compositor
// hands to its own log. libinput and libseat log through C va_list callbacks; the CShim
// target formats those (vsnprintf) and calls the plain callbacks in LogForwarding.swift.

/// Severity, on libinput's scale (libseat's levels are mapped onto it).
public enum LogPriority: Int, Sendable, Comparable, CustomStringConvertible {
    case debug = 10
    case info = 20
    case error = 30
    /// Less severe first: `.debug < .info < .error`, for filtering by a minimum priority.
    public static func < (a: LogPriority, b: LogPriority) -> Bool { a.rawValue < b.rawValue }
    /// The level's name, as a log line shows it ("error").
    public var description: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .error: "error"
        }
    }
}

/// One message from libinput, libseat or the backend, for the compositor's `LogHandler`.
public struct LogMessage: Sendable, Hashable, CustomStringConvertible {
    /// Who said it: libinput, libseat, or this backend (device settings, unrouted events).
    public enum Origin: String, Sendable { case libinput, libseat, backend }
    /// Who said it.
    public var origin: Origin
    /// How severe it is.
    public var priority: LogPriority
    /// One message without its trailing newline.
    public var text: String
    /// A message as it arrives; `text` without its trailing newline.
    public init(origin: Origin, priority: LogPriority, text: String) {
        self.origin = origin
        self.priority = priority
        self.text = text
    }
    /// One log line: "libinput error: ...".
    public var description: String { "\(origin) \(priority): \(text)" }
}

/// Where log messages go. Called on the thread that calls into the source (dispatch,
/// init); libseat messages may also arrive from whichever thread calls libseat.
public typealias LogHandler = @Sendable (LogMessage) -> Void
