// ir-compositor's harness around the replay, with real clients: when clients start and the
// replay begins, the replay files read before any client starts, a recording played to its
// end, event times across several files, and every line a client printed, however it
// buffers, on the compositor's output before it exits. Expected values come from the
// recordings' text (Tests/RecordingTests/Fixtures) and the protocol, not from the compositor.
import Foundation
import Testing

@Suite(.serialized) struct CompositorHarnessTests {
    static let fixtures = recordingFixtures
    /// What a python3 GTK client needs to run on the compositor's socket alone.
    static let gtkEnvironment: [String: String?] = [
        "GDK_BACKEND": "wayland", "GTK_A11Y": "none", "NO_AT_BRIDGE": "1",
        "GSETTINGS_BACKEND": "memory", "DISPLAY": nil,
    ]

    func run(
        _ arguments: [String], environment: [String: String?] = [:], status: Int32 = 0,
        onLine: ((String, Int32) -> Void)? = nil
    ) throws -> [String] {
        try CompositorTests().runCompositor(arguments, environment: environment, status: status, onLine: onLine)
    }

    func socket(_ n: Int) -> String { "ir-harness-\(getpid())-\(n)" }

    /// The processes whose environment names `socket` as their WAYLAND_DISPLAY: the clients a
    /// compositor listening there started, and whatever they started.
    static func processes(onSocket socket: String) -> [Int32] {
        let needle = Data("WAYLAND_DISPLAY=\(socket)\0".utf8)
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { Int32($0) } ?? []
        return pids.filter { pid in
            guard let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
            return (Data([0]) + environ).range(of: Data([0]) + needle) != nil
        }
    }

