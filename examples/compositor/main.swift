// ir-compositor: the small compositor that shows how InputRouter is embedded.
//
// Read it top to bottom. It has four parts, in the order a frame of input travels:
//   1. options: what the user asked for (`--help` lists them);
//   2. the server: a WaylandServer (the surface tree, the seat, the protocol) with
//      server-side decorations for the clients that ask for them (xdg-decoration);
//   3. input: one source among libinput (real devices), replay (a `libinput record`
//      file, or a synthetic log generated from a seed and played the same way) and, nested,
//      the parent session's seat; every source hands InputEvent values
//      to `server.handle`, and nothing after it knows which source it was;
//   4. the loop: clients are started once the socket is ready, the server dispatches, and
//      at the end the pictures are written.
import Foundation
import InputRouter
import InputRouterKeyboard
import InputRouterLibinput
import InputRouterNested
import InputRouterRecording
import InputRouterRendering
import InputRouterWayland

// MARK: 1. Options

struct Options {
    var backend = "headless"
    var inputs: [String] = []
    /// The seat of each input (`--seat NAME` before `--input`; "seat0" by default).
    var inputSeats: [String] = []
    var socket: String?
    var width: Int32 = 1280, height: Int32 = 720
    /// From --output, in order: side by side, left to right.
    var outputs: [OutputConfiguration] = []
    var layout: String?
    var keymapFile: String?
    var recordPath: String?
    var exitAfterReplay = false
    /// How long --exit-after-replay waits for clients to answer its ping.
    var settleTimeout = 10.0
    var tracePath: String?
    /// --flight-recorder: where bundles go (docs/bug-reports.md), and the window kept.
    var flightRecorderDirectory: String?
    var flightWindow = 10.0
    var screenshotPath: String?
    var hitMapPath: String?
    var clients: [String] = []
    var speed = 1.0
    /// For long runs (`make soak`): replay the inputs again and again, a stats line every so
    /// often, the invariant checker on every delivery (Health.swift).
    var loopInputs = false
    var statsEvery: Double?
    var checkInvariants = false
}

let usage = """
    usage: ir-compositor [options] [-- command args...]

      --backend headless        an output of --size with no window (the default)
      --backend nested          a window of the session it runs in (WAYLAND_DISPLAY); the output
                                follows the window's size; input from the parent's seat
      --input parent            (nested, the default there) the parent session's pointer, keyboard, touch
      --input libinput          real devices: the udev seat through libseat
      --input replay:FILE       a `libinput record` file (repeat the flag to play several in turn;
                                all are read before any client starts). Each plays to its end: its
                                last frame, or the quiet time `libinput record --autorestart` noted
                                after it; a later file's event times go on from there
      --input synthetic:SEED[,devices=KIND+KIND...][,frames=N]
                                a synthetic log, generated from SEED and replayed exactly as
                                replay:FILE of `ir-synthetic SEED` (same --speed, same trace).
                                KIND: keyboard, mouse, touchscreen, switches (default all four,
                                in that order); N input frames 1 to 40 ms apart (default 200)
      --seat NAME               the inputs after it belong to seat NAME (its own wl_seat, pointer,
                                keyboard focus and grabs; libinput: the devices udev assigns to NAME)
      --speed N                 replay at N times the recorded speed (default 1; 0: as fast as possible)
      --socket NAME             listen on $XDG_RUNTIME_DIR/NAME (default: the first free wayland-N)
      --size WxH                the output's size (default 1280x720): one output
      --output WxH[@SCALE]      an output of that logical size (repeatable: side by side, left
                                to right, top edges at y = 0); instead of --size
      --layout LAYOUT           xkb layout, e.g. de or us,ru (default: XKB_DEFAULT_* or us)
      --keymap FILE             an xkb keymap file instead of a layout
      --record FILE             with --input libinput: write what the devices did as a recording
      --exit-after-replay       quit once every replay has been played to its end and every client
                                showed it handled it: answered a ping sent then (a client
                                without xdg_wm_base: read everything), or disconnected
      --settle-timeout SECONDS  how long --exit-after-replay waits for that (default 10); then it
                                names the clients that did not answer and exits with status 1.
                                A replayed new device waits as long for every client to answer
                                (and so to bind it) before its first events
      --trace FILE              write every routing decision, one line each (docs/trace.md)
      --flight-recorder DIR     keep the last --flight-window seconds (default 10) of input and
                                the scene when they began; on Super+Shift+Print or SIGUSR1 write
                                them with the trace as a bundle DIR/bundle-N for `ir-replay`
                                (docs/bug-reports.md)
      --screenshot FILE.png     on exit, write what the output shows
      --hit-map FILE.png        on exit, write which surface each pixel's pointer events reach,
                                with a legend (docs/rendering.md)
      --loop-inputs             once every replay ended, unplug each device they added, then play
                                them all again (their devices plugged in anew), until stopped
      --stats-every SECONDS     every SECONDS, a line on standard error: `ir-compositor: stats` with the
                                clients, their live protocol objects, those of disconnected clients,
                                the surface tree's nodes (docs/soak.md)
      --check-invariants        every delivery through the core's invariant checker (violations on
                                standard error); with --loop-inputs, after each unplug nothing may be
                                held that a client or the seat sees: keys, buttons, touch points
      --client "COMMAND"        start a client once the socket is ready (repeatable), each once the
                                one before it mapped a window or exited (or after 3 s); the replay
                                starts once every client still running mapped one (or 5 s after
                                the last started). Its stdout is line-buffered (stdbuf -oL,
                                PYTHONUNBUFFERED=1) and printed with its number in front, to the
                                last line before the compositor exits (also on SIGINT, SIGTERM)
      -- command args...        the same, for one command given as separate arguments
      --help                    this text
    """

