// The writer's output reads back as the events written, for kinds the generator does
// not produce (gestures, finger scrolling, absolute motion, cancel).

import InputRouter
import Testing

@testable import InputRouterRecording

@Suite struct WriterTests {
    @Test func roundTripsOtherKinds() throws {
        var device = SyntheticDevices.device(.touchscreen, index: 0)
        device.name = "Touchpad \"quoted\"\tname"
        device.absinfo[ABS.x] = AbsInfo(minimum: 0, maximum: 1023, resolution: 8)
        device.libinputCapabilities = [.pointer, .gesture, .touch]
        var writer = RecordWriter(libinputVersion: "1.99")
        let index = writer.addDevice(device)
        let id = DeviceID(0)
        let kinds: [InputEvent.Kind] = [
            .pointerMotionAbsolute(x: 0.5, y: 0.25),
            .pointerAxis(source: .finger, vertical: AxisValue(value: 3.5), horizontal: nil),
            .pointerAxis(source: .finger, vertical: AxisValue(value: 0), horizontal: AxisValue(value: 0)),
            .pointerAxis(source: .continuous, vertical: nil, horizontal: AxisValue(value: -1.25)),
            .gesture(GestureEvent(kind: .swipe, phase: .begin, fingers: 3)),
            .gesture(GestureEvent(kind: .swipe, phase: .update, fingers: 3, dx: 1.5, dy: -0.1)),
            .gesture(GestureEvent(kind: .swipe, phase: .end, fingers: 3, cancelled: true)),
            .gesture(GestureEvent(kind: .pinch, phase: .update, fingers: 2, dx: 0.1, scale: 1.7, rotation: -3.3)),
            .gesture(GestureEvent(kind: .hold, phase: .begin, fingers: 4)),
            .touchDown(slot: 2, x: 0.125, y: 0.5),
            .touchCancel(slot: 2),
            .pointerButton(button: 0x110, state: .pressed),
            .deviceRemoved,
        ]
        let events = kinds.enumerated().map { InputEvent(time: UInt64($0 + 1) * 1_000_001, device: id, $1) }
        for event in events {
            writer.append(
                device: index, evdev: [EvdevRecord(time: event.time, type: 0, code: 0, value: 0)], libinput: [event])
        }
        let yaml = writer.yaml()
        let recording = try RecordingReader.parse(yaml, file: "w.yml")
        #expect(recording.events == events)
        #expect(recording.devices.first?.name == device.name)
        #expect(recording.libinputVersion == "1.99")
        #expect(yaml.contains("type: POINTER_BUTTON, button: 272, state: pressed, seat_count: 1}"))
        // Rendered again, with the button still held at the end: the same text.
        #expect(writer.yaml() == yaml)
    }

    @Test func quotingEscapesControlCharacters() {
        #expect(quoted("a\"b\\c\u{1}") == "\"a\\\"b\\\\c\\x01\"")
    }
}
