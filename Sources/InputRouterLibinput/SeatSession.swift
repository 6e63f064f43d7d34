// libseat: the session's seat, through seatd or logind. It opens device nodes for us
// (libseat_open_device) and tells us when the session loses and regains the seat (VT
// switch). Its fd is exposed for the compositor's event loop; `dispatch()` reads it.
//
// One per process and seat, shared by every source on it (`shared(seat:log:)`): a
// compositor with several udev seats (ir-compositor --seat) runs one libinput context per
// seat, all in the one session. A second libseat connection would be a second client of
// the seat, which seatd does not admit on its VT-bound seat0 (one client per VT).

import CLibinputShim
import CSeat

#if canImport(Glibc)
    import Glibc
#endif

final class SeatSession {
    private(set) var seat: OpaquePointer?
    /// The listener struct libseat keeps a pointer to: heap allocated, freed after close.
    private let listener: UnsafeMutablePointer<libseat_seat_listener>
    private(set) var active = false
    /// libseat device ids by fd, for close_device.
    private var deviceIDs: [Int32: Int32] = [:]
    /// Called when the seat is enabled (true) or disabled (false), for each source that
    /// shares the session: its libinput context resumes or suspends.
    private var activeChangeHandlers: [(owner: ObjectIdentifier, handler: (Bool) -> Void)] = []

    /// The open sessions by seat name; weak, so the last source gone closes its session.
    /// Touched only at source creation, on the thread that runs the sources.
    private nonisolated(unsafe) static var open: [String: Weak] = [:]
    private struct Weak { weak var session: SeatSession? }

    /// The session on `seat` this process already has, or a new one.
    static func shared(seat: String, log: @escaping LogHandler) throws(LibinputError) -> SeatSession {
        if let session = open[seat]?.session {
            installLog(log) // the latest source's handler gets libseat's messages, as with a new session
            return session
        }
        let session = try SeatSession(expectedSeat: seat, log: log)
        open[seat] = Weak(session: session)
        return session
    }

    func addActiveChangeHandler(for owner: AnyObject, _ handler: @escaping (Bool) -> Void) {
        activeChangeHandlers.append((ObjectIdentifier(owner), handler))
    }

    func removeActiveChangeHandler(for owner: AnyObject) {
        activeChangeHandlers.removeAll { $0.owner == ObjectIdentifier(owner) }
    }

    private func activeChanged(_ active: Bool) {
        self.active = active
        for h in activeChangeHandlers { h.handler(active) }
    }

    init(expectedSeat: String, log: @escaping LogHandler) throws(LibinputError) {
        SeatSession.installLog(log)
        listener = .allocate(capacity: 1)
        listener.initialize(
            to: libseat_seat_listener(
                enable_seat: { _, user in
                    guard let user else { return }
                    CallbackContext.borrowed(user, as: SeatSession.self).activeChanged(true)
                },
                disable_seat: { seat, user in
                    guard let user else { return }
                    CallbackContext.borrowed(user, as: SeatSession.self).activeChanged(false)
                    // libseat requires the acknowledgement once devices are quiet.
                    _ = libseat_disable_seat(seat)
                }))
        seat = libseat_open_seat(listener, CallbackContext.unretained(self))
        guard let seat else {
            let reason = String(cString: strerror(errno))
            listener.deallocate()
            throw LibinputError(
                "libseat could not open a seat (\(reason)); is seatd or logind running? "
                    + "Use DeviceAccess.direct where neither runs")
        }
        let name = libseat_seat_name(seat).map { String(cString: $0) } ?? "?"
        guard name == expectedSeat else {
            libseat_close_seat(seat)
            self.seat = nil
            listener.deallocate()
            throw LibinputError("libseat opened seat \"\(name)\", not \"\(expectedSeat)\"")
        }
        // The seat is usable once enabled; seatd and logind enable it on the first
        // dispatch. Wait at most 5 s here, once, at startup.
        var waited = 0
        while !active && waited < 50 {
            if libseat_dispatch(seat, 100) < 0 { break }
            waited += 1
        }
        guard active else {
            libseat_close_seat(seat)
            self.seat = nil
            listener.deallocate()
            throw LibinputError("libseat did not enable seat \"\(name)\" within 5 s (another session has it?)")
        }
    }

    deinit {
        if let seat {
            for (_, id) in deviceIDs { _ = libseat_close_device(seat, id) }
            libseat_close_seat(seat)
            listener.deinitialize(count: 1)
            listener.deallocate()
        }
    }

    var fd: Int32 { seat.map { libseat_get_fd($0) } ?? -1 }

    func dispatch() throws(LibinputError) {
        guard let seat else { return }
        if libseat_dispatch(seat, 0) < 0 { throw LibinputError.errno("libseat_dispatch", errno) }
    }

    /// open_restricted: returns the fd or a negative errno, as libinput wants.
    func open(_ path: String) -> Int32 {
        guard let seat else { return -ENODEV }
        var fd: Int32 = -1
        let id = libseat_open_device(seat, path, &fd)
        guard id >= 0 else { return -(errno == 0 ? EACCES : errno) }
        deviceIDs[fd] = id
        return fd
    }

    func close(_ fd: Int32) {
        if let seat, let id = deviceIDs.removeValue(forKey: fd) { _ = libseat_close_device(seat, id) }
        _ = Glibc.close(fd)
    }

    /// libseat logs through one process-wide handler: the latest session's log gets it.
    private static func installLog(_ log: @escaping LogHandler) {
        LogForwarding.libseatLog.withLock { $0 = log }
        ir_libseat_set_log_sink(
            { level, message in
                guard let message else { return }
                let priority: LogPriority = level <= 1 ? .error : level == 2 ? .info : .debug
                let text = LogForwarding.trimmed(String(cString: message))
                LogForwarding.libseatLog.withLock { $0 }?(LogMessage(origin: .libseat, priority: priority, text: text))
            }, 2)
    }
}
