// Copy and paste between real programs in the server: wl-copy and wl-paste (Debian's
// wl-clipboard 2.1, which takes the keyboard with a surface of its own and sets the
// selection citing the keyboard enter, as it does in sway and weston), and two GTK 3
// processes. The data must arrive byte for byte.
import Foundation
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct SelectionRealClientTests {
    static let wlCopy = "/usr/bin/wl-copy", wlPaste = "/usr/bin/wl-paste"

    func temporaryFile(_ name: String) -> String { runtimeDirectory + "/\(getpid())-\(name)" }

    /// Runs `command` in sh and dispatches the server until it exits; returns its status.
    func run(_ h: ServerHarness, _ command: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int32 {
        let p = try h.spawn("/bin/sh", ["-c", command])
        h.dispatch(until: "`\(command)` to exit", sourceLocation: sourceLocation) { !p.process.isRunning }
        p.process.waitUntilExit()
        p.poll()
        if p.process.terminationStatus != 0 { Issue.record("`\(command)` said:\n\(p.lines.joined(separator: "\n"))") }
        return p.process.terminationStatus
    }

    /// Copies `data` with wl-copy (kept in the foreground, serving the selection) and pastes
    /// it back with wl-paste; returns what wl-paste wrote.
    func roundTrip(_ data: Data, type: String, primary: Bool) throws -> Data? {
        #expect(FileManager.default.isExecutableFile(atPath: Self.wlCopy), "wl-clipboard is not installed (make deps)")
        let h = try ServerHarness()
        let input = temporaryFile("copy-in")
        let output = temporaryFile("paste-out")
        try data.write(to: URL(fileURLWithPath: input))
        defer {
            unlink(input)
            unlink(output)
        }
        let flag = primary ? " --primary" : ""
        let copier = try h.spawn(
            "/bin/sh", ["-c", "exec \(Self.wlCopy) --foreground\(flag) --type '\(type)' < '\(input)'"])
        let slot = primary ? h.server.selections.primary : h.server.selections.clipboard
        h.dispatch(until: "wl-copy to set the selection") { slot.source != nil || !copier.process.isRunning }
        #expect(copier.process.isRunning)
        #expect(try run(h, "exec \(Self.wlPaste)\(flag) --no-newline --type '\(type)' > '\(output)'") == 0)
        return FileManager.default.contents(atPath: output)
    }

    @Test func wlCopyToWlPasteText() throws {
        let text = Data("Grüße, clipboard — line one\nline two\n".utf8)
        #expect(try roundTrip(text, type: "text/plain;charset=utf-8", primary: false) == text)
    }

    @Test func wlCopyToWlPasteBinary() throws {
        // Every byte value, NULs and invalid UTF-8 included, and more than one pipe buffer.
        var bytes = [UInt8]()
        for i in 0..<(70 * 1024) { bytes.append(UInt8(truncatingIfNeeded: i &* 7 &+ i >> 8)) }
        let data = Data(bytes)
        #expect(try roundTrip(data, type: "application/octet-stream", primary: false) == data)
    }

    @Test func wlCopyToWlPastePrimary() throws {
        let text = Data("middle-click text".utf8)
        #expect(try roundTrip(text, type: "text/plain", primary: true) == text)
        var bytes = [UInt8](repeating: 0, count: 5000)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: 255 - i) }
        #expect(try roundTrip(Data(bytes), type: "application/octet-stream", primary: true) == Data(bytes))
    }

    // MARK: GTK 3

    static let ctrl: UInt32 = 29, c: UInt32 = 46, v: UInt32 = 47

    func chord(_ h: ServerHarness, _ key: UInt32) {
        h.key(Self.ctrl, .pressed)
        h.key(key, .pressed)
        h.key(key, .released)
        h.key(Self.ctrl, .released)
    }

    /// Two GTK 3 processes: Ctrl+C in one's entry (its text selected), Ctrl+V in the other's.
    /// The copy goes through GTK's own wl_data_device code, citing its key press.
    @Test func gtkCopyInOneProcessPastesInAnother() throws {
        let script = runtimeDirectory + "/gtk-clipboard-\(getpid()).py"
        try gtkEntry.write(toFile: script, atomically: true, encoding: .utf8)
        let h = try ServerHarness()
        let env = ["GDK_BACKEND": "wayland", "GTK_A11Y": "none", "NO_AT_BRIDGE": "1"]
        let text = "Grüße aus GTK: 1 + 1 = 2"
        let copier = try h.spawn("/usr/bin/python3", [script, "copier", text], environment: env)
        h.wait(for: copier, timeout: 20, awaiting: "the copier's entry to take the keyboard") { $0 == "focused copier" }
        chord(h, Self.c)
        h.dispatch(until: "GTK to set the selection") { h.server.selections.clipboard.source != nil }
        let paster = try h.spawn("/usr/bin/python3", [script, "paster", ""], environment: env)
        h.wait(for: paster, timeout: 20, awaiting: "the paster's entry to take the keyboard") { $0 == "focused paster" }
        chord(h, Self.v)
        h.wait(for: paster, awaiting: "the pasted text") { $0 == "text \(text)" }
    }

    /// Middle-click paste between two GTK 3 processes: the copier's entry selects its text
    /// (GTK makes the selection the primary selection), then a middle click into the
    /// paster's entry, whose window does not have the keyboard, pastes it there. The click
    /// moves the keyboard to the paster, and GTK 3 keeps a primary offer only while it has
    /// keyboard focus: the keyboard's enter must come before the offer, and both before the
    /// button (docs/routing.md, "Serials").
    @Test func gtkMiddleClickPastesThePrimarySelectionIntoTheWindowItFocuses() throws {
        let script = runtimeDirectory + "/gtk-primary-\(getpid()).py"
        try gtkEntry.write(toFile: script, atomically: true, encoding: .utf8)
        var config = WaylandServer.Configuration()
        // apart: CSD shadows take input
        config.policy.placeToplevel = MapOrderPlacement { n in (n == 0 ? 0 : 600, 0) }.place
        let h = try ServerHarness(configuration: config)
        let text = "Grüße per middle click: 1 + 1 = 2"
        let paster = try h.spawn("/usr/bin/python3", [script, "paster", ""], environment: gtkDebugEnvironment)
        try #require(
            h.wait(for: paster, timeout: 20, awaiting: "the paster's entry to take the keyboard") {
                $0 == "focused paster"
            })
        // The copier maps last and takes the keyboard; its entry selects its text.
        let copier = try h.spawn("/usr/bin/python3", [script, "copier", text], environment: gtkDebugEnvironment)
        try #require(
            h.wait(for: copier, timeout: 20, awaiting: "the copier's entry to take the keyboard") {
                $0 == "focused copier"
            })
        try #require(
            h.dispatch(until: "GTK to set the primary selection") { h.server.selections.primary.source != nil })
        _ = h.settleForeign(paster)
        #expect(h.server.seat.keyboardFirstResponder == h.toplevel(titled: "copier"))

        let (x, y) = try h.center(ofToplevelTitled: "paster")
        h.warp(x, y)
        h.button(.pressed, 0x112) // BTN_MIDDLE
        h.button(.released, 0x112)
        h.wait(for: paster, awaiting: "the pasted text") { $0.hasPrefix("text ") }
        #expect(paster.lines.filter { $0.hasPrefix("text ") } == ["text \(text)"])
        #expect(h.server.seat.keyboardFirstResponder == h.toplevel(titled: "paster"))
    }
}

/// A window with one entry. It prints `focused ROLE` when the entry has the keyboard, and
/// `text …` whenever the entry's text changes. The copier starts with its text selected.
private let gtkEntry = #"""
    import sys
    import gi
    gi.require_version("Gtk", "3.0")
    from gi.repository import Gtk

    role, text = sys.argv[1], sys.argv[2]
    window = Gtk.Window(title=role)
    window.set_default_size(240, 60)
    entry = Gtk.Entry()
    entry.set_text(text)
    window.add(entry)

    def focused(widget, event):
        entry.select_region(0, -1)
        print("focused", role, flush=True)
        return False

    entry.connect("focus-in-event", focused)
    entry.connect("changed", lambda e: print("text", e.get_text(), flush=True))
    window.connect("destroy", Gtk.main_quit)
    window.show_all()
    Gtk.main()
    """#
