// A Wayland client that speaks the wire format itself, over a UNIX socket, with no
// libwayland-client: it can send what libwayland-client would refuse to (ids never
// created, wrong sizes, unknown opcodes), and read the bytes the server writes without
// interpreting more than it needs. Used by `wl-hostile` and `wayland-bench`.
//
// A message: object id (u32), then (size << 16 | opcode) (u32), then the arguments, each
// padded to 4 bytes; a string is its length including the NUL, then the bytes; an array
// is its length, then the bytes; fds travel beside the bytes as SCM_RIGHTS.
import Foundation

public enum WireArgument {
    case uint(UInt32)
    case int(Int32)
    case fixed(Double)
    case string(String?)
    case array([UInt8])
    /// An fd: nothing in the bytes, the descriptor in the message's control data.
    case fd(Int32)
}

/// One event from the server.
public struct WireEvent {
    public var object: UInt32
    public var opcode: UInt16
    public var payload: [UInt8]

    public func uint(at offset: Int) -> UInt32 {
        guard offset + 4 <= payload.count else { return 0 }
        return UInt32(payload[offset]) | UInt32(payload[offset + 1]) << 8 | UInt32(payload[offset + 2]) << 16
            | UInt32(payload[offset + 3]) << 24
    }
    /// The string at `offset` and the offset after it.
    public func string(at offset: Int) -> (String, Int) {
        let length = Int(uint(at: offset))
        let start = offset + 4
        guard length > 0, start + length <= payload.count else { return ("", start) }
        let text = String(decoding: payload[start..<(start + length - 1)], as: UTF8.self)
        return (text, start + (length + 3) & ~3)
    }
}

/// `wl_display.error`, as the client received it.
public struct ProtocolError: CustomStringConvertible {
    public var object: UInt32
    public var code: UInt32
    public var message: String
    public var description: String { "object \(object) code \(code): \(message)" }
}

public enum WireError: Error {
    case connect(String)
    case closed
}

public final class WireConnection {
    public let fd: Int32
    /// Ids this client allocates: 2 upwards (1 is wl_display).
    public var nextID: UInt32 = 2
    /// What each id was created as, for naming the object an error cites.
    public var interfaces: [UInt32: String] = [1: "wl_display"]
    public private(set) var requestsSent = 0
    public private(set) var bytesSent = 0
    public private(set) var bytesReceived = 0
    /// Set once the server closed the connection (EOF or a failed read).
    public private(set) var closed = false
    /// Set once a write failed (the server hung up): what it sent before is still read.
    public private(set) var writeFailed = false
    /// Read what arrives while a write waits for room, as a real client's event loop does
    /// (libwayland-client flushes on POLLOUT and reads on POLLIN). Off, a write blocks
    /// without reading: a client that floods faster than it reads then fills the server's
    /// socket to it, and the server rightly drops it, but only when the machine is loaded
    /// enough for the server to fall behind. A flood that must be survived sets it.
    public var readsWhileWriting = false
    public private(set) var error: ProtocolError?
    private var input: [UInt8] = []

