// Menus opened from the keyboard in real GTK 3 and GTK 4 processes (python3-gi). A focused
// Gtk.MenuButton opens on the RELEASE of Return or Space (GtkButton finishes a keyboard
// activation on the key's release) and GTK cites that release's serial in xdg_popup.grab
// (its newest key serial). xdg-shell dismisses a popup whose grab cites no user action; a
// key release is one (docs/routing.md, "Serials"), so the menu must stay open, and the
// keyboard then walks it and activates an item, as a user sees it.
import Foundation
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct GtkMenuKeyboardTests {
    /// Opens the focused MenuButton with `key` and checks the menu stayed open: GTK showed
    /// it (`shown`), the server mapped the popup and holds its grab, GTK's grab cited the
    /// key's release, and GTK never heard popup_done.
    func open(
        _ h: ServerHarness, _ c: ClientProcess, with key: UInt32, shown: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        c.mark = c.lines.count
        h.tap(key)
        try #require(h.wait(for: c, awaiting: "'\(shown)'", sourceLocation: sourceLocation) { $0 == shown })
        try #require(
            h.dispatch(until: "the menu to map and hold the popup grab", sourceLocation: sourceLocation) {
                h.mappedPopups().count == 1 && h.server.seat.popupGrabStack == h.mappedPopups()
            })
        let lines = h.settleForeign(c, sourceLocation: sourceLocation) // every event sent so far is handled
        let messages = ProtocolLine.all(lines)
        let release = messages.last {
            !$0.sent && $0.interface == "wl_keyboard" && $0.message == "key" && $0.arguments.last == "0"
        }
        let grab = messages.first { $0.sent && $0.interface == "xdg_popup" && $0.message == "grab" }
        #expect(release?.arguments[2] == "\(key)", sourceLocation: sourceLocation)
        #expect(
            grab != nil && grab?.arguments.last == release?.arguments.first,
            "the grab cites the key's release: \(String(describing: grab)) after \(String(describing: release))",
            sourceLocation: sourceLocation)
        #expect(
            !messages.contains { !$0.sent && $0.interface == "xdg_popup" && $0.message == "popup_done" },
            sourceLocation: sourceLocation)
    }

    /// Starts `script`, waits until its MenuButton has the keyboard, opens the menu with
    /// `key` (`open`), then Down and Return: the second item activates and the menu closes,
    /// and GTK printed `shown` and `closed` around it, `activated` once.
    func openWalkAndActivate(
        _ name: String, _ script: String, with key: UInt32, shown: String, closed: String,
        activated: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let path = try writeGtkScript(name, script)
        let h = try ServerHarness()
        let c = try h.spawn("/usr/bin/python3", [path], environment: gtkDebugEnvironment)
        // The new window takes the keyboard; the MenuButton has the window's focus.
        try #require(
            h.wait(
                for: c, timeout: 30, awaiting: "the MenuButton to have the keyboard",
                sourceLocation: sourceLocation
            ) { $0 == "focused" })
        _ = h.settleForeign(c)
        try open(h, c, with: key, shown: shown, sourceLocation: sourceLocation)
        h.tap(EvdevKey.down)
        h.tap(EvdevKey.enter)
        try #require(
            h.wait(for: c, awaiting: "an item to activate", sourceLocation: sourceLocation) {
                $0.hasPrefix("activated ")
            })
        h.dispatch(until: "the menu to close", sourceLocation: sourceLocation) { c.lines.contains(closed) }
        #expect(c.lines.filter { $0.hasPrefix("activated ") } == [activated], sourceLocation: sourceLocation)
        let first = shown.split(separator: " ")[0] + " "
        #expect(c.lines.filter { $0.hasPrefix(first) } == [shown, closed], sourceLocation: sourceLocation)
        h.dispatch(until: "the popup to unmap", sourceLocation: sourceLocation) {
            h.mappedPopups().isEmpty && h.server.seat.popupGrabStack.isEmpty
        }
    }

    /// GTK 3: Return or Space opens the menu; GTK selects its first item when a key opened
    /// it (gtkmenubutton.c, `gtk_menu_shell_select_first`), so Down goes to the second, and
    /// Return activates it and closes the menu.
    @Test(arguments: [EvdevKey.enter, EvdevKey.space])
    func gtk3MenuButtonOpenedFromTheKeyboardStaysOpen(key: UInt32) throws {
        try openWalkAndActivate(
            "gtk3-menu-button", gtk3MenuButtonScript, with: key, shown: "menu shown",
            closed: "menu hidden", activated: "activated Second")
    }

    /// GTK 4: Return opens the MenuButton's PopoverMenu (a Gio.Menu); the popover moves the
    /// focus into itself as it maps (its first item), Down goes to the second, and Return
    /// activates that item's action.
    @Test func gtk4MenuButtonPopoverOpenedWithReturnStaysOpen() throws {
        try openWalkAndActivate(
            "gtk4-menu-button", gtk4MenuButtonScript, with: EvdevKey.enter, shown: "popover shown",
            closed: "popover closed", activated: "activated second")
    }
}