/// One line of output, written at once (also into a pipe: tests read it as it comes) and
/// whole (clients' lines are relayed from the pipes' threads).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("ir-compositor: \(message)\n".utf8))
    exit(2)
}

func parseOptions(_ arguments: [String]) -> Options {
    var o = Options()
    var args = arguments[...]
    var seatName = "seat0"
    func value(_ flag: String) -> String {
        guard let v = args.popFirst() else { fail("\(flag) needs a value") }
        return v
    }
    while let a = args.popFirst() {
        switch a {
        case "--help", "-h":
            say(usage)
            exit(0)
        case "--backend":
            o.backend = value(a)
            guard o.backend == "headless" || o.backend == "nested" else {
                fail("unknown backend \(o.backend) (headless, nested)")
            }
        case "--input":
            o.inputs.append(value(a))
            o.inputSeats.append(seatName)
        case "--seat": seatName = value(a)
        case "--speed":
            guard let s = Double(value(a)), s >= 0, s.isFinite else { fail("--speed needs a number ≥ 0") }
            o.speed = s
        case "--socket": o.socket = value(a)
        case "--size":
            let parts = value(a).split(separator: "x").compactMap { Int32($0) }
            guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { fail("--size wants WxH, e.g. 1280x720") }
            (o.width, o.height) = (parts[0], parts[1])
        case "--output":
            let spec = value(a).split(separator: "@", maxSplits: 1)
            let parts = spec[0].split(separator: "x").compactMap { Int32($0) }
            let scale = spec.count == 2 ? Int32(spec[1]) : 1
            guard parts.count == 2, parts[0] > 0, parts[1] > 0, let scale, scale > 0 else {
                fail("--output wants WxH or WxH@SCALE, e.g. 800x600 or 1920x1080@2")
            }
            o.outputs.append(OutputConfiguration(width: parts[0], height: parts[1], scale: scale))
        case "--layout": o.layout = value(a)
        case "--keymap": o.keymapFile = value(a)
        case "--record": o.recordPath = value(a)
        case "--exit-after-replay": o.exitAfterReplay = true
        case "--settle-timeout":
            guard let s = Double(value(a)), s > 0 else { fail("--settle-timeout needs a number of seconds > 0") }
            o.settleTimeout = s
        case "--trace": o.tracePath = value(a)
        case "--flight-recorder": o.flightRecorderDirectory = value(a)
        case "--flight-window":
            guard let s = Double(value(a)), s > 0 else { fail("--flight-window needs a number of seconds > 0") }
            o.flightWindow = s
        case "--screenshot": o.screenshotPath = value(a)
        case "--hit-map": o.hitMapPath = value(a)
        case "--client": o.clients.append(value(a))
        case "--loop-inputs": o.loopInputs = true
        case "--stats-every":
            guard let s = Double(value(a)), s > 0 else { fail("--stats-every needs a number of seconds > 0") }
            o.statsEvery = s
        case "--check-invariants": o.checkInvariants = true
        case "--":
            o.clients.append(
                args.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " "))
            args = []
        default: fail("unknown option \(a) (see --help)")
        }
    }
    if o.recordPath != nil && o.inputs.filter({ $0 == "libinput" }).count > 1 {
        fail("--record writes one libinput input; give --input libinput once with it")
    }
    return o
}

