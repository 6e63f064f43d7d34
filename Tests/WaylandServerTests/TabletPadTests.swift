// zwp_tablet_pad_v2 as a real client (wl-probe --tablet) sees it. The fixture was recorded
// by real libinput (tools/vm-tablet-fixture.sh: uinput devices made as the wacom driver
// makes an Intuos5's pen and pad, in a VM, `libinput record --with-libinput`); its pad
// lines are derived from the recording's own libinput entries with regular expressions,
// so the project's decoder plays no part in what is expected. A second recording, written
// with RecordWriter, carries a pad layout with modes (libinput in a VM without the pad's
// LEDs gives one mode) and switches them.
import Foundation
import InputRouter
import Testing

@testable import InputRouterRecording
@testable import InputRouterWayland

let tabletRecording = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../RecordingTests/Fixtures/tablet.yml").standardized.path

/// What wl-probe must print for the recording's TABLET_PAD_* entries (pad P0, ring R0,
/// strip S0), from the YAML text alone.
func expectedPadLines(recording path: String) throws -> [String] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let button = try Regex(#"type: TABLET_PAD_BUTTON, button: (\d+), state: (pressed|released)"#)
    let ringStrip = try Regex(#"type: TABLET_PAD_(RING|STRIP), number: (\d+), position: (-?[\d.]+), source: (\w+)"#)
    var lines: [String] = []
    for line in text.split(separator: "\n").map(String.init) {
        if let m = try button.firstMatch(in: line) {
            lines.append("pad.button P0 \(m.output[1].substring!) \(m.output[2].substring!)")
        } else if let m = try ringStrip.firstMatch(in: line) {
            let what = m.output[1].substring! == "RING" ? "ring" : "strip"
            let n = m.output[2].substring!
            let name = (what == "ring" ? "R" : "S") + n
            let position = Double(m.output[3].substring!)!
            if m.output[4].substring! == "finger" { lines.append("\(what).source \(name) finger") }
            if position < 0 {
                lines.append("\(what).stop \(name)")
            } else if what == "ring" {
                lines.append("ring.angle \(name) \(String(format: "%.2f", position))")
            } else {
                lines.append("strip.position \(name) \(UInt32((position * 65535).rounded()))")
            }
            lines.append("\(what).frame \(name)")
        }
    }
    return lines
}

@Suite(.serialized) struct TabletPadTests {
    /// Lines without their serials; the serials are checked to be the router's, increasing.
    static func withoutSerials(_ lines: [String], _ h: ServerHarness) -> [String] {
        var serials: [UInt32] = []
        let plain = lines.map { line -> String in
            guard let r = line.range(of: " serial=") else { return line }
            serials.append(UInt32(line[r.upperBound...])!)
            return String(line[..<r.lowerBound])
        }
        #expect(serials == serials.sorted() && Set(serials).count == serials.count)
        return plain
    }

    @Test func theRealLibinputPadRecordingReachesTheFocusedWindow() throws {
        let h = try ServerHarness()
        let c = try h.mappedProbe(["--toplevel", "win", "100x100", "--tablet", "--no-touch"])
        let recording = try RecordingReader.read(path: tabletRecording, deviceIDBase: 100)
        #expect(recording.warnings.map(\.description) == [])
        try h.server.handle(recording)
        // The recording stops with both devices plugged in: unplugging the pad ends it.
        let pad = try #require(recording.devices.first { $0.padLayout != nil })
        h.server.handle(InputEvent(time: (recording.events.last?.time ?? 0) + 1000, device: pad.id, .deviceRemoved))
        let lines = Self.withoutSerials(
            h.settle(c).filter {
                $0.hasPrefix("pad.") || $0.hasPrefix("group.") || $0.hasPrefix("ring.") || $0.hasPrefix("strip.")
            }, h)
        let announce = [
            "pad.added P0", "pad.path P0 /dev/input/event5", "pad.buttons P0 9", "pad.group P0 G0",
            "group.buttons G0 [0 1 2 3 4 5 6 7 8]", "group.ring G0 R0", "group.strip G0 S0", "group.done G0",
            "pad.done P0",
            "pad.enter P0 win T0", "group.mode_switch G0 0",
        ]
        let events = try expectedPadLines(recording: tabletRecording)
        #expect(events.count >= 20)
        #expect(lines == announce + events + ["pad.leave P0 win", "pad.removed P0"], "\(lines)")
    }

    /// A pad whose layout has three modes (as libwacom gives an Intuos5's ring), written
    /// with RecordWriter: the mode button's press switches the group's mode before it is
    /// delivered, and the pad unplugged with a button held releases it before its leave.
    @Test func modesSwitchAndNothingStaysPressedWhenThePadGoes() throws {
        let h = try ServerHarness()
        let c = try h.mappedProbe(["--toplevel", "win", "100x100", "--tablet", "--no-touch"])
        var writer = RecordWriter(libinputVersion: "1.22.1")
        var pen = SyntheticDevices.device(.touchscreen, index: 0)
        pen.name = "Test Pen"
        pen.libinputCapabilities = [.tabletTool]
        var pad = RecordedDevice(id: DeviceID(1), name: "Test Pad", libinputCapabilities: [.tabletPad])
        pad.padLayout = TabletPadLayout(
            buttons: 3, rings: 1, strips: 1,
            groups: [TabletPadGroup(buttons: [0, 1, 2], rings: [0], strips: [0], modes: 3, toggles: [0])])
        let penIndex = writer.addDevice(pen)
        let padIndex = writer.addDevice(pad)
        writer.append(
            device: penIndex, evdev: [],
            libinput: [InputEvent(time: 0, device: DeviceID(0), .deviceAdded([.tabletTool]))])
        let kinds: [InputEvent.Kind] = [
            .deviceAdded([.tabletPad]),
            .tabletPadButton(button: 1, state: .pressed, mode: 0),
            .tabletPadButton(button: 1, state: .released, mode: 0),
            .tabletPadButton(button: 0, state: .pressed, mode: 1),
            .tabletPadButton(button: 0, state: .released, mode: 1),
            .tabletPadRing(ring: 0, position: 30, source: .finger, mode: 1),
            .tabletPadRing(ring: 0, position: -1, source: .finger, mode: 1),
            .tabletPadStrip(strip: 0, position: 0.5, source: .unknown, mode: 1),
            .tabletPadButton(button: 2, state: .pressed, mode: 1),
            .deviceRemoved,
        ]
        for (i, kind) in kinds.enumerated() {
            let event = InputEvent(time: UInt64(i + 1) * 10_000, device: DeviceID(1), kind)
            writer.append(
                device: padIndex, evdev: [EvdevRecord(time: event.time, type: 0, code: 0, value: 0)], libinput: [event])
        }
        let recording = try RecordingReader.parse(writer.yaml(), file: "pad.yml")
        #expect(recording.warnings.map(\.description) == [])
        #expect(recording.devices[1].padLayout?.tablet == recording.devices[0].id)
        try h.server.handle(recording)
        let lines = Self.withoutSerials(
            h.settle(c).filter {
                $0.hasPrefix("pad.") || $0.hasPrefix("group.") || $0.hasPrefix("ring.") || $0.hasPrefix("strip.")
            }, h)
        #expect(
            lines == [
                "pad.added P0", "pad.path P0 /dev/input/event1", "pad.buttons P0 3", "pad.group P0 G0",
                "group.buttons G0 [0 1 2]", "group.ring G0 R0", "group.strip G0 S0", "group.modes G0 3",
                "group.done G0",
                "pad.done P0", "pad.enter P0 win T0", "group.mode_switch G0 0",
                "pad.button P0 1 pressed", "pad.button P0 1 released",
                "group.mode_switch G0 1", "pad.button P0 0 pressed", "pad.button P0 0 released",
                "ring.source R0 finger", "ring.angle R0 30.00", "ring.frame R0", "ring.source R0 finger",
                "ring.stop R0", "ring.frame R0",
                "strip.position S0 32768", "strip.frame S0",
                "pad.button P0 2 pressed",
                "pad.button P0 2 released", "pad.leave P0 win", "pad.removed P0",
            ], "\(lines)")
    }

    /// LibinputSource's order when a pad's device comes before its tablet's: the pad is
    /// announced unbound (no enter: the enter must name a tablet), then described again
    /// once bound, which replaces it.
    @Test func aPadDescribedBeforeItsTabletEntersOnceBound() throws {
        let h = try ServerHarness()
        let c = try h.mappedProbe(["--toplevel", "win", "100x100", "--tablet", "--no-touch"])
        let pen = DeviceID(40)
        let pad = DeviceID(41)
        let unbound = TabletPadLayout(buttons: 2)
        var bound = unbound
        bound.tablet = pen
        h.server.handle(InputEvent(time: 1000, device: pad, .deviceAdded([.tabletPad])))
        h.server.handle(InputEvent(time: 1000, device: pad, .tabletPadAdded(unbound)))
        h.server.handle(InputEvent(time: 2000, device: pad, .tabletPadButton(button: 1, state: .pressed)))
        h.server.handle(InputEvent(time: 3000, device: pen, .deviceAdded([.tabletTool])))
        h.server.handle(InputEvent(time: 3000, device: pad, .tabletPadAdded(bound)))
        h.server.handle(InputEvent(time: 4000, device: pad, .tabletPadButton(button: 1, state: .released)))
        h.server.handle(InputEvent(time: 5000, device: pad, .tabletPadButton(button: 0, state: .pressed)))
        let lines = Self.withoutSerials(
            h.settle(c).filter {
                $0.hasPrefix("pad.") || $0.hasPrefix("group.") || $0.hasPrefix("tablet.")
            }, h)
        let announce = { (p: String, g: String) in
            [
                "pad.added \(p)", "pad.buttons \(p) 2", "pad.group \(p) \(g)", "group.buttons \(g) [0 1]",
                "group.done \(g)", "pad.done \(p)",
            ]
        }
        // The press made while unbound went to no client: its release goes nowhere either.
        #expect(
            lines == announce("P0", "G0") + ["tablet.added T0", "tablet.done T0", "pad.removed P0"]
                + announce("P1", "G1") + ["pad.enter P1 win T0", "group.mode_switch G1 0", "pad.button P1 0 pressed"],
            "\(lines)")
    }
}
