// Issue 7: hostile clients (wl-hostile, writing the wire format itself) attack the server
// one session after another, in every mode, with new seeds, for HOSTILE_SECONDS (20 by
// default), while a well-behaved wl-probe client keeps getting pointer input. Asserted:
// the server stays up; each offender ends with the error its attack names (interface and
// code, where the protocol names one) and is gone from the server; the good client's
// motion arrives within a second every time; the memory a leak on this server can grow
// (anonymous, and its clients' pools) and the process's fds stay bounded. The long loop
// runs in a process of its own (an exit test) while the other suites run in parallel.
// `make hostile SECONDS=600` runs it for ten minutes.
import Foundation
import InputRouter
import Testing

@testable import InputRouterWayland

/// What one run saw, printed at the end.
struct HostileStats {
    var sessions = 0
    var requests = 0
    var outcomes: [String: Int] = [:]
    var latencies: [Double] = []
    var rssAfterWarmUp = 0
    var rssEnd = 0
    var fdsAfterWarmUp = 0
    var fdsEnd = 0
    /// /proc/self/status after warm-up and at the end: what the RSS is made of, and the
    /// threads, for a growth that is not this server's (the suites beside it in the process).
    var statusAfterWarmUp = ""
    var statusEnd = ""
    /// What the RSS and the descriptors are made of after warm-up, to name what grew.
    var mappingsAfterWarmUp: [String: Int] = [:]
    var descriptorsAfterWarmUp: [String: Int] = [:]
    var mappingGrowth = ""
    var descriptorGrowth = ""
}

/// Runs wl-hostile sessions against `server` until `seconds` pass (or `cases` run out),
/// probing the good client's latency between and during them.
final class HostileRun {
    let server: WaylandServer
    let socket: String
    let good: ClientProcess
    var stats = HostileStats()
    var time: UInt64 = 1_000_000
    var probeIndex = 0
    /// The line the good client must print for the probe in flight, and when it was sent.
    var probe: (line: String, sent: Double)?
    var lastProbe = 0.0

    init(name: String) throws {
        socket = "ir-hostile-\(getpid())-\(name)"
        server = try makeServer(socketName: socket)
        good = try ClientProcess(
            productsDirectory + "/wl-probe", ["--toplevel", "good", "200x200", "--no-keyboard"], socket: socket)
        let deadline = monotonicSeconds() + 20
        while !good.lines.contains("mapped good"), monotonicSeconds() < deadline {
            server.dispatch(timeoutMS: 5)
            good.poll()
        }
    }

    var goodIsMapped: Bool { good.lines.contains("mapped good") }

    /// Sends a pointer motion into the good window unless one is in flight; records the
    /// latency of the one that arrived.
    func serviceProbe(allowed: Bool) {
        good.poll()
        if let p = probe {
            if let i = good.lines.lastIndex(of: p.line) {
                stats.latencies.append(good.readAt[i] - p.sent)
                probe = nil
            } else if monotonicSeconds() - p.sent > 5 {
                Issue.record("the good client got no motion for 5 s (\(p.line))")
                stats.latencies.append(monotonicSeconds() - p.sent)
                probe = nil
            }
        }
        guard allowed, probe == nil, monotonicSeconds() - lastProbe > 0.02 else { return }
        probeIndex += 1
        let x = 20 + probeIndex % 150
        let y = 20 + (probeIndex / 150) % 150
        time += 1000
        lastProbe = monotonicSeconds()
        probe = ("pointer.motion \(x).00 \(y).00", lastProbe)
        server.seat.notifyPointerWarp(time: time, to: Point(Double(x), Double(y)))
        server.sendDeliveries()
        dispatchPending()
    }

    func dispatchPending() { server.dispatch(timeoutMS: 0) }

    /// Clicks the hostile client's window (the toplevel at (600, 300)) for its grab attacks.
    func clickHostileWindow() {
        time += 1000
        server.seat.notifyPointerWarp(time: time, to: Point(610, 310))
        server.sendDeliveries()
        for state in [ButtonState.pressed, .released] {
            time += 1000
            server.handle(InputEvent(time: time, device: DeviceID(1), .pointerButton(button: 0x110, state: state)))
        }
    }

