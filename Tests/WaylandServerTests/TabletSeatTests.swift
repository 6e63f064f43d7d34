// Tablets and pads on several seats, with real clients: wl-probe "a" makes its tablet seat
// from the first wl_seat, "b" from the second (`--seat-index 1`). The real-libinput
// recording of an Intuos5's pen and pad (tablet.yml) is replayed on one seat; the client of
// that seat gets its tablet, tool and pad, the other client nothing of them. What the
// client must print is derived from the YAML text (as TabletPadTests does), not from the
// project's reader.
import Foundation
import InputRouter
import Testing

@testable import InputRouterRecording
@testable import InputRouterWayland

/// Every line wl-probe must print for the recording's tool entries (pen tool0 on tablet T0)
/// when the pen maps onto an `output`-sized output and the window is at `origin` with
/// `size`, from the YAML text: the pen's millimetres over its ABS_X/ABS_Y range (absinfo
/// maximum / resolution) give the layout point; entries off the window reach nobody.
func expectedToolLines(recording path: String, window: String, origin: Point, size: Point, output: Point) throws
    -> [String]
{
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let absinfo = try Regex(#"^\s+([01]): \[(\d+), (\d+), \d+, \d+, (\d+)\]"#)
    var extent: [Double] = [0, 0] // millimetres across x and y
    let entry = try Regex(#"type: TABLET_TOOL_(\w+), (.*)\}"#)
    let point = try Regex(#"point: \[([\d.]+), ([\d.]+)\], tilt: \[(-?[\d.]+), (-?[\d.]+)\], pressure: ([\d.]+)"#)
    var lines: [String] = []
    var inside = false
    for line in text.split(separator: "\n").map(String.init) {
        if let m = try absinfo.firstMatch(in: line), extent[Int(m.output[1].substring!)!] == 0 {
            extent[Int(m.output[1].substring!)!] =
                (Double(m.output[3].substring!)! - Double(m.output[2].substring!)!) / Double(m.output[4].substring!)!
            continue
        }
        guard let m = try entry.firstMatch(in: line) else { continue }
        let type = String(m.output[1].substring!)
        let rest = String(m.output[2].substring!)
        if type == "BUTTON" {
            let b = try Regex(#"button: (\d+), state: (\w+)"#).firstMatch(in: rest)!
            if inside {
                lines += ["tool.button tool0 \(b.output[1].substring!) \(b.output[2].substring!)", "tool.frame tool0"]
            }
            continue
        }
        let p = try point.firstMatch(in: rest)!
        let x = Double(p.output[1].substring!)! / extent[0] * output.x - origin.x
        let y = Double(p.output[2].substring!)! / extent[1] * output.y - origin.y
        // The axes before the motion (GTK reads them at `motion`).
        let motion = [
            "tool.pressure tool0 \(UInt32((Double(p.output[5].substring!)! * 65535).rounded()))",
            "tool.tilt tool0 \(p.output[3].substring!) \(p.output[4].substring!)",
            "tool.motion tool0 \(String(format: "%.2f %.2f", x, y))",
        ]
        let over = x >= 0 && y >= 0 && x < size.x && y < size.y
        switch (type, rest.contains("proximity: in"), rest.contains("tip: down")) {
        case ("PROXIMITY", true, _):
            inside = over
            if inside { lines += ["tool.proximity_in tool0 \(window) T0"] + motion + ["tool.frame tool0"] }
        case ("PROXIMITY", false, _):
            if inside { lines += ["tool.proximity_out tool0", "tool.frame tool0"] }
            inside = false
        case ("TIP", _, let down):
            if inside { lines += motion + [down ? "tool.down tool0" : "tool.up tool0", "tool.frame tool0"] }
        default: // AXIS
            if inside { lines += motion + ["tool.frame tool0"] }
        }
    }
    return lines
}

/// Equal lines, but for positions within 0.02: libinput's range (maximum - minimum, or
/// one more) and wl_fixed's 1/256 round differently in the last digit.
func closeLines(_ got: String, _ want: String) -> Bool {
    guard got.hasPrefix("tool.motion "), want.hasPrefix("tool.motion ") else { return got == want }
    let g = got.split(separator: " ").suffix(2).compactMap { Double($0) }
    let w = want.split(separator: " ").suffix(2).compactMap { Double($0) }
    return g.count == 2 && w.count == 2 && abs(g[0] - w[0]) <= 0.02 && abs(g[1] - w[1]) <= 0.02
}

@Suite(.serialized) struct TabletSeatTests {
    /// The recording's pen and its tablet, as a tablet seat is told of them: with the name,
    /// ids and node the replay's `deviceAdded` describes.
    static func toolAnnounce(name: String? = nil, id: String? = nil) -> [String] {
        ["tablet.added T0"] + (name.map { ["tablet.name T0 \($0)"] } ?? []) + (id.map { ["tablet.id T0 \($0)"] } ?? [])
            + [
                "tablet.path T0 /dev/input/event4", "tablet.done T0",
                "tool.added tool0", "tool.type tool0 pen", "tool.capability tool0 tilt",
                "tool.capability tool0 pressure", "tool.done tool0",
            ]
    }

    /// `toolAnnounce` with the pen's name and its `id: [bus, vendor, product, version]` as
    /// the fixture's YAML text has them (not as our reader reads them).
    static func recordedToolAnnounce() throws -> [String] {
        let yaml = try String(contentsOfFile: tabletRecording, encoding: .utf8)
        let ids = try #require(try Regex(#"id: \[\d+, (\d+), (\d+), \d+\]"#).firstMatch(in: yaml))
        let name = try #require(try Regex(#"name: "([^"]*Pen)""#).firstMatch(in: yaml))
        return toolAnnounce(
            name: String(name.output[1].substring!), id: "\(ids.output[1].substring!) \(ids.output[2].substring!)")
    }

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
        try h.server.handle(recording, seat: seat)
        let pad = try #require(recording.devices.first { $0.padLayout != nil })
        h.time = (recording.events.last?.time ?? 0) + 1000
        h.server.handle(InputEvent(time: h.time, device: pad.id, .deviceRemoved), seat: seat)
        return pad.id
    }

    /// What the client of the replay's seat must see: the pen's tablet and tool announced,
    /// its proximity, tip and button events, the pad announced with every event of the
    /// recording, then its leave and removal.
    static func expectReplay(
        _ lines: [String], _ h: ServerHarness, window: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let plain = TabletPadTests.withoutSerials(lines, h)
        // The window covers the output: every tool entry reaches it, the first proximity too.
        let tool =
            try Self.recordedToolAnnounce()
            + (try expectedToolLines(
                recording: tabletRecording, window: window, origin: Point(0, 0),
                size: Point(1280, 720), output: Point(1280, 720)))
        #expect(tool.count > 50)
        let toolLines = plain.filter { $0.hasPrefix("tablet.") || $0.hasPrefix("tool.") }
        #expect(toolLines.count == tool.count, "\(toolLines)", sourceLocation: sourceLocation)
        for (got, want) in zip(toolLines, tool) {
            #expect(closeLines(got, want), "\(got) != \(want)", sourceLocation: sourceLocation)
        }
        let pad = plain.filter { ["pad.", "group.", "ring.", "strip."].contains(where: $0.hasPrefix) }
        let padAnnounce = [
            "pad.added P0", "pad.path P0 /dev/input/event5", "pad.buttons P0 9", "pad.group P0 G0",
            "group.buttons G0 [0 1 2 3 4 5 6 7 8]", "group.ring G0 R0", "group.strip G0 S0", "group.done G0",
            "pad.done P0",
            "pad.enter P0 \(window) T0", "group.mode_switch G0 0",
        ]
        #expect(
            pad == padAnnounce + (try expectedPadLines(recording: tabletRecording)) + [
                "pad.leave P0 \(window)", "pad.removed P0",
            ],
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

/// The same through `ir-compositor --seat seat1 --input replay:tablet.yml`: the replay plays
/// on seat1, whose client b (above a) gets the pen's stroke; a, on seat0, hears nothing.
@Suite struct TabletSeatCompositorTests {
    @Test func theCompositorReplaysATabletOnTheSeatNamed() throws {
        let out = try CompositorTests().runCompositor([
            "--socket", "ir-tablet-seats-\(getpid())", "--size", "800x600", "--speed", "0", "--exit-after-replay",
            "--seat", "seat1", "--input", "replay:\(tabletRecording)",
            "--client", "\(productsDirectory)/wl-probe --toplevel a 760x560 --tablet --no-touch",
            "--client", "\(productsDirectory)/wl-probe --seat-index 1 --toplevel b 700x500 --tablet --no-touch",
        ])
        #expect(out.last == "ir-compositor: done")
        #expect(out.contains("client 1 | mapped a") && out.contains("client 2 | mapped b"))
        let said = { (client: Int) in
            out.compactMap { line in
                line.hasPrefix("client \(client) | ") ? String(line.dropFirst("client \(client) | ".count)) : nil
            }
            .filter(TabletSeatTests.tabletLine)
        }
        #expect(said(1) == [], "\(said(1))")
        let b = said(2).map { line in line.range(of: " serial=").map { String(line[..<$0.lowerBound]) } ?? line }
        // b is the second window of the cascade, at (72, 72). The first proximity, in the
        // tablet's corner, is off every window.
        let tool = try expectedToolLines(
            recording: tabletRecording, window: "b", origin: Point(72, 72), size: Point(700, 500),
            output: Point(800, 600))
        #expect(tool.count > 40)
        let toolLines = b.filter { $0.hasPrefix("tablet.") || $0.hasPrefix("tool.") }
        // The replay's deviceAdded carries the recording's name and ids.
        let announce = try TabletSeatTests.recordedToolAnnounce()
        #expect(announce.contains("tablet.name T0 Wacom Intuos5 M Pen") && announce.contains("tablet.id T0 1386 42"))
        #expect(toolLines.count == announce.count + tool.count, "\(toolLines)")
        for (got, want) in zip(toolLines, announce + tool) { #expect(closeLines(got, want), "\(got) != \(want)") }
        // The pad is announced there; the seat's keyboard is on no window, so it enters none.
        #expect(
            b.filter { !$0.hasPrefix("tablet.") && !$0.hasPrefix("tool.") } == [
                "pad.added P0", "pad.path P0 /dev/input/event5", "pad.buttons P0 9", "pad.group P0 G0",
                "group.buttons G0 [0 1 2 3 4 5 6 7 8]", "group.ring G0 R0", "group.strip G0 S0", "group.done G0",
                "pad.done P0",
            ])
    }
}
