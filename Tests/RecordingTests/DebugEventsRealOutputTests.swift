// Real `libinput debug-events --show-keycodes --enable-tap` output (libinput 1.22.1),
// captured by tools/vm-libinput-test.sh in a VM while the fixture recordings were played
// into uinput devices with `libinput replay`; unplug.txt is tools/vm-unplug.py pulling
// devices with keys, a button and two fingers held. The text includes what the tool
// mixes into its output (libinput's own log lines), as a user's paste would.

import InputRouter
import Testing

@testable import InputRouterRecording

@Suite struct DebugEventsRealOutputTests {
    static func read(_ name: String) throws -> (DebugEventsLog, [InputEvent]) {
        let log = try DebugEventsReader.read(path: Paths.fixture("debug-events/\(name).txt"))
        for warning in log.warnings { #expect(warning.message == "not a libinput debug-events line; skipped") }
        // The device libinput replay created (the VM's own keyboard, mouse and power
        // button are listed too, without events).
        let device = log.devices.first {
            $0.name?.hasPrefix("Synthetic Fixture") == true || $0.name?.hasPrefix("Unplug") == true
        }
        #expect(device != nil)
        return (log, log.events.filter { $0.device == device?.id })
    }

    /// Keyboard, mouse buttons and motion, touchscreen: the same events, kind by kind, as
    /// the recording that was replayed (libinput saw the same evdev frames).
    @Test(arguments: ["keyboard", "mouse", "touchscreen"])
    func sameKindsAsTheRecording(name: String) throws {
        let (_, events) = try Self.read(name)
        let recording = try RecordingReader.read(path: Paths.fixture("\(name).yml"))
        var got = Counts(events)
        var want = Counts(recording.events)
        #expect(got.other == 1) // DEVICE_REMOVED when libinput replay ended
        got.other = 0
        if name == "mouse" {
            // The recording reader derives partial wheel steps from REL_WHEEL_HI_RES and
            // finds 19 axis events; libinput 1.22 sent 18 (see wheelMatchesLibinput).
            #expect(got.axis == 18 && want.axis == 19)
            got.axis = 0
            want.axis = 0
        }
        #expect(got == want)
    }

    @Test func keysCarryTheirCodes() throws {
        let (_, events) = try Self.read("keyboard")
        let recording = try RecordingReader.read(path: Paths.fixture("keyboard.yml"))
        let keys = events.compactMap { if case .keyboardKey(let k, let s) = $0.kind { (k, s) } else { nil } }
        let recorded = recording.events.compactMap {
            if case .keyboardKey(let k, let s) = $0.kind { (k, s) } else { nil }
        }
        #expect(keys.map(\.0) == recorded.map(\.0))
        #expect(keys.map(\.1) == recorded.map(\.1))
    }

    /// What libinput's wheel code sent for the mouse: whole detents and hi-res partial
    /// steps with their value120, and horizontal scrolling.
    @Test func wheelMatchesLibinput() throws {
        let (_, events) = try Self.read("mouse")
        let wheel = events.compactMap { event -> String? in
            guard case .pointerAxis(.wheel, let v, let h) = event.kind else { return nil }
            return "\(v?.value120 ?? 0)/\(h?.value120 ?? 0)"
        }
        #expect(
            wheel == ["120/0", "120/0", "120/0", "-120/0", "-120/0"] + Array(repeating: "-30/0", count: 6)
                + ["60/0", "60/0", "60/0", "0/120", "0/-60", "0/-30", "0/-30"])
    }

    @Test func touchpadGesturesScrollingAndTaps() throws {
        let (log, events) = try Self.read("touchpad")
        #expect(log.devices.first { $0.name == "Synthetic Fixture Touchpad" }?.capabilities == [.pointer, .gesture])
        let c = Counts(events)
        #expect(c.motion == 29 && c.axis == 34 && c.buttons == 2 && c.gestures == 56)
        let gestures = events.compactMap { if case .gesture(let g) = $0.kind { g } else { nil } }
        #expect(gestures.filter { $0.kind == .swipe }.allSatisfy { $0.fingers == 3 })
        #expect(gestures.filter { $0.kind == .pinch }.allSatisfy { $0.fingers == 2 })
        #expect(gestures.filter { $0.kind == .hold && $0.phase == .begin }.count == 3)
        #expect(gestures.contains { $0.kind == .pinch && $0.phase == .update && $0.scale > 1 })
        // Two-finger scrolling ends with a stop on both axes.
        let scrolls = events.compactMap {
            if case .pointerAxis(.finger, let v, let h) = $0.kind { (v, h) } else { nil }
        }
        #expect(scrolls.last.map { $0.0?.value == 0 && $0.1?.value == 0 } == true)
        // The tap (tapping enabled) is a left click.
        let buttons = events.compactMap { if case .pointerButton(let b, let s) = $0.kind { "\(b) \(s)" } else { nil } }
        #expect(buttons == ["272 pressed", "272 released"])
    }

    /// Devices pulled mid-press: libinput releases what they held, then removes them.
    @Test func unplugReleasesEverything() throws {
        let log = try DebugEventsReader.read(path: Paths.fixture("debug-events/unplug.txt"))
        let tail = log.events.suffix(9).map { EventText.describe($0.kind) }
        #expect(
            tail == [
                "key 30 released", "key 42 released", "removed",
                "button 272 released", "removed",
                "touch-cancel 0", "touch-cancel 1", "touch-frame", "removed",
            ])
    }
}
