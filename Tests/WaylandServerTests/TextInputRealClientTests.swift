// A real GTK 3 entry (python3-gi) against the compositor as input method: a dead key and a
// letter typed on the seat's keyboard (`us(intl)`: apostrophe is dead_acute) arrive in the
// entry as "é" through zwp_text_input_v3, and neither key reaches the entry's wl_keyboard.
import Foundation
import InputRouter
import Testing

@testable import InputRouterWayland

/// A window with one entry, which has the focus; prints `text TEXT` on every change.
let gtkEntryScript = """
    import gi, sys
    gi.require_version("Gtk", "3.0")
    from gi.repository import Gtk, GLib
    window = Gtk.Window(title="entry")
    entry = Gtk.Entry()
    window.add(entry)
    entry.connect("changed", lambda e: print("text " + e.get_text(), flush=True))
    window.connect("destroy", Gtk.main_quit)
    window.show_all()
    entry.grab_focus()
    print("ready", flush=True)
    Gtk.main()
    """

@Suite(.serialized) struct TextInputRealClientTests {
    @Test func aGtkEntryReceivesTheComposedCharacterThroughTextInput() throws {
        let h = try ServerHarness(keyboard: deadKeyKeyboard)
        var keysToClients: [UInt32] = []
        var inputMethodKeys: [UInt32] = []
        h.server.deliveryObserver = { d, _ in
            if case .key(_, _, _, let key, .pressed, _) = d { keysToClients.append(key) }
            if case .inputMethodKey(_, _, let key) = d { inputMethodKeys.append(key) }
        }
        let script = runtimeDirectory + "/gtk-entry-\(getpid()).py"
        try gtkEntryScript.write(toFile: script, atomically: true, encoding: .utf8)
        let client = try h.spawn(
            "/usr/bin/python3", [script],
            environment: [
                "GDK_BACKEND": "wayland", "GTK_IM_MODULE": "wayland", "NO_AT_BRIDGE": "1",
                "GSETTINGS_BACKEND": "memory",
            ])
        // Python, GObject and GTK start in a few seconds, and in over ten under make test's
        // load (two of five loaded runs timed out here before printing anything).
        h.wait(for: client, timeout: 30, awaiting: "'ready'") { $0 == "ready" }
        // The entry has the focus once GTK enabled its text input on the focused surface.
        h.dispatch(until: "the GTK entry to enable its text input") { h.server.textInput.active != nil }
        h.key(40, .pressed)
        h.key(40, .released) // dead_acute
        h.key(18, .pressed)
        h.key(18, .released) // e
        h.wait(for: client, line: "text é")
        #expect(client.lines.filter { $0.hasPrefix("text ") } == ["text é"])
        #expect(inputMethodKeys == [40, 18])
        #expect(keysToClients.isEmpty)
        // A plain key after it still reaches the entry as a key, typed by GTK itself.
        h.key(30, .pressed)
        h.key(30, .released)
        h.wait(for: client, line: "text éa")
        #expect(keysToClients == [30])
    }
}
