// A real GTK 4 application (python3-gi, gir1.2-gtk-4.0) inside ir-compositor, which replays
// the tablet recorded by real libinput (Tests/RecordingTests/Fixtures/tablet.yml): the pen
// strokes reach the app's Gtk.GestureStylus and the pad's buttons, ring and strip its
// Gtk.PadController. The lines the app must print are derived from the text libinput
// itself printed for that session (tablet.debug-events), mapped onto the 800×600 output
// by the tablet's size in the YAML's absinfo, and carried through what the protocol and
// GTK do to a value (wl_fixed, 0…65535 pressure, GTK's axis ranges): neither the project's
// reader nor its server plays a part in what is expected.
import Foundation
import InputRouter
import Testing

@testable import InputRouterRecording

/// A maximized undecorated window (so surface, window and widget coordinates agree) with a
/// drawing area; prints one line per GestureStylus signal, per pad action and per device
/// GDK adds to its seat.
let gtkTabletScript = """
    import gi
    gi.require_version("Gtk", "4.0")
    gi.require_version("Gdk", "4.0")
    from gi.repository import Gtk, Gdk, Gio, GLib

    def out(text):
        print(text, flush=True)

    def point(name, x, y, pressure, xtilt, ytilt, tool):
        out("stylus.%s %.2f %.2f pressure=%.4f tilt=%.4f/%.4f tool=%s" % (name, x, y, pressure, xtilt, ytilt, tool))

    def stylus(name):
        def handler(gesture, x, y):
            tool = gesture.get_device_tool()
            kind = tool.get_tool_type().value_nick if tool else "none"
            # GTK merges the motions of one frame into one signal: the merged ones are its backlog.
            ok, backlog = gesture.get_backlog()
            for c in (backlog if ok else []):
                a = c.axes
                point(name, a[Gdk.AxisUse.X], a[Gdk.AxisUse.Y], a[Gdk.AxisUse.PRESSURE], a[Gdk.AxisUse.XTILT], a[Gdk.AxisUse.YTILT], kind)
            axes = [gesture.get_axis(u)[1] for u in (Gdk.AxisUse.PRESSURE, Gdk.AxisUse.XTILT, Gdk.AxisUse.YTILT)]
            point(name, x, y, *axes, kind)
        return handler

    window = Gtk.Window(title="tablet")
    window.set_decorated(False)
    area = Gtk.DrawingArea(hexpand=True, vexpand=True)
    window.set_child(area)
    gesture = Gtk.GestureStylus()
    for name in ["proximity", "down", "motion", "up"]:
        gesture.connect(name, stylus(name))
    area.add_controller(gesture)

    actions = Gio.SimpleActionGroup()
    pad = Gtk.PadController.new(actions, None)
    def action(name, parameter, report):
        a = Gio.SimpleAction.new(name, parameter)
        a.connect("activate", lambda a, p: out(report(p)))
        actions.add_action(a)
    for i in range(9):
        action("button%d" % i, None, lambda p, i=i: "pad.button %d" % i)
        pad.set_action(Gtk.PadActionType.BUTTON, i, -1, "button %d" % i, "button%d" % i)
    action("ring", GLib.VariantType.new("d"), lambda p: "pad.ring %.2f" % p.get_double())
    action("strip", GLib.VariantType.new("d"), lambda p: "pad.strip %.4f" % p.get_double())
    pad.set_action(Gtk.PadActionType.RING, -1, -1, "ring", "ring")
    pad.set_action(Gtk.PadActionType.STRIP, -1, -1, "strip", "strip")
    window.add_controller(pad)

    def device_added(seat, device):
        out("device %s %s %s %s" % (device.get_source().value_nick, device.get_name(), device.get_vendor_id(), device.get_product_id()))
    Gdk.Display.get_default().get_default_seat().connect("device-added", device_added)

    loop = GLib.MainLoop()
    window.connect("close-request", lambda w: loop.quit())
    window.maximize()
    window.present()
    out("ready")
    loop.run()
    """

