// The example compositor as a user runs it: headless, a bundled recording replayed,
// real clients started by it, their received events read from its output.
import Foundation
import Testing

@Suite(.serialized) struct CompositorTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../RecordingTests/Fixtures").standardized.path

    /// Runs ir-compositor to completion and returns its output lines; `onLine` sees each
    /// line as it comes, with the compositor's pid. `environment` is added to the test's
    /// own (a nil value removes the variable).
    func runCompositor(
        _ arguments: [String], environment: [String: String?] = [:], status: Int32 = 0,
        onLine: ((String, Int32) -> Void)? = nil
    ) throws -> [String] {
        let compositor = try CompositorProcess(arguments, environment: environment)
        let process = compositor.process
        var data = Data()
        var seen = 0
        while case let chunk = compositor.nextOutput(), !chunk.isEmpty {
            data.append(chunk)
            guard let onLine else { continue }
            while let nl = data[seen...].firstIndex(of: UInt8(ascii: "\n")) {
                onLine(String(decoding: data[seen..<nl], as: UTF8.self), process.processIdentifier)
                seen = nl + 1
            }
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == status)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The number of `type:` entries in a fixture's libinput events, e.g. POINTER_BUTTON.
    static func count(_ type: String, in fixture: String) throws -> Int {
        try String(contentsOfFile: "\(fixtures)/\(fixture)", encoding: .utf8)
            .components(separatedBy: "type: \(type),").count - 1
    }

    /// The pid of the process running `command` that descends from `parent` (a client the
    /// compositor started, under its `sh -c`).
    static func descendant(of parent: Int32, named command: String) -> Int32? {
        func stat(_ pid: Int32) -> (command: Substring, parent: Int32)? {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let ppid = Int32(fields[1]) else { return nil }
            return (stat[stat.index(after: open)..<close], ppid)
        }
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { Int32($0) } ?? []
        return pids.first { pid in
            guard stat(pid)?.command == command[...] else { return false }
            var up = pid
            while let next = stat(up)?.parent, next > 1 {
                if next == parent { return true }
                up = next
            }
            return false
        }
    }

    @Test func replayReachesTheProbeThroughDecorationsAndFocus() throws {
        let out = try runCompositor([
            "--socket", "ir-comp-\(getpid())-1", "--size", "800x600", "--speed", "0", "--exit-after-replay",
            "--input", "replay:\(Self.fixtures)/keyboard.yml",
            "--client", "\(productsDirectory)/wl-probe --toplevel editor 300x200 --ssd",
        ])
        // The window mapped, was activated, and got the keyboard.yml keys (hello world...).
        #expect(out.contains("client 1 | mapped editor"))
        #expect(out.contains("client 1 | keyboard.enter editor keys=[]"))
        let keys = out.filter { $0.hasPrefix("client 1 | keyboard.key ") }
        #expect(keys.count == 40)
        #expect(keys.first == "client 1 | keyboard.key 42 pressed")
        #expect(out.last == "ir-compositor: done")
    }

    @Test
    func wevInsideTheHeadlessCompositorGetsTheReplayedMouse() throws {
        let out = try runCompositor([
            "--socket", "ir-comp-\(getpid())-2", "--size", "800x600", "--speed", "0", "--exit-after-replay",
            "--input", "replay:\(Self.fixtures)/mouse.yml",
            "--", "/usr/bin/stdbuf", "-oL", "/usr/bin/wev",
        ])
        let text = out.joined(separator: "\n")
        #expect(text.contains("wl_pointer] enter: serial: "))
        #expect(text.contains("button: 272 (left), state: 1 (pressed)"))
        #expect(text.contains("wl_pointer] axis_source: 0 (wheel)") || text.contains("axis_source: 0"))
        // Every button of the recording, the last ones too: wev printed them before its pong.
        #expect(
            out.filter { $0.contains("wl_pointer] button: ") }.count
                == (try Self.count("POINTER_BUTTON", in: "mouse.yml")))
        #expect(out.last == "ir-compositor: done")
    }

    /// wev frozen (SIGSTOP) for 1.5 s from the start of the replay: a client on a machine so
    /// loaded it does not run. The replay waits for its pong to bind the new pointer, the
    /// exit for its pong after the last event, so wev still prints every button once it
    /// runs again (a fixed 200 ms to bind and 500 ms grace at the end did not).
    @Test func aFrozenWevStillGetsEveryReplayedButtonBeforeTheCompositorExits() throws {
        var frozen: Int32?
        let out = try runCompositor([
            "--socket", "ir-comp-\(getpid())-5", "--size", "800x600", "--speed", "0", "--exit-after-replay",
            "--input", "replay:\(Self.fixtures)/mouse.yml",
            "--", "/usr/bin/stdbuf", "-oL", "/usr/bin/wev",
        ]) { line, compositor in
            // Printed as the replay starts; its first event waits 200 ms for clients to bind.
            guard frozen == nil, line.hasPrefix("ir-compositor: replaying "),
                let wev = Self.descendant(of: compositor, named: "wev")
            else { return }
            kill(wev, SIGSTOP)
            frozen = wev
            DispatchQueue.global().asyncAfter(deadline: .now() + 1.5) { kill(wev, SIGCONT) }
        }
        #expect(frozen != nil, "wev was not found among the compositor's children")
        #expect(
            out.filter { $0.contains("wl_pointer] button: ") }.count
                == (try Self.count("POINTER_BUTTON", in: "mouse.yml")),
            "\(out.joined(separator: "\n"))")
        #expect(out.last == "ir-compositor: done")
    }

    /// A wl-probe that takes 25 ms per line it prints (about 2 s for keyboard.yml's keys)
    /// still prints every key before the compositor says it is done.
    @Test func aSlowProbeGetsEveryReplayedKeyBeforeTheCompositorExits() throws {
        let out = try replayKeys(
            socket: 6, probe: "--toplevel editor 300x200 --slow 25", options: ["--size", "800x600"])
        try expectEveryKeyThenDone(out)
    }

    /// A client that never answers the ping: after --settle-timeout the compositor names it
    /// and exits with status 1; it does not hang. (The replay's new device waits as long for
    /// it, and goes on.)
    @Test func aClientThatNeverAnswersIsNamedAfterTheSettleTimeout() throws {
        let out = try replayKeys(
            socket: 7, probe: "--toplevel hung 100x100 --ignore-ping", options: ["--settle-timeout", "1"],
            status: 1)
        // Named twice: once when the replay's new device waited for it, once at the end.
        let named = out.filter { $0.hasPrefix("ir-compositor: client 1, wl-probe (pid ") }
        #expect(named.count == 2, "\(out.joined(separator: "\n"))")
        #expect(named.first?.hasSuffix(", did not answer after a new device; replaying on") == true)
        #expect(named.last?.hasSuffix(", did not settle within 1.0 s (--settle-timeout)") == true)
        #expect(named.allSatisfy { $0.contains("): no pong to xdg_wm_base.ping ") })
        // It got the keys all the same: only the pong is missing.
        try expectEveryKeyThenDone(out)
    }

    /// keyboard.yml replayed at full speed into one wl-probe started with `probe`, on the
    /// socket numbered `socket`, until the compositor exits: the ping tests' run.
    func replayKeys(socket: Int, probe: String, options: [String] = [], status: Int32 = 0) throws -> [String] {
        try runCompositor(
            ["--socket", "ir-comp-\(getpid())-\(socket)", "--speed", "0", "--exit-after-replay"] + options + [
                "--input", "replay:\(Self.fixtures)/keyboard.yml", "--client", "\(productsDirectory)/wl-probe \(probe)",
            ], status: status)
    }

    /// The probe printed every key of keyboard.yml, and the compositor said it was done last.
    func expectEveryKeyThenDone(_ out: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(
            out.filter { $0.hasPrefix("client 1 | keyboard.key ") }.count
                == (try Self.count("KEYBOARD_KEY", in: "keyboard.yml")),
            sourceLocation: sourceLocation)
        #expect(out.last == "ir-compositor: done", sourceLocation: sourceLocation)
    }

    @Test func waylandDebugServerPrintsTheProtocolAsUsersKnowIt() throws {
        let out = try runCompositor(
            [
                "--socket", "ir-comp-\(getpid())-4", "--speed", "0", "--exit-after-replay",
                "--input", "replay:\(Self.fixtures)/keyboard.yml",
                "--client", "\(productsDirectory)/wl-probe --toplevel editor 100x100",
            ], environment: ["WAYLAND_DEBUG": "server"])
        // libwayland's own trace: requests in, events out, with object ids and arguments.
        #expect(out.contains { $0.contains("wl_compositor@") && $0.contains(".create_surface(") })
        #expect(out.contains { $0.contains("-> wl_keyboard@") && $0.contains(".key(") })
        #expect(out.contains { $0.contains("-> xdg_toplevel@") && $0.contains(".configure(") })
    }

    /// weston-simple-touch draws a mark where it is touched: the screenshot of a run with
    /// the touchscreen recording differs from one with only keys, and two runs with only
    /// keys are identical (so the difference is the touches).
    @Test
    func westonSimpleTouchDrawsTheReplayedTouches() throws {
        func screenshot(_ recording: String, _ n: Int) throws -> Data {
            let path = runtimeDirectory + "/touch-\(getpid())-\(n).png"
            _ = try runCompositor([
                "--socket", "ir-comp-\(getpid())-t\(n)", "--size", "800x600", "--speed", "0", "--exit-after-replay",
                "--input", "replay:\(Self.fixtures)/\(recording)", "--screenshot", path,
                "--", "/usr/bin/weston-simple-touch",
            ])
            return try Data(contentsOf: URL(fileURLWithPath: path))
        }
        let keys1 = try screenshot("keyboard.yml", 1)
        let keys2 = try screenshot("keyboard.yml", 2)
        let touched = try screenshot("touchscreen.yml", 3)
        #expect(keys1 == keys2)
        #expect(touched != keys1)
    }

    @Test func unknownOptionsAndBadFilesAreClearErrors() throws {
        let bad = try Process.run(
            URL(fileURLWithPath: productsDirectory + "/ir-compositor"), arguments: ["--frobnicate"])
        bad.waitUntilExit()
        #expect(bad.terminationStatus == 2)
        let out = try runCompositor(
            ["--socket", "ir-comp-\(getpid())-3", "--input", "replay:/nonexistent.yml"], status: 2)
        #expect(out.contains { $0.contains("/nonexistent.yml") })
        // One --record file cannot hold several seats' libinput inputs: said before any opens.
        let record = try runCompositor(
            [
                "--input", "libinput", "--seat", "seat-b", "--input", "libinput",
                "--record", runtimeDirectory + "/two.yml",
            ], status: 2)
        #expect(record == ["ir-compositor: --record writes one libinput input; give --input libinput once with it"])
    }
}
