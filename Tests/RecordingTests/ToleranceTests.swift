// What real files contain and the reader must accept: comments anywhere, null quirks and
// events, missing optional keys, hex numbers, integer map keys, YAML 1.1 booleans, entries
// mixing evdev and libinput, and `libinput:` keys with null values.

import InputRouter
import Testing

@testable import InputRouterRecording

@Suite struct ToleranceTests {
    @Test func quirkyButValidFile() throws {
        let text = """
            # libinput record
            version: 1   # a comment after a value
            devices:
            # a comment between keys
            - node: /dev/input/event7
              evdev:
                name: "Lid"
                id: [0x19, 0x0, 0x5, 1]
                codes:
                  0: [0]   # EV_SYN
                  5: [0]
              hid: [0x05, 0x01, 255]
              udev:
                properties:
                virtual: off
              quirks:
              libinput:
                capabilities: [switch, something-new]
              events:
              - libinput:
                - {type: DEVICE_ADDED, seat: seat0, logical_seat: default}
              # Current time is 13:41:56
              - evdev:
                - [  0,  5,   5,   0,       1] # EV_SW / SW_LID 1
                - [  0,  5,   0,   0,       0] # SYN_REPORT
                libinput:
                - {time: 0.000005, type: SWITCH_TOGGLE, switch: 1, state: On}
              - evdev:
                - [  0,  9,   5,   0,       0]
                - [  0,  9,   0,   0,       0]
                libinput:
              - evdev:
                - [  1,  0,   5,   0,       1]
                - [  1,  0,   0,   0,       0]
                libinput:
                - {time: 1.0, type: SWITCH_TOGGLE, switch: 1, state: yes}
            """
        let recording = try RecordingReader.parse(text, file: "q.yml")
        #expect(recording.warnings.isEmpty)
        let device = try #require(recording.devices.first)
        #expect(device.identity == DeviceIdentity(bus: 0x19, vendor: 0, product: 5, version: 1))
        #expect(device.hid == [5, 1, 255])
        #expect(device.udevProperties.isEmpty)
        #expect(device.libinputCapabilities == .switch)
        #expect(
            render(recording.events, first: 10) == """
                0.000005 dev0 added [switch]
                0.000005 dev0 switch lid on
                1.000000 dev0 switch lid on
                """)
    }

    @Test func nullEventsAndMissingOptionalKeys() throws {
        let recording = try RecordingReader.parse(
            "version: 1\ndevices:\n- evdev: {name: x}\n  events:\n", file: "n.yml")
        #expect(recording.events.isEmpty)
        #expect(recording.devices.first?.name == "x")
        #expect(recording.devices.first?.deviceClass == .other)
        #expect(recording.libinputVersion == nil)
    }

    @Test func libinputVersionIsKept() throws {
        let recording = try RecordingReader.read(path: Paths.fixture("switches.yml"))
        #expect(recording.libinputVersion == "1.22.1")
    }

    @Test func laterDocumentsAreIgnored() throws {
        let recording = try RecordingReader.parse(
            "version: 1\ndevices: []\n---\nnot: [valid, recording\n", file: "d.yml")
        #expect(recording.devices.isEmpty)
    }
}
