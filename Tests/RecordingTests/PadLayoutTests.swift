// A tablet pad's layout from a recording: `libinput record` writes none, so it is built as
// libinput builds it without libwacom, from the evdev description, and refined by the
// recorded events' modes; InputRouter's own files carry it as `libinput: pad:`.

import Foundation
import InputRouter
import Testing

@testable import InputRouterRecording

@Suite struct PadLayoutTests {
    /// The real-libinput fixture: the layout read agrees with what libinput debug-events,
    /// run beside the recorder in the VM, said of the same pad.
    @Test func theRecordedPadHasTheLayoutLibinputReported() throws {
        let recording = try RecordingReader.read(path: Paths.fixture("tablet.yml"), deviceIDBase: 100)
        #expect(recording.warnings.map(\.description) == [])
        let pen = try #require(recording.devices.first { $0.libinputCapabilities == [.tabletTool] })
        let pad = try #require(recording.devices.first { $0.libinputCapabilities == [.tabletPad] })
        let debug = try String(contentsOfFile: Paths.fixture("tablet.debug-events"), encoding: .utf8)
        let said = try #require(
            try Regex(#"Intuos5 M Pad .* buttons:(\d+) strips:(\d+) rings:(\d+) mode groups:(\d+)"#)
                .firstMatch(in: debug)
        ).output
        let layout = try #require(pad.padLayout)
        #expect(Int(layout.buttonCount) == Int(said[1].substring!)!)
        #expect(Int(layout.stripCount) == Int(said[2].substring!)!)
        #expect(Int(layout.ringCount) == Int(said[3].substring!)!)
        #expect(Int(layout.groupCount) == Int(said[4].substring!)!)
        #expect(layout == TabletPadLayout(buttons: 9, rings: 1, strips: 1, tablet: pen.id))
        // Its layout follows its DEVICE_ADDED, before its first event.
        let ofPad = recording.events.filter { $0.device == pad.id }.map(\.kind)
        #expect(ofPad.prefix(2) == [.deviceAdded([.tabletPad]), .tabletPadAdded(layout)])
        #expect(
            recording.descriptions[pad.id]
                == DeviceDescription(
                    name: "Wacom Intuos5 M Pad", path: "/dev/input/event5", bus: 3, vendor: 1386, product: 42,
                    version: 272))
        #expect(ofPad.count == 18)
    }

    /// The project's LibinputSource watched the same devices in the VM (`libinput-trace
    /// --record`): the layout it asked libinput for (libinput_device_tablet_pad_* and the
    /// mode group calls, written as `pad:`) is the one read from libinput record's file,
    /// and it saw the same pad events, modes included.
    @Test func liveSourceAgreesWithLibinputRecord() throws {
        let recorded = try RecordingReader.read(path: Paths.fixture("tablet.yml"))
        let live = try RecordingReader.read(path: Paths.fixture("tablet-live.yml"))
        let pad = try #require(recorded.devices.first { $0.libinputCapabilities == [.tabletPad] })
        let livePad = try #require(live.devices.first { $0.libinputCapabilities == [.tabletPad] })
        #expect(livePad.name == "Wacom Intuos5 M Pad")
        var layout = try #require(livePad.padLayout)
        var expected = try #require(pad.padLayout)
        layout.tablet = nil
        expected.tablet = nil
        #expect(layout == expected)
        // libinput record prints positions with two decimals; LiveRecorder writes them whole.
        func two(_ p: Double) -> Double { (p * 100).rounded() / 100 }
        func padEvents(_ r: Recording, _ d: RecordedDevice) -> [InputEvent.Kind] {
            r.events.filter { $0.device == d.id }.compactMap { e -> InputEvent.Kind? in
                switch e.kind {
                case .tabletPadButton: e.kind
                case .tabletPadRing(let n, let p, let s, let m):
                    .tabletPadRing(ring: n, position: two(p), source: s, mode: m)
                case .tabletPadStrip(let n, let p, let s, let m):
                    .tabletPadStrip(strip: n, position: two(p), source: s, mode: m)
                default: nil
                }
            }
        }
        #expect(padEvents(live, livePad) == padEvents(recorded, pad) && padEvents(live, livePad).count == 16)
    }

    /// Modes and mode buttons show only in the events: one more mode than the highest seen,
    /// the first event's mode (one before, when it is a mode button's press), toggles.
    @Test func modesComeFromTheRecordedEvents() throws {
        let text = """
            version: 1
            ndevices: 1
            devices:
            - node: /dev/input/event9
              evdev:
                name: "Pad"
                codes:
                  1: [256, 257, 258, 304, 305]
                  3: [0, 1, 3, 4, 8]
              udev:
                properties:
                - ID_INPUT_TABLET_PAD=1
              libinput:
                capabilities: [pad]
              events:
              - libinput:
                - {type: DEVICE_ADDED, seat: seat0, logical_seat: default}
              - libinput:
                - {time: 0.100000, type: TABLET_PAD_BUTTON, button: 0, state: pressed, mode: 2, is-toggle: true}
                - {time: 0.110000, type: TABLET_PAD_BUTTON, button: 0, state: released, mode: 2, is-toggle: true}
                - {time: 0.120000, type: TABLET_PAD_RING, number: 0, position: 20.00, source: finger, mode: 2}

            """
        let recording = try RecordingReader.parse(text, file: "t.yml")
        let layout = try #require(recording.devices[0].padLayout)
        // BTN_0..BTN_2 and BTN_A, BTN_B; ABS_WHEEL; ABS_RX and ABS_RY. No tablet in the file.
        #expect(
            layout
                == TabletPadLayout(
                    buttons: 5, rings: 1, strips: 2,
                    groups: [
                        TabletPadGroup(
                            buttons: [0, 1, 2, 3, 4], rings: [0], strips: [0, 1], modes: 3, mode: 1, toggles: [0])
                    ]))
        #expect(recording.events.map(\.kind).contains(.tabletPadButton(button: 0, state: .pressed, mode: 2)))
    }

    /// What LiveRecorder writes (libinput's layout, as `pad:`) reads back as it was.
    @Test func theWrittenLayoutReadsBack() throws {
        let layout = TabletPadLayout(
            buttons: 18, rings: 2, strips: 0,
            groups: [
                TabletPadGroup(buttons: Array(0..<9), rings: [0], modes: 4, mode: 3, toggles: [8]),
                TabletPadGroup(buttons: Array(9..<18), rings: [1], modes: 4, mode: 0, toggles: [17]),
            ])
        var writer = RecordWriter(libinputVersion: "1.22.1")
        let index = writer.addDevice(
            RecordedDevice(
                id: DeviceID(0), name: "Cintiq Pad", libinputCapabilities: [.tabletPad],
                padLayout: layout))
        writer.append(
            device: index, evdev: [],
            libinput: [
                InputEvent(time: 0, device: DeviceID(0), .deviceAdded([.tabletPad])),
                InputEvent(time: 0, device: DeviceID(0), .tabletPadAdded(layout)), // not an entry: the header has it
                InputEvent(time: 1000, device: DeviceID(0), .tabletPadButton(button: 17, state: .pressed, mode: 1)),
            ])
        let yaml = writer.yaml()
        #expect(
            yaml.contains(
                "    pad: {buttons: 18, rings: 2, strips: 0, groups: [{buttons: [0, 1, 2, 3, 4, 5, 6, 7, 8], "
                    + "rings: [0], strips: [], modes: 4, mode: 3, toggles: [8]}, "))
        #expect(yaml.contains("type: TABLET_PAD_BUTTON, button: 17, state: pressed, mode: 1, is-toggle: true}"))
        let recording = try RecordingReader.parse(yaml, file: "w.yml")
        #expect(recording.devices[0].padLayout == layout)
        #expect(recording.descriptions[DeviceID(0)]?.name == "Cintiq Pad")
        #expect(
            recording.events.map(\.kind) == [
                .deviceAdded([.tabletPad]), .tabletPadAdded(layout),
                .tabletPadButton(button: 17, state: .pressed, mode: 1),
            ])
    }
}
