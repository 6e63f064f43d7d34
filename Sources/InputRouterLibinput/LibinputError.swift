// Failures of the live backend, each naming what was tried and the system's reason.

#if canImport(Glibc)
    import Glibc
#endif

/// Why the live backend failed (a udev seat, a device node, libseat, a dispatch), in a
/// sentence naming what was tried and the system's reason.
public struct LibinputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The whole sentence, ready for the user.
    public var message: String
    /// An error saying `message`.
    public init(_ message: String) { self.message = message }
    /// The message itself.
    public var description: String { message }

    /// `what: strerror(errno)`, for a negative errno returned by a C call.
    static func errno(_ what: String, _ code: Int32) -> LibinputError {
        LibinputError("\(what): \(String(cString: strerror(abs(code))))")
    }
}