    /// Fails with what is left on `socket`, and kills it (a client left behind spins).
    func expectNoClientLeft(on socket: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let left = Self.processes(onSocket: socket)
        let names = left.map { pid in
            ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "?").trimmingCharacters(
                in: .newlines)
        }
        for pid in left { kill(pid, SIGKILL) }
        #expect(left.isEmpty, "left running after the compositor exited: \(names)", sourceLocation: sourceLocation)
    }

    /// `[sec, usec, ...]` rows and `time: S.UUUUUU` entries of a recording's text, in µs.
    static func evdevTimes(_ yaml: String) throws -> [UInt64] {
        try yaml.matches(of: Regex(#"\n\s*- \[\s*(\d+),\s*(\d+),"#)).map {
            UInt64($0.output[1].substring!)! * 1_000_000 + UInt64($0.output[2].substring!)!
        }
    }

    /// The `time:` (µs) and key of each KEYBOARD_KEY entry, with whether it is a press.
    static func keyEntries(_ yaml: String) throws -> [(time: UInt64, key: Int, pressed: Bool)] {
        try yaml.matches(of: Regex(#"time: (\d+)\.(\d{6}), type: KEYBOARD_KEY, key: (\d+), state: (\w+)"#)).map {
            (
                UInt64($0.output[1].substring!)! * 1_000_000 + UInt64($0.output[2].substring!)!,
                Int($0.output[3].substring!)!, $0.output[4].substring! == "pressed"
            )
        }
    }

    /// The `time:` of each wev line of `kind` (e.g. "wl_keyboard] key:"), as wev prints it.
    static func wevTimes(_ out: [String], _ kind: String) throws -> [UInt64] {
        try out.filter { $0.contains(kind) }.compactMap { line in
            try Regex(#"time: (\d+);"#).firstMatch(in: line).map { UInt64($0.output[1].substring!)! }
        }
    }

    // MARK: (a) a client that exits is not waited for

    /// wayland-info lists the globals and exits without a window. wev, started after it,
    /// starts as soon as it has exited, and the replay as soon as wev mapped its window: not
    /// after the 3 s a client that runs on without a window gets, nor the 5 s more the replay
    /// then waited (about 8 s in all, after which the whole recording came at once).
    @Test func aClientThatExitsAtOnceHoldsUpNeitherTheNextClientNorTheReplay() throws {
        var listening: Date?
        var replaying: Date?
        let out = try run([
            "--socket", socket(1), "--size", "800x600", "--speed", "0", "--exit-after-replay",
            "--input", "replay:\(Self.fixtures)/mouse.yml", "--client", "/usr/bin/wayland-info", "--", "/usr/bin/wev",
        ]) { line, _ in
            if line.hasPrefix("ir-compositor: listening on ") { listening = Date() }
            if line.hasPrefix("ir-compositor: replaying ") { replaying = Date() }
        }
        #expect(
            out.contains { $0.hasPrefix("client 1 | ") && $0.contains("interface: 'wl_seat'") },
            "wayland-info did not run")
        let wait = try #require(replaying).timeIntervalSince(try #require(listening))
        #expect(wait < 3, "the replay began \(wait) s after the socket was ready")
        // wev got the whole recording.
        #expect(
            out.filter { $0.hasPrefix("client 2 | ") && $0.contains("wl_pointer] button: ") }.count
                == (try CompositorTests.count("POINTER_BUTTON", in: "mouse.yml")))
        #expect(out.last == "ir-compositor: done")
    }

    // MARK: (b) a bad replay file, and no client left behind

    /// The second of two replay files is no version-1 recording: the compositor says which
    /// file, where and why, and exits with status 2 before it starts wev (it used to start
    /// wev, play the first file, and exit on the second with wev left running, spinning).
    @Test func aReplayFileThatCannotBeReadIsReportedBeforeAnyClientStarts() throws {
        let bad = runtimeDirectory + "/version-2-\(getpid()).yml"
        try "version: 2\ndevices: []\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let out = try run(
            [
                "--socket", socket(2), "--speed", "0", "--exit-after-replay",
                "--input", "replay:\(Self.fixtures)/mouse.yml", "--input", "replay:\(bad)", "--", "/usr/bin/wev",
            ], status: 2)
        #expect(
            out == ["ir-compositor: \(bad):1:10: unsupported recording version 2; this reader understands version 1"])
        expectNoClientLeft(on: socket(2))
    }

    /// SIGTERM to the compositor (Ctrl-C is SIGINT, the same) ends it the way
    /// --exit-after-replay does: wev is stopped, what it printed is printed, then `done`; an
    /// exit(0) in the signal handler left wev running. Started from a test thread, the
    /// compositor inherits that thread's blocked signals: it must unblock the ones it handles.
    @Test func aSigtermStopsTheClientsAndPrintsWhatTheyWrote() throws {
        var signalled = false
        var watched = false
        let out = try run(["--socket", socket(3), "--size", "800x600", "--", "/usr/bin/stdbuf", "-oL", "/usr/bin/wev"])
        {
            line, compositor in
            if !watched {
                // One that does not end (SIGTERM blocked, or a hang on the way out) fails the
                // test instead of holding it up.
                watched = true
                DispatchQueue.global().asyncAfter(deadline: .now() + 20) {
                    let comm = try? String(contentsOfFile: "/proc/\(compositor)/comm", encoding: .utf8)
                    if comm == "ir-compositor\n" { kill(compositor, SIGKILL) }
                }
            }
            // wev prints this once its window is configured: it runs, and will print no more.
            guard !signalled, line.hasPrefix("client 1 | ") && line.contains("xdg_surface] configure: ") else { return }
            signalled = true
            kill(compositor, SIGTERM)
        }
        #expect(signalled, "wev never printed its configure")
        #expect(out.last == "ir-compositor: done", "\(out.suffix(3))")
        expectNoClientLeft(on: socket(3))
    }

    // MARK: (c) a recording lasts until its end

    /// A real GTK 3 label with a tooltip fills the output; the recording moves the pointer
    /// onto it once and then, as `libinput record --autorestart=2` writes it, closes after
    /// 2 s without events. GTK shows a tooltip after the pointer rested 500 ms: the user saw
    /// it, so the replay shows it too, and --exit-after-replay waits out the 2 s before its
    /// ping (it pinged right after the motion and exited before GTK showed the tooltip).
    @Test func theQuietTimeAtTheEndOfARecordingIsPlayedBeforeTheExit() throws {
        let header = try String(contentsOfFile: "\(Self.fixtures)/mouse.yml", encoding: .utf8)
        let recording = runtimeDirectory + "/hover-\(getpid()).yml"
        // mouse.yml's device, and events of our own after its `events:`.
        try
            (String(header[..<header.range(of: "  events:\n")!.upperBound]) + """
                  - libinput:
                    - {type: DEVICE_ADDED, seat: seat0, logical_seat: default}
                  - evdev:
                    - [  0,      0,   2,   0,       4] # EV_REL / REL_X                     4
                    - [  0,      0,   2,   1,       4] # EV_REL / REL_Y                     4
                    - [  0,      0,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
                    libinput:
                    - {time: 0.000000, type: POINTER_MOTION, delta: [  4.00,   4.00], unaccel: [  4.00,   4.00]}
                # Closing after 2s inactivity
                """).write(toFile: recording, atomically: true, encoding: .utf8)
        let script = runtimeDirectory + "/tooltip-\(getpid()).py"
        try gtkTooltipScript.write(toFile: script, atomically: true, encoding: .utf8)
        let out = try run(
            [
                "--socket", socket(4), "--size", "800x600", "--exit-after-replay",
                "--input", "replay:\(recording)", "--", "/usr/bin/python3", script,
            ], environment: Self.gtkEnvironment)
        #expect(out.contains("client 1 | mapped"))
        #expect(out.contains("client 1 | tooltip shown"), "\(out.joined(separator: "\n"))")
        #expect(out.last == "ir-compositor: done")
    }

    // MARK: (d) event times across replay files

    /// keyboard.yml played twice into wev: the second time its keys come with the times of
    /// the first plus where the first ended (its last frame, 5.266431 s), as a user typing it
    /// twice in a row would send them; not from 0 again.
    @Test func eventTimesGoOnFromOneReplayFileToTheNext() throws {
        let yaml = try String(contentsOfFile: "\(Self.fixtures)/keyboard.yml", encoding: .utf8)
        let frames = try Self.evdevTimes(yaml)
        let (start, end) = (try #require(frames.min()), try #require(frames.max()))
        let keys = try Self.keyEntries(yaml).map(\.time)
        // wl_keyboard.key's time is in ms; the second file begins where the first ended.
        let expected = keys.map { $0 / 1000 } + keys.map { (end + ($0 - start)) / 1000 }
        let out = try run([
            "--socket", socket(5), "--size", "800x600", "--speed", "0", "--exit-after-replay",
            "--input", "replay:\(Self.fixtures)/keyboard.yml", "--input", "replay:\(Self.fixtures)/keyboard.yml",
            "--", "/usr/bin/stdbuf", "-oL", "/usr/bin/wev",
        ])
        #expect(try Self.wevTimes(out, "wl_keyboard] key: ") == expected)
        #expect(out.last == "ir-compositor: done")
    }

    // MARK: (e) every line a client printed, however it buffers

    /// wev started as it is, not under `stdbuf -oL`: into a pipe its stdio buffers 4 KB at a
    /// time, and the SIGTERM at the exit threw away the last buttons and motions of mouse.yml.
    @Test func wevWithoutStdbufStillPrintsTheWholeRecording() throws {
        let yaml = try String(contentsOfFile: "\(Self.fixtures)/mouse.yml", encoding: .utf8)
        let lastMotion = try #require(try yaml.matches(of: Regex(#"time: (\d+)\.(\d{6}), type: POINTER_MOTION,"#)).last)
        let out = try run([
            "--socket", socket(6), "--size", "800x600", "--speed", "0", "--exit-after-replay",
            "--input", "replay:\(Self.fixtures)/mouse.yml", "--", "/usr/bin/wev",
        ])
        #expect(
            out.filter { $0.contains("wl_pointer] button: ") }.count
                == (try CompositorTests.count("POINTER_BUTTON", in: "mouse.yml")))
        // The recording's last event is a motion; wl_pointer.motion carries its time in ms.
        let ms = UInt64(lastMotion.output[1].substring!)! * 1000 + UInt64(lastMotion.output[2].substring!)! / 1000
        #expect(try Self.wevTimes(out, "wl_pointer] motion: ").last == ms)
        #expect(out.last == "ir-compositor: done")
    }

    /// A python3 GTK 3 window that prints each key with plain print(): without
    /// PYTHONUNBUFFERED, Python keeps its output into a pipe in an 8 KB buffer, and the
    /// SIGTERM at the exit threw every line away. The lines are libinput's keys from
    /// keyboard.yml, each as GDK's hardware keycode (the evdev code + 8, as xkb numbers it).
    @Test func aPythonClientsUnflushedPrintsReachTheOutput() throws {
        let yaml = try String(contentsOfFile: "\(Self.fixtures)/keyboard.yml", encoding: .utf8)
        let expected = try Self.keyEntries(yaml).map {
            "client 1 | \($0.pressed ? "pressed" : "released") \($0.key + 8)"
        }
        let script = runtimeDirectory + "/keys-\(getpid()).py"
        try gtkKeysScript.write(toFile: script, atomically: true, encoding: .utf8)
        var environment = Self.gtkEnvironment
        environment["PYTHONUNBUFFERED"] = .some(nil) // as a user's shell has it: not set
        let out = try run(
            [
                "--socket", socket(7), "--size", "800x600", "--speed", "0", "--exit-after-replay",
                "--input", "replay:\(Self.fixtures)/keyboard.yml", "--", "/usr/bin/python3", script,
            ], environment: environment)
        #expect(out.filter { $0.hasPrefix("client 1 | pressed ") || $0.hasPrefix("client 1 | released ") } == expected)
        #expect(out.last == "ir-compositor: done")
    }
}