@Suite(.serialized) struct TabletGtkTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../RecordingTests/Fixtures").standardized.path
    static let output = (width: 800.0, height: 600.0)

    /// A value as wl_fixed_t carries it (1/256).
    static func fixed(_ v: Double) -> Double { (v * 256).rounded() / 256 }

    /// What the app prints for the debug-events text of `tablet.debug-events`, given the
    /// pen's size in mm. GestureStylus has no signal for proximity out; a frame's motion is
    /// `proximity` while the tip is up and `motion` while it is down, and comes before the
    /// frame's `down` or `up`; a barrel button is a `down`/`up` too (GDK's middle button) at
    /// the last position (PyGObject 3.42 cannot hand GTK 4's events to Python, so the app
    /// cannot print which button it was). PadController fires a button's action on its
    /// press, and a ring's or strip's on each frame: GTK ignores `stop` and repeats the last
    /// value.
    static func expectedLines(debugEvents text: String, size: (Double, Double)) throws -> [String] {
        let tool = try Regex(
            #"TABLET_TOOL_(PROXIMITY|AXIS|TIP)\s+\+[\d.]+s\s+(-?[\d.]+)\*?/(-?[\d.]+)\*?\s+tilt: (-?[\d.]+)\*?/(-?[\d.]+)\*?\s+pressure: ([\d.]+)\*?\s*(.*)$"#
        )
        let button = try Regex(#"TABLET_TOOL_BUTTON\s+\+[\d.]+s\s+(\d+) \(\w+\) (pressed|released)"#)
        let padButton = try Regex(#"TABLET_PAD_BUTTON\s+\+[\d.]+s\s+(\d+) (pressed|released)"#)
        let ringStrip = try Regex(#"TABLET_PAD_(RING|STRIP)\s+\+[\d.]+s\s+\w+ \d+ position (-?[\d.]+)"#)
        var lines: [String] = []
        var last = "" // the position and axes of the tool's last frame
        var tipDown = false
        var ring = ""
        var strip = ""
        var toolType = "" // from the proximity line: "pen      (0, id 0) proximity-in"
        func axes(_ m: Regex<AnyRegexOutput>.Match) -> String {
            func n(_ i: Int) -> Double { Double(m.output[i].substring!)! }
            let x = fixed(min(max(n(2) / size.0, 0), 1) * output.width)
            let y = fixed(min(max(n(3) / size.1, 0), 1) * output.height)
            let pressure = (min(max(n(6), 0), 1) * 65535).rounded() / 65535
            // GTK's tilt axes run -1…1 for -90…90°.
            return String(
                format: "%.2f %.2f pressure=%.4f tilt=%.4f/%.4f", x, y, pressure, fixed(n(4)) / 90, fixed(n(5)) / 90)
                + " tool=" + toolType
        }
        for line in text.split(separator: "\n").map(String.init) {
            if let m = try tool.firstMatch(in: line) {
                let kind = m.output[1].substring!
                let rest = m.output[7].substring!
                if kind == "PROXIMITY" { toolType = String(rest.split(separator: " ").first ?? "") }
                last = axes(m)
                switch kind {
                case "PROXIMITY": if rest.contains("proximity-in") { lines.append("stylus.proximity " + last) }
                case "AXIS": lines.append((tipDown ? "stylus.motion " : "stylus.proximity ") + last)
                default:
                    let down = rest.hasSuffix("down")
                    lines.append((down ? "stylus.proximity " : "stylus.motion ") + last)
                    lines.append((down ? "stylus.down " : "stylus.up ") + last)
                    tipDown = down
                }
            } else if let m = try button.firstMatch(in: line) {
                lines.append((m.output[2].substring! == "pressed" ? "stylus.down " : "stylus.up ") + last)
            } else if let m = try padButton.firstMatch(in: line), m.output[2].substring! == "pressed" {
                lines.append("pad.button \(m.output[1].substring!)")
            } else if let m = try ringStrip.firstMatch(in: line) {
                let position = Double(m.output[2].substring!)!
                if m.output[1].substring! == "RING" {
                    if position >= 0 { ring = String(format: "pad.ring %.2f", fixed(position)) }
                    lines.append(ring)
                } else {
                    if position >= 0 { strip = String(format: "pad.strip %.4f", (position * 65535).rounded() / 65535) }
                    lines.append(strip)
                }
            }
        }
        return lines
    }

    /// The pen's size in mm, as libinput counts it ((max - min + 1) / resolution), from the
    /// first device's ABS_X and ABS_Y absinfo in the YAML text.
    static func penSize(yaml: String) throws -> (Double, Double) {
        func axis(_ code: Int) throws -> Double {
            let m = try #require(
                try Regex(#"\n\s+\#(code): \[(-?\d+), (-?\d+), -?\d+, -?\d+, (\d+)\]"#).firstMatch(in: yaml))
            let (min, max, resolution) = (
                Double(m.output[1].substring!)!, Double(m.output[2].substring!)!, Double(m.output[3].substring!)!
            )
            return (max - min + 1) / resolution
        }
        return (try axis(0), try axis(1))
    }

    @Test func aGtk4AppSeesThePenAndThePadOfTheRealLibinputRecording() throws {
        let script = runtimeDirectory + "/gtk-tablet-\(getpid()).py"
        try gtkTabletScript.write(toFile: script, atomically: true, encoding: .utf8)
        // GTK delivers pad events to its keyboard focus: the user's keyboard, plugged in and
        // idle, is replayed first (docs/wayland.md, tablet pads).
        var writer = RecordWriter(libinputVersion: "1.22.1")
        let keyboard = writer.addDevice(SyntheticDevices.device(.keyboard, index: 0))
        writer.append(
            device: keyboard, evdev: [], libinput: [InputEvent(time: 0, device: DeviceID(0), .deviceAdded([.keyboard]))]
        )
        let keyboardRecording = runtimeDirectory + "/gtk-tablet-keyboard-\(getpid()).yml"
        try writer.yaml().write(toFile: keyboardRecording, atomically: true, encoding: .utf8)

        // The compositor starts the replay once the app mapped its window, which it
        // activates then; it exits once the replay is over and the app had its moment.
        let compositor = try CompositorProcess(
            [
                "--socket", "ir-gtk-tablet-\(getpid())", "--size", "800x600", "--speed", "0", "--exit-after-replay",
                "--input", "replay:\(keyboardRecording)", "--input", "replay:\(Self.fixtures)/tablet.yml",
                "--", "/usr/bin/python3", script,
            ],
            environment: ["GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1", "GSETTINGS_BACKEND": "memory", "DISPLAY": nil])
        let process = compositor.process
        // Python, GObject and GTK start in a few seconds (over ten under make test's load);
        // a compositor still running after a minute is stopped and the test fails.
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGTERM) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        let out = compositor.readToExit().split(separator: "\n").map(String.init)
        watchdog.cancel()
        let said = "ir-compositor said:\n" + out.joined(separator: "\n")
        #expect(process.terminationStatus == 0, "\(said)")
        #expect(out.contains("client 1 | ready"), "\(said)")

        let prefix = "client 1 | "
        let lines = out.filter { $0.hasPrefix(prefix + "stylus.") || $0.hasPrefix(prefix + "pad.") }.map {
            String($0.dropFirst(prefix.count))
        }
        let yaml = try String(contentsOfFile: Self.fixtures + "/tablet.yml", encoding: .utf8)
        let expected = try Self.expectedLines(
            debugEvents: String(contentsOfFile: Self.fixtures + "/tablet.debug-events", encoding: .utf8),
            size: Self.penSize(yaml: yaml))
        #expect(expected.count == 30) // 17 of the pen, 13 of the pad
        #expect(lines == expected, "\(said)")
        // GTK names the tablet's devices after the tablet's `name`: the pen's, as libinput
        // printed it ("event4  - Wacom Intuos5 M Pen: device is a tablet").
        let debugEvents = try String(contentsOfFile: Self.fixtures + "/tablet.debug-events", encoding: .utf8)
        let name = try #require(
            try Regex(#"event\d+\s+- (.+): device is a tablet\n"#).firstMatch(in: debugEvents)?.output[1].substring)
        // The pen's vendor and product id are the tablet's `id`: the YAML's first device's
        // `id: [bus, vendor, product, version]`, which GTK prints as four hex digits.
        let ids = try #require(try Regex(#"id: \[\d+, (\d+), (\d+), \d+\]"#).firstMatch(in: yaml))
        let hex = { (s: Substring?) in String(format: "%04x", Int(s ?? "") ?? -1) }
        let penIDs = "\(hex(ids.output[1].substring)) \(hex(ids.output[2].substring))"
        let devices = out.filter { $0.hasPrefix(prefix + "device ") }.map { String($0.dropFirst(prefix.count)) }
        #expect(
            devices == [
                "device keyboard Wayland Keyboard None None", "device mouse Logical pointer for \(name) None None",
                "device pen \(name) \(penIDs)", "device tablet-pad Pad device None None",
            ], "\(said)")
    }
}
