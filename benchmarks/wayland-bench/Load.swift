// Latency under load: 50 clients with a window each (a 10×5 grid on a 1920×1080 output), a
// 1 kHz pointer crossing them row by row, and optionally one client (in the middle of the
// grid) that stops reading. Latency is from `server.handle(_:)` (or, the raw way, the
// first wl_pointer_send_*) to the bytes being readable on the receiving client's socket, as
// one poll(2) reader thread sees them. The stalled client's own samples are left out.
import CWaylandServer
import Foundation
import InputRouter
import InputRouterWayland
import InputRouterWireClient
import Synchronization

final class LoadSamples: @unchecked Sendable {
    let capacity = 1 << 16
    let latencies: UnsafeMutablePointer<UInt64>
    var count = 0
    /// Bytes the reading clients read, which must be the same both ways.
    var bytes = 0
    /// When the latest event started (ns), written by the main thread before each event.
    let started = Atomic<UInt64>(0)
    let stop = Atomic<Bool>(false)
    let done = Atomic<Bool>(false)
    init() { latencies = .allocate(capacity: capacity) }
}

final class LoadBench {
    static let clientCount = 50, columns = 10
    static let cellW: Int32 = 190, cellH: Int32 = 210, windowW: Int32 = 180, windowH: Int32 = 200
    static let stalledIndex = 24
    let server: WaylandServer
    var clients: [BenchClient] = []
    var time: UInt64 = 1_000_000
    var cursor = Point(10, 100)
    var rawFocus: Int?

    init() throws {
        var config = WaylandServer.Configuration()
        config.outputWidth = 1920
        config.outputHeight = 1080
        config.keyboard = .init(keymap: .names(.init(rules: "evdev", model: "pc105", layout: "us")), compose: false)
        config.policy.placeToplevel =
            MapOrderPlacement { i in
                (Int32(i % LoadBench.columns) * LoadBench.cellW + 5, Int32(i / LoadBench.columns) * LoadBench.cellH + 5)
            }.place
        server = try WaylandServer(configuration: config)
        server.handle(InputEvent(time: 0, device: DeviceID(1), .deviceAdded(.pointer)))
        for _ in 0..<Self.clientCount {
            clients.append(
                try BenchClient(
                    server, devices: [0], windows: 1, width: Self.windowW, height: Self.windowH,
                    bigBuffer: false))
        }
        server.seat.notifyPointerWarp(time: time, to: cursor)
        server.dispatch(timeoutMS: 0)
        for c in clients { c.session.drain() }
    }

    /// The next cursor position: 19 px right (a window every ten events), the next row at
    /// the end of one, the first after the last.
    func nextCursor() -> Point {
        var p = Point(cursor.x + 19, cursor.y)
        if p.x > 1890 { p = Point(10, cursor.y + Double(Self.cellH)) }
        if p.y > 1060 { p = Point(10, 100) }
        return p
    }

    /// The client whose window is under `p` (the windows do not overlap).
    func window(at p: Point) -> Int? {
        let col = Int(p.x) / Int(Self.cellW)
        let row = Int(p.y) / Int(Self.cellH)
        let lx = Int32(p.x) - Int32(col) * Self.cellW - 5
        let ly = Int32(p.y) - Int32(row) * Self.cellH - 5
        guard col < Self.columns, row * Self.columns + col < Self.clientCount, lx >= 0, lx < Self.windowW, ly >= 0,
            ly < Self.windowH
        else { return nil }
        return row * Self.columns + col
    }

    func event(routed: Bool) {
        time &+= 1000
        let p = nextCursor()
        defer { cursor = p }
        if routed {
            server.handle(
                InputEvent(
                    time: time, device: DeviceID(1),
                    .pointerMotion(dx: p.x - cursor.x, dy: p.y - cursor.y, unacceleratedDX: 0, unacceleratedDY: 0)))
            wl_display_flush_clients(server.display)
            return
        }
        let display = server.display
        let hit = window(at: p)
        if hit != rawFocus {
            if let old = rawFocus {
                wl_pointer_send_leave(
                    clients[old].pointer, wl_display_next_serial(display), clients[old].windows[0].surface)
                wl_pointer_send_frame(clients[old].pointer)
            }
            if let new = hit {
                let c = clients[new]
                let col = Int32(new % Self.columns)
                let row = Int32(new / Self.columns)
                let x = wl_fixed_from_double(p.x - Double(col * Self.cellW + 5))
                let y = wl_fixed_from_double(p.y - Double(row * Self.cellH + 5))
                wl_pointer_send_enter(c.pointer, wl_display_next_serial(display), c.windows[0].surface, x, y)
                // The seat follows an enter with the motion at the same point (as the click's raw way).
                wl_pointer_send_motion(c.pointer, UInt32(truncatingIfNeeded: time / 1000), x, y)
                wl_pointer_send_frame(c.pointer)
            }
            rawFocus = hit
        } else if let f = hit {
            let col = Int32(f % Self.columns)
            let row = Int32(f / Self.columns)
            wl_pointer_send_motion(
                clients[f].pointer, UInt32(truncatingIfNeeded: time / 1000),
                wl_fixed_from_double(p.x - Double(col * Self.cellW + 5)),
                wl_fixed_from_double(p.y - Double(row * Self.cellH + 5)))
            wl_pointer_send_frame(clients[f].pointer)
        }
        wl_display_flush_clients(display)
    }

