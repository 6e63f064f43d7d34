// Wheel clicks a real client receives at each wl_pointer version: value120 from v8, and
// whole axis_discrete steps before it, however libinput split the click into hi-res events.
import Foundation
import InputRouter
import InputRouterRecording
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct WheelClickTests {
    /// Tests/WaylandServerTests → Tests/RecordingTests/Fixtures (the shared generated mouse.yml).
    static let mouseRecording: String = {
        let file = #filePath
        return String(file[..<(file.lastIndex(of: "/") ?? file.endIndex)]) + "/../RecordingTests/Fixtures/mouse.yml"
    }()

    /// Starts a wl-probe bound at `version` with the pointer over its window, feeds it the
    /// axis events, and returns the wl_pointer axis lines it printed (frames left out), and
    /// how many frames came with them.
    static func axisLines(version: Int, _ events: [InputEvent.Kind]) throws -> (lines: [String], frames: Int) {
        let h = try ServerHarness()
        let c = try h.probe(["--toplevel", "win", "100x100", "--seat-version", "\(version)"])
        h.wait(for: c, line: "mapped win")
        h.warp(90, 90)
        let entered = h.settle(c)
        #expect(entered.contains("pointer.enter win 50.00 50.00"))
        for kind in events {
            h.time += 10_000
            h.server.handle(InputEvent(time: h.time, device: DeviceID(1), kind))
        }
        let lines = h.settle(c)
        return (lines.filter { $0.hasPrefix("pointer.axis") }, lines.filter { $0 == "pointer.frame" }.count)
    }

    static func wheel(_ vertical120: Int32, horizontal120: Int32 = 0) -> InputEvent.Kind {
        func axis(_ v: Int32) -> AxisValue? { v == 0 ? nil : AxisValue(value: Double(v) * 15 / 120, value120: v) }
        return .pointerAxis(source: .wheel, vertical: axis(vertical120), horizontal: axis(horizontal120))
    }

    /// What an old client is sent for `clicks` whole clicks on `axis` carrying `value`.
    static func click(_ axis: Int, _ clicks: Int, _ value: String, source: Bool = true) -> [String] {
        (source ? ["pointer.axis_source 0"] : []) + [
            "pointer.axis_discrete \(axis) \(clicks)", "pointer.axis \(axis) \(value)",
        ]
    }

    /// The recording's wheel: whole detents, then clicks libinput spread over hi-res steps
    /// of 30 and 60 (of 120), both ways and on both axes.
    @Test func recordedHiResClicksReachEveryVersion() throws {
        let recording = try RecordingReader.read(path: Self.mouseRecording)
        let axes = recording.events.map(\.kind).filter { if case .pointerAxis = $0 { true } else { false } }
        let amounts = axes.map { kind -> String in
            guard case .pointerAxis(_, let v, let h) = kind else { return "" }
            return "\(v?.value120 ?? 0)/\(h?.value120 ?? 0)"
        }
        #expect(
            amounts == ["120/0", "120/0", "120/0", "-120/0", "-120/0"] + Array(repeating: "-30/0", count: 6)
                + ["60/0", "60/0", "60/0", "0/120", "0/-30", "0/-30", "0/-30", "0/-30"])

        // v8: every hi-res step as it came.
        let v8 = try Self.axisLines(version: 8, axes)
        let expected8 = amounts.flatMap { a -> [String] in
            let p = a.split(separator: "/").map { Int32($0)! }
            let axis = p[0] != 0 ? 0 : 1
            let v = p[0] != 0 ? p[0] : p[1]
            return [
                "pointer.axis_source 0", "pointer.axis_value120 \(axis) \(v)",
                "pointer.axis \(axis) \(String(format: "%.2f", Double(v) * 15 / 120))",
            ]
        }
        #expect(v8.lines == expected8)
        #expect(v8.frames == 19)

        // v5 and v7: one discrete step per whole click. Six steps of -30 are one click
        // (at the fourth) and half a click; the following +60s change direction, so that
        // half is dropped and the second +60 completes a click; the third is half again.
        // Horizontally, four steps of -30 after a +120 are one click back.
        let old =
            Self.click(0, 1, "15.00") + Self.click(0, 1, "15.00") + Self.click(0, 1, "15.00")
            + Self.click(0, -1, "-15.00") + Self.click(0, -1, "-15.00")
            + Self.click(0, -1, "-15.00")
            + Self.click(0, 1, "15.00")
            + Self.click(1, 1, "15.00") + Self.click(1, -1, "-15.00")
        for version in [5, 7] {
            let lines = try Self.axisLines(version: version, axes)
            #expect(lines.lines == old, "wl_pointer v\(version)")
            #expect(lines.frames == 19, "wl_pointer v\(version)")
        }
    }

    @Test func threeThirdsOfAClickAreOneDiscreteStep() throws {
        let thirds = [Self.wheel(40), Self.wheel(40), Self.wheel(40)]
        let v7 = try Self.axisLines(version: 7, thirds)
        #expect(v7.lines == Self.click(0, 1, "15.00"))
        #expect(v7.lines.filter { $0.hasPrefix("pointer.axis_discrete") }.count == 1)
        let v8 = try Self.axisLines(version: 8, thirds)
        #expect(
            v8.lines
                == Array(
                    repeating: ["pointer.axis_source 0", "pointer.axis_value120 0 40", "pointer.axis 0 5.00"],
                    count: 3
                ).flatMap { $0 })
    }

    @Test func directionChangeAndAxisStopStartTheClickAgain() throws {
        // 80 then -40: the direction changed, so -40 - 80 is a whole click back.
        let back = try Self.axisLines(version: 7, [Self.wheel(80), Self.wheel(-40), Self.wheel(-80)])
        #expect(back.lines == Self.click(0, -1, "-15.00"))
        // A finger's axis_stop between two 80s: no click (80 + 80 would have been one).
        let stop = InputEvent.Kind.pointerAxis(
            source: .finger, vertical: AxisValue(value: 0, value120: 0), horizontal: nil)
        let stopped = try Self.axisLines(version: 7, [Self.wheel(80), stop, Self.wheel(80)])
        #expect(stopped.lines == ["pointer.axis_stop 0"])
        // Without the stop, the same two make one click.
        let joined = try Self.axisLines(version: 7, [Self.wheel(80), Self.wheel(80)])
        #expect(joined.lines == Self.click(0, 1, "20.00"))
    }
}
