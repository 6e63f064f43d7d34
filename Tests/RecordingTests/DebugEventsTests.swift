// The `libinput debug-events` reader: realistic lines of every event type, errors at
// line and column, and recordings rendered the way the tool prints them reading back as
// the same events (at the tool's precision).

import InputRouter
import Testing

@testable import InputRouterRecording

@Suite struct DebugEventsTests {
    /// Lines as libinput 1.22's tool prints them (tabs after the time, '-' on device change).
    static let sample = """
        -event1   DEVICE_ADDED            Power Button                      seat0 default group1  cap:k
        -event4   DEVICE_ADDED            SynPS/2 Synaptics TouchPad        seat0 default group3  cap:pg  size 70x50mm tap(dl off) left scroll-nat scroll-2fg-edge click-buttonareas-clickfinger dwt-on
        -event5   DEVICE_ADDED            ELAN Touchscreen                  seat0 default group4  cap:t  size 256x144mm ntouches 10 calib
        -event6   DEVICE_ADDED            Lid Switch                        seat0 default group5  cap:S
        -event2   KEYBOARD_KEY            +0.000s\tKEY_A (30) pressed
         event2   KEYBOARD_KEY            +0.081s\tKEY_A (30) released
        -event4   POINTER_MOTION          +1.234s\t  1.00/ -2.50 ( +0.80/ -2.00)
         event4   POINTER_MOTION_ABSOLUTE +1.240s\t 12.34/ 56.78
         event4   POINTER_BUTTON          +1.300s\tBTN_LEFT (272) pressed, seat count: 1
         event4   POINTER_BUTTON          +1.400s\tBTN_LEFT (272) released, seat count: 0
         event4   POINTER_SCROLL_WHEEL    +1.500s\tvert 15.00/120.0* horiz 0.00/0.0 (wheel)
         event4   POINTER_SCROLL_WHEEL    +1.510s\tvert -3.75/-30.0* horiz 0.00/0.0 (wheel)
         event4   POINTER_SCROLL_FINGER   +1.600s\tvert 2.41/0.0* horiz 0.00/0.0 (finger)
         event4   POINTER_SCROLL_FINGER   +1.700s\tvert 0.00/0.0* horiz 0.00/0.0 (finger)
         event4   POINTER_SCROLL_CONTINUOUS +1.800s\tvert 0.00/0.0 horiz -1.25/0.0* (continuous)
         event4   GESTURE_SWIPE_BEGIN     +2.000s\t3
         event4   GESTURE_SWIPE_UPDATE    +2.010s\t3  5.20/-0.40 ( 4.80/-0.37 unaccelerated)
         event4   GESTURE_SWIPE_END       +2.020s\t3
         event4   GESTURE_PINCH_BEGIN     +2.100s\t2
         event4   GESTURE_PINCH_UPDATE    +2.110s\t2  0.10/ 0.20 ( 0.10/ 0.20 unaccelerated)  1.05 @ -2.50
         event4   GESTURE_PINCH_END       +2.120s\t2 cancelled
         event4   GESTURE_HOLD_BEGIN      +2.200s\t4
         event4   GESTURE_HOLD_END        +2.300s\t4 cancelled
        -event5   TOUCH_DOWN              +3.000s\t0 (0) 50.00/25.00 (128.00/36.00mm)
         event5   TOUCH_FRAME             +3.000s\t
         event5   TOUCH_MOTION            +3.010s\t0 (0) 50.50/25.25 (129.28/36.36mm)
         event5   TOUCH_FRAME             +3.010s\t
         event5   TOUCH_UP                +3.020s\t0 (0)
         event5   TOUCH_CANCEL            +3.030s\t1 (3)
        -event6   SWITCH_TOGGLE           +4.000s\tswitch lid state 1
         event6   SWITCH_TOGGLE           +4.100s\tswitch tablet-mode state 0
        -event4   DEVICE_REMOVED          SynPS/2 Synaptics TouchPad        seat0 default group3  cap:pg  size 70x50mm
        """

    static func described(_ name: String, _ sysname: String) -> DeviceDescription {
        DeviceDescription(name: name, path: "/dev/input/" + sysname)
    }

