// Panels and launchers from Debian on the layer shell (LayerShell.swift): fuzzel takes the
// keyboard while it is open and gives it back, waybar reserves its strip of the output and
// never takes the keyboard. Each starts the real program and fails when it is missing.
import Foundation
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct LayerShellRealClientTests {
    /// evdev codes of the keys typed.
    enum Key {
        static let escape: UInt32 = 1, enter: UInt32 = 28, a: UInt32 = 30, b: UInt32 = 48, n: UInt32 = 49
    }

    func type(_ h: ServerHarness, _ keys: [UInt32]) {
        for k in keys {
            h.key(k, .pressed)
            h.key(k, .released)
        }
    }

    /// The layer surface of `client`'s program that holds the first seat's keyboard, once it does.
    func layerHoldingKeyboard(_ h: ServerHarness, _ what: String, sourceLocation: SourceLocation = #_sourceLocation)
        -> NodeID?
    {
        var node: NodeID?
        h.dispatch(until: "\(what)'s layer surface to take the keyboard", timeout: 20, sourceLocation: sourceLocation) {
            node = h.server.seat.keyboardFirstResponder
            return node.flatMap { h.server.router.tree.kind(of: $0) } == .layer
        }
        return node
    }

    /// fuzzel in dmenu mode over a focused window, offered three entries on stdin.
    func openFuzzel(_ h: ServerHarness) throws -> ClientProcess {
        #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/fuzzel"), "fuzzel is not installed (make deps)")
        let fuzzel = try h.spawn("/usr/bin/fuzzel", ["--dmenu"])
        for entry in ["apple", "banana", "cherry"] { fuzzel.send(entry) }
        fuzzel.closeInput()
        return fuzzel
    }

    func waitForExit(_ h: ServerHarness, _ c: ClientProcess, _ what: String) {
        h.dispatch(until: "\(what) to exit", timeout: 20) { !c.process.isRunning }
        c.poll()
    }

    @Test func fuzzelTakesTheKeyboardAndTypedLettersFilterItsList() throws {
        let h = try ServerHarness()
        let win = try h.mappedProbe(["--toplevel", "win", "200x200"])
        #expect(h.server.router.tree.kind(of: try #require(h.server.seat.keyboardFirstResponder)) == .toplevel)
        let fuzzel = try openFuzzel(h)
        let layer = try #require(layerHoldingKeyboard(h, "fuzzel"))
        #expect(
            h.server.router.tree.name(of: layer)?.contains("overlay layer") == true
                || h.server.router.tree.name(of: layer)?.contains("top layer") == true)
        #expect(h.settle(win).filter { $0.hasPrefix("keyboard.") } == ["keyboard.leave win"])
        // "ban" leaves only banana; Return picks it (without the filter it would be apple).
        // fuzzel filters off its main loop: Return waits for the frame drawn after the keys
        // and a ping answered (pressed at once, it printed the typed "ban" as no match).
        var frames = 0
        h.server.bufferCommitted = { _, _ in frames += 1 }
        type(h, [Key.b, Key.a, Key.n])
        let before = frames
        h.dispatch(until: "fuzzel to draw the filtered list", timeout: 20) { frames > before }
        _ = h.settleForeign(fuzzel)
        type(h, [Key.enter])
        waitForExit(h, fuzzel, "fuzzel")
        #expect(fuzzel.process.terminationStatus == 0)
        #expect(fuzzel.lines.filter { !$0.isEmpty && !$0.hasPrefix("info:") } == ["banana"])
        // The keyboard is back on the window, which was sent none of the keys.
        let back = h.settle(win).filter { $0.hasPrefix("keyboard.") }
        #expect(back.first == "keyboard.enter win keys=[]")
        #expect(!back.contains { $0.hasPrefix("keyboard.key") })
        #expect(h.server.seat.keyboardFirstResponder.flatMap { h.server.router.tree.kind(of: $0) } == .toplevel)
    }

    @Test func escapeClosesFuzzelAndTheKeyboardReturnsToTheWindow() throws {
        let h = try ServerHarness()
        let win = try h.mappedProbe(["--toplevel", "win", "200x200"])
        let fuzzel = try openFuzzel(h)
        _ = try #require(layerHoldingKeyboard(h, "fuzzel"))
        // A click on the window while fuzzel is open leaves the keyboard with fuzzel.
        h.warp(60, 60)
        h.button(.pressed)
        h.button(.released)
        #expect(h.server.router.tree.kind(of: try #require(h.server.seat.keyboardFirstResponder)) == .layer)
        type(h, [Key.escape])
        waitForExit(h, fuzzel, "fuzzel")
        #expect(fuzzel.process.terminationStatus != 0) // dmenu mode: nothing chosen
        #expect(fuzzel.lines.filter { !$0.isEmpty && !$0.hasPrefix("info:") } == [])
        let lines = h.settle(win).filter { $0.hasPrefix("keyboard.") }
        #expect(lines.first == "keyboard.leave win")
        #expect(lines.contains("keyboard.enter win keys=[]"))
        #expect(!lines.contains { $0.hasPrefix("keyboard.key") })
    }

    /// waybar with a minimal configuration: a 30-pixel bar on the top layer, anchored to the
    /// top edge (waybar reserves its height as the exclusive zone), with one module whose
    /// click writes `clicked`.
    func startWaybar(_ h: ServerHarness, clicked: String) throws -> ClientProcess {
        #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/waybar"), "waybar is not installed (make deps)")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "waybar-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let config = """
            {"layer": "top", "position": "top", "height": 30, "spacing": 0,
             "modules-left": ["custom/hello"],
             "custom/hello": {"format": "hello from the bar", "on-click": "touch \(clicked)"}}
            """
        let style = "* { font-size: 12px; min-height: 0; } #custom-hello { padding: 0 40px; }"
        try config.write(to: dir.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        try style.write(to: dir.appendingPathComponent("style.css"), atomically: true, encoding: .utf8)
        return try h.spawn(
            "/usr/bin/waybar",
            [
                "-c", dir.appendingPathComponent("config").path,
                "-s", dir.appendingPathComponent("style.css").path,
            ],
            environment: ["GDK_BACKEND": "wayland", "XDG_CONFIG_HOME": dir.path])
    }

    @Test func waybarReservesTheTopOfTheOutputTakesClicksAndNeverTheKeyboard() throws {
        let h = try ServerHarness()
        var enters: [String] = []
        let router = h.server.router // not the harness: deliveries go on while it is torn down
        h.server.deliveryObserver = { d, q in
            let line = TraceSink.line(d, queue: q, router: router)
            if line.contains("pointer.enter") { enters.append(line) }
        }
        let first = try h.mappedProbe(["--toplevel", "first", "200x200"]) // before the bar: at 40,40
        let clicked = FileManager.default.temporaryDirectory.appendingPathComponent("waybar-clicked-\(getpid())").path
        unlink(clicked)
        let waybar = try startWaybar(h, clicked: clicked)
        var bar: NodeID?
        h.dispatch(until: "waybar's bar to map", timeout: 30) {
            bar = h.server.router.tree.children(of: h.server.layerNode(.top)).first {
                h.server.router.tree.isMapped($0)
            }
            return bar != nil
        }
        _ = try #require(bar, "waybar said:\n\(waybar.lines.joined(separator: "\n"))")
        // A window mapped after the bar sits below it: the placement's corner is the usable
        // area's, 30 pixels down. The pointer finds it there, not at y = 40.
        let second = try h.mappedProbe(["--toplevel", "second", "100x100"])
        _ = h.settle(first)
        h.warp(75, 75) // the cascade puts the second window at (72, 72 + 30)
        #expect(h.settle(second).filter { $0.hasPrefix("pointer.enter") } == [])
        h.warp(75, 105)
        #expect(h.settle(second).filter { $0.hasPrefix("pointer.enter") } == ["pointer.enter second 3.00 3.00"])
        // The bar takes the click over its module; the click runs the module's command.
        h.warp(20, 15)
        h.button(.pressed)
        h.button(.released)
        h.dispatch(until: "waybar's on-click command to run", timeout: 20) {
            FileManager.default.fileExists(atPath: clicked)
        }
        // The trace names the bar as it names windows: client, program, layer, namespace.
        #expect(enters.last == "seat0 pointer.enter \"client2 waybar: top layer waybar\" at 20,15")
        // It never takes the keyboard: the newest window keeps it through all of this.
        #expect(h.server.seat.keyboardFirstResponder.flatMap { h.server.router.tree.kind(of: $0) } == .toplevel)
        #expect(!h.settle(second).contains { $0.hasPrefix("keyboard.leave") })
        unlink(clicked)
    }
}