/// A window holding a Gtk.MenuButton with a Gtk.Menu of three items; the button has the
/// focus. Prints `focused` when the button has the keyboard, `menu shown` / `menu hidden`
/// (the menu's own signals) and `activated LABEL`.
private let gtk3MenuButtonScript = #"""
    import gi
    gi.require_version("Gtk", "3.0")
    from gi.repository import Gtk

    def out(text):
        print(text, flush=True)

    window = Gtk.Window(title="menus")
    window.set_default_size(240, 120)
    menu = Gtk.Menu()
    for label in ["First", "Second", "Third"]:
        item = Gtk.MenuItem(label=label)
        item.connect("activate", lambda i: out("activated " + i.get_label()))
        menu.append(item)
    menu.show_all()
    menu.connect("show", lambda m: out("menu shown"))
    menu.connect("hide", lambda m: out("menu hidden"))
    button = Gtk.MenuButton(label="Menu")
    button.set_popup(menu)
    window.add(button)

    focused = False
    def focus_in(widget, event):
        global focused
        if not focused:
            focused = True
            out("focused")
        return False

    button.connect("focus-in-event", focus_in)
    window.connect("destroy", Gtk.main_quit)
    window.show_all()
    button.grab_focus()
    Gtk.main()
    """#

/// A window holding a Gtk.MenuButton whose popover is a PopoverMenu made from a Gio.Menu
/// of three actions; the button has the focus. Prints `focused` once the window is active,
/// `popover shown` / `popover closed` and `activated NAME` (the action's).
private let gtk4MenuButtonScript = #"""
    import gi
    gi.require_version("Gtk", "4.0")
    from gi.repository import Gtk, Gio, GLib

    def out(text):
        print(text, flush=True)

    actions = Gio.SimpleActionGroup()
    model = Gio.Menu()
    for name in ["first", "second", "third"]:
        action = Gio.SimpleAction.new(name, None)
        action.connect("activate", lambda a, p: out("activated " + a.get_name()))
        actions.add_action(action)
        model.append(name.capitalize(), "menu." + name)

    window = Gtk.Window(title="menus")
    window.set_default_size(240, 120)
    window.insert_action_group("menu", actions)
    button = Gtk.MenuButton(label="Menu")
    button.set_menu_model(model)
    popover = button.get_popover()
    popover.connect("show", lambda p: out("popover shown"))
    popover.connect("closed", lambda p: out("popover closed"))
    window.set_child(button)
    button.grab_focus()

    focused = False
    def active(w, pspec):
        global focused
        if w.is_active() and not focused:
            focused = True
            out("focused")

    loop = GLib.MainLoop()
    window.connect("notify::is-active", active)
    window.connect("close-request", lambda w: loop.quit())
    window.present()
    loop.run()
    """#