// A parent may start it with signals blocked (Foundation's Process, run from a thread that
// blocks them, passes its mask on): SIGINT and SIGTERM would never reach the handlers
// below, and its clients would inherit the mask too.
var noSignals = sigset_t()
sigemptyset(&noSignals)
pthread_sigmask(SIG_SETMASK, &noSignals, nil)
let options = parseOptions(Array(CommandLine.arguments.dropFirst()))

/// Whether an `--input` is played from a log: a recording file or a synthetic log.
func isReplay(_ input: String) -> Bool { input.hasPrefix("replay:") || input.hasPrefix("synthetic:") }

/// A `--input replay:FILE` or `synthetic:SPEC`, read and ready to play on the seat named `seat`.
struct LoadedReplay {
    let path: String
    let seat: String
    let warnings: [RecordingWarning]
    let replayer: Replayer
}
/// Every replay file, read before anything starts: one that cannot be read is reported
/// (file, line and reason) while there is no client yet to leave behind. A synthetic log
/// is generated as text and read by the same reader, so it plays exactly as its file would.
let loadedReplays: [LoadedReplay] = {
    let speed: Replayer.Speed =
        options.speed == 0 ? .asFastAsPossible : (options.speed == 1 ? .recorded : .multiple(options.speed))
    var deviceBase: UInt32 = 100 // each file's devices get ids of their own
    var loaded: [LoadedReplay] = []
    for (input, seat) in zip(options.inputs, options.inputSeats) where isReplay(input) {
        let path = input.hasPrefix("replay:") ? String(input.dropFirst(7)) : input
        do {
            let recording: Recording
            if input.hasPrefix("synthetic:") {
                let request: SyntheticRequest
                do { request = try SyntheticRequest(parsing: String(input.dropFirst(10))) } catch {
                    fail("\(input): \(error)")
                }
                recording = try RecordingReader.parse(
                    request.generator.generate().yaml, file: input, deviceIDBase: deviceBase)
            } else {
                recording = try RecordingReader.read(path: path, deviceIDBase: deviceBase)
            }
            deviceBase += UInt32(recording.devices.count)
            loaded.append(
                LoadedReplay(
                    path: path, seat: seat, warnings: recording.warnings,
                    replayer: try Replayer(recording, speed: speed)))
        } catch {
            fail("\(error)")
        }
    }
    return loaded
}()
// The session we may be nested in: read before our own socket replaces WAYLAND_DISPLAY.
let parentDisplay = ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"]

// MARK: 2. The server

var configuration = WaylandServer.Configuration()
configuration.outputWidth = options.width
configuration.outputHeight = options.height
if let first = options.outputs.first {
    configuration.outputs = options.outputs
    configuration.outputWidth = first.width
    configuration.outputHeight = first.height
}
// The library's standalone policy (Sources/InputRouterWayland/Policies): cascade placement,
// focus on click, title bars for the clients that ask, frame callbacks at 60 Hz.
configuration.policy = .standalone(decorations: DecorationStyle(titleHeight: 24))
// Nested, clients draw at the pace of the parent's frames, not of a timer.
if options.backend == "nested" { configuration.policy.framePacing = .onPresent }
if let file = options.keymapFile {
    configuration.keyboard.keymap = .file(file)
} else if let layout = options.layout {
    configuration.keyboard.keymap = .names(RuleNames(layout: layout))
}

let server: WaylandServer
do { server = try WaylandServer(configuration: configuration) } catch { fail("\(error)") }
let socket: String
do { socket = try server.addSocket(options.socket) } catch { fail("\(error)") }
setenv("WAYLAND_DISPLAY", socket, 1)
let outputList = server.outputs.map {
    "\($0.name) \($0.frame.width)x\($0.frame.height)@\($0.scale) at \($0.frame.x),\($0.frame.y)"
}
say(
    "ir-compositor: listening on \(socket), output\(outputList.count == 1 ? "" : "s") \(outputList.joined(separator: ", "))"
)

