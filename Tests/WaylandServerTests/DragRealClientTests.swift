// Drag and drop between two real GTK 3 processes (python3-gi) in the server: a press on the
// source's drag site and pointer motion past GTK's drag threshold make GTK itself call
// start_drag with the press's serial; the target widget is entered, accepts text, and on
// the release reads the text from the other process (wl_data_offer.receive) and finishes.
import Foundation
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct DragRealClientTests {
    static let environment = [
        "GDK_BACKEND": "wayland", "GTK_A11Y": "none", "NO_AT_BRIDGE": "1",
        "GSETTINGS_BACKEND": "memory", "WAYLAND_DEBUG": "client",
    ]

    func center(_ r: Rect) -> (Double, Double) {
        (Double(r.x) + Double(r.width) / 2, Double(r.y) + Double(r.height) / 2)
    }

    /// A protocol line (WAYLAND_DEBUG) for an event the client received: `iface@N.event(`.
    func received(_ c: ClientProcess, _ event: String) -> Bool {
        c.lines[c.mark...].contains { $0.contains("wl_data_source@") && !$0.contains("->") && $0.contains(event) }
    }

    @Test func gtkDragsTextFromOneProcessAndDropsItInAnother() throws {
        var config = WaylandServer.Configuration()
        // apart: CSD shadows take input
        config.policy.placeToplevel = MapOrderPlacement { n in (n == 0 ? 0 : 600, 0) }.place
        try dragAndDrop(in: ServerHarness(configuration: config))
    }

    /// The same under an embedder: `Configuration.embedded` (no focus on click of the
    /// server's) with focus on click done by hand in `beforePress`, as ir-embed and
    /// docs/embedding.md do it. The embedder presents at 60 Hz (GTK draws on frame
    /// callbacks) and places the windows apart.
    @Test func gtkDragsUnderAnEmbedderThatFocusesInBeforePress() throws {
        var config = WaylandServer.Configuration.embedded
        config.policy.placeToplevel = MapOrderPlacement { n in (n == 0 ? 0 : 600, 0) }.place
        config.policy.framePacing = .timer(milliseconds: 16)
        let h = try ServerHarness(configuration: config)
        h.server.beforePress = { [unowned server = h.server] node, seat in server.activate(node, seat: seat) }
        try dragAndDrop(in: h)
    }

    /// A source process and a target process mapped side by side (the target last, so it
    /// has the keyboard); a drag from the source, begun by the click that focuses it, drops
    /// the text in the target.
    func dragAndDrop(in h: ServerHarness) throws {
        let script = runtimeDirectory + "/gtk-dnd-\(getpid()).py"
        try gtkDragScript.write(toFile: script, atomically: true, encoding: .utf8)
        let text = "Grüße per drag and drop: 1 + 1 = 2"
        let source = try h.spawn("/usr/bin/python3", [script, "source", text], environment: Self.environment)
        try #require(h.wait(for: source, timeout: 20, awaiting: "the source window to map") { $0 == "mapped source" })
        let target = try h.spawn("/usr/bin/python3", [script, "target", ""], environment: Self.environment)
        try #require(h.wait(for: target, timeout: 20, awaiting: "the target window to map") { $0 == "mapped target" })
        try #require(h.dispatch(until: "both toplevels to map") { DragTests().toplevelFrames(h).count == 2 })
        let frames = DragTests().toplevelFrames(h)
        let (sx, sy) = center(frames[0])
        let (tx, ty) = center(frames[1])

        // The drag begins with the click that gives the source the keyboard: GTK 3 cites the
        // newest serial it saw in start_drag, the press's (focus on click goes before it).
        h.warp(sx, sy)
        // Press on the drag site (the whole content of the source window) and move past GTK's
        // 8-pixel threshold: GTK starts the drag.
        h.button(.pressed)
        h.wait(for: source, awaiting: "GTK to see the press") { $0 == "pressed" }
        for dx in stride(from: 4.0, through: 24, by: 4) { h.warp(sx + dx, sy) }
        try #require(h.wait(for: source, awaiting: "GTK to begin the drag") { $0 == "drag-begin" })
        try #require(h.dispatch(until: "the server to run the drag") { h.server.drag != nil })
        #expect(source.lines.contains { $0.contains("wl_keyboard@") && !$0.contains("->") && $0.contains(".enter(") })
        #expect(h.server.seat.keyboardFirstResponder == h.toplevel(titled: "source"))
        // GTK cited the press: its keyboard enter came before it.
        let messages = ProtocolLine.all(source.lines)
        let press = messages.last {
            !$0.sent && $0.interface == "wl_pointer" && $0.message == "button" && $0.arguments.last == "1"
        }
        let startDrag = messages.last { $0.sent && $0.interface == "wl_data_device" && $0.message == "start_drag" }
        #expect(
            startDrag != nil && startDrag?.arguments.last == press?.arguments.first, "\(String(describing: startDrag))")

        // Over to the target in steps; its drop site accepts the text (the source hears `target`
        // and the negotiated action) before the release.
        source.mark = source.lines.count
        for i in 1...8 {
            let f = Double(i) / 8
            h.warp(sx + 24 + (tx - sx - 24) * f, sy + (ty - sy) * f)
        }
        try #require(h.wait(for: target, awaiting: "the drag over the target") { $0 == "drag-motion" })
        h.warp(tx + 2, ty + 2)
        try #require(
            h.dispatch(until: "the target to accept the text and an action") {
                received(source, ".target(\"text/") && received(source, ".action(1)")
            })
        // The pointer was never on the target outside the drag, and a drag sends no wl_pointer event.
        #expect(!target.lines.contains { $0.contains("wl_pointer@") && !$0.contains("->") })
        h.button(.released)
        h.wait(for: target, awaiting: "the dropped text") { $0.hasPrefix("received ") }
        h.wait(for: source, awaiting: "the source to hear the drag ended") { $0.hasPrefix("drag-end") }
        #expect(target.lines.filter { $0.hasPrefix("received ") } == ["received \(text)"])
        #expect(source.lines.filter { $0.hasPrefix("drag-end") } == ["drag-end"])
        #expect(received(source, ".dnd_drop_performed(") && received(source, ".dnd_finished("))
        #expect(target.lines.contains { $0.contains("-> wl_data_offer@") && $0.contains(".finish(") })
        #expect(h.server.drag == nil)
    }
}