    /// One wl-hostile session; returns its result line (nil when it never printed one).
    func session(seed: UInt64, mode: String, variant: Int? = nil) throws -> String? {
        let hostile = try ClientProcess(
            productsDirectory + "/wl-hostile",
            ["--seed", "\(seed)", "--mode", mode] + (variant.map { ["--variant", "\($0)"] } ?? []),
            socket: socket)
        let deadline = monotonicSeconds() + 60
        var grabbing = false
        // Let any motion in flight land before a grab can take the pointer.
        while monotonicSeconds() < deadline {
            server.dispatch(timeoutMS: 2)
            hostile.poll()
            if !grabbing, hostile.lines.contains("waiting-for-press") {
                while probe != nil, monotonicSeconds() < deadline {
                    server.dispatch(timeoutMS: 2)
                    serviceProbe(allowed: false)
                }
                grabbing = true
                clickHostileWindow()
            }
            serviceProbe(allowed: !grabbing)
            if !hostile.process.isRunning {
                hostile.poll()
                break
            }
        }
        defer { hostile.finish() }
        if hostile.process.isRunning {
            Issue.record(
                "wl-hostile --seed \(seed) --mode \(mode) did not finish in 60 s:\n\(hostile.lines.suffix(5).joined(separator: "\n"))"
            )
            kill(hostile.process.processIdentifier, SIGKILL)
            hostile.process.waitUntilExit()
        }
        // The server notices the hang-up on its next dispatch; only the good client stays.
        let gone = monotonicSeconds() + 5
        while server.clientsByPointer.count > 1, monotonicSeconds() < gone { server.dispatch(timeoutMS: 5) }
        #expect(server.clientsByPointer.count == 1, "wl-hostile --seed \(seed) --mode \(mode) is still connected")
        // Nothing of it outlives it: no protocol object of a gone client is alive (each counts
        // itself on its client's state, ObjectCensus.swift). Exact, and this server's alone, so
        // it holds whatever the suites running beside it in this process hold.
        let census = server.objectCensus()
        #expect(
            census.departedObjects == 0 && census.departedClients == 0,
            "wl-hostile --seed \(seed) --mode \(mode): \(census.departedObjects) objects outlived their client")
        // The pointer comes back to the good window (and leaves any grab the offender held).
        grabbing = false
        let result = hostile.lines.last { $0.hasPrefix("result ") }
        if result == nil {
            Issue.record(
                "wl-hostile --seed \(seed) --mode \(mode) printed no result:\n\(hostile.lines.suffix(5).joined(separator: "\n"))"
            )
        }
        return result
    }

    /// Checks a result line against its expectation; records the outcome.
    func check(_ line: String) {
        let fields = parseResult(line)
        stats.sessions += 1
        stats.requests += Int(fields["requests"] ?? "0") ?? 0
        let expect = fields["expect"] ?? "?"
        let outcome = fields["outcome"] ?? "?"
        let got = outcome == "error" ? "\(fields["interface"] ?? "?"):\(fields["code"] ?? "?")" : outcome
        stats.outcomes[got, default: 0] += 1
        switch expect {
        case "any": break
        case "none": #expect(outcome == "none", "\(line)")
        case "disconnect": #expect(outcome == "error" || outcome == "disconnected", "\(line)")
        case "error": #expect(outcome == "error", "\(line)")
        default: #expect(got == expect, "\(line)")
        }
    }
}

/// `key=value` fields of a result line (`message="…"` may hold spaces).
func parseResult(_ line: String) -> [String: String] {
    var fields: [String: String] = [:]
    var rest = Substring(line)
    if let m = rest.range(of: " message=\"") {
        fields["message"] = String(rest[m.upperBound...].dropLast())
        rest = rest[..<m.lowerBound]
    }
    for part in rest.split(separator: " ") {
        guard let eq = part.firstIndex(of: "=") else { continue }
        fields[String(part[..<eq])] = String(part[part.index(after: eq)...])
    }
    return fields
}

let allModes = [
    "unknown-id", "destroyed-id", "new-id-collision", "wrong-type", "bad-size", "unknown-opcode", "bad-enum",
    "subsurface-cycle", "region", "bad-shm", "grab", "flood", "never-read", "garbage", "new-globals",
]

