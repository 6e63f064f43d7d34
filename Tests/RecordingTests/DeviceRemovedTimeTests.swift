// `libinput record` writes DEVICE_REMOVED without a time. The removal happened after the
// device's last event, so it is replayed at that time, not at time 0 (which put it right
// after the previous event and stamped the releases it causes 0).

import InputRouter
import Testing

@testable import InputRouterRecording

@Suite struct DeviceRemovedTimeTests {
    @Test func anUntimedRemovalTakesTheDevicesLastTime() throws {
        let text =
            keyboardHeader + """
                  - libinput:
                    - {type: DEVICE_ADDED, seat: seat0, logical_seat: default}
                  - libinput:
                    - {time: 1.5, type: KEYBOARD_KEY, key: 30, state: pressed}
                  - libinput:
                    - {time: 2.25, type: KEYBOARD_KEY, key: 30, state: released}
                  - libinput:
                    - {type: DEVICE_REMOVED}

                """
        let recording = try RecordingReader.parse(text, file: "t.yml")
        let timeline = recording.events.map { event -> String in
            switch event.kind {
            case .deviceAdded: "added \(event.time)"
            case .deviceRemoved: "removed \(event.time)"
            case .keyboardKey(let key, let state): "key \(key) \(state) \(event.time)"
            default: "other \(event.time)"
            }
        }
        #expect(timeline == ["added 1500000", "key 30 pressed 1500000", "key 30 released 2250000", "removed 2250000"])
    }
}