/// The source: one window whose content is a drag site for text (prints `pressed` on the
/// button press, `drag-begin`, and `drag-end` when the drag is over). The target: one window
/// whose content is a drop site for text (prints `drag-motion` while a drag is over it and
/// `received TEXT` for a drop).
private let gtkDragScript = #"""
    import sys
    import gi
    gi.require_version("Gtk", "3.0")
    from gi.repository import Gtk, Gdk

    role, text = sys.argv[1], sys.argv[2]
    window = Gtk.Window(title=role)
    window.set_default_size(300, 200)
    box = Gtk.EventBox()
    box.add(Gtk.Label(label=role))
    window.add(box)

    if role == "source":
        box.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [], Gdk.DragAction.COPY)
        box.drag_source_add_text_targets()
        box.connect("button-press-event", lambda w, e: print("pressed", flush=True) or False)
        box.connect("drag-begin", lambda w, c: print("drag-begin", flush=True))
        box.connect("drag-data-get", lambda w, c, data, info, time: data.set_text(text, -1))
        box.connect("drag-end", lambda w, c: print("drag-end", flush=True))
    else:
        box.drag_dest_set(Gtk.DestDefaults.ALL, [], Gdk.DragAction.COPY)
        box.drag_dest_add_text_targets()
        box.connect("drag-motion", lambda w, c, x, y, time: print("drag-motion", flush=True) or False)
        box.connect("drag-data-received",
                    lambda w, c, x, y, data, info, time: print("received", data.get_text(), flush=True))

    window.connect("map-event", lambda w, e: print("mapped", role, flush=True) or False)
    window.connect("destroy", Gtk.main_quit)
    window.show_all()
    Gtk.main()
    """#