    @Test func readsEveryEventType() throws {
        let log = try DebugEventsReader.parse(Self.sample, file: "bug.txt")
        // event2's DEVICE_ADDED came before the paste starts: it still gets an id.
        #expect(log.warnings.map(\.description) == ["bug.txt:5:2: warning: events for event2 before its DEVICE_ADDED"])
        #expect(log.devices.map(\.sysname) == ["event1", "event4", "event5", "event6", "event2"])
        #expect(log.devices[1].name == "SynPS/2 Synaptics TouchPad")
        #expect(log.devices[1].capabilities == [.pointer, .gesture])
        let d1 = DeviceID(1)
        let d2 = DeviceID(2)
        let d3 = DeviceID(3)
        let d4 = DeviceID(4)
        let expected: [InputEvent] = [
            InputEvent(time: 0, device: DeviceID(0), .deviceAdded(.keyboard)),
            InputEvent(time: 0, device: d1, .deviceAdded([.pointer, .gesture])),
            InputEvent(time: 0, device: d2, .deviceAdded(.touch)),
            InputEvent(time: 0, device: d3, .deviceAdded(.switch)),
            InputEvent(time: 0, device: d4, .keyboardKey(key: 30, state: .pressed)),
            InputEvent(time: 81_000, device: d4, .keyboardKey(key: 30, state: .released)),
            InputEvent(
                time: 1_234_000, device: d1, .pointerMotion(dx: 1, dy: -2.5, unacceleratedDX: 0.8, unacceleratedDY: -2)),
            InputEvent(time: 1_240_000, device: d1, .pointerMotionAbsolute(x: 0.1234, y: 0.5678)),
            InputEvent(time: 1_300_000, device: d1, .pointerButton(button: 272, state: .pressed)),
            InputEvent(time: 1_400_000, device: d1, .pointerButton(button: 272, state: .released)),
            InputEvent(
                time: 1_500_000, device: d1,
                .pointerAxis(
                    source: .wheel, vertical: AxisValue(value: 15, value120: 120),
                    horizontal: nil)),
            InputEvent(
                time: 1_510_000, device: d1,
                .pointerAxis(
                    source: .wheel, vertical: AxisValue(value: -3.75, value120: -30),
                    horizontal: nil)),
            InputEvent(
                time: 1_600_000, device: d1,
                .pointerAxis(source: .finger, vertical: AxisValue(value: 2.41), horizontal: nil)),
            InputEvent(
                time: 1_700_000, device: d1,
                .pointerAxis(source: .finger, vertical: AxisValue(value: 0), horizontal: nil)),
            InputEvent(
                time: 1_800_000, device: d1,
                .pointerAxis(
                    source: .continuous, vertical: nil,
                    horizontal: AxisValue(value: -1.25))),
            InputEvent(time: 2_000_000, device: d1, .gesture(GestureEvent(kind: .swipe, phase: .begin, fingers: 3))),
            InputEvent(
                time: 2_010_000, device: d1,
                .gesture(GestureEvent(kind: .swipe, phase: .update, fingers: 3, dx: 5.2, dy: -0.4))),
            InputEvent(time: 2_020_000, device: d1, .gesture(GestureEvent(kind: .swipe, phase: .end, fingers: 3))),
            InputEvent(time: 2_100_000, device: d1, .gesture(GestureEvent(kind: .pinch, phase: .begin, fingers: 2))),
            InputEvent(
                time: 2_110_000, device: d1,
                .gesture(
                    GestureEvent(
                        kind: .pinch, phase: .update, fingers: 2, dx: 0.1, dy: 0.2,
                        scale: 1.05, rotation: -2.5))),
            InputEvent(
                time: 2_120_000, device: d1,
                .gesture(GestureEvent(kind: .pinch, phase: .end, fingers: 2, cancelled: true))),
            InputEvent(time: 2_200_000, device: d1, .gesture(GestureEvent(kind: .hold, phase: .begin, fingers: 4))),
            InputEvent(
                time: 2_300_000, device: d1,
                .gesture(GestureEvent(kind: .hold, phase: .end, fingers: 4, cancelled: true))),
            InputEvent(time: 3_000_000, device: d2, .touchDown(slot: 0, x: 0.5, y: 0.25)),
            InputEvent(time: 3_000_000, device: d2, .touchFrame),
            InputEvent(time: 3_010_000, device: d2, .touchMotion(slot: 0, x: 0.505, y: 0.2525)),
            InputEvent(time: 3_010_000, device: d2, .touchFrame),
            InputEvent(time: 3_020_000, device: d2, .touchUp(slot: 0)),
            InputEvent(time: 3_030_000, device: d2, .touchCancel(slot: 3)),
            InputEvent(time: 4_000_000, device: d3, .switchToggle(.lid, on: true)),
            InputEvent(time: 4_100_000, device: d3, .switchToggle(.tabletMode, on: false)),
            InputEvent(time: 4_100_000, device: d1, .deviceRemoved),
        ]
        #expect(log.events.count == expected.count)
        for (got, want) in zip(log.events, expected) { #expect(got == want) }
        #expect(log.sysnames.count == log.events.count)
        // Each added device is described with its name and node, as its line gives them;
        // event2, never added in the paste, is not.
        #expect(
            log.descriptions == [
                DeviceID(0): Self.described("Power Button", "event1"),
                d1: Self.described("SynPS/2 Synaptics TouchPad", "event4"),
                d2: Self.described("ELAN Touchscreen", "event5"), d3: Self.described("Lid Switch", "event6"),
            ])
    }