// Every decision the router makes can be written out, as the trace format says.
var traceFile: FileHandle?
// The flight recorder cuts its bundle's trace from this file, so it needs one.
if let dir = options.flightRecorderDirectory {
    do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
        fail("--flight-recorder: \(error)")
    }
}
let tracePath = options.tracePath ?? options.flightRecorderDirectory.map { $0 + "/live-trace.txt" }
if let path = tracePath {
    guard FileManager.default.createFile(atPath: path, contents: nil), let f = FileHandle(forWritingAtPath: path) else {
        fail("cannot write \(path)")
    }
    traceFile = f
}
// The invariant checker watches every delivery, as the trace does (Health.swift).
let health = options.checkInvariants ? HealthChecks(server: server) : nil
if traceFile != nil || health != nil {
    server.deliveryObserver = { delivery, queue in
        health?.deliver(delivery, from: queue)
        if let f = traceFile {
            f.write(Data((TraceSink.line(delivery, queue: queue, router: server.router) + "\n").utf8))
        }
    }
}

// The flight recorder: what the first seat is given, recorded before it is routed (the
// replay and libinput paths below), and a bundle on Super+Shift+Print or SIGUSR1, written
// from the loop (a binding runs inside routing, a signal handler can do nothing).
let flightRecorder = options.flightRecorderDirectory.map { _ in
    FlightRecorder(router: server.router, window: UInt64(options.flightWindow * 1_000_000))
}
var bundleRequested = false
var bundlesWritten = 0
if let recorder = flightRecorder, let file = traceFile {
    // The snapshot names the keymap, so ir-replay builds the same one.
    if let file = options.keymapFile {
        server.seat.keymapNames = ["file": file]
    } else if let layout = options.layout {
        server.seat.keymapNames = ["layout": layout]
    }
    recorder.traceMark = { file.offsetInFile }
    recorder.restart()
    // Print is XK_Print (0xff61): matched at level 0, so Shift's Sys_Req still counts.
    server.seat.addBinding(
        KeyBinding(keysym: 0xff61, modifiers: [.superKey, .shift]), name: "flight-recorder"
    ) { bundleRequested = true }
}
@MainActor func writeFlightBundle() {
    guard let recorder = flightRecorder, let dir = options.flightRecorderDirectory, let path = tracePath else { return }
    bundlesWritten += 1
    let bundle = dir + "/bundle-\(bundlesWritten)"
    do {
        let trace = try Data(contentsOf: URL(fileURLWithPath: path)).dropFirst(Int(recorder.startTraceMark))
        try recorder.writeBundle(to: bundle, trace: String(decoding: trace, as: UTF8.self))
        say("ir-compositor: wrote \(bundle) (\(recorder.events.count) events): ir-replay \(bundle)")
    } catch {
        say("ir-compositor: flight recorder: \(error)")
    }
}

// What the output shows, drawn by the compositor: decorations are compositor nodes, and
// client surfaces show the pixels `pixels` copies from each commit (the pixel policy).
let pixels = SurfacePixels(server: server)
// While the session is locked (ext-session-lock: swaylock), the lock node is drawn opaque
// black over everything, and only the lock surfaces show on it. The compositor has no key
// bindings, so none is marked to run while locked (`addBinding(_:whileLocked:action:)`):
// quitting it is the way out of a lock whose locker died.
let renderer = OutputRenderer(
    compositorColor: { node -> UInt32? in
        if node == server.sessionLockNode { return 0xff00_0000 }
        return switch server.decorationPart(of: node) {
        case .titleBar(_, let active)?: active ? 0xff3a_6ea5 : 0xff5a_5f66
        case .closeButton?: 0xffc0_392b
        case nil: nil
        }
    },
    title: { node in
        if case .titleBar(let title, _)? = server.decorationPart(of: node) { return title }
        return nil
    })

// MARK: 3. Input

/// Plays recordings one after the other on the event loop's clock, each until its end.
@MainActor final class ReplayInput {
    var pending: [(replay: LoadedReplay, seat: Seat)]
    var seat: Seat
    var replayer: Replayer?
    var finished = false
    /// After a new device: the ping that shows every client has seen the new capabilities
    /// (and bound the device), and until when the replay waits for it.
    var bindBarrier: (barrier: ClientBarrier, deadline: Date)?
    /// The times clients see: the first recording's as recorded; each later one's moved to
    /// go on from where the one before it ended (its own start again at about 0), so a
    /// client never sees time go back (a double click across two files, a key repeat's
    /// timing, an app's own velocity tracking).
    var timeShift: (from: UInt64, to: UInt64)?
    /// Where the next recording's first event lands on those times.
    var nextStart: UInt64?

    /// Every file, for --loop-inputs to play again; the devices they added and not removed.
    let files: [(replay: LoadedReplay, seat: Seat)]
    var plugged: [(device: DeviceID, seat: Seat)] = []
    /// Times --loop-inputs started the files again, and every event played (the stats line).
    var loops = 0
    var eventsPlayed = 0

