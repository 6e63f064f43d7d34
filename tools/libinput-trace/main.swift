// libinput-trace: runs the live LibinputSource and prints one line per event in
// `libinput debug-events` format, so its output and libinput's own tool can be compared
// (tools/vm-libinput-test.sh does, in a VM). The events also go through a routing core
// (one full-screen client that bound every device and has keyboard focus) and at exit
// it reports what that client still holds: after devices go away mid-press nothing may
// stay stuck.
//
//   libinput-trace [--udev SEAT | --device PATH ...] [--libseat] [--idle SECONDS]
//                  [--record FILE] [--expect-clean]
// It runs until SIGINT or SIGTERM, or until no event came for --idle seconds.
//   libinput-trace --compare EXPECTED.txt ACTUAL.txt     (both debug-events text)

import InputRouter
import InputRouterLibinput
import InputRouterRecording

#if canImport(Glibc)
    import Glibc
#endif

func fail(_ message: String) -> Never {
    var line = "libinput-trace: \(message)\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(2)
}

func note(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

func monotonicMicroseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
}

// MARK: --compare

/// Same events per device (by sysname), in order, ignoring times; device sets must agree.
func compare(_ expectedPath: String, _ actualPath: String) -> Int32 {
    let expected: DebugEventsLog
    let actual: DebugEventsLog
    do {
        expected = try DebugEventsReader.read(path: expectedPath)
        actual = try DebugEventsReader.read(path: actualPath)
    } catch {
        note("\(error)")
        return 1
    }
    func perDevice(_ log: DebugEventsLog) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for (event, sysname) in zip(log.events, log.sysnames) {
            out[sysname, default: []].append(EventText.describe(event.kind))
        }
        return out
    }
    let a = perDevice(expected)
    let b = perDevice(actual)
    var ok = true
    for sysname in Set(a.keys).union(b.keys).sorted() {
        let x = a[sysname] ?? []
        let y = b[sysname] ?? []
        if x == y {
            note("  \(sysname): \(x.count) events identical")
            continue
        }
        ok = false
        let index = (0..<min(x.count, y.count)).first { x[$0] != y[$0] } ?? min(x.count, y.count)
        note("  \(sysname): \(x.count) vs \(y.count) events; first difference at event \(index + 1):")
        note("    libinput debug-events: \(index < x.count ? x[index] : "(none)")")
        note("    libinput-trace:        \(index < y.count ? y[index] : "(none)")")
    }
    // A run where the replayed device produced nothing proves nothing.
    let busy = a.values.contains { $0.contains { !$0.hasPrefix("added") && !$0.hasPrefix("removed") } }
    if !busy {
        ok = false
        note("  no input events at all (only devices added and removed)")
    }
    let kinds = Set(expected.events.map { EventText.describe($0.kind).split(separator: " ").first ?? "" })
    note("  event kinds seen: \(kinds.sorted().joined(separator: ", "))")
    return ok ? 0 : 1
}

// MARK: live

struct Options {
    var devices = DeviceSet.udev(seat: "seat0")
    var access = DeviceAccess.direct
    var idle: Double?
    var record: String?
    var expectClean = false
}

func parse(_ arguments: [String]) -> Options {
    var options = Options()
    var paths: [String] = []
    var i = 0
    func value() -> String {
        i += 1
        guard i < arguments.count else { fail("\(arguments[i - 1]) needs a value") }
        return arguments[i]
    }
    while i < arguments.count {
        switch arguments[i] {
        case "--udev": options.devices = .udev(seat: value())
        case "--device": paths.append(value())
        case "--libseat": options.access = .libseat(seat: "seat0")
        case "--idle":
            guard let s = Double(value()), s > 0 else { fail("--idle needs seconds > 0") }
            options.idle = s
        case "--record": options.record = value()
        case "--expect-clean": options.expectClean = true
        default: fail("unknown argument \(arguments[i])")
        }
        i += 1
    }
    if !paths.isEmpty { options.devices = .paths(paths) }
    return options
}

/// What a client was told and has not seen the end of: keys and buttons pressed and not
/// released, touch points down and not up or cancelled.
struct Held {
    var keys: [UInt32: Int] = [:]
    var buttons: [UInt32: Int] = [:]
    var touches: Set<Int32> = []

    mutating func observe(_ delivery: Delivery) {
        switch delivery {
        case .key(_, _, _, let key, let state, _): keys[key, default: 0] += state == .pressed ? 1 : -1
        case .pointerButton(_, _, _, let button, let state, _):
            buttons[button, default: 0] += state == .pressed ? 1 : -1
        case .touchDown(_, _, _, let slot, _, _): touches.insert(slot)
        case .touchUp(_, _, _, let slot, _): touches.remove(slot)
        case .touchCancel: touches.removeAll()
        default: break
        }
    }

    var description: String {
        let k = keys.filter { $0.value != 0 }.keys.sorted()
        let b = buttons.filter { $0.value != 0 }.keys.sorted()
        return "keys held \(k), buttons held \(b), touch points \(touches.sorted())"
    }
    var clean: Bool { keys.values.allSatisfy { $0 == 0 } && buttons.values.allSatisfy { $0 == 0 } && touches.isEmpty }
}

