// The example compositor as a user runs it: headless, a bundled recording replayed,
// real clients started by it, their received events read from its output.
import Foundation
import Testing

@Suite(.serialized) struct CompositorTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../RecordingTests/Fixtures").standardized.path

    /// Runs ir-compositor to completion and returns its output lines.
    func runCompositor(_ arguments: [String], environment: [String: String] = [:], status: Int32 = 0) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: productsDirectory + "/ir-compositor")
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtimeDirectory
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == status)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
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
    }

    @Test func waylandDebugServerPrintsTheProtocolAsUsersKnowIt() throws {
        let out = try runCompositor([
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
        let bad = try Process.run(URL(fileURLWithPath: productsDirectory + "/ir-compositor"), arguments: ["--frobnicate"])
        bad.waitUntilExit()
        #expect(bad.terminationStatus == 2)
        let out = try runCompositor(["--socket", "ir-comp-\(getpid())-3", "--input", "replay:/nonexistent.yml"], status: 2)
        #expect(out.contains { $0.contains("/nonexistent.yml") })
        // One --record file cannot hold several seats' libinput inputs: said before any opens.
        let record = try runCompositor(["--input", "libinput", "--seat", "seat-b", "--input", "libinput",
                                        "--record", runtimeDirectory + "/two.yml"], status: 2)
        #expect(record == ["ir-compositor: --record writes one libinput input; give --input libinput once with it"])
    }
}
