#!/usr/bin/python3
# A GTK 3 window with one focused entry, for tools/vm-libinput-test.sh (compositor-gtk):
# prints "ready" once shown, "text TEXT" on every change and "activate TEXT" on Enter, so
# that what a user typed on a real keyboard is read back from a real toolkit.
import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gtk  # noqa: E402

window = Gtk.Window(title="entry")
entry = Gtk.Entry()
window.add(entry)
entry.connect("changed", lambda e: print("text " + e.get_text(), flush=True))
entry.connect("activate", lambda e: print("activate " + e.get_text(), flush=True))
window.connect("destroy", Gtk.main_quit)
window.show_all()
entry.grab_focus()
print("ready", flush=True)
Gtk.main()
