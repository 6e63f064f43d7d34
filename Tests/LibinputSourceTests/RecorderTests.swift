// What LiveRecorder writes reads back with RecordingReader as the events it was given:
// the live backend's sessions are ordinary recordings.

import InputRouter
import InputRouterRecording
import Testing

@testable import InputRouterLibinput

@Suite struct RecorderTests {
    @Test func liveEventsReadBack() throws {
        let recorder = LiveRecorder(path: "/tmp/unused.yml")
        let touchpad = LibinputDeviceInfo(
            id: DeviceID(5), sysname: "event4", name: "Touchpad \"T\"",
            capabilities: [.pointer, .gesture], applied: [])
        let screen = LibinputDeviceInfo(
            id: DeviceID(6), sysname: "event5", name: "Screen",
            capabilities: [.touch], applied: [])
        let a = recorder.addDevice(
            LiveRecorder.DeviceDescription(
                info: touchpad, node: "/dev/input/event4",
                vendor: 0x1209, product: 1, size: [100, 67],
                udevProperties: [
                    "ID_INPUT=1", "ID_INPUT_TOUCHPAD=1",
                    "NAME=\"Pad: T\"", "X=a #b",
                ]))
        let b = recorder.addDevice(LiveRecorder.DeviceDescription(info: screen, size: [256, 144]))
        let pad: [InputEvent.Kind] = [
            .deviceAdded([.pointer, .gesture]),
            .pointerMotion(dx: 1.5, dy: -2.25, unacceleratedDX: 1, unacceleratedDY: -1.5),
            .pointerButton(button: 272, state: .pressed),
            .pointerButton(button: 272, state: .released),
            .pointerAxis(source: .finger, vertical: AxisValue(value: 3.5), horizontal: nil),
            .pointerAxis(source: .finger, vertical: AxisValue(value: 0), horizontal: nil),
            .pointerAxis(source: .finger, vertical: AxisValue(value: 1), horizontal: AxisValue(value: 0)),
            .pointerAxis(source: .continuous, vertical: nil, horizontal: AxisValue(value: -1.25)),
            .pointerAxis(source: .wheel, vertical: AxisValue(value: 15, value120: 120), horizontal: nil),
            .pointerAxis(source: .wheel, vertical: AxisValue(value: -3.75, value120: -30), horizontal: nil),
            .pointerAxis(source: .wheel, vertical: nil, horizontal: AxisValue(value: 7.5, value120: 60)),
            .gesture(GestureEvent(kind: .swipe, phase: .begin, fingers: 3)),
            .gesture(GestureEvent(kind: .swipe, phase: .update, fingers: 3, dx: 4, dy: -1)),
            .gesture(GestureEvent(kind: .swipe, phase: .end, fingers: 3, cancelled: true)),
            .gesture(GestureEvent(kind: .pinch, phase: .update, fingers: 2, dx: 0.5, scale: 1.25, rotation: -2)),
            .deviceRemoved,
        ]
        let touch: [InputEvent.Kind] = [
            .deviceAdded(.touch),
            .touchDown(slot: 0, x: 0.5, y: 0.25), .touchFrame,
            .touchMotion(slot: 0, x: 0.75, y: 0.125), .touchFrame,
            .touchUp(slot: 0), .touchCancel(slot: 1), .touchFrame,
        ]
        var expected: [InputEvent] = []
        var time: UInt64 = 1_000_000
        for (kinds, id, index) in [(pad, DeviceID(0), a), (touch, DeviceID(1), b)] {
            for kind in kinds {
                time += 1000
                let event = InputEvent(time: time, device: id, kind)
                recorder.append(event, device: index)
                expected.append(event)
            }
        }
        #expect(recorder.eventCount == expected.count)
        let recording = try RecordingReader.parse(recorder.yaml(), file: "live.yml")
        #expect(recording.warnings.isEmpty, "\(recording.warnings)")
        #expect(recording.devices.map(\.name) == ["Touchpad \"T\"", "Screen"])
        #expect(recording.devices[0].udevProperty("ID_INPUT_TOUCHPAD") == "1")
        #expect(recording.devices[0].udevProperty("NAME") == "\"Pad: T\"")
        #expect(recording.devices[0].udevProperty("X") == "a #b")
        #expect(recording.devices[0].libinputCapabilities == [.pointer, .gesture])
        // DEVICE_ADDED has no time in the format: it takes the next event's.
        var times = expected
        times[0].time = expected[1].time
        times[pad.count].time = expected[pad.count + 1].time
        #expect(recording.events.count == times.count)
        // Read back, each device is described as the header describes it.
        let first = try #require(recording.events.first)
        #expect(recording.descriptions[first.device]?.name == "Touchpad \"T\"")
        #expect(recording.descriptions[first.device]?.path == "/dev/input/event4")
        for (got, want) in zip(recording.events, times) { #expect(got == want) }
    }

    @Test func writingToAnUnwritablePathFails() {
        let recorder = LiveRecorder(path: "/nonexistent/dir/out.yml")
        #expect(throws: LibinputError.self) { try recorder.write() }
    }
}