    @Test func warnsAboutWhatItSkips() throws {
        let text = """
            $ sudo libinput debug-events
            -event2   KEYBOARD_KEY            +0.000s\t*** (-1) pressed
             event2   KEYBOARD_KEY            +0.100s\t*** (-1) released
            -event9   TABLET_TOOL_PROXIMITY   +0.200s\t\t20.00*/30.00*\tpressure: 0.00\tpen      (0, id 0) proximity-in
             event9   TABLET_TOOL_AXIS        +0.300s\t\t20.00*/30.00*\tpressure: 0.10*
             event9   TABLET_TOOL_AXIS        +0.310s\t\t20.00*/30.00*\tpressure: 0.20*

            """
        let log = try DebugEventsReader.parse(text, file: "paste.txt")
        #expect(log.events.isEmpty)
        #expect(
            log.warnings.map(\.description) == [
                "paste.txt:1:1: warning: not a libinput debug-events line; skipped",
                "paste.txt:2:43: warning: key codes are hidden (run `libinput debug-events --show-keycodes`); hidden keys skipped",
                "paste.txt:4:11: warning: TABLET_TOOL_PROXIMITY has no InputRouter event (debug-events tablet lines are not read yet); skipped (reported once per device)",
                "paste.txt:5:11: warning: TABLET_TOOL_AXIS has no InputRouter event (debug-events tablet lines are not read yet); skipped (reported once per device)",
            ])
    }

    @Test func eventsBeforeDeviceAddedGetADevice() throws {
        let log = try DebugEventsReader.parse(
            " event7   KEYBOARD_KEY            +0.500s\tKEY_B (48) pressed\n",
            file: "p.txt", deviceIDBase: 10)
        #expect(log.events == [InputEvent(time: 500_000, device: DeviceID(10), .keyboardKey(key: 48, state: .pressed))])
        #expect(log.devices.map(\.sysname) == ["event7"])
        #expect(log.warnings.map(\.description) == ["p.txt:1:2: warning: events for event7 before its DEVICE_ADDED"])
    }

    @Test(arguments: [
        (" event2   POINTER_MOTION          +1.000s\t  1.00/  x.00 ( +1.00/ +2.00)", "b.txt:1:52: expected a number"),
        (
            " event2   POINTER_MOTION          +1.000s\t  1.00   2.00 ( +1.00/ +2.00)",
            "b.txt:1:49: expected '/', found '   2.00 ( +1'"
        ),
        (
            " event2   POINTER_MOTION          1.000\t  1.00/2.00 (1.00/2.00)",
            "b.txt:1:35: expected a time like '+1.234s'"
        ),
        (" event2   POINTER_MOTION          -1.000s\t  1.00/2.00 (1.00/2.00)", "b.txt:1:35: negative time"),
        (
            " event2   KEYBOARD_KEY            +0.100s\tKEY_A (30) pushed",
            "b.txt:1:54: expected 'pressed' or 'released', found 'pushed'"
        ),
        (
            " event2   KEYBOARD_KEY            +0.100s\tKEY_A (99999) pressed",
            "b.txt:1:43: key code 99999 is out of range"
        ),
        (
            " event2   TOUCH_DOWN              +0.100s\t0 (0) 1.00/2.00",
            "b.txt:1:58: expected '(', found the end of the line"
        ),
        (" event2   SWITCH_TOGGLE           +0.100s\tswitch lid state 2", "b.txt:1:60: switch state 2 is not 0 or 1"),
        (" event2   SWITCH_TOGGLE           +0.100s\tswitch door state 1", "b.txt:1:50: unknown switch 'door'"),
        (
            " event2   POINTER_SCROLL_WHEEL    +0.100s\tvert 1.00/0.0* horiz 0.00/0.0 (finger)",
            "b.txt:1:74: POINTER_SCROLL_WHEEL: unexpected scroll source 'finger'"
        ),
        (" event2   GESTURE_SWIPE_END       +0.100s\t3 aborted", "b.txt:1:45: expected 'cancelled', found 'aborted'"),
        (
            " event2   POINTER_BUTTON          +0.100s\tBTN_LEFT (272) pressed seat count: 1",
            "b.txt:1:65: expected ',', found ' seat count:'"
        ),
        (" event2   TOUCH_UP                +0.100s\t0 (0) extra", "b.txt:1:49: unexpected 'extra' after the event"),
        (
            "-event2   DEVICE_ADDED            Some Device   seat0 default group1",
            "b.txt:1:35: DEVICE_ADDED: no 'cap:' field"
        ),
        (
            "-event2   DEVICE_ADDED            Some Device   seat0 default group1  cap:kx",
            "b.txt:1:76: DEVICE_ADDED: unknown capability 'x'"
        ),
        (" event2   POINTER_MOTION          +1.000s\t nan/ 1.00 ( +1.00/ +2.00)", "b.txt:1:44: expected a number"),
    ])
    func errorsPointAtTheField(line: String, message: String) {
        #expect(throws: RecordingError.self) {
            try DebugEventsReader.parse(
                "-event2   DEVICE_ADDED  K  seat0 default group1  cap:kp\n" + line, file: "b.txt")
        }
        do {
            _ = try DebugEventsReader.parse(line, file: "b.txt")
            Issue.record("no error for \(line)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func olderPointerAxisLinesReadAsDetents() throws {
        let log = try DebugEventsReader.parse(
            " event3   POINTER_AXIS     +0.500s\tvert -15.00/-1* horiz 0.00/0 (wheel)", file: "old.txt")
        #expect(
            log.events.map(\.kind) == [
                .pointerAxis(
                    source: .wheel, vertical: AxisValue(value: -15, value120: -120),
                    horizontal: nil)
            ])
    }
}

