// wayland-bench: the end-to-end cost of routing (issue 8). From a pointer motion entering
// `server.handle(_:)` to the protocol events written on a real client's socket, against
// the raw protocol cost of the same events with no routing: wl_pointer.motion and
// wl_pointer.frame posted directly on the same resource, then wl_display_flush_clients.
// Both runs flush after every event, and both are timed until a reader thread on the
// client's end of the socket has read every byte. Goal: routing adds at most 20%.
//
//   wayland-bench                   the table (release build: `make bench`)
//   wayland-bench --only routed|raw N   send N events one way and exit (for callgrind)
//   wayland-bench --no-callgrind
//
// The client is in this process: one end of a socketpair is handed to the server with
// wl_client_create, the other is a WireClient (the wire format, no libwayland-client) that
// binds wl_seat, gets a wl_pointer and maps a 400×300 toplevel; then a thread only reads.
import CWaylandServer
import Foundation
import InputRouter
import Synchronization
import WaylandServer
import WireClient

let args = CommandLine.arguments
func progress(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }
func now() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Bytes read on the client's end, by the reader thread.
final class ByteCounter: @unchecked Sendable {
    let bytes = Atomic<Int>(0)
    let stop = Atomic<Bool>(false)
}

final class Bench {
    let server: WaylandServer
    let wire: WireConnection
    let pointer: UnsafeMutablePointer<wl_resource>
    let counter = ByteCounter()
    var time: UInt64 = 1_000_000
    var step = 0

    init() throws {
        var config = WaylandServer.Configuration()
        config.keyboard = .init(keymap: .names(.init(rules: "evdev", model: "pc105", layout: "us")), compose: false)
        config.unresponsiveTimeoutMS = 0
        server = try WaylandServer(configuration: config)
        server.handle(InputEvent(time: 0, device: DeviceID(1), .deviceAdded(.pointer)))
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0,
            let client = wl_client_create(server.display, fds[0])
        else { throw WireError.connect("socketpair / wl_client_create failed") }
        // A UNIX socket charges every small write its whole buffer overhead (~800 bytes),
        // so the default send buffer holds only ~270 unread events. Root may raise it.
        var big: Int32 = 16 << 20
        if setsockopt(fds[0], SOL_SOCKET, SO_SNDBUFFORCE, &big, socklen_t(MemoryLayout<Int32>.size)) != 0 {
            setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &big, socklen_t(MemoryLayout<Int32>.size))
        }
        wire = WireConnection(fd: fds[1])
        let session = WireSession(wire)
        let server = server
        session.pump = { server.dispatch(timeoutMS: 0) }
        guard session.start() else { throw WireError.connect("no registry") }
        for (interface, version) in [("wl_compositor", 5), ("wl_shm", 1), ("wl_seat", 8), ("xdg_wm_base", 5)] {
            session.bind(interface, version: UInt32(version))
        }
        let pointerID = wire.newID("wl_pointer")
        wire.send(session.bound["wl_seat"]!, Op.seatGetPointer, [.uint(pointerID)])
        guard session.mapToplevel(width: 400, height: 300) != nil,
            let resource = wl_client_get_object(client, pointerID)
        else { throw WireError.connect("the toplevel did not map") }
        pointer = resource
        // Into the window (the first toplevel maps at (40, 40)): enter, then only motion.
        server.seat.notifyPointerWarp(time: time, to: Point(200, 200))
        server.sendDeliveries()
        session.roundtrip()
        session.drain()

        let fd = wire.fd
        let counter = counter
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while !counter.stop.load(ordering: .relaxed) {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n > 0 { counter.bytes.add(n, ordering: .releasing) }
                if n <= 0 && errno != EINTR && errno != EAGAIN { break }
            }
        }
    }

    /// Waits until the reader has read `target` bytes in total.
    @inline(__always) func waitForReader(_ target: Int) {
        while counter.bytes.load(ordering: .acquiring) < target { sched_yield() }
    }

    /// One event through the router: relative motion of one pixel, back and forth.
    @inline(__always) func routed() {
        time &+= 1000
        step &+= 1
        let dx: Double = step & 1 == 0 ? 1 : -1
        server.handle(InputEvent(time: time, device: DeviceID(1), .pointerMotion(dx: dx, dy: 0, unacceleratedDX: dx, unacceleratedDY: 0)))
        wl_display_flush_clients(server.display)
    }

    /// The same protocol events posted directly on the same resource.
    @inline(__always) func raw() {
        time &+= 1000
        step &+= 1
        let x = step & 1 == 0 ? 160.0 : 159.0
        wl_pointer_send_motion(pointer, UInt32(truncatingIfNeeded: time / 1000), wl_fixed_from_double(x), wl_fixed_from_double(160))
        wl_pointer_send_frame(pointer)
        wl_display_flush_clients(server.display)
    }

    /// `n` events one way; returns (ns per event, bytes per event). Keeps at most 128
    /// events unread, so that neither way ever finds the socket full (libwayland 1.21
    /// would drop events then).
    func run(_ n: Int, routedWay: Bool, bytesPerEvent: Int) -> (Double, Double) {
        let start = counter.bytes.load(ordering: .acquiring)
        let t0 = now()
        for i in 0..<n {
            if routedWay { routed() } else { raw() }
            if i & 63 == 63 { waitForReader(start + (i + 1 - 128) * bytesPerEvent) }
        }
        let sent = n * bytesPerEvent
        waitForReader(start + sent)
        let t1 = now()
        return (Double(t1 - t0) / Double(n), Double(counter.bytes.load(ordering: .acquiring) - start) / Double(n))
    }

    /// Bytes one event puts on the socket (measured: every byte must be read back).
    func measureBytesPerEvent(routedWay: Bool) -> Int {
        let start = counter.bytes.load(ordering: .acquiring)
        for i in 0..<1000 {
            if routedWay { routed() } else { raw() }
            // At most 64 events unread (their size is what is being measured: 28 at most).
            if i & 31 == 31 { waitForReader(start + (i + 1 - 64) * 8) }
        }
        var last = -1
        while true {
            usleep(20_000)
            let b = counter.bytes.load(ordering: .acquiring)
            if b == last { break }
            last = b
        }
        if ProcessInfo.processInfo.environment["BENCH_DEBUG"] != nil { progress("bytes \(start) -> \(last)") }
        return (last - start) / 1000
    }
}