/// Sessions that found bugs, kept as they were: (mode, variant, what the offender must get).
let regressions: [(mode: String, variant: Int, expect: String)] = [
    // (wl_region names no errors: a bad rectangle is wl_display.invalid_method, docs/wayland.md.)
    // The union of two valid rectangles spanning more than 2³¹ pixels as an input region
    // crashed the server (arithmetic overflow in the region's extents): now clipped to
    // the surface. No rule broken until the final bad rectangle.
    ("region", 0, "wl_display:1"),
    // xdg_wm_base errors were posted on the xdg_popup / xdg_surface, where their codes
    // name other errors (code 2 on xdg_popup is nothing).
    ("grab", 1, "xdg_wm_base:2"),
    // wl_surface.set_buffer_transform(99) was accepted.
    ("bad-enum", 0, "wl_surface:1"),
]

@Suite(.serialized) struct HostileClientTests {
    @Test(arguments: regressions.indices)
    func regression(index: Int) throws {
        let r = regressions[index]
        let run = try HostileRun(name: "regression-\(index)")
        try #require(run.goodIsMapped)
        let line = try #require(try run.session(seed: 7, mode: r.mode, variant: r.variant))
        print(line)
        let fields = parseResult(line)
        #expect(fields["expect"] == r.expect, "\(line)")
        run.check(line)
        // The good client is still served.
        run.probe = nil
        run.lastProbe = 0
        run.serviceProbe(allowed: true)
        let deadline = monotonicSeconds() + 5
        while run.probe != nil, monotonicSeconds() < deadline {
            run.server.dispatch(timeoutMS: 2)
            run.serviceProbe(allowed: false)
        }
        #expect(run.probe == nil)
    }

    /// The loop runs in a process of its own: an exit test, this test binary started again
    /// to run only `hostileLoop()`, its issues reported here. So the memory and descriptors it
    /// bounds are this server's and its harness's alone, as a compositor's process would be.
    /// In the shared process the suites beside it held up to 9 MB of heap at the moment of the
    /// last reading (a clean-clone CI run read +8,860 kB against 8,552 allowed), which no
    /// reading of the shared process can tell apart from a leak here.
    @Test func hostileSessionsNeitherCrashNorStallTheServer() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            try hostileLoop()
        }
        if let result { print(String(decoding: result.standardOutputContent, as: UTF8.self), terminator: "") }
    }
}

