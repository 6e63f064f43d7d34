// "The parent's keymap and modifier state are adopted, not re-derived." The parent here
// runs a German layout (X's rule names, which weston's x11 backend compiles); our server
// starts with a US one. KEY_Y (evdev 21) is 'y' in us and 'z' in de.
import Foundation
import InputRouter
import InputRouterKeyboard
import InputRouterNested
import Testing

@testable import InputRouterWayland

extension WithParentSession {
    @Suite struct KeymapAdoptionTests {
        /// wev, already running on our server with the US keymap, is sent the parent's German
        /// one when the backend connects, and decodes a typed 'z' with it.
        @Test
        func nestedClientsGetTheParentsKeymap() throws {
            let parent = try Test.parentSession(layout: "de")
            let nested = try NestedCompositor(parent: parent, connect: false)
            // A keyboard from another source, so wev binds wl_keyboard (and gets our US keymap)
            // before the backend connects.
            nested.server.handle(InputEvent(time: 0, device: DeviceID(9), .deviceAdded(.keyboard)))
            let wev = try nested.spawn("/usr/bin/stdbuf", ["-oL", "/usr/bin/wev"])
            nested.run(until: { wev.output.contains("wl_keyboard] enter") }, "wev to map and get the keyboard")
            #expect(nested.server.keyboardState.keymap.layoutNames == ["English (US)"])
            let usSize = nested.server.keymapFile.size

            try nested.connectBackend()
            guard nested.waitUntilShown() else { return }
            #expect(nested.backend?.adoptedKeymapCount == 1)
            #expect(nested.server.keyboardState.keymap.layoutNames == ["German"])
            let deSize = nested.server.keymapFile.size
            #expect(deSize != usSize)
            // Each wl_keyboard wev holds (it binds a new one on every capabilities event) was
            // sent the German keymap last; those bound before the adoption had the US one first.
            func keymapsByKeyboard() -> [String: [Int]] {
                var sizes: [String: [Int]] = [:]
                for line in wev.lines where line.contains("wl_keyboard] keymap") {
                    let id = String(line.dropFirst().prefix { $0 != ":" })
                    sizes[id, default: []].append(Int(line.split(separator: " ").last!)!)
                }
                return sizes
            }
            nested.run(
                until: { !keymapsByKeyboard().isEmpty && keymapsByKeyboard().values.allSatisfy { $0.last == deSize } },
                "every wev keyboard to get the German keymap: \(keymapsByKeyboard())")
            let sizes = keymapsByKeyboard()
            #expect(sizes.values.contains { $0.first == usSize && $0.last == deSize }, "\(sizes)")
            _ = nested.settle(wev)

            // xdotool types 'z' with X's German map: KEY_Y; weston sends evdev 21; wev prints
            // the xkb code (29) and the keysym its state derives from the keymap it was sent.
            _ = try parent.xdotool(["type", "zy"])
            nested.run(until: { wev.output.contains("key: 52; state: 0 (released)") }, "wev to see z and y")
            let out = nested.settle(wev).joined(separator: "\n")
            #expect(
                out.contains("key: 29; state: 1 (pressed)\n                      sym: z            (122), utf8: 'z'"),
                "\(out)")
            #expect(
                out.contains("key: 52; state: 1 (pressed)\n                      sym: y            (121), utf8: 'y'"),
                "\(out)")
        }

        /// The parent's modifier masks reach the client as the parent sent them, Caps Lock
        /// (a lock the parent keeps) included.
        @Test func nestedClientsGetTheParentsModifiers() throws {
            let parent = try Test.parentSession(layout: "de")
            let nested = try NestedCompositor(parent: parent)
            guard nested.waitUntilShown() else { return }
            let probe = try nested.probe(["--toplevel", "win", "300x200"])
            guard nested.wait(for: probe, line: "keyboard.enter win keys=[]") else { return }
            _ = nested.settle(probe)
            _ = try parent.xdotool(["key", "Caps_Lock"])
            nested.wait(for: probe, line: "keyboard.key 58 released")
            // As weston sends them: Lock depressed and locked while the key is down.
            #expect(
                nested.settle(probe) == [
                    "keyboard.key 58 pressed", "keyboard.modifiers 2 0 2 0", "keyboard.key 58 released",
                    "keyboard.modifiers 0 0 2 0",
                ])
            #expect(nested.server.seat.modifiers == Modifiers(depressed: 0, latched: 0, locked: 2, group: 0))
            _ = try parent.xdotool(["key", "Caps_Lock"])
            nested.wait(for: probe, line: "keyboard.modifiers 0 0 0 0")
            _ = nested.settle(probe)
            #expect(nested.server.seat.modifiers == .none)
        }
    }
}

/// `WaylandServer.setKeyboard` on its own: every bound keyboard gets the new keymap, and
/// the focused client the modifiers again (their bits now mean what the new keymap says).
@Suite struct SetKeyboardTests {
    @Test func boundKeyboardsGetTheNewKeymapAndModifiers() throws {
        var config = WaylandServer.Configuration()
        config.keyboard = .init(keymap: .names(.init(rules: "evdev", model: "pc105", layout: "us")), compose: false)
        let server = try WaylandServer(configuration: config)
        let socket = privateDirectory + "/" + uniqueName("setkeyboard")
        try server.addSocket(socket)
        server.handle(InputEvent(time: 0, device: DeviceID(1), .deviceAdded(.keyboard)))
        let env = ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": privateDirectory, "WAYLAND_DISPLAY": socket]
        let probe = try Child(productsDirectory + "/wl-probe", ["--toplevel", "win", "100x100"], environment: env)
        func run(until done: () -> Bool) {
            let deadline = Date().addingTimeInterval(20)
            while !done() && Date() < deadline {
                server.dispatch(timeoutMS: 5)
                probe.poll()
            }
        }
        run { probe.lines.contains("keyboard.enter win keys=[]") }
        run { probe.lines.contains("keyboard.modifiers 0 0 0 0") }
        #expect(probe.take().filter { $0.hasPrefix("keyboard.keymap") }.count == 1)

        let de = try KeyboardConfiguration(keymap: .names(RuleNames(layout: "de")), compose: false).makeState()
        try server.setKeyboard(de)
        #expect(server.seat.keyTranslator === de)
        #expect(server.keyboardState.keymap.layoutNames == ["German"])
        run { probe.lines[probe.mark...].contains("keyboard.modifiers 0 0 0 0") }
        #expect(
            probe.take() == [
                "keyboard.keymap format=1 size>0=true", "keyboard.repeat_info 25 600", "keyboard.modifiers 0 0 0 0",
            ])
    }
}
