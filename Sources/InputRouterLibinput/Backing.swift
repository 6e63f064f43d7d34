// What libinput's callbacks reach through their user-data pointer: how to open devices
// and where to log. A class (heap allocated, fixed address), owned by the source and
// released only after libinput_unref, so it outlives every callback libinput can make.

#if canImport(Glibc)
    import Glibc
#endif

final class Backing {
    let session: SeatSession?
    let logHandler: LogHandler
    /// The last error-priority message, to explain a failed call in the thrown error.
    var lastError: String?

    init(session: SeatSession?, log: @escaping LogHandler) {
        self.session = session
        self.logHandler = log
    }

    func log(_ message: LogMessage) {
        if message.priority == .error { lastError = message.text }
        logHandler(message)
    }

    func open(_ path: String, flags: Int32) -> Int32 {
        if let session { return session.open(path) }
        let fd = Glibc.open(path, flags | O_CLOEXEC)
        return fd >= 0 ? fd : -errno
    }

    func close(_ fd: Int32) {
        if let session { session.close(fd) } else { _ = Glibc.close(fd) }
    }
}
