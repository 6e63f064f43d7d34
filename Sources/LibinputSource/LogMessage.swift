// What libinput, libseat and the backend itself have to say, as values a compositor
// hands to its own log. libinput and libseat log through C va_list callbacks; the CShim
// target formats those (vsnprintf) and calls the plain callbacks in LogForwarding.swift.

/// Severity, on libinput's scale (libseat's levels are mapped onto it).
public enum LogPriority: Int, Sendable, Comparable, CustomStringConvertible {
    case debug = 10, info = 20, error = 30
    public static func < (a: LogPriority, b: LogPriority) -> Bool { a.rawValue < b.rawValue }
    public var description: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .error: "error"
        }
    }
}

public struct LogMessage: Sendable, Hashable, CustomStringConvertible {
    public enum Origin: String, Sendable { case libinput, libseat, backend }
    public var origin: Origin
    public var priority: LogPriority
    /// One message without its trailing newline.
    public var text: String
    public init(origin: Origin, priority: LogPriority, text: String) {
        self.origin = origin; self.priority = priority; self.text = text
    }
    public var description: String { "\(origin) \(priority): \(text)" }
}

/// Where log messages go. Called on the thread that calls into the source (dispatch,
/// init); libseat messages may also arrive from whichever thread calls libseat.
public typealias LogHandler = @Sendable (LogMessage) -> Void
