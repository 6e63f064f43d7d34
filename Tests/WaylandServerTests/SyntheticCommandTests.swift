// `ir-synthetic` as a user runs it: the file it writes for a seed, read back by the
// project's `libinput record` reader, and its hostile variant. Expected values are read
// from the written text by the test (the format's fields), not from the reader.
import Foundation
import InputRouter
import InputRouterRecording
import TestSupport
import Testing

/// One run of ir-synthetic: its status, standard output (bytes) and standard error.
struct SyntheticRun {
    var status: Int32
    var output: Data
    var errors: String

    init(_ arguments: [String]) throws {
        let child = try ChildProcess(
            productsDirectory + "/ir-synthetic", arguments, output: .separate, nonBlockingOutput: false)
        let (out, err) = child.readToEnd()
        child.waitUntilExit()
        output = Data(out)
        errors = String(decoding: err, as: UTF8.self)
        status = child.terminationStatus
    }

    var text: String { String(decoding: output, as: UTF8.self) }
}

@Suite struct SyntheticCommandTests {
    let directory = NSTemporaryDirectory() + "ir-synthetic-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"

    init() throws { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }

    /// `time: S.UUUUUU` of an entry line, in µs.
    static func micros(_ seconds: Substring, _ fraction: Substring) -> UInt64 {
        UInt64(seconds)! * 1_000_000 + UInt64(fraction)!
    }

    @Test func theSameSeedWritesTheSameBytesToStandardOutputAndToAFile() throws {
        let first = try SyntheticRun(["42"])
        let second = try SyntheticRun(["42"])
        #expect(first.status == 0 && first.errors.isEmpty, "\(first.errors)")
        #expect(first.output.count > 10_000)
        #expect(first.output == second.output)
        let path = directory + "/42.yml"
        let toFile = try SyntheticRun(["42", "-o", path])
        #expect(toFile.status == 0 && toFile.output.isEmpty)
        #expect(FileManager.default.contents(atPath: path) == first.output)
        #expect(try SyntheticRun(["43"]).output != first.output)
    }