    init(files: [(replay: LoadedReplay, seat: Seat)]) {
        pending = files
        self.files = files
        seat = server.seat
    }

    /// --loop-inputs: every device the replays added is unplugged (what a client or the seat
    /// holds of it must be released), then the files play again from the first.
    func unplugAllAndLoop() {
        let time = nextStart ?? 0
        for (device, seat) in plugged {
            server.handle(InputEvent(time: time, device: device, .deviceRemoved), seat: seat)
        }
        plugged = []
        health?.checkNothingHeld()
        pending = files
        loops += 1
    }

    static func now() -> UInt64 { UInt64(DispatchTime.now().uptimeNanoseconds / 1000) }

    /// Starts the next file; false when there is none left.
    func startNext() -> Bool {
        if pending.isEmpty, options.loopInputs { unplugAllAndLoop() }
        guard let (replay, seat) = pending.first else {
            finished = true
            return false
        }
        pending.removeFirst()
        self.seat = seat
        if loops == 0 { for w in replay.warnings { say("ir-compositor: \(w)") } }
        var r = replay.replayer
        r.start(at: Self.now())
        replayer = r
        timeShift = nil
        if let start = nextStart, let first = r.events.first?.time { timeShift = (first, start) }
        if loops == 0 { say("ir-compositor: replaying \(replay.path) (\(r.events.count) events)") }
        return true
    }

    /// A recorded time as clients see it (see `timeShift`).
    func clientTime(_ recorded: UInt64) -> UInt64 {
        guard let (from, to) = timeShift else { return recorded }
        let (time, overflow) = to.addingReportingOverflow(recorded > from ? recorded - from : 0)
        return overflow ? UInt64.max : time
    }

    /// Feeds what is due; returns the milliseconds until the next event (or the
    /// recording's end), or nil when every recording has ended.
    func step() -> Int32? {
        if let (barrier, deadline) = bindBarrier {
            if !barrier.isPassed && Date() < deadline { return 5 }
            for w in barrier.waiting {
                say("ir-compositor: \(clientName(pid: w.pid)), \(w), did not answer after a new device; replaying on")
            }
            bindBarrier = nil
        }
        if replayer == nil, !startNext() { return nil }
        while var event = replayer!.nextDue(now: Self.now()) {
            event.time = clientTime(event.time)
            if seat === server.seat { flightRecorder?.record(event) }
            eventsPlayed += 1
            // A new device changes the seat's capabilities: its first events wait until every
            // client answered a ping sent after them, so each could bind it first, as it would
            // have with a real hotplug (a fixed 200 ms was too short on a loaded machine).
            if replayEvent(event, description: replayer!.description(of: event), seat: seat) {
                plugged.append((event.device, seat))
                bindBarrier = (server.barrier(), Date().addingTimeInterval(options.settleTimeout))
                return 1
            }
        }
        if replayer!.isFinished {
            // The recording goes on after its last event until its end (the quiet time the
            // user waited): what clients do then, a drag finished or a tooltip shown, is part
            // of it, and --exit-after-replay must not cut it off.
            let now = Self.now()
            if !replayer!.isOver(now: now) { return Int32(clamping: (replayer!.endDueTime() - now) / 1000 + 1) }
            nextStart = clientTime(replayer!.endTime)
            replayer = nil
            return startNext() ? 1 : nil
        }
        guard let delay = replayer!.delay(now: Self.now()) else { return 1 }
        return Int32(clamping: (delay + 999) / 1000)
    }
}

/// One recorded event into the server, to its protocol events queued on the clients'
/// sockets: the span benchmarks/tinywl-bench counts (callgrind's --toggle-collect on this
/// function, as tinywl's `replay_event`). Never inlined, and its result is read after the
/// call so the call is not a tail jump, which callgrind would not count inside it.
/// Returns whether the event added a device.
@MainActor @inline(never) func replayEvent(_ event: InputEvent, description: DeviceDescription?, seat: Seat) -> Bool {
    server.handle(event, description: description, seat: seat)
    if case .deviceAdded = event.kind { return true }
    return false
}

// Each seat named by --seat, created once, in the order first named.
@MainActor func seat(named name: String) -> Seat {
    if let s = server.seat(named: name) { return s }
    do { return try server.addSeat(name: name) } catch { fail("seat \(name): \(error)") }
}
let replay = loadedReplays.isEmpty ? nil : ReplayInput(files: loadedReplays.map { ($0, seat(named: $0.seat)) })
/// One source per `--input libinput`, each feeding its own seat. All are kept: a source
/// released ends its fd watches, and its seat's devices go silent.
var liveSources: [LibinputSource] = []

