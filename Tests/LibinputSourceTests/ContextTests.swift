// A real libinput context, without input devices (CI has none): errors name the device
// and libinput's own reason, libinput's log reaches the handler through the C shim (a
// real log line from libinput, not a made-up one), and an empty seat dispatches nothing.

import InputRouter
import Synchronization
import Testing

@testable import InputRouterLibinput

#if canImport(Glibc)
    import Glibc
#endif

/// Collects log messages from any thread.
final class Collected: Sendable {
    private let messages = Mutex<[LogMessage]>([])
    var all: [LogMessage] { messages.withLock { $0 } }
    var handler: LogHandler { { message in self.messages.withLock { $0.append(message) } } }
}

@Suite(.serialized) struct ContextTests {
    @Test func aMissingDeviceNodeIsAnErrorWithLibinputsReason() {
        let log = Collected()
        do {
            _ = try LibinputSource(devices: .paths(["/nonexistent/event42"]), access: .direct, log: log.handler)
            Issue.record("opened a device that does not exist")
        } catch {
            #expect(error.message.hasPrefix("libinput could not add device /nonexistent/event42: "))
            // The reason is libinput's last error message, as its log handler received it.
            let libinputErrors = log.all.filter { $0.origin == .libinput && $0.priority == .error }
            #expect(!libinputErrors.isEmpty)
            if let last = libinputErrors.last {
                #expect(last.text.contains("/nonexistent/event42"))
                #expect(error.message.hasSuffix(last.text))
                #expect(!last.text.hasSuffix("\n"))
            }
        }
    }

    /// libinput formats its messages printf-style; the shim formats them with vsnprintf
    /// into a 512-byte buffer, or on the heap when longer. A 2000-character path makes
    /// libinput log a longer line, which must arrive whole.
    @Test func longLogLinesArriveWhole() {
        let log = Collected()
        let path = "/nonexistent/" + String(repeating: "d", count: 2000)
        #expect(throws: LibinputError.self) {
            _ = try LibinputSource(devices: .paths([path]), access: .direct, log: log.handler)
        }
        #expect(log.all.contains { $0.origin == .libinput && $0.text.contains(path) })
    }

    @Test func notAnInputDeviceIsAnError() {
        let log = Collected()
        do {
            _ = try LibinputSource(devices: .paths(["/dev/null"]), access: .direct, log: log.handler)
            Issue.record("/dev/null opened as an input device")
        } catch {
            #expect(error.message.hasPrefix("libinput could not add device /dev/null"))
        }
    }

    @Test func anEmptySeatDispatchesNothing() throws {
        let log = Collected()
        let source = try LibinputSource(
            devices: .udev(seat: "seat-without-devices"), access: .direct,
            log: log.handler)
        #expect(source.fd >= 0)
        #expect(source.seatFD == nil)
        var events: [InputEvent] = []
        for _ in 0..<3 { try source.dispatch { event, _ in events.append(event) } }
        #expect(events.isEmpty)
        #expect(source.currentDevices.isEmpty)
    }

    @Test func anEmptyPathContextDispatchesNothing() throws {
        let source = try LibinputSource(devices: .paths([]), access: .direct, log: Collected().handler)
        #expect(source.fd >= 0)
        var count = 0
        try source.dispatch { _, _ in count += 1 }
        #expect(count == 0)
    }

    /// `start` keeps what the loop's watch call returned for as long as the source lives
    /// (ir-compositor once threw its watches away, which unwatched libinput's fd at once)
    /// and watches exactly libinput's fd (no libseat fd with direct access).
    @Test func startKeepsItsWatchesForTheSourcesLife() throws {
        final class Watch {
            let fd: Int32
            let onReadable: () -> Void
            init(_ fd: Int32, _ onReadable: @escaping () -> Void) {
                self.fd = fd
                self.onReadable = onReadable
            }
        }
        weak var kept: Watch?
        var watchedFDs: [Int32] = []
        var libinputFD: Int32 = -1
        var events: [InputEvent] = []
        do {
            let source = try LibinputSource(
                devices: .udev(seat: "seat-without-devices"), access: .direct,
                log: Collected().handler)
            libinputFD = source.fd
            try source.start(
                watching: { fd, onReadable in
                    let w = Watch(fd, onReadable)
                    watchedFDs.append(fd)
                    kept = w
                    return w
                }, sink: { event, _ in events.append(event) })
            #expect(kept != nil)
            kept?.onReadable() // what the loop calls when the fd is readable: a dispatch
            #expect(events.isEmpty)
        }
        #expect(watchedFDs == [libinputFD])
        #expect(kept == nil) // released with the source
    }

    /// Sources on one seat share its libseat session. ir-compositor runs one libinput
    /// context per udev seat (`--seat NAME --input libinput`), all in the one session it
    /// runs in; a second libseat connection from the process would be a second client,
    /// which seatd does not admit on seat0 (one client per VT). It made one per source. Here
    /// libseat's builtin backend opens the seat (root, neither seatd nor logind running).
    @Test func sourcesOnOneSeatShareItsLibseatSession() throws {
        let log = Collected()
        var first: LibinputSource? = try LibinputSource(
            devices: .udev(seat: "seat-without-devices"),
            access: .libseat(seat: "seat0"), log: log.handler)
        let second = try LibinputSource(
            devices: .udev(seat: "seat-b-without-devices"),
            access: .libseat(seat: "seat0"), log: log.handler)
        #expect(first?.seatFD != nil)
        #expect(second.seatFD == first?.seatFD)
        // The session outlives the first source while the second uses it.
        first = nil
        #expect(second.seatFD.map { fcntl($0, F_GETFD) } ?? -1 >= 0)
        try second.dispatchSeat()
        _ = first
    }

    /// With libseat, the seat it opens must be the one asked for. Where neither seatd nor
    /// logind runs, libseat's builtin backend may open "seat0" (as root) or fail: either
    /// way, asking for another seat is an error, never a silent mismatch.
    @Test func libseatMustOpenTheSeatAskedFor() {
        let log = Collected()
        do {
            _ = try LibinputSource(devices: .udev(seat: "seat9"), access: .libseat(seat: "seat9"), log: log.handler)
            Issue.record("libseat opened seat9")
        } catch {
            #expect(
                error.message.hasPrefix("libseat opened seat \"seat0\", not \"seat9\"")
                    || error.message.hasPrefix("libseat could not open a seat"))
            // libseat's log reaches the handler too (through the shim's process-wide sink).
            #expect(log.all.contains { $0.origin == .libseat })
        }
    }
}
