// The server in this process on a private socket, and client processes (wl-probe,
// wl-hostile) whose output is read without blocking while the server is dispatched.
import CWaylandServer
import Foundation
import InputRouter
import InputRouterRendering
import TestSupport

@testable import InputRouterWayland

/// A private runtime directory (0700) for these tests' sockets. It is handed to the clients
/// in their environment only: this process's XDG_RUNTIME_DIR belongs to the other test
/// targets running beside these ones in the same process.
let runtimeDirectory: String = {
    var template = Array("/tmp/ir-hostile-XXXXXX".utf8CString)
    let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    chmod(dir, 0o700)
    return dir
}()

/// A listening UNIX socket at `path`, for wl_display_add_socket_fd.
func listeningSocket(_ path: String) throws -> Int32 {
    struct SocketError: Error { let text: String }
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard fd >= 0, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
        throw SocketError(text: "socket \(path)")
    }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (i, b) in bytes.enumerated() { raw[i] = b }
        raw[bytes.count] = 0
    }
    unlink(path)
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0, listen(fd, 128) == 0 else {
        close(fd)
        throw SocketError(text: "bind \(path): \(String(cString: strerror(errno)))")
    }
    return fd
}

/// Where SwiftPM put the test bundle, wl-probe and wl-hostile.
let productsDirectory: String = {
    let argv0 = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var dir = argv0.deletingLastPathComponent()
    if !FileManager.default.fileExists(atPath: dir.appendingPathComponent("wl-hostile").path) {
        dir =
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../.build/debug")
            .standardized
    }
    return dir.path
}()

final class ClientProcess {
    let process: ChildProcess
    private var buffer: [UInt8] = []
    private(set) var lines: [String] = []
    /// When each line was read (monotonic seconds), for latency.
    private(set) var readAt: [Double] = []

    init(_ executable: String, _ arguments: [String], socket: String) throws {
        process = try ChildProcess(
            executable, arguments, environment: ["XDG_RUNTIME_DIR": runtimeDirectory, "WAYLAND_DISPLAY": socket])
    }

    /// Kills the process if it still runs and reaps it; its pipe goes with this object.
    func finish() {
        process.signal(SIGKILL)
        process.waitUntilExit()
    }

    func poll() {
        buffer.append(contentsOf: process.readAvailable())
        let t = monotonicSeconds()
        while let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: buffer[..<nl], as: UTF8.self))
            readAt.append(t)
            buffer.removeSubrange(...nl)
        }
        // Output is only kept while someone looks at it: the good client prints a lot.
        if lines.count > 10_000 {
            lines.removeFirst(5_000)
            readAt.removeFirst(5_000)
            dropped += 5_000
        }
    }
    /// Lines removed from the front of `lines`.
    private(set) var dropped = 0
}

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Resident memory of this process (the server is in it), in kB, once glibc gave back the
/// free memory it keeps: `malloc_trim(0)` returns only free pages, so memory still held
/// (a leak) counts in full, and the arenas' high-water marks do not. Beside the other
/// suites, untrimmed, the RSS grew 5.6 and 16 MB in 20 s while malloc's bytes in use
/// stayed near 9 MB (malloc_stats) and no server outlived its test.
func residentKB() -> Int {
    trimMalloc()
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = statm.split(separator: " ")
    return (Int(fields.count > 1 ? fields[1] : "0") ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}

/// glibc's `malloc_trim(0)`: the free memory its arenas keep goes back to the system, so
/// what is still resident is memory in use. Not in Glibc's Swift module (malloc.h): found
/// in the process, as it always is with glibc.
func trimMalloc() {
    typealias MallocTrim = @convention(c) (Int) -> Int32
    if let trim = dlsym(nil, "malloc_trim") { _ = unsafeBitCast(trim, to: MallocTrim.self)(0) }
}

/// The parts of this process's RSS (anonymous, file, shared memory) and its thread count,
/// from /proc/self/status, as "RssAnon=… kB RssFile=… kB RssShmem=… kB Threads=…".
func processStatus() -> String {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    return status.split(separator: "\n").compactMap { line -> String? in
        let parts = line.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, ["RssAnon", "RssFile", "RssShmem", "Threads"].contains(String(parts[0])) else {
            return nil
        }
        return "\(parts[0])=\(parts[1].split(whereSeparator: \.isWhitespace).joined(separator: " "))"
    }.joined(separator: " ")
}

/// Open file descriptors of this process: fds the clients pass (SCM_RIGHTS) must not pile up.
func openFDs() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0 }