var running = true

// Nested: the window is the output, the parent's seat an input source, and the parent's
// frame callbacks set the pace: on each, draw, show, and let clients draw their next frame.
var nested: NestedBackend?
if options.backend == "nested" {
    guard let parentDisplay else { fail("--backend nested needs WAYLAND_DISPLAY: run it inside a Wayland session") }
    // The parent's window is the one output, sized by the parent.
    guard options.outputs.count <= 1 else { fail("--backend nested shows one output: give --output at most once") }
    do { nested = try NestedBackend(server: server, display: parentDisplay) } catch { fail("nested: \(error)") }
    let window = nested!
    window.onResize = { w, h in server.resizeOutput(width: w, height: h) }
    window.onFrame = {
        let frame = renderer.render(server, pixels: pixels)
        window.present(pixels: frame.pixels, width: frame.width, height: frame.height)
        server.sendFrameCallbacks()
    }
    window.onClose = { running = false }
}

// Real devices. `start` puts libinput's fd (and libseat's) on the server's loop for as
// long as the source lives, and hands over at once the devices already plugged in, so a
// client that connects sees the seat's capabilities before anyone touches a key.
for (input, seatName) in zip(options.inputs, options.inputSeats) where !isReplay(input) && input != "parent" {
    guard input == "libinput" else { fail("unknown input \(input) (libinput, replay:FILE, synthetic:SEED, parent)") }
    do {
        // libinput's seat assignment picks the devices (udev's ID_SEAT); the session
        // (libseat) stays the one this process runs in.
        let target = seat(named: seatName)
        let source = try LibinputSource(devices: .udev(seat: seatName), access: .libseat(seat: "seat0"))
        if let path = options.recordPath { source.recorder = LiveRecorder(path: path) }
        // A VT switch: once the source has routed what the devices did (releases, touch
        // cancels, removals; on return the devices again), the keyboard and the pointer
        // leave their surfaces, or come back.
        source.sessionChanged = { active in
            target.setSessionActive(active, time: UInt64(DispatchTime.now().uptimeNanoseconds / 1000))
            server.sendDeliveries()
            let held = health.map { "; clients hold \($0.checker.held)" } ?? ""
            say(
                "ir-compositor: session \(active ? "back, seat \(seatName) enabled" : "away, seat \(seatName) disabled")\(held)"
            )
        }
        try source.start(watching: server.watchReadable) { event, description in
            if target === server.seat { flightRecorder?.record(event) }
            server.handle(event, description: description, seat: target)
        }
        liveSources.append(source)
    } catch {
        fail("libinput: \(error)")
    }
}

// MARK: 4. Clients and the loop

/// A pipe's bytes as whole lines: a read may end inside a line, whose rest comes with
/// the next read. Used only by one pipe's reader thread.
final class LineSplitter: @unchecked Sendable {
    private var partial = Data()
    func complete(adding data: Data) -> [Substring] {
        partial.append(data)
        guard let end = partial.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
        let text = String(decoding: partial[..<end], as: UTF8.self)
        partial = Data(partial[(end + 1)...])
        return text.split(separator: "\n", omittingEmptySubsequences: false)
    }
}

/// Runs each client with its standard output line-buffered: into a pipe, C's stdio (and
/// so wev, GLib's g_print) and Python buffer it by the block, and a client stopped at the
/// exit loses what it had not yet written (libstdbuf, which `stdbuf -oL` preloads, sets
/// stdio's buffering in every program the client's shell starts).
let lineBufferingLauncher =
    FileManager.default.isExecutableFile(atPath: "/usr/bin/stdbuf") ? ["/usr/bin/stdbuf", "-oL"] : []
setenv("PYTHONUNBUFFERED", "1", 0) // Python's own buffer; a value the user set stays

/// A client's shell, started with posix_spawn rather than Foundation's `Process`, which
/// closes in the child each descriptor it finds open: under valgrind (make tinywl-bench)
/// it finds valgrind's own, above the limit valgrind reports, so every client failed to
/// start (EBADF) and the replay met an empty scene. Descriptors the compositor opens are
/// close-on-exec (libwayland's; the pipe below), so the child inherits only the pipe.
final class SpawnedShell {
    private(set) var processIdentifier: Int32 = 0
    private var exited = false