/// The hostile sessions, one after another for HOSTILE_SECONDS, and the bounds on what they
/// leave behind. Run in its own process by `hostileSessionsNeitherCrashNorStallTheServer`.
func hostileLoop() throws {
    let seconds = Double(ProcessInfo.processInfo.environment["HOSTILE_SECONDS"] ?? "") ?? 20
    let verbose = ProcessInfo.processInfo.environment["HOSTILE_VERBOSE"] != nil
    let baseSeed = UInt64(ProcessInfo.processInfo.environment["HOSTILE_SEED"] ?? "") ?? 1
    // HOSTILE_MODES=flood,bad-shm runs only those.
    let modes =
        ProcessInfo.processInfo.environment["HOSTILE_MODES"].map { $0.split(separator: ",").map(String.init) }
        ?? allModes
    let forcedVariant = ProcessInfo.processInfo.environment["HOSTILE_VARIANT"].flatMap { Int($0) }
    let run = try HostileRun(name: "loop")
    try #require(run.goodIsMapped, "wl-probe never mapped:\n\(run.good.lines.joined(separator: "\n"))")
    let start = monotonicSeconds()
    var i = 0
    var memoryStart = serverMemoryKB(residentByMapping())
    while monotonicSeconds() - start < seconds || i < modes.count {
        let mode = modes[i % modes.count]
        if let line = try run.session(seed: baseSeed &+ UInt64(i), mode: mode, variant: forcedVariant) {
            if verbose {
                print(
                    "\(line) rss=\(residentKB()) kB, anonymous and pools \(serverMemoryKB(residentByMapping())) kB")
            }
            run.check(line)
        }
        i += 1
        // One of each mode first: the tables the server keeps are at size after that.
        if i == modes.count {
            run.stats.rssAfterWarmUp = residentKB()
            run.stats.fdsAfterWarmUp = openFDs()
            run.stats.statusAfterWarmUp = processStatus()
            run.stats.mappingsAfterWarmUp = residentByMapping()
            memoryStart = serverMemoryKB(run.stats.mappingsAfterWarmUp)
            run.stats.descriptorsAfterWarmUp = descriptorsByKind()
        }
    }
    // The good client still answers at the end.
    run.probe = nil
    run.lastProbe = 0
    let deadline = monotonicSeconds() + 5
    run.serviceProbe(allowed: true)
    while run.probe != nil, monotonicSeconds() < deadline {
        run.server.dispatch(timeoutMS: 2)
        run.serviceProbe(allowed: false)
    }
    #expect(run.probe == nil, "the good client stopped receiving input")

    run.stats.rssEnd = residentKB()
    run.stats.fdsEnd = openFDs()
    run.stats.statusEnd = processStatus()
    // The lowest of ten readings over a second, the server dispatching between them:
    // what a suite beside this one holds for a moment comes and goes, what leaked here
    // is in every reading.
    var mappingsEnd = residentByMapping()
    for _ in 0..<9 {
        let until = monotonicSeconds() + 0.1
        while monotonicSeconds() < until { run.server.dispatch(timeoutMS: 10) }
        let reading = residentByMapping()
        if serverMemoryKB(reading) < serverMemoryKB(mappingsEnd) { mappingsEnd = reading }
    }
    let memoryEnd = serverMemoryKB(mappingsEnd)
    run.stats.mappingGrowth = growth(from: run.stats.mappingsAfterWarmUp, to: mappingsEnd, unit: " kB")
    run.stats.descriptorGrowth = growth(from: run.stats.descriptorsAfterWarmUp, to: descriptorsByKind())
    let s = run.stats
    let sorted = s.latencies.sorted()
    let maxLatency = sorted.last ?? 0
    let p99 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
    print(
        """
        hostile: \(s.sessions) sessions in \(String(format: "%.0f", monotonicSeconds() - start)) s, \(s.requests) requests sent
        hostile: outcomes \(s.outcomes.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: ", "))
        hostile: good client motion latency over \(sorted.count) probes: max \(String(format: "%.1f", maxLatency * 1000)) ms, p99 \(String(format: "%.1f", p99 * 1000)) ms
        hostile: RSS after warm-up \(s.rssAfterWarmUp) kB, at end \(s.rssEnd) kB; open fds \(s.fdsAfterWarmUp), at end \(s.fdsEnd)
        hostile: after warm-up \(s.statusAfterWarmUp); at end \(s.statusEnd)
        hostile: resident growth by mapping: \(s.mappingGrowth)
        hostile: descriptor growth by kind: \(s.descriptorGrowth)
        """)
    #expect(s.sessions >= modes.count)
    #expect(maxLatency < 1.0, "the good client waited \(maxLatency) s for a motion")
    // Bounded: 8 MiB of slack (allocator high-water marks) plus 4 KiB per session (the
    // core keeps a small record per client ever connected). A leaked surface image or
    // pool is far more than that. Measured is what a leak here can grow: anonymous memory
    // (read after `malloc_trim`) and the pools of this server's clients, by mapping
    // (`residentByMapping`), in this process of its own. In the shared test process it
    // grew 8 to 21 MB as a whole RSS: the nested suite's 6 MiB window buffers mapped at
    // that moment, library pages, Foundation's Process objects that stayed alive with
    // their pipes after their programs ended (the tests now use `ChildProcess`), and up
    // to 9 MB of the other suites' heap.
    let sessionsAfterWarmUp = max(s.sessions - modes.count, 0)
    #expect(
        memoryEnd - memoryStart < 8 * 1024 + 4 * sessionsAfterWarmUp,
        """
        anonymous memory and clients' pools grew from \(memoryStart) kB to \(memoryEnd) kB over \
        \(sessionsAfterWarmUp) sessions (by mapping: \(s.mappingGrowth))
        """)
    // The descriptors of this process: the server's, its clients' pipes, the harness's.
    #expect(
        s.fdsEnd - s.fdsAfterWarmUp < 64,
        """
        open fds went from \(s.fdsAfterWarmUp) to \(s.fdsEnd) over \(sessionsAfterWarmUp) sessions \
        (\(s.descriptorGrowth))
        """)
}
