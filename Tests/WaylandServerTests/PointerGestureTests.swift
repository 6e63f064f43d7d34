// zwp_pointer_gestures_v1 as a real client (wl-probe --gestures) sees it: the touchpad
// recording's swipe and pinch replayed through the server, and a compositor recognizer
// that takes a gesture at its begin or half-way.
import Foundation
import InputRouter
import InputRouterRecording
import Testing

@testable import InputRouterWayland

/// The shared fixture (a copy of /work/shared/fixtures/recordings/generated/touchpad.yml).
let touchpadRecording = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../RecordingTests/Fixtures/touchpad.yml").standardized.path

/// The lines wl-probe must print for the recording's own libinput gesture entries, read from
/// the YAML text with a regular expression: the project's recording decoder plays no part.
func expectedGestureLines(recording path: String, surface: String) throws -> [String] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let entry = try Regex(#"type: GESTURE_(SWIPE|PINCH|HOLD)_(BEGIN|UPDATE|END), nfingers: (\d+)(.*)\}"#)
    let pair = try Regex(#"delta: \[\s*(-?[\d.]+),\s*(-?[\d.]+)\]"#)
    let angle = try Regex(#"angle_delta:\s*(-?[\d.]+)"#)
    let scale = try Regex(#"scale:\s*(-?[\d.]+)"#)
    func number(_ s: Substring) -> String { String(format: "%.2f", Double(s)!) }
    var lines: [String] = []
    for line in text.split(separator: "\n") {
        guard let m = try entry.firstMatch(in: String(line)) else { continue }
        let kind = String(m.output[1].substring!).lowercased()
        let phase = m.output[2].substring!
        let fingers = m.output[3].substring!
        let rest = String(m.output[4].substring!)
        switch phase {
        case "BEGIN": lines.append("gesture.\(kind).begin \(surface) fingers \(fingers)")
        case "UPDATE":
            let d = try pair.firstMatch(in: rest)!.output
            var l = "gesture.\(kind).update \(number(d[1].substring!)) \(number(d[2].substring!))"
            if kind == "pinch" {
                l += " \(number(try scale.firstMatch(in: rest)!.output[1].substring!))"
                l += " \(number(try angle.firstMatch(in: rest)!.output[1].substring!))"
            }
            lines.append(l)
        default: lines.append("gesture.\(kind).end cancelled=\(rest.contains("cancelled: true") ? 1 : 0)")
        }
    }
    return lines
}

/// Claims swipes once they have gone `distance` to one side: a workspace-switch binding.
final class SwipeAfterDistance: GestureRecognizer {
    let distance: Double
    var travelled = 0.0
    var seen: [GesturePhase] = []
    init(distance: Double) { self.distance = distance }
    override func gesture(_ event: GestureEvent, time: UInt64) -> State {
        seen.append(event.phase)
        guard event.kind == .swipe else { return .failed }
        travelled += event.dx
        return abs(travelled) >= distance ? .recognized : .possible
    }
    override func reset() { travelled = 0 }
}

@Suite(.serialized) struct PointerGestureTests {
    func gestureLines(_ lines: [String]) -> [String] { lines.filter { $0.hasPrefix("gesture.") } }

    @Test func touchpadRecordingReachesTheSurfaceUnderThePointer() throws {
        let expected = try expectedGestureLines(recording: touchpadRecording, surface: "win")
        #expect(expected.filter { $0.contains(".begin") }.count == 2) // one swipe, one pinch
        #expect(expected.count > 40)
        let h = try ServerHarness()
        // The window covers the output below and right of (40, 40): the pointer stays over it.
        let c = try h.mappedProbe(["--toplevel", "win", "1240x680", "--gestures", "--no-keyboard", "--no-touch"])
        h.warp(640, 380)
        let recording = try RecordingReader.read(path: touchpadRecording, deviceIDBase: 100)
        var replayer = try Replayer(events: recording.events, speed: .asFastAsPossible)
        replayer.start(at: 0)
        while let event = replayer.next() { h.server.handle(event) }
        let seen = gestureLines(h.settle(c))
        #expect(seen == expected)
    }

    @Test func holdBeginAndEnd() throws {
        let h = try ServerHarness()
        let c = try h.mappedProbe(["--toplevel", "win", "200x100", "--gestures"])
        h.warp(90, 90)
        h.gesture(.hold, .begin, fingers: 3)
        h.gesture(.hold, .end, fingers: 3, cancelled: true)
        #expect(gestureLines(h.settle(c)) == ["gesture.hold.begin win fingers 3", "gesture.hold.end cancelled=1"])
    }

    @Test func aRecognizerClaimsASwipeHalfWayAndTheClientGetsACancelledEnd() throws {
        let h = try ServerHarness()
        let recognizer = SwipeAfterDistance(distance: 30)
        h.server.seat.addRecognizer(recognizer)
        let c = try h.probe(["--toplevel", "win", "200x100", "--gestures", "--no-keyboard", "--no-touch"])
        h.wait(for: c, line: "mapped win")
        h.warp(90, 90)
        _ = h.settle(c)
        h.gesture(.swipe, .begin, fingers: 3)
        h.gesture(.swipe, .update, fingers: 3, dx: 12, dy: 1)
        h.gesture(.swipe, .update, fingers: 3, dx: 12, dy: 0)
        #expect(
            h.settle(c) == [
                "gesture.swipe.begin win fingers 3", "gesture.swipe.update 12.00 1.00",
                "gesture.swipe.update 12.00 0.00",
            ])
        h.gesture(.swipe, .update, fingers: 3, dx: 12, dy: 0) // 36 > 30: claimed
        #expect(h.settle(c) == ["gesture.swipe.end cancelled=1", "pointer.leave win", "pointer.frame"])
        h.gesture(.swipe, .update, fingers: 3, dx: 12, dy: 0)
        h.gesture(.swipe, .end, fingers: 3)
        // The rest went to the recognizer; then the pointer is the client's again.
        #expect(h.settle(c) == ["pointer.enter win 50.00 50.00", "pointer.frame"])
        #expect(recognizer.seen == [.begin, .update, .update, .update, .update, .end])
        // The next swipe starts afresh and, short of the distance, stays the client's.
        h.gesture(.swipe, .begin, fingers: 3)
        h.gesture(.swipe, .update, fingers: 3, dx: 5, dy: 0)
        h.gesture(.swipe, .end, fingers: 3)
        #expect(
            h.settle(c) == [
                "gesture.swipe.begin win fingers 3", "gesture.swipe.update 5.00 0.00",
                "gesture.swipe.end cancelled=0",
            ])
    }

    @Test func aGestureClaimedAtItsBeginNeverReachesTheClient() throws {
        let h = try ServerHarness()
        h.server.seat.addRecognizer(SwipeAfterDistance(distance: 0))
        let c = try h.probe(["--toplevel", "win", "200x100", "--gestures", "--no-keyboard", "--no-touch"])
        h.wait(for: c, line: "mapped win")
        h.warp(90, 90)
        _ = h.settle(c)
        h.gesture(.swipe, .begin, fingers: 4)
        h.gesture(.swipe, .update, fingers: 4, dx: 3, dy: 0)
        h.gesture(.swipe, .end, fingers: 4)
        h.gesture(.pinch, .begin, fingers: 2) // not a swipe: the client's
        h.gesture(.pinch, .update, fingers: 2, dx: 1, dy: -1, scale: 1.5, rotation: -2)
        h.gesture(.pinch, .end, fingers: 2)
        #expect(
            gestureLines(h.settle(c)) == [
                "gesture.pinch.begin win fingers 2", "gesture.pinch.update 1.00 -1.00 1.50 -2.00",
                "gesture.pinch.end cancelled=0",
            ])
    }
}

extension ServerHarness {
    /// A touchpad gesture from the pointer device, as libinput reports it.
    func gesture(
        _ kind: GestureKind, _ phase: GesturePhase, fingers: Int32, dx: Double = 0, dy: Double = 0,
        scale: Double = 1, rotation: Double = 0, cancelled: Bool = false
    ) {
        time += 1000
        let g = GestureEvent(
            kind: kind, phase: phase, fingers: fingers, dx: dx, dy: dy, scale: scale, rotation: rotation,
            cancelled: cancelled)
        server.handle(InputEvent(time: time, device: DeviceID(1), .gesture(g)))
    }
}
