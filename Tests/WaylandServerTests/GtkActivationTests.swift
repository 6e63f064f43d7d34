// xdg_activation_v1 as GTK 3 and GTK 4 use it (python3-gi): `Gtk.Window.present()` of a
// window that is already shown asks for a token citing the seat's newest implicit-grab
// serial (GDK's `_gdk_wayland_seat_get_last_implicit_grab_serial`: the newest key event or
// button press it got) and activates the window with it. A button's `clicked` handler
// presents the process's second window; the token must move the keyboard there when the
// button was clicked into an unfocused window (the press, after the click's keyboard enter)
// and when it was activated from the keyboard (GtkButton clicks on the key's RELEASE, and
// GTK cites the release). docs/routing.md, "Serials": presses and releases count.
import Foundation
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct GtkActivationTests {
    static let scripts = ["3": gtk3PresentScript, "4": gtk4PresentScript]

    /// The serial GTK cited in its newest `xdg_activation_token_v1.set_serial` in `lines`.
    func citedSerial(_ lines: [String]) -> String? {
        ProtocolLine.all(lines).last {
            $0.sent && $0.interface == "xdg_activation_token_v1" && $0.message == "set_serial"
        }?
        .arguments.first
    }

    /// Waits for GTK's `clicked` (printed after line `start`), then for the server to record
    /// the next token use (after `uses`), and checks it activated `other`: granted, the
    /// keyboard there, GTK says so.
    func expectOtherActivated(
        _ h: ServerHarness, _ c: ClientProcess, since start: Int, after uses: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try #require(
            h.dispatch(until: "GTK's clicked", sourceLocation: sourceLocation) { c.lines[start...].contains("clicked") }
        )
        try #require(
            h.dispatch(until: "GTK to use an activation token", sourceLocation: sourceLocation) {
                h.server.activationLog.count > uses
            })
        let other = h.toplevel(titled: "other")
        #expect(
            h.server.activationLog.last == ActivationRecord(node: other, outcome: .granted),
            sourceLocation: sourceLocation)
        h.dispatch(until: "GTK to say 'active other'", sourceLocation: sourceLocation) {
            c.lines[start...].contains("active other")
        }
        #expect(h.server.seat.keyboardFirstResponder == other, sourceLocation: sourceLocation)
    }

    @Test(arguments: ["3", "4"]) func presentFromAClickedHandlerActivatesTheOtherWindow(gtk: String) throws {
        let script = try writeGtkScript("gtk\(gtk)-present", Self.scripts[gtk]!)
        var config = WaylandServer.Configuration()
        // apart: CSD shadows take input
        config.policy.placeToplevel = MapOrderPlacement { n in (n == 0 ? 600 : 0, 0) }.place
        let h = try ServerHarness(configuration: config)
        let c = try h.spawn("/usr/bin/python3", [script], environment: gtkDebugEnvironment)
        // `other` takes the keyboard first, then `launcher`, whose button has the focus.
        try #require(h.wait(for: c, timeout: 30, awaiting: "the launcher to be active") { $0 == "active launcher" })
        try #require(
            h.dispatch(until: "both windows to map") {
                h.toplevel(titled: "other") != nil && h.toplevel(titled: "launcher") != nil
            })
        _ = h.settleForeign(c)

        // Return on the focused button: GTK clicks on the release and cites it.
        var (start, uses) = (c.lines.count, h.server.activationLog.count)
        h.tap(EvdevKey.enter)
        try expectOtherActivated(h, c, since: start, after: uses)
        var lines = c.take()
        let release = ProtocolLine.all(lines).last { !$0.sent && $0.interface == "wl_keyboard" && $0.message == "key" }
        #expect(release?.arguments[2...] == ["\(EvdevKey.enter)", "0"])
        #expect(
            citedSerial(lines) != nil && citedSerial(lines) == release?.arguments.first,
            "\(lines.joined(separator: "\n"))")

        // A click on the button of the launcher, which no longer has the keyboard: the click
        // gives it the keyboard (its enter before the press), and GTK cites the press.
        _ = h.settleForeign(c)
        (start, uses) = (c.lines.count, h.server.activationLog.count)
        let (x, y) = try h.center(ofToplevelTitled: "launcher")
        h.warp(x, y)
        h.button(.pressed)
        h.button(.released)
        try expectOtherActivated(h, c, since: start, after: uses)
        lines = c.take()
        let messages = ProtocolLine.all(lines)
        let press = messages.firstIndex {
            !$0.sent && $0.interface == "wl_pointer" && $0.message == "button" && $0.arguments.last == "1"
        }
        let enter = messages.firstIndex { !$0.sent && $0.interface == "wl_keyboard" && $0.message == "enter" }
        #expect(press != nil && enter != nil && enter! < press!, "the click's keyboard enter comes before its press")
        #expect(
            citedSerial(lines) != nil && citedSerial(lines) == press.map { messages[$0].arguments[0] },
            "\(lines.joined(separator: "\n"))")
    }
}

/// Two windows, `other` (shown first) and `launcher` (shown once other has the keyboard: a
/// new window takes it, so launcher ends with it), whose one
/// button, focused, presents `other` when clicked. Prints `active NAME` / `inactive NAME`
/// as GTK sees its windows gain and lose the keyboard, and `clicked`.
private let gtk3PresentScript = #"""
    import gi
    gi.require_version("Gtk", "3.0")
    from gi.repository import Gtk

    def out(text):
        print(text, flush=True)

    def window(name):
        w = Gtk.Window(title=name)
        w.set_default_size(200, 120)
        w.connect("notify::is-active", lambda w, p: out(("active " if w.is_active() else "inactive ") + name))
        w.connect("destroy", Gtk.main_quit)
        return w

    other = window("other")
    other.add(Gtk.Label(label="other"))
    launcher = window("launcher")
    button = Gtk.Button(label="Present the other window")
    def clicked(b):
        out("clicked")
        other.present()
    button.connect("clicked", clicked)
    launcher.add(button)
    button.grab_focus()

    def other_active(w, pspec):
        if w.is_active() and not launcher.get_visible():
            launcher.show_all()
    other.connect("notify::is-active", other_active)
    other.show_all()
    Gtk.main()
    """#

private let gtk4PresentScript = #"""
    import gi
    gi.require_version("Gtk", "4.0")
    from gi.repository import Gtk, GLib

    def out(text):
        print(text, flush=True)

    loop = GLib.MainLoop()
    def window(name):
        w = Gtk.Window(title=name)
        w.set_default_size(200, 120)
        w.connect("notify::is-active", lambda w, p: out(("active " if w.is_active() else "inactive ") + name))
        w.connect("close-request", lambda w: loop.quit())
        return w

    other = window("other")
    other.set_child(Gtk.Label(label="other"))
    launcher = window("launcher")
    button = Gtk.Button(label="Present the other window")
    def clicked(b):
        out("clicked")
        other.present()
    button.connect("clicked", clicked)
    launcher.set_child(button)
    button.grab_focus()

    def other_active(w, pspec):
        if w.is_active() and not launcher.get_visible():
            launcher.present()
    other.connect("notify::is-active", other_active)
    other.present()
    loop.run()
    """#
