// When a recording ends: its last frame, even one that makes no event, or the quiet time
// `libinput record --autorestart` writes after the last event; and a replay that lasts
// until then at every speed.

import Foundation
import InputRouter
import Testing

@testable import InputRouterRecording

@Suite struct RecordingEndTests {
    /// mouse.yml's device with `events` (the lines after its `events:`) instead of its own.
    static func mouse(events: String) throws -> String {
        let text = try String(contentsOfFile: Paths.fixture("mouse.yml"), encoding: .utf8)
        return String(text[..<text.range(of: "  events:\n")!.upperBound]) + events
    }

    static let added = """
          - libinput:
            - {type: DEVICE_ADDED, seat: seat0, logical_seat: default}

        """
    /// One motion frame at `seconds.micros`.
    static func motion(_ seconds: Int, _ micros: Int) -> String {
        """
          - evdev:
            - [  \(seconds), \(micros),   2,   0,       4]
            - [  \(seconds), \(micros),   0,   0,       0]
            libinput:
            - {time: \(seconds).\(String(format: "%06d", micros)), type: POINTER_MOTION, delta: [  4.00,   0.00], unaccel: [  4.00,   0.00]}

        """
    }

    @Test func aFixtureEndsAtItsLastFrame() throws {
        let recording = try RecordingReader.read(path: Paths.fixture("keyboard.yml"))
        // keyboard.yml's last row: [  5, 266431,   0,   0,       0]; its first at 0.
        #expect(recording.endTime == 5_266_431)
        #expect(recording.duration == 5_266_431)
    }

    /// A frame with no libinput event (a lone SYN_REPORT, `libinput:` null) after the last
    /// motion: no event, but the user was still there.
    @Test func aLastFrameWithoutAnEventIsTheEnd() throws {
        let text = try Self.mouse(
            events: Self.added + Self.motion(1, 0) + Self.motion(1, 500_000) + """
                  - evdev:
                    - [  3, 250000,   0,   0,       0]
                    libinput:

                """)
        let recording = try RecordingReader.parse(text, file: "quiet.yml")
        #expect(recording.events.last?.time == 1_500_000)
        #expect(recording.endTime == 3_250_000)
        #expect(recording.duration == 2_250_000) // from the first event, at 1 s
    }

    /// `libinput record --autorestart=2` ends each device's events with this comment, and no
    /// newline, once 2 s passed without one (tools/libinput-record.c).
    @Test func theClosingCommentsQuietTimeFollowsTheLastEvent() throws {
        let text =
            try Self.mouse(events: Self.added + Self.motion(0, 0) + Self.motion(0, 400_000))
            + "# Closing after 2s inactivity"
        let recording = try RecordingReader.parse(text, file: "autorestart.yml")
        #expect(recording.endTime == 2_400_000)
        #expect(recording.duration == 2_400_000)
        // Without it, the last event is the end.
        let plain = try RecordingReader.parse(
            try Self.mouse(events: Self.added + Self.motion(0, 0) + Self.motion(0, 400_000)),
            file: "plain.yml")
        #expect(plain.endTime == 400_000)
    }

    @Test func aReplayLastsUntilTheEndAtItsSpeed() throws {
        let text =
            try Self.mouse(events: Self.added + Self.motion(1, 0) + Self.motion(2, 0)) + "# Closing after 3s inactivity"
        let recording = try RecordingReader.parse(text, file: "end.yml")
        #expect(recording.endTime == 5_000_000)
        var recorded = try Replayer(recording)
        recorded.start(at: 100)
        #expect(recorded.endDueTime() == 100 + 4_000_000) // 1 s of events, then 3 s quiet
        while recorded.next() != nil {}
        #expect(recorded.isFinished && !recorded.isOver(now: 4_000_099) && recorded.isOver(now: 4_000_100))
        var double = try Replayer(recording, speed: .multiple(2))
        double.start(at: 0)
        #expect(double.endDueTime() == 2_000_000)
        var fastest = try Replayer(recording, speed: .asFastAsPossible)
        fastest.start(at: 7)
        #expect(fastest.endDueTime() == 7)
        // Not over while an event is still to come, even past the end's time.
        #expect(!fastest.isOver(now: 7))
        // Made from events alone, a replay ends at its last event.
        var events = try Replayer(events: recording.events)
        events.start(at: 0)
        #expect(events.endTime == 2_000_000 && events.endDueTime() == 1_000_000)
    }
}