/// The server with pointer, keyboard and touch present; the first toplevel goes to (0, 0),
/// every later one to (600, 300), out of the first one's way.
func makeServer(socketName: String) throws -> WaylandServer {
    _ = runtimeDirectory
    var config = WaylandServer.Configuration()
    config.keyboard = .init(keymap: .names(.init(rules: "evdev", model: "pc105", layout: "us")), compose: false)
    config.policy.placeToplevel = MapOrderPlacement { n in n == 0 ? (0, 0) : (600, 300) }.place
    config.unresponsiveTimeoutMS = 1000
    let server = try WaylandServer(configuration: config)
    // Read every committed buffer, as a compositor's renderer does: a client whose shm file
    // is shorter than its pool gets its error from that read (libwayland's SIGBUS guard).
    server.bufferCommitted = { _, buffer in _ = SurfaceImage(shmBuffer: buffer) }
    wl_display_add_socket_fd(server.display, try listeningSocket(runtimeDirectory + "/" + socketName))
    for (i, caps) in [DeviceCapabilities.pointer, .keyboard, .touch].enumerated() {
        server.handle(InputEvent(time: 0, device: DeviceID(UInt32(i + 1)), .deviceAdded(caps)))
    }
    return server
}

/// Resident kB of this process by what backs it, from /proc/self/smaps:
/// - "anonymous": private memory with no file, the heap and the stacks among it;
/// - "clients' pools": files under this suite's runtime directory, where wl-probe and
///   wl-hostile make their shm pools (unlinked), as this server maps them;
/// - "other shared memory": memfds and /dev/shm, such as the nested backend's window
///   buffers of a suite running beside this one;
/// - "program and libraries": every other file.
/// Read after `malloc_trim(0)`, as `residentKB()` is.
func residentByMapping() -> [String: Int] {
    trimMalloc()
    let smaps = readProcFile("/proc/self/smaps")
    var sizes: [String: Int] = [:]
    var current = "anonymous"
    for line in smaps.split(separator: "\n") {
        let fields = line.split(whereSeparator: \.isWhitespace)
        guard let first = fields.first else { continue }
        if first.contains("-"), first.first?.isHexDigit == true {
            // "start-end perms offset dev inode [path]"
            let path = fields.count > 5 ? fields[5...].joined(separator: " ") : ""
            if path.isEmpty || path.hasPrefix("[") {
                current = "anonymous"
            } else if path.hasPrefix(runtimeDirectory + "/") {
                current = "clients' pools"
            } else if path.hasPrefix("/memfd:") || path.hasPrefix("/dev/shm/") {
                current = "other shared memory"
            } else {
                current = "program and libraries"
            }
        } else if first == "Rss:", fields.count > 1, let kB = Int(fields[1]) {
            sizes[current, default: 0] += kB
        }
    }
    return sizes
}

/// What a leak on this suite's server can grow: anonymous memory and the mapped pools of
/// its clients. Not the program's and libraries' pages (what other suites' code pages in)
/// nor shared memory no client of this server made.
func serverMemoryKB(_ mappings: [String: Int]) -> Int {
    mappings["anonymous", default: 0] + mappings["clients' pools", default: 0]
}

/// Open descriptors of this process by kind: "socket", "pipe", "anon_inode:[eventfd]",
/// a memfd's name, or "file".
func descriptorsByKind() -> [String: Int] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return [:] }
    var kinds: [String: Int] = [:]
    for name in names {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name) else {
            continue
        }
        let kind: String
        if target.hasPrefix("socket:") {
            kind = "socket"
        } else if target.hasPrefix("pipe:") {
            kind = "pipe"
        } else if target.hasPrefix("anon_inode:") || target.hasPrefix("/memfd:") {
            kind = target
        } else {
            kind = "file"
        }
        kinds[kind, default: 0] += 1
    }
    return kinds
}

/// The entries of `after` that differ from `before`, largest change first: "name +N".
func growth(from before: [String: Int], to after: [String: Int], unit: String = "") -> String {
    let keys = Set(before.keys).union(after.keys)
    let changes = keys.map { ($0, after[$0, default: 0] - before[$0, default: 0]) }.filter { $0.1 != 0 }
    return changes.sorted { abs($0.1) > abs($1.1) }.prefix(12).map { "\($0.0) \($0.1 > 0 ? "+" : "")\($0.1)\(unit)" }
        .joined(separator: ", ")
}

/// A /proc file read whole: Foundation's `String(contentsOfFile:)` stops after the first
/// read, since /proc reports a size of 0 (4 KiB of a 80 KiB smaps).
func readProcFile(_ path: String) -> String {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n <= 0 { break }
        bytes += chunk[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}
