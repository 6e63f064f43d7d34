// Failures of the live backend, each naming what was tried and the system's reason.

#if canImport(Glibc)
import Glibc
#endif

public struct LibinputError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    /// `what: strerror(errno)`, for a negative errno returned by a C call.
    static func errno(_ what: String, _ code: Int32) -> LibinputError {
        LibinputError("\(what): \(String(cString: strerror(abs(code))))")
    }
}
