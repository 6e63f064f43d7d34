// TABLET_TOOL_* and TABLET_PAD_* `libinput:` entries, in the form libinput 1.22's
// `libinput record --with-libinput` writes them.

import InputRouter
import Testing

@testable import InputRouterRecording

@Suite struct TabletEntryTests {
    /// A 100 × 50 mm tablet (absinfo [min, max, fuzz, flat, resolution]).
    let header = """
        version: 1
        ndevices: 1
        devices:
        - node: /dev/input/event9
          evdev:
            name: "Pen"
            codes:
              1: [320, 330, 331]
              3: [0, 1]
            absinfo:
              0: [0, 9999, 0, 0, 100]
              1: [0, 4999, 0, 0, 100]
          events:

        """

    @Test func toolAndPadEntriesBecomeCoreEvents() throws {
        let text =
            header + """
                  - libinput:
                    - {time: 0.100000, type: TABLET_TOOL_PROXIMITY, proximity: in, tool-type: pen, serial: 1234, axes: pt, point: [25.00, 12.50], tilt: [5.00, -3.00], pressure: 0.00}
                    - {time: 0.110000, type: TABLET_TOOL_TIP, tip: down, point: [25.00, 12.50], tilt: [5.00, -3.00], pressure: 0.30}
                    - {time: 0.120000, type: TABLET_TOOL_AXIS, tip: down, point: [50.00, 25.00], tilt: [5.00, -3.00], pressure: 0.60}
                    - {time: 0.130000, type: TABLET_TOOL_BUTTON, button: 331, state: pressed}
                    - {time: 0.135000, type: TABLET_TOOL_PROXIMITY, proximity: out, tool-type: brush, serial: 0, axes: , point: [50.00, 25.00]}
                    - {time: 0.140000, type: TABLET_PAD_BUTTON, button: 2, state: pressed, mode: 0, is-toggle: false}
                    - {time: 0.150000, type: TABLET_PAD_RING, number: 0, position: 90.00, source: finger, mode: 0}
                    - {time: 0.160000, type: TABLET_PAD_STRIP, number: 1, position: -1.00, source: unknown, mode: 0}

                """
        let recording = try RecordingReader.parse(text, file: "t.yml")
        #expect(recording.warnings.map(\.description) == [])
        let kinds = recording.events.map(\.kind).filter { if case .deviceAdded = $0 { false } else { true } }
        let tilt = (5.0, -3.0)
        #expect(
            kinds == [
                .tabletToolProximity(
                    TabletTool(type: .pen, serial: 1234, capabilities: [.pressure, .tilt]), inProximity: true,
                    TabletAxes(x: 0.25, y: 0.25, pressure: 0, tiltX: tilt.0, tiltY: tilt.1)),
                .tabletToolTip(down: true, TabletAxes(x: 0.25, y: 0.25, pressure: 0.3, tiltX: tilt.0, tiltY: tilt.1)),
                .tabletToolAxis(TabletAxes(x: 0.5, y: 0.5, pressure: 0.6, tiltX: tilt.0, tiltY: tilt.1)),
                .tabletToolButton(button: 331, state: .pressed),
                .tabletToolProximity(TabletTool(type: .brush), inProximity: false, TabletAxes(x: 0.5, y: 0.5)),
                .tabletPadButton(button: 2, state: .pressed),
                .tabletPadRing(ring: 0, position: 90, source: .finger),
                .tabletPadStrip(strip: 1, position: -1, source: .unknown),
            ])
        #expect(recording.events.first { if case .tabletToolTip = $0.kind { true } else { false } }?.time == 110_000)
    }

    /// libinput record's `axes:` letters on a proximity event are the tool's capabilities;
    /// `S` (size) has no InputRouter axis and is skipped; another letter is an error there.
    @Test func toolCapabilitiesComeFromTheAxesLetters() throws {
        for (letters, expected) in [
            ("dptrsw", TabletToolCapabilities([.distance, .pressure, .tilt, .rotation, .slider, .wheel])),
            ("pS", [.pressure]), ("", []),
        ] {
            let text =
                header
                + "  - libinput:\n    - {time: 0.1, type: TABLET_TOOL_PROXIMITY, proximity: in, tool-type: pen, serial: 7, axes: \(letters), point: [1.0, 1.0]}\n"
            let kinds = try RecordingReader.parse(text, file: "t.yml").events.map(\.kind)
            guard case .tabletToolProximity(let tool, _, _)? = kinds.last else {
                Issue.record("no proximity for \(letters)")
                continue
            }
            #expect(tool.capabilities == expected, "\(letters)")
        }
        let bad =
            header
            + "  - libinput:\n    - {time: 0.1, type: TABLET_TOOL_PROXIMITY, proximity: in, tool-type: pen, axes: pq, point: [1.0, 1.0]}\n"
        #expect(errorText(bad).contains("axes: expected the tool's axis letters"))
    }

    @Test func aBadTipStateIsAnErrorAtTheField() {
        let text =
            header + "  - libinput:\n    - {time: 0.1, type: TABLET_TOOL_TIP, tip: sideways, point: [1.0, 1.0]}\n"
        #expect(errorText(text).contains("tip: expected down or up"))
    }
}

@Suite struct TabletWriterTests {
    /// What LiveRecorder writes for tablets reads back as the events written (positions
    /// through `point` in mm; values chosen exact in binary and in Float).
    @Test func tabletEventsRoundTrip() throws {
        var device = SyntheticDevices.device(.touchscreen, index: 0)
        device.name = "Pen"
        device.absinfo[ABS.x] = AbsInfo(minimum: 0, maximum: 1023, resolution: 8)
        device.absinfo[ABS.y] = AbsInfo(minimum: 0, maximum: 511, resolution: 8)
        device.libinputCapabilities = [.tabletTool, .tabletPad]
        var writer = RecordWriter(libinputVersion: "1.22.1")
        let index = writer.addDevice(device)
        let id = DeviceID(0)
        let axes = TabletAxes(
            x: 0.5, y: 0.25, pressure: 0.75, tiltX: 12.5, tiltY: -4, rotation: 90, slider: -0.5, wheel: 15)
        let kinds: [InputEvent.Kind] = [
            .tabletToolProximity(
                TabletTool(type: .airbrush, serial: 99, capabilities: [.pressure, .tilt, .rotation, .slider, .wheel]),
                inProximity: true, axes),
            .tabletToolTip(down: true, TabletAxes(x: 0.125, y: 0.5, distance: 0.25)),
            .tabletToolAxis(TabletAxes(x: 0.25, y: 0.75)),
            .tabletToolButton(button: 0x14b, state: .released),
            .tabletToolProximity(
                TabletTool(type: .eraser, capabilities: [.distance, .pressure]), inProximity: false,
                TabletAxes(x: 0, y: 0)),
            .tabletPadButton(button: 4, state: .pressed),
            .tabletPadRing(ring: 1, position: 180.5, source: .finger),
            .tabletPadStrip(strip: 0, position: 0.5, source: .unknown),
        ]
        let events = kinds.enumerated().map { InputEvent(time: UInt64($0 + 1) * 1_000_001, device: id, $1) }
        for event in events {
            writer.append(
                device: index, evdev: [EvdevRecord(time: event.time, type: 0, code: 0, value: 0)], libinput: [event])
        }
        let recording = try RecordingReader.parse(writer.yaml(), file: "w.yml")
        #expect(recording.warnings.map(\.description) == [])
        #expect(recording.events.filter { if case .deviceAdded = $0.kind { false } else { true } } == events)
    }
}