/// Recordings rendered the way `libinput debug-events` prints them read back as the same
/// events, at the tool's precision: times to the millisecond (relative to the first
/// event), values to 0.005, positions to 0.00005 of the range; everything discrete
/// (types, codes, states, slots, sources, present axes, value120, fingers) exactly.
@Suite struct DebugEventsRoundTripTests {
    @Test(arguments: ["keyboard.yml", "mouse.yml", "touchscreen.yml", "touchpad.yml", "switches.yml", "multi.yml"])
    func recordingRoundTrips(fixture: String) throws {
        let recording = try RecordingReader.read(path: Paths.fixture(fixture))
        var formatter = DebugEventsFormatter()
        var lines: [String] = []
        for event in recording.events {
            if let line = formatter.line(
                event, sysname: "event\(event.device.index + 2)",
                name: recording.descriptions[event.device]?.name ?? "device")
            {
                lines.append(line)
            }
        }
        let log = try DebugEventsReader.parse(lines.joined(separator: "\n"), file: fixture)
        #expect(log.warnings.isEmpty, "\(log.warnings)")
        #expect(log.events.count == recording.events.count)
        let start = recording.events.first { if case .deviceAdded = $0.kind { false } else { true } }?.time ?? 0
        for (got, want) in zip(log.events, recording.events) {
            #expect(Self.close(got.kind, want.kind), "\(EventText.describe(got)) vs \(EventText.describe(want))")
            if case .deviceAdded = want.kind {
                // debug-events prints the name, not the node or the ids.
                #expect(log.descriptions[got.device]?.name == recording.descriptions[want.device]?.name)
                continue
            }
            if case .deviceRemoved = want.kind { continue }
            let relative = Int64(want.time) - Int64(start)
            #expect(abs(Int64(got.time) - relative) <= 500, "time \(got.time) vs \(relative)")
        }
        #expect(Set(log.devices.map(\.id)).count == Set(recording.events.map(\.device)).count)
    }

