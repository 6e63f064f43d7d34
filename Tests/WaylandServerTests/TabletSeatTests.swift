// Tablets and pads on several seats, with real clients: wl-probe "a" makes its tablet seat
// from the first wl_seat, "b" from the second (`--seat-index 1`). The real-libinput
// recording of an Intuos5's pen and pad (tablet.yml) is replayed on one seat; the client of
// that seat gets its tablet, tool and pad, the other client nothing of them. What the
// client must print is derived from the YAML text (as TabletPadTests does), not from the
// project's reader.
import Foundation
import InputRouter
@testable import Recording
import Testing

@testable import WaylandServer

/// What wl-probe must print for the recording's tool entries, values left out: proximity,
/// tip and button lines (pen tool0 on tablet T0 over window `window`), from the YAML alone.
func expectedToolLines(recording path: String, window: String) throws -> [String] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let proximity = try Regex(#"type: TABLET_TOOL_PROXIMITY, proximity: (in|out)"#)
    let tip = try Regex(#"type: TABLET_TOOL_TIP, tip: (down|up)"#)
    let button = try Regex(#"type: TABLET_TOOL_BUTTON, button: (\d+), state: (pressed|released)"#)
    var lines: [String] = []
    for line in text.split(separator: "\n").map(String.init) {
        if let m = try proximity.firstMatch(in: line) {
            lines.append(m.output[1].substring! == "in" ? "tool.proximity_in tool0 \(window) T0" : "tool.proximity_out tool0")
        } else if let m = try tip.firstMatch(in: line) {
            lines.append("tool.\(m.output[1].substring!) tool0")
        } else if let m = try button.firstMatch(in: line) {
            lines.append("tool.button tool0 \(m.output[1].substring!) \(m.output[2].substring!)")
        }
    }
    return lines
}

@Suite(.serialized) struct TabletSeatTests {
    static func tabletLine(_ line: String) -> Bool {
        ["tablet.", "tool.", "pad.", "group.", "ring.", "strip."].contains { line.hasPrefix($0) }
    }

    /// Two seats; a (on the first) and b (on the second) both cover the 1280×720 output,
    /// b above when `bAbove` (else a): the pen is over the window of the client of its seat.
    /// Each seat's keyboard is on its own client's window, so each seat's pad can enter only
    /// there.
    static func twoSeats(bAbove: Bool) throws -> (ServerHarness, Seat, a: ClientProcess, b: ClientProcess) {
        let h = try ServerHarness()
        let second = try h.server.addSeat(name: "seat1")
        let a = try h.probe(["--toplevel", "a", "1280x720", "--tablet", "--no-touch"])
        h.wait(for: a, line: "mapped a")
        let aNode = try #require(h.server.seat.keyboardFirstResponder)
        let b = try h.probe(["--seat-index", "1", "--toplevel", "b", "1280x720", "--tablet", "--no-touch"])
        h.wait(for: b, line: "mapped b")
        let bNode = try #require(h.server.seat.keyboardFirstResponder)
        #expect(aNode != bNode)
        h.server.placeWindow(aNode, x: 0, y: 0)
        h.server.placeWindow(bNode, x: 0, y: 0)
        h.server.activate(bNode, seat: second)
        h.server.activate(aNode)
        h.server.raiseWindow(bAbove ? bNode : aNode)
        _ = h.settle(a)
        _ = h.settle(b)
        return (h, second, a, b)
    }

    /// The fixture replayed on `seat` (its devices numbered from 100), its pad unplugged
    /// at the end; returns the pad's device.
    static func replay(_ h: ServerHarness, on seat: Seat) throws -> DeviceID {
        let recording = try RecordingReader.read(path: tabletRecording, deviceIDBase: 100)
        #expect(recording.warnings.map(\.description) == [])
        for d in recording.devices { h.server.devicePaths[d.id] = d.node }
        for event in recording.events { h.server.handle(event, seat: seat) }
        let pad = try #require(recording.devices.first { $0.padLayout != nil })
        h.time = (recording.events.last?.time ?? 0) + 1000
        h.server.handle(InputEvent(time: h.time, device: pad.id, .deviceRemoved), seat: seat)
        return pad.id
    }

    /// What the client of the replay's seat must see: the pen's tablet and tool announced,
    /// its proximity, tip and button events, the pad announced with every event of the
    /// recording, then its leave and removal.
    static func expectReplay(_ lines: [String], _ h: ServerHarness, window: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let plain = TabletPadTests.withoutSerials(lines, h)
        #expect(Array(plain.prefix(2)) == ["tablet.added T0", "tablet.done T0"], sourceLocation: sourceLocation)
        #expect(plain.contains("tool.added tool0") && plain.contains("tool.type tool0 pen"), "\(plain)", sourceLocation: sourceLocation)
        let discrete = plain.filter {
            ["tool.proximity", "tool.down", "tool.up", "tool.button"].contains(where: $0.hasPrefix)
        }
        let tool = try expectedToolLines(recording: tabletRecording, window: window)
        #expect(tool.count >= 8)
        // The first proximity (at 0.5 mm from the corner) is over the window too: both cover the output.
        #expect(discrete == tool, sourceLocation: sourceLocation)
        #expect(plain.contains { $0.hasPrefix("tool.motion tool0 ") }, sourceLocation: sourceLocation)
        let pad = plain.filter { ["pad.", "group.", "ring.", "strip."].contains(where: $0.hasPrefix) }
        let announce = [
            "pad.added P0", "pad.path P0 /dev/input/event5", "pad.buttons P0 9", "pad.group P0 G0",
            "group.buttons G0 [0 1 2 3 4 5 6 7 8]", "group.ring G0 R0", "group.strip G0 S0", "group.done G0", "pad.done P0",
            "pad.enter P0 \(window) T0", "group.mode_switch G0 0",
        ]
        #expect(pad == announce + (try expectedPadLines(recording: tabletRecording)) + ["pad.leave P0 \(window)", "pad.removed P0"],
                "\(pad)", sourceLocation: sourceLocation)
    }

    @Test func aTabletOnTheSecondSeatReachesOnlyTheClientOfThatSeat() throws {
        let (h, second, a, b) = try Self.twoSeats(bAbove: true)
        _ = try Self.replay(h, on: second)
        try Self.expectReplay(h.settle(b).filter(Self.tabletLine), h, window: "b")
        #expect(h.settle(a).filter(Self.tabletLine) == [])
    }

    /// The converse, with the second seat holding a pen of its own under the same device
    /// number as the first seat's: each tablet seat lists its seat's tablet only, and the
    /// second seat's unplug removes the tablet there only.
    @Test func aTabletOnTheFirstSeatStaysOffTheSecondSeatsTabletSeat() throws {
        let (h, second, a, b) = try Self.twoSeats(bAbove: false)
        h.server.handle(InputEvent(time: 1, device: DeviceID(100), .deviceAdded([.tabletTool])), seat: second)
        #expect(h.settle(b).filter(Self.tabletLine) == ["tablet.added T0", "tablet.done T0"])
        _ = try Self.replay(h, on: h.server.seat)
        try Self.expectReplay(h.settle(a).filter(Self.tabletLine), h, window: "a")
        #expect(h.settle(b).filter(Self.tabletLine) == [])
        h.time += 1000
        h.server.handle(InputEvent(time: h.time, device: DeviceID(100), .deviceRemoved), seat: second)
        #expect(h.settle(b).filter(Self.tabletLine) == ["tablet.removed T0"])
        #expect(h.settle(a).filter(Self.tabletLine) == [])
        // The first seat's pen is still there for a: unplugged on its own seat, it goes.
        h.time += 1000
        h.server.handle(InputEvent(time: h.time, device: DeviceID(100), .deviceRemoved))
        #expect(h.settle(a).filter(Self.tabletLine) == ["tablet.removed T0", "tool.removed tool0"])
    }
}