    @Test func theFileReadsBackAsTheEventsItsEntriesSay() throws {
        let path = directory + "/read-42.yml"
        #expect(try SyntheticRun(["42", "-o", path]).status == 0)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let recording = try RecordingReader.read(path: path)
        #expect(recording.warnings.isEmpty, "\(recording.warnings)")

        // The header: four devices, the default kinds in their documented order.
        #expect(text.hasPrefix("# libinput record\nversion: 1\nndevices: 4\n"))
        let names = try text.matches(of: Regex(#"\n    name: "([^"]*)"\n"#)).map { String($0.output[1].substring!) }
        #expect(
            names == [
                "Synthetic Keyboard 0", "Synthetic Mouse 1", "Synthetic Touchscreen 2",
                "Synthetic Lid and Tablet Mode Switch 3",
            ])
        #expect(recording.devices.map(\.name) == names)

        // One event per `libinput:` entry of each type; wheel events one per hi-res wheel
        // row (REL_WHEEL_HI_RES 11, REL_HWHEEL_HI_RES 12), whole detents and partial steps
        // (whose `libinput:` is null, as libinput 1.22 writes them) alike.
        func entries(_ type: String) -> Int { text.components(separatedBy: "type: \(type)").count - 1 }
        let hiResRows = try text.matches(of: Regex(#"\n    - \[\d+, \d+, 2, 1[12], -?\d+\]"#)).count
        var read = [String: Int]()
        for event in recording.events {
            let kind: String
            switch event.kind {
            case .deviceAdded: kind = "DEVICE_ADDED"
            case .keyboardKey: kind = "KEYBOARD_KEY"
            case .pointerMotion: kind = "POINTER_MOTION,"
            case .pointerButton: kind = "POINTER_BUTTON"
            case .pointerAxis: kind = "wheel"
            case .touchDown: kind = "TOUCH_DOWN"
            case .touchMotion: kind = "TOUCH_MOTION"
            case .touchUp: kind = "TOUCH_UP"
            case .touchFrame: kind = "TOUCH_FRAME"
            case .switchToggle: kind = "SWITCH_TOGGLE"
            default: kind = "other \(event.kind)"
            }
            read[kind, default: 0] += 1
        }
        var written = [String: Int]()
        for type in [
            "DEVICE_ADDED", "KEYBOARD_KEY", "POINTER_MOTION,", "POINTER_BUTTON", "TOUCH_DOWN", "TOUCH_MOTION",
            "TOUCH_UP", "TOUCH_FRAME", "SWITCH_TOGGLE",
        ] {
            written[type] = entries(type)
        }
        written["wheel"] = hiResRows
        #expect(read == written)
        #expect(written["DEVICE_ADDED"] == 4 && hiResRows > entries("POINTER_AXIS"), "seed 42 has partial wheel steps")

        // The first event of each kind, its values as the entry writes them.
        let key = try #require(
            try Regex(#"time: (\d+)\.(\d{6}), type: KEYBOARD_KEY, key: (\d+), state: (\w+)"#).firstMatch(in: text))
        #expect(
            recording.events.first { if case .keyboardKey = $0.kind { true } else { false } }
                == InputEvent(
                    time: Self.micros(key.output[1].substring!, key.output[2].substring!), device: DeviceID(0),
                    .keyboardKey(
                        key: UInt32(key.output[3].substring!)!,
                        state: key.output[4].substring! == "pressed" ? .pressed : .released)))
        let motion = try #require(
            try Regex(
                #"time: (\d+)\.(\d{6}), type: POINTER_MOTION, delta: \[(\S+), (\S+)\], unaccel: \[(\S+), (\S+)\]\}"#
            ).firstMatch(in: text))
        let m = (1...6).map { motion.output[$0].substring! }
        #expect(
            recording.events.first { if case .pointerMotion = $0.kind { true } else { false } }
                == InputEvent(
                    time: Self.micros(m[0], m[1]), device: DeviceID(1),
                    .pointerMotion(
                        dx: Double(m[2])!, dy: Double(m[3])!, unacceleratedDX: Double(m[4])!,
                        unacceleratedDY: Double(m[5])!)))
        // Touch `point` is mm from the axis minimum; the touchscreen's axes are 4096 x 2048
        // units at 16 units/mm, so 256 x 128 mm, and the event's position is point / size.
        let down = try #require(
            try Regex(
                #"time: (\d+)\.(\d{6}), type: TOUCH_DOWN, slot: \d+, seat_slot: (\d+), point: \[(\S+), (\S+)\]"#
            ).firstMatch(in: text))
        let d = (1...5).map { down.output[$0].substring! }
        #expect(
            recording.events.first { if case .touchDown = $0.kind { true } else { false } }
                == InputEvent(
                    time: Self.micros(d[0], d[1]), device: DeviceID(2),
                    .touchDown(slot: Int32(d[2])!, x: Double(d[3])! / 256, y: Double(d[4])! / 128)))
        let toggle = try #require(
            try Regex(#"time: (\d+)\.(\d{6}), type: SWITCH_TOGGLE, switch: ([12]), state: (on|off)"#)
                .firstMatch(in: text))
        #expect(
            recording.events.first { if case .switchToggle = $0.kind { true } else { false } }
                == InputEvent(
                    time: Self.micros(toggle.output[1].substring!, toggle.output[2].substring!), device: DeviceID(3),
                    .switchToggle(
                        toggle.output[3].substring! == "1" ? .lid : .tabletMode,
                        on: toggle.output[4].substring! == "on")))

        // And all of them are the generator's own list for that seed.
        #expect(recording.events == SyntheticGenerator(seed: 42).generate().events)
    }

    @Test func devicesAndFramesChooseWhatIsWritten() throws {
        let run = try SyntheticRun(["5", "--devices", "touchscreen+keyboard+touchscreen", "--frames", "30"])
        #expect(run.status == 0)
        let recording = try RecordingReader.parse(run.text, file: "5.yml")
        #expect(
            recording.devices.map(\.name) == [
                "Synthetic Touchscreen 0", "Synthetic Keyboard 1", "Synthetic Touchscreen 2",
            ])
        // 30 frames, each one `- evdev:` entry ending in SYN_REPORT, and one DEVICE_ADDED per device.
        #expect(run.text.components(separatedBy: "  - evdev:\n").count - 1 == 30)
        #expect(run.text.components(separatedBy: "type: DEVICE_ADDED").count - 1 == 3)
    }

    @Test(arguments: [
        (["x"], "ir-synthetic: seed 'x' is not a decimal number from 0 to 18446744073709551615\n"),
        ([], "ir-synthetic: give a seed (see --help)\n"),
        (
            ["1", "--devices", "tablet"],
            "ir-synthetic: unknown device 'tablet' (keyboard, mouse, touchscreen, switches; join several with +)\n"
        ),
        (["1", "--frames"], "ir-synthetic: --frames needs a value\n"),
        (["1", "--hostile", "--frames", "3"], "ir-synthetic: --hostile takes no --devices or --frames\n"),
        (["1", "2"], "ir-synthetic: unexpected argument 2 (see --help)\n"),
    ])
    func mistakesExitWithStatusTwoAndAMessage(arguments: [String], message: String) throws {
        let run = try SyntheticRun(arguments)
        #expect(run.status == 2)
        #expect(run.errors == message)
        #expect(run.output.isEmpty)
    }

    // MARK: --hostile

    /// Seed 87's hostile log has one mutation, a wrong format version: the reader refuses
    /// the whole file at the version's value (line 2, column 10), and ir-compositor says so
    /// and exits with status 2 before any client starts.
    @Test func aHostileLogWithAWrongVersionIsRefusedAtItsLine() throws {
        let path = directory + "/hostile-87.yml"
        let run = try SyntheticRun(["87", "--hostile", "-o", path])
        #expect(run.status == 0)
        #expect(run.errors == "ir-synthetic: hostile log 87: wrongVersion\n")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let version = try #require(lines[1].wholeMatch(of: try Regex(#"version: (\d+)"#))?.output[1].substring)
        #expect(version != "1")
        let message = "\(path):2:10: unsupported recording version \(version); this reader understands version 1"
        #expect(throws: RecordingError.self) { try RecordingReader.read(path: path) }
        do { _ = try RecordingReader.read(path: path) } catch { #expect(error.description == message) }
        let out = try CompositorTests().runCompositor(
            ["--socket", "ir-synth-\(getpid())-h", "--speed", "0", "--exit-after-replay", "--input", "replay:\(path)"],
            status: 2)
        #expect(out == ["ir-compositor: \(message)"])
    }

    /// A hostile log can also be valid YAML that no device would send: seed 30's is a key
    /// release without a press at 1 µs. The reader reads it as it is (the core decides).
    @Test func anUnrulyHostileLogIsReadAsItIs() throws {
        let run = try SyntheticRun(["30", "--hostile"])
        #expect(run.errors == "ir-synthetic: hostile log 30: releaseWithoutPress\n")
        #expect(run.text.contains("    - {time: 0.000001, type: KEYBOARD_KEY, key: 30, state: released}\n"))
        let recording = try RecordingReader.parse(run.text, file: "hostile-30.yml")
        #expect(recording.events.contains { $0.kind == .keyboardKey(key: 30, state: .released) && $0.time == 1 })
    }
}