/// A maximized undecorated GTK 3 window whose label has a tooltip; prints `mapped`, and
/// `tooltip shown` when GTK maps the tooltip's content (it waits for the pointer to rest).
private let gtkTooltipScript = #"""
    import gi
    gi.require_version("Gtk", "3.0")
    from gi.repository import Gtk

    window = Gtk.Window(title="hover")
    window.set_decorated(False)
    label = Gtk.Label(label="hover here")
    label.set_has_tooltip(True)
    tip = Gtk.Label(label="the tooltip")
    tip.connect("map", lambda w: print("tooltip shown", flush=True))
    def query(widget, x, y, keyboard, tooltip):
        tooltip.set_custom(tip)
        return True
    label.connect("query-tooltip", query)
    window.add(label)
    window.connect("map-event", lambda w, e: print("mapped", flush=True) or False)
    window.connect("destroy", Gtk.main_quit)
    window.maximize()
    window.show_all()
    Gtk.main()
    """#

/// A GTK 3 window that prints each key it gets, `pressed CODE` or `released CODE`, with a
/// plain print(): what most scripts do.
private let gtkKeysScript = #"""
    import gi
    gi.require_version("Gtk", "3.0")
    from gi.repository import Gtk

    window = Gtk.Window(title="keys")
    window.set_default_size(300, 200)
    def key(widget, event, what):
        print(what, event.hardware_keycode)
        return True
    window.connect("key-press-event", key, "pressed")
    window.connect("key-release-event", key, "released")
    window.connect("destroy", Gtk.main_quit)
    window.show_all()
    Gtk.main()
    """#