func run(_ options: Options) -> Int32 {
    let source: LibinputSource
    do {
        source = try LibinputSource(devices: options.devices, access: options.access, log: { note("# \($0)") })
    } catch {
        fail("\(error)")
    }
    if let path = options.record { source.recorder = LiveRecorder(path: path) }

    let router = Router()
    let seat = router.addSeat(name: "seat0")
    let output = router.tree.createNode(.output, name: "out", frame: Rect(0, 0, 1920, 1080))
    let client = router.addClient(name: "client")
    seat.setBound([.pointer, .keyboard, .touch], for: client, true)
    let window = router.tree.createNode(
        .toplevel, name: "window", client: client, parent: output,
        frame: Rect(0, 0, 1920, 1080))
    _ = seat.setKeyboardFocus(window)
    var held = Held()
    var formatter = DebugEventsFormatter()
    var names: [DeviceID: (String, String)] = [:]
    var live: [InputEvent] = []
    var pending = ""

    var lastEvent = monotonicMicroseconds()
    var pfd = pollfd(fd: source.fd, events: Int16(POLLIN), revents: 0)
    while true {
        do {
            try source.dispatch { event, description in
                if case .deviceAdded = event.kind,
                    let info = source.currentDevices.first(where: { $0.id == event.device })
                {
                    names[event.device] = (info.sysname, info.name)
                }
                let (sysname, name) = names[event.device] ?? ("event?", "?")
                if let line = formatter.line(event, sysname: sysname, name: name) { pending += line + "\n" }
                live.append(event)
                seat.handle(event, description: description)
                for delivery in router.queue.deliveries { held.observe(delivery) }
                router.queue.removeAll()
                lastEvent = monotonicMicroseconds()
            }
        } catch {
            fail("\(error)")
        }
        // One write per batch: a slow VM must not fall behind the kernel's event buffer.
        if !pending.isEmpty {
            pending.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
            pending.removeAll(keepingCapacity: true)
        }
        if stopRequested != 0 { break }
        if let idle = options.idle, Double(monotonicMicroseconds() - lastEvent) / 1e6 >= idle { break }
        _ = poll(&pfd, 1, 100)
    }
    note("# core: \(held.description); seat touch points \(seat.activeTouchCount)")
    var status: Int32 = 0
    if options.expectClean {
        let clean = held.clean && seat.activeTouchCount == 0
        note("# \(clean ? "CLEAN" : "STUCK"): nothing held after the devices went away")
        if !clean { status = 1 }
    }
    if let recorder = source.recorder {
        do { try recorder.write() } catch { fail("\(error)") }
        status = max(status, checkRecording(recorder.path, live: live))
    }
    return status
}

/// The recording must read back as the events that were printed (at debug-events
/// precision), device by device: across devices the reader orders by time, and device
/// added/removed carry none in the format, so only each device's own order is kept.
func checkRecording(_ path: String, live: [InputEvent]) -> Int32 {
    let recording: Recording
    do { recording = try RecordingReader.read(path: path) } catch {
        note("# recording \(path): \(error)")
        return 1
    }
    /// Per device: live devices in order of appearance, which is the order the recorder
    /// wrote them in, and the reader's ids are those file indices.
    func text(_ events: [InputEvent], index: (InputEvent) -> Int) -> [[String]] {
        var out: [[String]] = []
        for event in events {
            let i = index(event)
            while out.count <= i { out.append([]) }
            out[i].append(
                DebugEventsFormatter.payload(event.kind).map { "\($0.0) \($0.1)" }
                    ?? EventText.describe(event.kind))
        }
        return out
    }
    var order: [DeviceID: Int] = [:]
    let a = text(live) { event in
        if let i = order[event.device] { return i }
        order[event.device] = order.count
        return order.count - 1
    }
    let b = text(recording.events) { Int($0.device.index) }
    if a == b {
        note("# recording \(path): \(recording.events.count) events, read back identical")
        return 0
    }
    for device in 0..<max(a.count, b.count) {
        let x = device < a.count ? a[device] : []
        let y = device < b.count ? b[device] : []
        guard x != y else { continue }
        let index = (0..<min(x.count, y.count)).first { x[$0] != y[$0] } ?? min(x.count, y.count)
        note(
            "# recording \(path): device \(device): \(x.count) live vs \(y.count) read back; first difference at "
                + "\(index + 1): \(index < x.count ? x[index] : "-") / \(index < y.count ? y[index] : "-")")
    }
    return 1
}

nonisolated(unsafe) var stopRequested: sig_atomic_t = 0
_ = signal(SIGTERM) { _ in stopRequested = 1 }
_ = signal(SIGINT) { _ in stopRequested = 1 }

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--compare" {
    guard arguments.count == 3 else { fail("--compare EXPECTED ACTUAL") }
    exit(compare(arguments[1], arguments[2]))
}
exit(run(parse(arguments)))