    /// Connects to `$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY` (or an absolute WAYLAND_DISPLAY).
    public convenience init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let display = environment["WAYLAND_DISPLAY"] ?? "wayland-0"
        let path = display.hasPrefix("/") ? display : (environment["XDG_RUNTIME_DIR"] ?? "/tmp") + "/" + display
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw WireError.connect("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw WireError.connect("path too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            raw[bytes.count] = 0
        }
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard ok == 0 else {
            let text = String(cString: strerror(errno))
            close(fd)
            throw WireError.connect("\(path): \(text)")
        }
        self.init(fd: fd)
    }

    /// Wraps a connected socket (one end of a socketpair, for a server in the same process).
    public init(fd: Int32) {
        self.fd = fd
        // A write that cannot complete within 2 s (a server that stopped reading) fails.
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// A fresh id for a new object of `interface`.
    public func newID(_ interface: String) -> UInt32 {
        let id = nextID
        nextID += 1
        interfaces[id] = interface
        return id
    }

    // MARK: Writing

    /// The bytes of one request. `size` replaces the header's size field (a lie about the
    /// length), `truncate` cuts the bytes actually sent.
    public static func encode(_ object: UInt32, _ opcode: UInt16, _ args: [WireArgument], size: Int? = nil) -> [UInt8] {
        var body: [UInt8] = []
        func put(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { body.append(contentsOf: $0) } }
        func pad() { while body.count % 4 != 0 { body.append(0) } }
        for arg in args {
            switch arg {
            case .uint(let v): put(v)
            case .int(let v): put(UInt32(bitPattern: v))
            case .fixed(let v): put(UInt32(bitPattern: Int32(truncatingIfNeeded: Int64((v * 256).rounded()))))
            case .string(nil): put(0)
            case .string(let s?):
                let bytes = Array(s.utf8)
                put(UInt32(bytes.count + 1))
                body.append(contentsOf: bytes)
                body.append(0)
                pad()
            case .array(let bytes):
                put(UInt32(bytes.count))
                body.append(contentsOf: bytes)
                pad()
            case .fd: break
            }
        }
        let length = UInt32(truncatingIfNeeded: size ?? (8 + body.count))
        var message: [UInt8] = []
        withUnsafeBytes(of: object.littleEndian) { message.append(contentsOf: $0) }
        withUnsafeBytes(of: (length << 16 | UInt32(opcode)).littleEndian) { message.append(contentsOf: $0) }
        return message + body
    }

    /// Sends one request; false once the connection is gone.
    @discardableResult
    public func send(_ object: UInt32, _ opcode: UInt16, _ args: [WireArgument] = [], size: Int? = nil) -> Bool {
        let fds = args.compactMap { if case .fd(let f) = $0 { f } else { nil } }
        return write(Self.encode(object, opcode, args, size: size), fds: fds)
    }

    /// Writes raw bytes (with `fds` as SCM_RIGHTS on the first chunk).
    @discardableResult
    public func write(_ bytes: [UInt8], fds: [Int32] = []) -> Bool {
        guard !closed, !writeFailed else { return false }
        requestsSent += 1
        var offset = 0
        var pendingFDs = fds
        while offset < bytes.count || !pendingFDs.isEmpty {
            if readsWhileWriting { waitUntilWritable() }
            let n = sendChunk(bytes, from: offset, fds: pendingFDs)
            if n < 0 {
                if errno == EINTR || (readsWhileWriting && errno == EAGAIN) { continue }
                writeFailed = true
                return false
            }
            pendingFDs = []
            offset += n
            bytesSent += n
            if bytes.isEmpty { break }
        }
        return true
    }

    /// One sendmsg of `bytes[offset...]`, with `fds` as SCM_RIGHTS control data.
    private func sendChunk(_ bytes: [UInt8], from offset: Int, fds: [Int32]) -> Int {
        // cmsghdr: len (size_t), level and type (int), then the fds, padded to 8.
        let header = MemoryLayout<Int>.size + 8
        let space = fds.isEmpty ? 0 : header + ((fds.count * 4 + 7) & ~7)
        var control = [UInt8](repeating: 0, count: max(space, 8))
        var copy = bytes
        return copy.withUnsafeMutableBytes { raw in
            control.withUnsafeMutableBytes { c in
                var iov = iovec(iov_base: raw.baseAddress.map { $0 + offset }, iov_len: bytes.count - offset)
                return withUnsafeMutablePointer(to: &iov) { iovp in
                    var msg = msghdr()
                    msg.msg_iov = iovp
                    msg.msg_iovlen = 1
                    if !fds.isEmpty {
                        c.storeBytes(of: header + fds.count * 4, toByteOffset: 0, as: Int.self)
                        c.storeBytes(of: SOL_SOCKET, toByteOffset: MemoryLayout<Int>.size, as: Int32.self)
                        c.storeBytes(of: Int32(SCM_RIGHTS), toByteOffset: MemoryLayout<Int>.size + 4, as: Int32.self)
                        for (i, f) in fds.enumerated() {
                            c.storeBytes(of: f, toByteOffset: header + 4 * i, as: Int32.self)
                        }
                        msg.msg_control = c.baseAddress
                        msg.msg_controllen = space
                    }
                    return sendmsg(fd, &msg, Int32(MSG_NOSIGNAL) | (readsWhileWriting ? Int32(MSG_DONTWAIT) : 0))
                }
            }
        }
    }

    /// Blocks until the socket takes more bytes, keeping whatever arrives meanwhile for the
    /// next `read` (the server's replies to what was sent so far).
    private func waitUntilWritable() {
        while !closed {
            var p = pollfd(fd: fd, events: Int16(POLLIN | POLLOUT), revents: 0)
            let r = poll(&p, 1, 10_000)
            if r < 0 && errno == EINTR { continue }
            guard r > 0 else { return }
            if p.revents & Int16(POLLIN) != 0 {
                var chunk = [UInt8](repeating: 0, count: 65536)
                let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if n > 0 {
                    input.append(contentsOf: chunk[0..<n])
                    bytesReceived += n
                } else if n == 0 {
                    closed = true
                    return
                }
            }
            if p.revents & Int16(POLLOUT | POLLERR | POLLHUP) != 0 { return }
        }
    }

    // MARK: Reading

    /// Reads what arrived within `timeoutMS` (0: only what is there) and returns the whole
    /// events in it. A `wl_display.error` is kept in `error`; EOF sets `closed`.
    public func read(timeoutMS: Int32) -> [WireEvent] {
        var chunk = [UInt8](repeating: 0, count: 65536)
        var wait = timeoutMS
        while !closed {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, wait)
            if r < 0 && errno == EINTR { continue }
            guard r > 0 else { break }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            if n <= 0 {
                closed = true
                break
            }
            input.append(contentsOf: chunk[0..<n])
            bytesReceived += n
            wait = 0
        }
        return parse()
    }

    private func parse() -> [WireEvent] {
        var events: [WireEvent] = []
        var offset = 0
        while input.count - offset >= 8 {
            func u32(_ o: Int) -> UInt32 {
                UInt32(input[o]) | UInt32(input[o + 1]) << 8 | UInt32(input[o + 2]) << 16 | UInt32(input[o + 3]) << 24
            }
            let object = u32(offset)
            let word = u32(offset + 4)
            let size = Int(word >> 16)
            guard size >= 8, input.count - offset >= size else { break }
            let event = WireEvent(
                object: object, opcode: UInt16(word & 0xffff), payload: Array(input[(offset + 8)..<(offset + size)]))
            if event.object == 1 && event.opcode == 0 {
                error = ProtocolError(
                    object: event.uint(at: 0), code: event.uint(at: 4), message: event.string(at: 8).0)
            }
            events.append(event)
            offset += size
        }
        input.removeFirst(offset)
        return events
    }

    /// Reads until the server closes the connection or `timeoutMS` passes.
    public func readUntilClosed(timeoutMS: Int) -> [WireEvent] {
        let deadline = Date().addingTimeInterval(Double(timeoutMS) / 1000)
        var all: [WireEvent] = []
        while !closed, Date() < deadline { all += read(timeoutMS: 50) }
        return all
    }
}