    /// Where each run starts: on no window, so that neither way has a focus to leave. The
    /// routed way moves the seat's cursor by deltas, which the raw runs between its runs do
    /// not: without a common start its cursor drifted from the path the raw way followed,
    /// off every window, and later routed runs delivered nothing (seen as 0 reads a run).
    static let parkingPoint = Point(1915, 1075)

    /// Puts the pointer on the parking point both ways (the seat warped, which leaves the
    /// surface the last routed run ended on; raw, a leave to the client the last raw run
    /// entered), then reads what that sent, so a run's reader sees only the run's events.
    func park() {
        time &+= 1000
        server.seat.notifyPointerWarp(time: time, to: Self.parkingPoint)
        server.sendDeliveries()
        if let old = rawFocus {
            wl_pointer_send_leave(
                clients[old].pointer, wl_display_next_serial(server.display), clients[old].windows[0].surface)
            wl_pointer_send_frame(clients[old].pointer)
        }
        rawFocus = nil
        cursor = Self.parkingPoint
        wl_display_flush_clients(server.display)
        for c in clients { c.session.drain() }
    }

    /// `events` at 1 kHz one way; latencies (ns) seen on the reading clients' sockets, and
    /// the bytes they read.
    func run(events: Int, routed: Bool, stalled: Bool) -> (latencies: [UInt64], bytes: Int) {
        park()
        let samples = LoadSamples()
        let readers = clients.indices.filter { !(stalled && $0 == Self.stalledIndex) }.map { clients[$0].fd }
        Thread.detachNewThread {
            var fds = readers.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while !samples.stop.load(ordering: .relaxed) {
                guard poll(&fds, nfds_t(fds.count), 5) > 0 else { continue }
                let t = now()
                let start = samples.started.load(ordering: .acquiring)
                for i in fds.indices where fds[i].revents & Int16(POLLIN) != 0 {
                    let got = buffer.withUnsafeMutableBytes { read(fds[i].fd, $0.baseAddress, $0.count) }
                    if got > 0 { samples.bytes += got }
                    // Bytes read before the first event (what setup left queued, start 0) or
                    // stamped before the latest start belong to no measured event: not counted.
                    guard start != 0, t >= start, samples.count < samples.capacity else { continue }
                    samples.latencies[samples.count] = t - start
                    samples.count += 1
                }
            }
            samples.done.store(true, ordering: .releasing)
        }
        let t0 = now()
        for k in 0..<events {
            // Sleep until this event's millisecond, then send it.
            let due = t0 + UInt64(k) * 1_000_000
            var ts = timespec(tv_sec: Int(due / 1_000_000_000), tv_nsec: Int(due % 1_000_000_000))
            clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil)
            samples.started.store(now(), ordering: .releasing)
            event(routed: routed)
            server.dispatch(timeoutMS: 0) // requests and timers, as a compositor's loop would
        }
        usleep(20_000)
        samples.stop.store(true, ordering: .relaxed)
        while !samples.done.load(ordering: .acquiring) { usleep(1000) }
        return (Array(UnsafeBufferPointer(start: samples.latencies, count: samples.count)).sorted(), samples.bytes)
    }

    /// Prints the table; false when a routed run's clients read other bytes than its raw twin's,
    /// or when the stalled client's effect on the routed way is shown to exceed the goal (the
    /// whole 95% interval over `runs` runs above 1.10x).
    static func runAndPrint(runs: Int = 8) throws -> Bool {
        let bench = try LoadBench()
        // One block is one sweep of the grid (99 events a row, five rows). The two conditions
        // alternate block by block (ABBA, so neither always follows the other), each way's
        // pair of blocks beside the other's: the host's slow seconds then fall on both
        // conditions alike, and each condition's reads are pooled over its blocks. A p99 of
        // one short run is its 20th-slowest read, and one scheduling hiccup moves it by a
        // third; pooled over 96 blocks a condition (about 52,000 reads), two runs of the same
        // code still read 0.97x and 1.11x, and one run on a busy host 1.32x (its quarters
        // 0.87, 2.44, 1.30, 1.08): one number, however pooled, passed or failed on the host's
        // mood. So the effect is measured `runs` times, each run its own 12 blocks a
        // condition (about 6,500 reads: a p99 is its 65th-slowest), and reported as the
        // spread of the per-run ratios (RatioInterval): 8 runs take about as long as the one
        // pooled run did (about 200 s).
        let events = 500
        let blocksPerRun = 12
        let blocksPerCondition = blocksPerRun * runs
        func stats(_ s: [UInt64]) -> String {
            guard !s.isEmpty else { return "no samples" }
            func q(_ f: Double) -> Double { Double(s[min(s.count - 1, Int(Double(s.count) * f))]) }
            return "p50 \(ns(q(0.5))), p99 \(ns(q(0.99))), max \(ns(Double(s.last!))) (\(s.count) reads)"
        }
        func p99(_ s: [UInt64]) -> Double {
            s.isEmpty ? .nan : Double(s[min(s.count - 1, Int(Double(s.count) * 0.99))])
        }
        // Per way and condition, each block's reads, in the order run.
        var blocks: [[[UInt64]]] = Array(repeating: [], count: 4) // routed all, routed stalled, raw all, raw stalled
        var mismatches: [String] = []
        var bytesPerRun = 0
        for pair in 0..<(blocksPerCondition / 2) {
            if pair % (blocksPerRun / 2) == 0 { progress("  load run \(pair / (blocksPerRun / 2) + 1) of \(runs)") }
            // Pair k: A B B A for even k, B A A B for odd, over both ways' blocks.
            let order = pair % 2 == 0 ? [false, true, true, false] : [true, false, false, true]
            var bytes = [Int](repeating: 0, count: 4)
            for (i, stalled) in order.enumerated() {
                for routed in (i % 2 == 0 ? [true, false] : [false, true]) {
                    let r = bench.run(events: events, routed: routed, stalled: stalled)
                    let slot = (routed ? 0 : 2) + (stalled ? 1 : 0)
                    blocks[slot].append(r.latencies)
                    if bytes[slot] != 0 && bytes[slot] != r.bytes {
                        mismatches.append(
                            "blocks of pair \(pair + 1), \(routed ? "routed" : "raw"), \(stalled ? "one stalled" : "every client reading"): \(bytes[slot]) and \(r.bytes)"
                        )
                    }
                    bytes[slot] = r.bytes
                }
            }
            if bytes[0] != bytes[2] || bytes[1] != bytes[3] {
                mismatches.append(
                    "pair \(pair + 1): every client reading \(bytes[0]) routed, \(bytes[2]) raw; "
                        + "one stalled \(bytes[1]) routed, \(bytes[3]) raw")
            }
            bytesPerRun = bytes[2]
        }
        func pooled(_ slot: Int, _ range: Range<Int>? = nil) -> [UInt64] {
            let b = blocks[slot]
            let r = range ?? b.indices
            return b[r].flatMap { $0 }.sorted()
        }
        let (routedAll, routedStalled, rawAll, rawStalled) = (pooled(0), pooled(1), pooled(2), pooled(3))
        // Each run's ratio: the p99 with one client stalled over the p99 with every client
        // reading, both pooled over that run's blocks alone.
        func perRun(_ all: Int, _ stalled: Int) -> RatioInterval? {
            RatioInterval(
                (0..<runs).map { r in
                    let range = r * blocksPerRun..<(r + 1) * blocksPerRun
                    return p99(pooled(stalled, range)) / p99(pooled(all, range))
                })
        }
        let goal = 1.10
        let routedEffect = perRun(0, 1)
        let rawEffect = perRun(2, 3)
        print(
            "\nUnder load: \(clientCount) clients with a window each, a 1 kHz pointer crossing them (blocks of \(events) events, one"
        )
        print(
            "sweep of the grid; the conditions interleaved block by block; \(runs) runs of \(blocksPerRun) blocks a condition, reads"
        )
        print(
            "pooled within a run); latency from server.handle (raw: the first wl_pointer_send_*) to the bytes readable on each"
        )
        print("reading client's socket\n")
        print("| what | routed | raw |\n|---|---|---|")
        print("| every client reading (all runs) | \(stats(routedAll)) | \(stats(rawAll)) |")
        print(
            "| client \(stalledIndex) stopped reading, its window crossed too (all runs) | \(stats(routedStalled)) | \(stats(rawStalled)) |"
        )
        print(
            "| the stalled client's effect on the others' p99, per run (goal ≤ 1.10x) | \(routedEffect?.summary ?? "no spread") | \(rawEffect?.summary ?? "no spread") |"
        )
        print(
            String(
                format: "| routed / raw p99, every client reading (all runs) | %.2fx | |", p99(routedAll) / p99(rawAll))
        )
        // The goal is judged on the routed way (the library's), by the interval: PASS when
        // all of it is at or under 1.10x, FAIL (the bench fails) when all of it is over,
        // UNDECIDED (reported, not failed) when it holds 1.10x.
        let verdict = routedEffect?.verdict(goal: goal) ?? .undecided
        print(
            "\nThe stalled client's effect, routed: \(verdict.rawValue) against the goal of ≤ \(String(format: "%.2f", goal))x, "
                + (routedEffect.map { String(format: "95%% CI %.2fx to %.2fx", $0.low, $0.high) } ?? "no interval")
                + " (PASS: all of the interval at or under the goal; FAIL: all of it over; UNDECIDED: it holds the goal)"
        )
        for m in mismatches { print("FAIL: under load, the clients read other bytes routed than raw, \(m)") }
        if mismatches.isEmpty {
            print(
                "\nBoth ways' clients read the same bytes in every block (\(bytesPerRun) a block with every client reading)."
            )
        }
        return mismatches.isEmpty && verdict != .fail
    }
}