    static func near(_ a: Double, _ b: Double, _ tolerance: Double) -> Bool { abs(a - b) <= tolerance + 1e-9 }

    static func close(_ a: InputEvent.Kind, _ b: InputEvent.Kind) -> Bool {
        let v = 0.005
        let p = 0.00005
        switch (a, b) {
        case (.pointerMotion(let dx, let dy, let ux, let uy), .pointerMotion(let dx2, let dy2, let ux2, let uy2)):
            return near(dx, dx2, v) && near(dy, dy2, v) && near(ux, ux2, v) && near(uy, uy2, v)
        case (.pointerMotionAbsolute(let x, let y), .pointerMotionAbsolute(let x2, let y2)):
            return near(x, x2, p) && near(y, y2, p)
        case (.pointerAxis(let s, let v1, let h1), .pointerAxis(let s2, let v2, let h2)):
            func same(_ x: AxisValue?, _ y: AxisValue?) -> Bool {
                guard let x, let y else { return x == nil && y == nil }
                return near(x.value, y.value, v) && x.value120 == y.value120
            }
            return s == s2 && same(v1, v2) && same(h1, h2)
        case (.touchDown(let s, let x, let y), .touchDown(let s2, let x2, let y2)),
            (.touchMotion(let s, let x, let y), .touchMotion(let s2, let x2, let y2)):
            return s == s2 && near(x, x2, p) && near(y, y2, p)
        case (.gesture(let g), .gesture(let h)):
            guard g.kind == h.kind, g.phase == h.phase, g.fingers == h.fingers, g.cancelled == h.cancelled else {
                return false
            }
            // BEGIN and END lines carry no deltas, scale or angle.
            guard g.phase == .update else { return true }
            return near(g.dx, h.dx, v) && near(g.dy, h.dy, v)
                && (g.kind != .pinch || (near(g.scale, h.scale, v) && near(g.rotation, h.rotation, v)))
        default:
            return a == b
        }
    }

    /// The tool's text for one line of each kind, so the formatter is pinned to libinput's.
    @Test func formatsLikeLibinput() {
        var f = DebugEventsFormatter()
        let d = DeviceID(3)
        #expect(
            f.line(
                InputEvent(time: 5, device: d, .deviceAdded([.pointer, .gesture])), sysname: "event4",
                name: "Synthetic Fixture Touchpad")
                == "-event4   DEVICE_ADDED            Synthetic Fixture Touchpad        seat0 default group1  cap:pg")
        #expect(
            f.line(
                InputEvent(
                    time: 1_000_000, device: d,
                    .pointerMotion(
                        dx: -11.16, dy: 2.79, unacceleratedDX: -8,
                        unacceleratedDY: 2)), sysname: "event4")
                == " event4   POINTER_MOTION          +0.000s\t-11.16/  2.79 ( -8.00/ +2.00)")
        #expect(
            f.line(
                InputEvent(
                    time: 2_549_000, device: d,
                    .pointerAxis(
                        source: .wheel,
                        vertical:
                            AxisValue(value: -3.75, value120: -30), horizontal: nil)), sysname: "event4")
                == " event4   POINTER_SCROLL_WHEEL    +1.549s\tvert -3.75/-30.0* horiz 0.00/0.0 (wheel)")
        #expect(
            f.line(
                InputEvent(
                    time: 3_181_000, device: d,
                    .gesture(
                        GestureEvent(
                            kind: .pinch, phase: .update, fingers: 2, dx: 0.4, dy: 0.4, scale: 1.05, rotation: -0.17))),
                sysname: "event4")
                == " event4   GESTURE_PINCH_UPDATE    +2.181s\t2  0.40/ 0.40 ( 0.40/ 0.40 unaccelerated)  1.05 @ -0.17")
        #expect(
            f.line(InputEvent(time: 3_200_000, device: DeviceID(4), .touchFrame), sysname: "event5")
                == "-event5   TOUCH_FRAME             +2.200s\t")
    }
}
