// Third-party recordings beside the package (../shared/fixtures/recordings/). They are
// not copied into this repository; when absent the tests say so and pass.

import InputRouter
import Testing

@testable import InputRouterRecording

@Suite struct SharedRecordingTests {
    /// The recording, or nil after printing why the test is skipped.
    func shared(_ name: String) throws -> Recording? {
        let path = Paths.shared(name)
        guard Paths.exists(path) else {
            print("skipped: \(path) is absent (third-party recording, not part of the repository)")
            return nil
        }
        return try RecordingReader.read(path: path)
    }

    @Test func evdevOnlyKeyboard() throws {
        guard let recording = try shared("libinput-test.yml") else { return }
        #expect(recording.devices.first?.deviceClass == .keyboard)
        #expect(recording.devices.first?.quirks == ["AttrKeyboardIntegration=internal"])
        var expected = Counts()
        expected.added = 1
        expected.keys = 42
        #expect(Counts(recording.events) == expected)
        // The first frame releases KEY_ENTER that was never pressed: libinput drops it.
        #expect(recording.warnings.map(\.message) == ["release of key 28 that is not pressed; skipped"])
        #expect(recording.warnings.first?.position == SourcePosition(line: 199, column: 7))
        #expect(
            render(recording.events, first: 4) == """
                0.000000 dev0 added [keyboard]
                1.000000 dev0 key 30 pressed
                1.002000 dev0 key 30 released
                1.004000 dev0 key 42 pressed
                """)
        // Every press is released by the end.
        let presses = recording.events.filter { if case .keyboardKey(_, .pressed) = $0.kind { true } else { false } }
        #expect(presses.count == 21)
    }

    @Test func evdevOnlyTouchpadIsDiagnosed() throws {
        guard let recording = try shared("three-finger-swipe.yaml") else { return }
        #expect(recording.events.isEmpty)
        #expect(recording.devices.first?.deviceClass == .touchpad)
        #expect(recording.devices.first?.hid.prefix(3) == [0x05, 0x01, 0x09])
        #expect(
            recording.warnings.map(\.message) == [
                "device \"VEN_0488:00 0488:102C Touchpad\" is a touchpad (tapping, palm detection, scrolling and gestures "
                    + "happen inside libinput) and was recorded without libinput events, so it cannot be replayed "
                    + "faithfully without libinput; record it with `libinput record --with-libinput`, or play the file "
                    + "into kernel devices with `libinput replay` inside a VM; 178 frame(s) skipped"
            ])
        #expect(recording.warnings.first?.position == SourcePosition(line: 12, column: 3))
    }
}
