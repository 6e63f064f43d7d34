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
    /// The fds open for libinput, by device node: where the source reads a keyboard's key
    /// state (HeldAtOpen.swift).
    private(set) var openFDs: [String: Int32] = [:]

    init(session: SeatSession?, log: @escaping LogHandler) {
        self.session = session
        self.logHandler = log
    }

    func log(_ message: LogMessage) {
        if message.priority == .error { lastError = message.text }
        logHandler(message)
    }

    func open(_ path: String, flags: Int32) -> Int32 {
        let fd: Int32
        if let session {
            fd = session.open(path)
        } else {
            let opened = Glibc.open(path, flags | O_CLOEXEC)
            fd = opened >= 0 ? opened : -errno
        }
        if fd >= 0 { openFDs[path] = fd }
        return fd
    }

    func close(_ fd: Int32) {
        if let path = openFDs.first(where: { $0.value == fd })?.key { openFDs[path] = nil }
        if let session { session.close(fd) } else { _ = Glibc.close(fd) }
    }
}
