// Recordings without `libinput:` entries: the devices whose events libinput passes
// through unchanged are translated from evdev; the rest are diagnosed.

import InputRouter
import Testing

@testable import InputRouterRecording

/// A one-device evdev-only recording with the given evdev block and frames.
func evdevOnly(_ evdev: String, udev: [String] = [], frames: [[String]]) -> String {
    var text = "version: 1\nndevices: 1\ndevices:\n- node: /dev/input/event3\n  evdev:\n"
    text += evdev.split(separator: "\n").map { "    " + $0 + "\n" }.joined()
    text += "  udev:\n    properties:\n" + udev.map { "    - \($0)\n" }.joined() + "  quirks:\n  events:\n"
    for frame in frames {
        text += "  - evdev:\n" + frame.map { "    - [\($0)]\n" }.joined()
    }
    return text
}

@Suite struct EvdevOnlyTests {
    @Test func mouseWithHiResWheel() throws {
        let text = evdevOnly(
            """
            name: "M"
            codes:
              1: [272, 273]
              2: [0, 1, 6, 8, 11, 12]
            """,
            frames: [
                ["0, 1000, 2, 0, 3", "0, 1000, 2, 1, -2", "0, 1000, 0, 0, 0"],
                ["0, 2000, 1, 272, 1", "0, 2000, 0, 0, 0"],
                ["0, 3000, 2, 11, 30", "0, 3000, 0, 0, 0"],
                // The legacy REL_WHEEL is ignored when hi-res exists (it would count twice).
                ["0, 4000, 2, 8, -1", "0, 4000, 2, 11, -120", "0, 4000, 0, 0, 0"],
                ["0, 5000, 2, 12, 60", "0, 5000, 0, 0, 0"],
                ["0, 6000, 1, 272, 0", "0, 6000, 1, 273, 0", "0, 6000, 0, 0, 0"],
            ])
        let recording = try RecordingReader.parse(text, file: "m.yml")
        #expect(recording.devices.first?.deviceClass == .mouse)
        #expect(
            render(recording.events, first: 20) == """
                0.001000 dev0 added [pointer]
                0.001000 dev0 motion 3.00 -2.00 unaccel 3.00 -2.00
                0.002000 dev0 button 272 pressed
                0.003000 dev0 axis wheel v -3.75/-30 h -
                0.004000 dev0 axis wheel v 15.00/120 h -
                0.005000 dev0 axis wheel v - h 7.50/60
                0.006000 dev0 button 272 released
                """)
        #expect(recording.warnings.isEmpty)
    }

    @Test func mouseWithoutHiResUsesDetents() throws {
        let text = evdevOnly("name: \"M\"\ncodes:\n  2: [0, 1, 8]", frames: [["0, 10, 2, 8, 2", "0, 10, 0, 0, 0"]])
        #expect(
            render(try RecordingReader.parse(text, file: "m.yml").events, first: 5) == """
                0.000010 dev0 added [pointer]
                0.000010 dev0 axis wheel v -30.00/-240 h -
                """)
    }

    @Test func keyboardSkipsAutorepeatAndUnpairedReleases() throws {
        let text = evdevOnly(
            "name: \"K\"\ncodes:\n  1: [30, 31]\n  20: [0, 1]",
            frames: [
                ["0, 1, 1, 31, 0", "0, 1, 0, 0, 0"],
                ["0, 2, 4, 4, 30", "0, 2, 1, 30, 1", "0, 2, 0, 0, 0"],
                ["0, 3, 1, 30, 2", "0, 3, 0, 0, 0"],
                ["0, 4, 1, 30, 0", "0, 4, 0, 0, 0"],
            ])
        let recording = try RecordingReader.parse(text, file: "k.yml")
        #expect(
            render(recording.events, first: 9) == """
                0.000001 dev0 added [keyboard]
                0.000002 dev0 key 30 pressed
                0.000004 dev0 key 30 released
                """)
        #expect(
            recording.warnings.map(\.description) == [
                "k.yml:15:7: warning: release of key 31 that is not pressed; skipped"
            ])
    }

    @Test func switchTogglesOnlyOnChange() throws {
        let text = evdevOnly(
            "name: \"S\"\ncodes:\n  5: [0, 1, 10]",
            frames: [
                ["0, 1, 5, 0, 1", "0, 1, 0, 0, 0"], ["0, 2, 5, 0, 1", "0, 2, 0, 0, 0"],
                ["0, 3, 5, 10, 1", "0, 3, 5, 1, 0", "0, 3, 0, 0, 0"], ["0, 4, 5, 1, 1", "0, 4, 0, 0, 0"],
            ])
        #expect(
            render(try RecordingReader.parse(text, file: "s.yml").events, first: 9) == """
                0.000001 dev0 added [switch]
                0.000001 dev0 switch lid on
                0.000003 dev0 switch keypadSlide on
                0.000003 dev0 switch tabletMode off
                0.000004 dev0 switch tabletMode on
                """)
    }

    @Test func multitouchScreen() throws {
        let text = evdevOnly(
            """
            name: "T"
            codes:
              1: [330]
              3: [0, 1, 47, 53, 54, 57]
            absinfo:
              0: [0, 1023, 0, 0, 4]
              1: [0, 511, 0, 0, 4]
              47: [0, 9, 0, 0, 0]
              53: [0, 1023, 0, 0, 4]
              54: [0, 511, 0, 0, 4]
              57: [0, 65535, 0, 0, 0]
            properties: [1]
            """,
            frames: [
                ["0, 1, 3, 57, 5", "0, 1, 3, 53, 256", "0, 1, 3, 54, 128", "0, 1, 1, 330, 1", "0, 1, 0, 0, 0"],
                ["0, 2, 3, 47, 1", "0, 2, 3, 57, 6", "0, 2, 3, 53, 512", "0, 2, 3, 54, 256", "0, 2, 0, 0, 0"],
                ["0, 3, 3, 47, 0", "0, 3, 3, 53, 2000", "0, 3, 3, 47, 1", "0, 3, 3, 54, 0", "0, 3, 0, 0, 0"],
                ["0, 4, 3, 47, 0", "0, 4, 3, 57, -1", "0, 4, 0, 0, 0"],
                // Slot 0 again: its new touch takes the lowest free seat slot, 0.
                ["0, 5, 3, 57, 7", "0, 5, 3, 53, 0", "0, 5, 0, 0, 0"],
                ["0, 6, 3, 57, -1", "0, 6, 3, 47, 1", "0, 6, 3, 57, -1", "0, 6, 1, 330, 0", "0, 6, 0, 0, 0"],
            ])
        let recording = try RecordingReader.parse(text, file: "t.yml")
        #expect(recording.devices.first?.deviceClass == .touchscreen)
        #expect(
            render(recording.events, first: 20) == """
                0.000001 dev0 added [touch]
                0.000001 dev0 touch-down 0 0.2500 0.2500
                0.000001 dev0 touch-frame
                0.000002 dev0 touch-down 1 0.5000 0.5000
                0.000002 dev0 touch-frame
                0.000003 dev0 touch-motion 0 1.0000 0.2500
                0.000003 dev0 touch-motion 1 0.5000 0.0000
                0.000003 dev0 touch-frame
                0.000004 dev0 touch-up 0
                0.000004 dev0 touch-frame
                0.000005 dev0 touch-down 0 0.0000 0.2500
                0.000005 dev0 touch-frame
                0.000006 dev0 touch-up 0
                0.000006 dev0 touch-up 1
                0.000006 dev0 touch-frame
                """)
    }

    @Test func tabletIsDiagnosed() throws {
        let text = evdevOnly(
            "name: \"Pen\"\ncodes:\n  1: [320, 330]\n  3: [0, 1]\nabsinfo:\n  0: [0, 100, 0, 0, 1]\n  1: [0, 100, 0, 0, 1]",
            frames: [["0, 1, 3, 0, 5", "0, 1, 0, 0, 0"]])
        let recording = try RecordingReader.parse(text, file: "p.yml")
        #expect(recording.events.isEmpty)
        #expect(
            recording.warnings.map(\.description) == [
                "p.yml:4:3: warning: device \"Pen\" is a tablet (tool and pad events are built by libinput) and was recorded "
                    + "without libinput events, so it cannot be replayed faithfully without libinput; record it with "
                    + "`libinput record --with-libinput`, or play the file into kernel devices with `libinput replay` "
                    + "inside a VM; 1 frame(s) skipped"
            ])
    }

    @Test func twoDevicesMergeByTimeKeepingEachDevicesOrder() throws {
        // Device 1's clock runs behind device 0 and goes backwards once: its own order stays.
        let text = """
            version: 1
            devices:
            - evdev: {name: A, codes: {1: [30]}}
              events:
              - evdev: [[0, 10, 1, 30, 1], [0, 10, 0, 0, 0]]
              - evdev: [[0, 30, 1, 30, 0], [0, 30, 0, 0, 0]]
            - evdev: {name: B, codes: {1: [31]}}
              events:
              - evdev: [[0, 20, 1, 31, 1], [0, 20, 0, 0, 0]]
              - evdev: [[0, 5, 1, 31, 0], [0, 5, 0, 0, 0]]
            """
        #expect(
            render(try RecordingReader.parse(text, file: "two.yml").events, first: 9) == """
                0.000010 dev0 added [keyboard]
                0.000010 dev0 key 30 pressed
                0.000020 dev1 added [keyboard]
                0.000020 dev1 key 31 pressed
                0.000005 dev1 key 31 released
                0.000030 dev0 key 30 released
                """)
    }
}