    /// Starts `arguments` (the program's path first) with standard output and error into
    /// `output`; returns the errno of a failure.
    func run(_ arguments: [String], output: Int32) -> Int32? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, output, 2)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        guard status == 0 else { return status }
        processIdentifier = pid
        return nil
    }

    /// Started and not yet exited (an exited shell is reaped here).
    var isRunning: Bool {
        guard processIdentifier > 0, !exited else { return false }
        var status: Int32 = 0
        if waitpid(processIdentifier, &status, WNOHANG) == processIdentifier { exited = true }
        return !exited
    }
}

/// A client started by the compositor, its output printed line by line with its number.
final class Client {
    let process = SpawnedShell()
    let number: Int
    /// Whether one of its processes mapped a window (`noteMappedClients`).
    var mapped = false
    /// Signalled once its output reached its end: every line it wrote has been printed.
    private let outputEnded = DispatchSemaphore(value: 0)
    init(number: Int, command: String) {
        self.number = number
        let shell = lineBufferingLauncher + ["/bin/sh", "-c", command]
        var ends: [Int32] = [-1, -1]
        var failure: Int32? = pipe(&ends) != 0 ? errno : nil
        for end in ends where end >= 0 { _ = fcntl(end, F_SETFD, FD_CLOEXEC) } // not the next client's
        if failure == nil { failure = process.run(shell, output: ends[1]) }
        if ends[1] >= 0 { close(ends[1]) } // the child's copy is its standard output
        if let failure {
            // Counted as exited: the replay does not wait for it, and the others run on.
            say("ir-compositor: client \(number): cannot start \(command): \(String(cString: strerror(failure)))")
            if ends[0] >= 0 { close(ends[0]) }
            outputEnded.signal()
            return
        }
        // A thread of its own that reads until the end of the pipe (a readability handler
        // cannot be removed from inside itself: libdispatch crashed at the end of the output).
        let reader = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        let ended = outputEnded
        Thread.detachNewThread {
            let lines = LineSplitter()
            while case let data = reader.availableData, !data.isEmpty {
                for line in lines.complete(adding: data) { say("client \(number) | \(line)") }
            }
            // The end: the client and whatever it started closed the pipe.
            for line in lines.complete(adding: Data("\n".utf8)) where !line.isEmpty {
                say("client \(number) | \(line)")
            }
            ended.signal()
        }
    }

    /// Whether it started and its shell has not exited: one that exited is not waited for.
    var isRunning: Bool { process.processIdentifier > 0 && process.isRunning }

    /// Mapped a window or exited: the next client may start, and the replay begin.
    var isSettled: Bool { mapped || !isRunning }

    /// Its processes: the shell and every process under it. A `sh -c` may fork the
    /// program instead of becoming it, and a SIGTERM to the shell alone would leave the
    /// program running after the compositor (wev then spins on its closed socket).
    func processTree() -> [Int32] {
        guard process.processIdentifier > 0 else { return [] } // never started: no pid to signal
        var children: [Int32: [Int32]] = [:]
        for pid in (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap({ Int32($0) }) ?? [] {
            if let parent = parentPID(pid) { children[parent, default: []].append(pid) }
        }
        var tree = [process.processIdentifier]
        var i = 0
        while i < tree.count {
            tree += children[tree[i]] ?? []
            i += 1
        }
        return tree
    }

    /// Asks the shell and everything it started to stop.
    func terminate() {
        guard process.isRunning else { return }
        for pid in processTree().reversed() { kill(pid, SIGTERM) }
    }

    /// Waits until `deadline` for the rest of its output (once asked to stop); then kills
    /// what is left of it (a process that ignores SIGTERM would outlive the compositor) and
    /// reads what it wrote before it was killed, still in the pipe.
    func waitForOutput(until deadline: DispatchTime) {
        guard outputEnded.wait(timeout: deadline) == .timedOut else { return }
        if isRunning { for pid in processTree().reversed() { kill(pid, SIGKILL) } }
        // A process it left behind may hold the pipe open for good: not longer than this.
        _ = outputEnded.wait(timeout: .now() + 0.5)
    }
}

var clients: [Client] = []

/// The parent of process `pid` (/proc/PID/stat: "pid (comm) state ppid ..."; comm may
/// hold spaces, not ')').
func parentPID(_ pid: Int32) -> Int32? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    return fields.count > 1 ? Int32(fields[1]) : nil
}