let bench = try Bench()

if let i = args.firstIndex(of: "--only"), i + 2 < args.count, let n = Int(args[i + 2]) {
    let routedWay = args[i + 1] == "routed"
    for _ in 0..<n { if routedWay { bench.routed() } else { bench.raw() } }
    exit(0)
}

let routedBytes = bench.measureBytesPerEvent(routedWay: true)
let rawBytes = bench.measureBytesPerEvent(routedWay: false)
guard routedBytes == rawBytes, routedBytes > 0 else {
    print("FAIL: routed events put \(routedBytes) bytes per event on the socket, raw ones \(rawBytes)")
    exit(1)
}

// Alternating runs, so both ways see the same machine; medians of 7.
let events = 50_000
var routedTimes: [Double] = [], rawTimes: [Double] = []
progress("end to end: \(events) pointer motions each way, 7 alternating runs...")
_ = bench.run(events, routedWay: true, bytesPerEvent: routedBytes)
_ = bench.run(events, routedWay: false, bytesPerEvent: rawBytes)
for _ in 0..<7 {
    routedTimes.append(bench.run(events, routedWay: true, bytesPerEvent: routedBytes).0)
    rawTimes.append(bench.run(events, routedWay: false, bytesPerEvent: rawBytes).0)
}
let routedNS = routedTimes.sorted()[3], rawNS = rawTimes.sorted()[3]
let ratio = routedNS / rawNS

func ns(_ v: Double) -> String { v >= 10_000 ? String(format: "%.1f µs", v / 1000) : String(format: "%.0f ns", v) }
var rows: [(String, String)] = []
rows.append(("end to end: pointer motion routed through WaylandServer onto a client socket (motion + frame, \(routedBytes) bytes)",
             "\(ns(routedNS)) per event"))
rows.append(("end to end: the same events posted raw (wl_pointer_send_motion + frame + wl_display_flush_clients)",
             "\(ns(rawNS)) per event"))
rows.append(("end to end: routing overhead over the raw protocol cost (goal ≤ 20%)",
             String(format: "%.2fx (+%.0f%%)", ratio, (ratio - 1) * 100)))

// Instructions per event under callgrind: the difference between two run lengths, so the
// setup (keymap, client, mapping) cancels out.
if !args.contains("--no-callgrind") && FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind") {
    progress("callgrind...")
    // Valgrind 3.19 gives up on the Swift 6 toolchain's DWARF: it runs a copy without it.
    let copy = NSTemporaryDirectory() + "wayland-bench-nodebug-\(getpid())"
    let strip = Process()
    strip.executableURL = URL(fileURLWithPath: "/usr/bin/strip")
    strip.arguments = ["--strip-debug", "-o", copy, Bundle.main.executablePath ?? args[0]]
    try? strip.run()
    strip.waitUntilExit()
    defer { unlink(copy) }
    func instructions(_ way: String, _ n: Int) -> Double? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/valgrind")
        p.arguments = ["--tool=callgrind", "--callgrind-out-file=/dev/null", copy, "--only", way, "\(n)"]
        let pipe = Pipe()
        p.standardError = pipe
        p.standardOutput = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return nil }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard let line = text.split(separator: "\n").first(where: { $0.contains("Collected :") }) else { return nil }
        return Double(line.split(separator: " ").last ?? "")
    }
    if let r1 = instructions("routed", 2_000), let r2 = instructions("routed", 22_000),
        let w1 = instructions("raw", 2_000), let w2 = instructions("raw", 22_000)
    {
        let r = (r2 - r1) / 20_000, w = (w2 - w1) / 20_000
        rows.append(("end to end: user-space instructions per event (callgrind; the kernel's sendmsg is not counted): routed / raw",
                     String(format: "%.0f / %.0f (%.2fx)", r, w, r / w)))
    }
}

print("\nInputRouter end-to-end benchmark (release; times are medians of 7 runs)\n")
print("| what | result |\n|---|---|")
for (what, value) in rows { print("| \(what) | \(value) |") }
bench.counter.stop.store(true, ordering: .relaxed)
