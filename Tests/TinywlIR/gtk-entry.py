#!/usr/bin/python3
# A GTK 3 window holding one entry, for Tests/TinywlIR/run-tests.py: prints what GTK's own
# signals report, one line each, as they come: the entry's button-press-event and
# button-release-event (button, and the point in the toplevel's wl_surface, found by
# walking the event's GdkWindow up to the toplevel with gdk_window_coords_to_parent),
# "text TEXT" on every change and "activate TEXT" on Return.
import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, Gtk  # noqa: E402


def surface_point(event):
    window, x, y = event.window, event.x, event.y
    while window.get_window_type() == Gdk.WindowType.CHILD:
        x, y = window.coords_to_parent(x, y)
        window = window.get_parent()
    return x, y


def button(kind):
    def handler(widget, event):
        x, y = surface_point(event)
        print(f"{kind} button {event.button} at {x:.2f}, {y:.2f}", flush=True)
        return False
    return handler


window = Gtk.Window(title="entry")
window.set_default_size(400, 200)
entry = Gtk.Entry()
window.add(entry)
entry.connect("button-press-event", button("press"))
entry.connect("button-release-event", button("release"))
entry.connect("changed", lambda e: print("text " + e.get_text(), flush=True))
entry.connect("activate", lambda e: print("activate " + e.get_text(), flush=True))
window.connect("destroy", Gtk.main_quit)
window.show_all()
Gtk.main()
