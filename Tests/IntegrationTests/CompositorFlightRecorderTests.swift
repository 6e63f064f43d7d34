// ir-compositor's flight recorder with real clients. ir-replay, with no client running,
// must rebuild the scene from the bundle, redo the scene's edits from its journal, and
// route its input to the very trace the compositor wrote (the live one, never recomputed).
// 1. Two wl-probe processes, keyboard.yml replayed into the focused one, SIGUSR1 while it
//    plays. 2. Two wl-probe windows with server-side title bars and a GTK 3 window
//    (python3-gi), mouse.yml (the pointer crosses title bars; clicks focus and raise), then
//    keys whose Super+Shift+Print, pressed by the replayed input, writes the bundle.

import Foundation
import TestSupport
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
        let compositor = try ChildProcess(
            Self.products + "/ir-compositor",
            [
                "--backend", "headless", "--size", "800x600", "--exit-after-replay",
                "--input", "replay:" + Fixtures.path("keyboard.yml"), "--flight-recorder", work + "/fr",
                "--flight-window", "0.4", "--client", probe + " --toplevel viewer 400x260",
                "--client", probe + " --toplevel editor 300x200 --sub toolbar editor 0,0 300x30",
            ],
            environment: ["XDG_RUNTIME_DIR": work + "/runtime"], nonBlockingOutput: false)
        // Signalled once the clients have printed 24 keys (about 2 s into the 4 s of keys):
        // the window, 0.4 to 0.8 s, then begins after the clients bound their keyboards.
        var text = ""
        var signalled = false
        while true {
            let data = compositor.nextOutput()
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

        let (status, replayed, verdict) = try ChildProcess.run(Self.products + "/ir-replay", [bundle])
        #expect(status == 0, "\(verdict)")
        #expect(replayed == recorded)
        #expect(verdict.hasSuffix("identical (\(recorded.split(separator: "\n").count) lines)\n"))
    }

    /// A GTK 3 window with an entry (the trace shows what it was sent).
    static let gtk3Script = """
        import gi
        gi.require_version("Gtk", "3.0")
        from gi.repository import Gtk
        w = Gtk.Window(title="gtk3 entry")
        w.set_default_size(240, 120)
        e = Gtk.Entry()
        e.connect("changed", lambda x: print("gtk3 text:", x.get_text(), flush=True))
        w.add(e)
        w.connect("destroy", Gtk.main_quit)
        w.show_all()
        Gtk.main()
        """

    @Test func titleBarsClicksAndGtkReplayIdenticallyFromABundleTheInputAskedFor() throws {
        for program in ["ir-compositor", "wl-probe", "ir-replay"] {
            try #require(
                FileManager.default.isExecutableFile(atPath: Self.products + "/" + program),
                "\(program) is not built in \(Self.products)")
        }
        // The real GTK 3: missing python3-gi fails the test (make deps installs it).
        let gi = try ChildProcess.run(
            "/usr/bin/python3", ["-c", "import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk"])
        #expect(gi.status == 0, "python3-gi with GTK 3 is not installed: \(gi.error)")

        let work = NSTemporaryDirectory() + "ir-flight-gtk-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: work + "/runtime", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        try Self.gtk3Script.write(toFile: work + "/gtk3.py", atomically: true, encoding: .utf8)
        let probe = Self.products + "/wl-probe"
        // Started in this order, the GTK window maps last, on top with the keyboard; the
        // clicks of mouse.yml then land on it and on the viewer below, and the pointer
        // crosses the wl-probe windows' title bars on its way.
        let arguments = [
            "--backend", "headless", "--size", "800x600", "--exit-after-replay",
            "--input", "replay:" + Fixtures.path("mouse.yml"), "--input", "replay:" + Fixtures.path("flight-print.yml"),
            "--flight-recorder", work + "/fr",
            "--client", probe + " --ssd --toplevel editor 300x200 --sub toolbar editor 0,0 300x30",
            "--client", probe + " --ssd --toplevel viewer 400x260",
            "--client", "/usr/bin/python3 " + work + "/gtk3.py",
        ]
        let run = try ChildProcess.run(
            Self.products + "/ir-compositor", arguments,
            environment: [
                "XDG_RUNTIME_DIR": work + "/runtime", "GDK_BACKEND": "wayland", "GTK_A11Y": "none", "NO_AT_BRIDGE": "1",
                "GSETTINGS_BACKEND": "memory",
            ])
        let text = run.output + run.error
        #expect(run.status == 0, "\(text)")
        // One bundle: the replayed Super+Shift+Print asked for it, nothing else did.
        #expect(text.contains("ir-compositor: wrote \(work)/fr/bundle-1"), "\(text)")
        #expect(!FileManager.default.fileExists(atPath: work + "/fr/bundle-2"))
        let bundle = work + "/fr/bundle-1"
        let recorded = try String(contentsOfFile: bundle + "/trace.txt", encoding: .utf8)
        let lines = recorded.split(separator: "\n")
        // What the window held, as the live compositor traced it.
        #expect(recorded.contains("seat0 handled pointer.enter by \"title bar\""))
        #expect(recorded.contains("pointer.button \"client3 python3: gtk3.py\" BTN_LEFT pressed"))
        #expect(recorded.contains("pointer.button \"client2 wl-probe: viewer\" BTN_RIGHT pressed"))
        #expect(lines.last == "seat0 binding #0 key 99", "the bundle ends at Print: \(lines.suffix(3))")
        // The edits it needs: clicks that raised and focused, a title bar's answers.
        let journal = try String(contentsOfFile: bundle + "/journal.jsonl", encoding: .utf8)
        #expect(journal.hasPrefix("{\"format\":\"inputrouter-journal\",\"version\":1}\n"))
        #expect(journal.contains("\"callee\":\"beforePress\""))
        #expect(journal.contains("\"edit\":\"raise\""))
        #expect(journal.contains("\"edit\":\"keyboardFocus\""))

        let (status, replayed, verdict) = try ChildProcess.run(Self.products + "/ir-replay", [bundle])
        #expect(status == 0, "\(verdict)")
        #expect(replayed == recorded)
        #expect(verdict == "ir-replay: identical (\(lines.count) lines)\n", "\(verdict)")
    }
}