/// The client whose process tree holds `pid`: its shell is `pid` or one of its ancestors.
@MainActor func client(owning pid: Int32) -> Client? {
    var ancestor = pid
    while ancestor > 1 {
        if let c = clients.first(where: { $0.process.processIdentifier == ancestor }) { return c }
        guard let parent = parentPID(ancestor) else { return nil }
        ancestor = parent
    }
    return nil
}

/// "client N" for the client whose process tree holds `pid`.
@MainActor func clientName(pid: Int32) -> String {
    client(owning: pid).map { "client \($0.number)" } ?? "a client"
}

/// Marks the clients with a window mapped now: those the toplevels' processes belong to.
@MainActor func noteMappedClients() {
    for (node, _) in server.mappedToplevels {
        if let pid = server.clientPID(ofToplevel: node) { client(owning: pid)?.mapped = true }
    }
}

/// Clients start one after another, each once the one before it mapped a window or exited
/// (or after 3 s): windows are then placed in the order given, and a run is repeatable.
var lastStart = Date.distantPast
server.schedule(afterMS: 1) {
    guard clients.count < options.clients.count else { return nil }
    noteMappedClients()
    if let previous = clients.last, !previous.isSettled, Date().timeIntervalSince(lastStart) <= 3 { return 20 }
    clients.append(Client(number: clients.count + 1, command: options.clients[clients.count]))
    lastStart = Date()
    return 20
}

// Ctrl-C or a SIGTERM ends the loop, and the exit below stops the clients and prints what
// they wrote (an exit() here left them running); a second one exits at once.
signal(SIGINT) { _ in
    if !running { _exit(130) }
    running = false
}
signal(SIGTERM) { _ in
    if !running { _exit(143) }
    running = false
}

/// Replay starts once every client has started and each one still running has mapped a
/// window (or 5 s after the last one started), so that what is replayed meets the scene
/// the user meant. A client that exited is not waited for.
if let replay {
    var replaying = false
    server.schedule(afterMS: 20) {
        if !replaying {
            noteMappedClients()
            guard clients.count == options.clients.count,
                clients.allSatisfy(\.isSettled) || Date().timeIntervalSince(lastStart) > 5
            else { return 20 }
            replaying = true
        }
        if let next = replay.step() { return next }
        if options.exitAfterReplay { exitOnceClientsSettled() }
        return nil
    }
}

/// The end of --exit-after-replay: a ping to every client after the last replayed event.
/// A client answers from its event loop, so by its pong it has handled every event (and
/// printed what it prints); a machine under load only makes this take longer. Clients that
/// never answer are named after --settle-timeout, and the run fails.
var exitStatus: Int32 = 0
@MainActor func exitOnceClientsSettled() {
    let barrier = server.barrier()
    let deadline = Date().addingTimeInterval(options.settleTimeout)
    server.schedule(afterMS: 1) {
        if barrier.isPassed {
            running = false
            return nil
        }
        guard Date() >= deadline else { return 5 }
        for w in barrier.waiting {
            say(
                "ir-compositor: \(clientName(pid: w.pid)), \(w), did not settle within \(options.settleTimeout) s (--settle-timeout)"
            )
        }
        exitStatus = 1
        running = false
        return nil
    }
}

signal(SIGUSR1) { _ in bundleRequested = true }

// Out of the event path: a timer of its own (Health.swift).
if let every = options.statsEvery {
    let start = Date()
    server.schedule(afterMS: 1) {
        reportStats(server: server, health: health, since: start, input: replay.map { ($0.eventsPlayed, $0.loops) })
        return Int32(every * 1000)
    }
}

while running {
    server.dispatch(timeoutMS: 100)
    if bundleRequested {
        bundleRequested = false
        writeFlightBundle()
    }
}

// The pictures.
if let path = options.screenshotPath {
    do {
        try PNGWriter.write(renderer.render(server, pixels: pixels), to: path)
        say("ir-compositor: wrote \(path)")
    } catch { say("ir-compositor: \(error)") }
}
if let path = options.hitMapPath {
    do {
        try HitMap(server).writePNG(to: path)
        say("ir-compositor: wrote \(path)")
    } catch { say("ir-compositor: \(error)") }
}

if let recorder = liveSources.first?.recorder {
    do { try recorder.write() } catch { say("ir-compositor: \(error)") }
}
traceFile?.closeFile()
// Every line a client wrote is printed before "done": each is stopped and its output read
// to the end (for at most 2 s, should a child of its own keep the pipe open).
let outputDeadline = DispatchTime.now() + 2
for c in clients { c.terminate() }
for c in clients { c.waitForOutput(until: outputDeadline) }
say("ir-compositor: done")
exit(exitStatus)
