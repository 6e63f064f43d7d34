// ir-compositor's flight recorder with real clients: two wl-probe processes, keyboard.yml
// replayed into the focused one, SIGUSR1 while it plays. ir-replay, with no client
// running, must rebuild the scene from the bundle and route its input to the very trace
// the compositor wrote. (A window that holds presses the compositor's policy acts on, a
// title bar or focus on click, does not replay yet: docs/bug-reports.md.)

import Foundation
import Testing

@Suite struct CompositorFlightRecorderTests {
    static let products = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../.build/debug").standardized.path

    @Test func aBundleTakenMidReplayReplaysIdenticallyWithoutClients() throws {
        for program in ["ir-compositor", "wl-probe", "ir-replay"] {
            try #require(
                FileManager.default.isExecutableFile(atPath: Self.products + "/" + program),
                "\(program) is not built in \(Self.products)")
        }
        let work = NSTemporaryDirectory() + "ir-flight-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: work + "/runtime", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let probe = Self.products + "/wl-probe"
        let compositor = Process()
        compositor.executableURL = URL(fileURLWithPath: Self.products + "/ir-compositor")
        compositor.arguments = [
            "--backend", "headless", "--size", "800x600", "--exit-after-replay",
            "--input", "replay:" + Fixtures.path("keyboard.yml"), "--flight-recorder", work + "/fr",
            "--flight-window", "0.4", "--client", probe + " --toplevel viewer 400x260",
            "--client", probe + " --toplevel editor 300x200 --sub toolbar editor 0,0 300x30",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = work + "/runtime"
        compositor.environment = environment
        let output = Pipe()
        compositor.standardOutput = output
        compositor.standardError = output
        try compositor.run()
        // Signalled once the clients have printed 24 keys (about 2 s into the 4 s of keys):
        // the window, 0.4 to 0.8 s, then begins after the clients bound their keyboards
        // (a scene change no bundle carries yet, docs/bug-reports.md).
        var text = ""
        var signalled = false
        let reader = output.fileHandleForReading
        while true {
            let data = reader.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
            if !signalled, text.components(separatedBy: "keyboard.key").count > 24 {
                kill(compositor.processIdentifier, SIGUSR1)
                signalled = true
            }
        }
        compositor.waitUntilExit()
        #expect(signalled, "the clients never printed 24 keys:\n\(text)")
        #expect(text.contains("ir-compositor: wrote \(work)/fr/bundle-1"))
        let bundle = work + "/fr/bundle-1"
        let recorded = try String(contentsOfFile: bundle + "/trace.txt", encoding: .utf8)
        #expect(recorded.contains("keyboard.key"))

        let replay = Process()
        replay.executableURL = URL(fileURLWithPath: Self.products + "/ir-replay")
        replay.arguments = [bundle]
        let out = Pipe()
        let err = Pipe()
        replay.standardOutput = out
        replay.standardError = err
        try replay.run()
        let replayed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let verdict = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        replay.waitUntilExit()
        #expect(replay.terminationStatus == 0, "\(verdict)")
        #expect(replayed == recorded)
        #expect(verdict.hasSuffix("identical (\(recorded.split(separator: "\n").count) lines)\n"))
    }
}
