// `ir-compositor --input synthetic:SEED` as a user runs it: a wl-probe window, the log
// generated from the seed replayed to its end, every routing decision in the trace. The
// same seed gives the same trace, and so does replaying `ir-synthetic SEED`'s file.
import Foundation
import Testing

@Suite(.serialized) struct CompositorSyntheticInputTests {
    let directory = NSTemporaryDirectory() + "ir-synthetic-compositor-\(getpid())"

    init() throws { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }

    /// Runs ir-compositor headless with one wl-probe window as large as the output and
    /// `input` replayed at `speed` (0: as fast as possible); returns its output lines and the trace.
    func traceOf(_ input: String, run: String, speed: String = "0") throws -> (out: [String], trace: String) {
        let trace = "\(directory)/\(run).trace"
        let out = try CompositorTests().runCompositor([
            "--socket", "ir-synth-\(getpid())-\(run)", "--size", "800x600", "--speed", speed, "--exit-after-replay",
            "--trace", trace, "--input", input,
            "--client", "\(productsDirectory)/wl-probe --toplevel editor 800x600",
        ])
        #expect(out.last == "ir-compositor: done", "\(out.joined(separator: "\n"))")
        return (out, try String(contentsOfFile: trace, encoding: .utf8))
    }

    @Test func theSameSeedGivesTheSameTraceAsItsFile() throws {
        let file = "\(directory)/42.yml"
        #expect(try SyntheticRun(["42", "-o", file]).status == 0)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let entries = { (type: String) in text.components(separatedBy: "type: \(type),").count - 1 }

        let first = try traceOf("synthetic:42", run: "a")
        let second = try traceOf("synthetic:42", run: "b")
        let replayed = try traceOf("replay:\(file)", run: "c")

        // Every `libinput:` entry and every partial wheel step the file holds is an event.
        let partialSteps =
            try text.matches(of: Regex(#"\n    - \[\d+, \d+, 2, 1[12], -?\d+\]"#)).count - entries("POINTER_AXIS")
        let events = text.components(separatedBy: "\n    - {").count - 1 + partialSteps
        #expect(first.out.contains("ir-compositor: replaying synthetic:42 (\(events) events)"))
        #expect(replayed.out.contains("ir-compositor: replaying \(file) (\(events) events)"))

        // The window had the keyboard from the start: every key of the file reached it, and
        // every lid and tablet-mode switch went to the switch observers.
        let lines = first.trace.split(separator: "\n")
        #expect(
            lines.filter { $0.hasPrefix("seat0 keyboard.key \"client1 wl-probe: editor\" ") }.count
                == entries("KEYBOARD_KEY"))
        #expect(lines.filter { $0.hasPrefix("seat0 switch ") }.count == entries("SWITCH_TOGGLE"))
        // Every button and touch-down made one decision: delivered to the window, or dropped
        // where the cursor (it starts at 0,0) or the finger is outside it.
        #expect(
            lines.filter { $0.contains(" pointer.button ") || $0.hasSuffix(" pointer.button") }.count
                == entries("POINTER_BUTTON"))
        #expect(
            lines.filter { $0.contains(" touch.down ") || $0.hasSuffix(" touch.down") }.count == entries("TOUCH_DOWN"))
        #expect(lines.contains { $0.hasPrefix("seat0 touch.down \"client1 wl-probe: editor\" ") })

        #expect(first.trace == second.trace)
        #expect(first.trace == replayed.trace)
    }

    /// At the recorded speed the log takes as long as its events' times say, and routes the same.
    @Test func atTheRecordedSpeedItTakesItsTimeAndRoutesTheSame() throws {
        let text = try SyntheticRun(["42", "--frames", "50"]).text
        let times = try text.matches(of: Regex(#"time: (\d+)\.(\d{6}),"#)).map {
            Double($0.output[1].substring!)! + Double($0.output[2].substring!)! / 1e6
        }
        let duration = try #require(times.max()) - (try #require(times.min()))
        #expect(duration > 0.5)
        let fast = try traceOf("synthetic:42,frames=50", run: "fast")
        let start = Date()
        let recorded = try traceOf("synthetic:42,frames=50", run: "recorded", speed: "1")
        #expect(Date().timeIntervalSince(start) >= duration)
        #expect(recorded.trace == fast.trace)
        #expect(!fast.trace.isEmpty)
    }

    @Test func aRequestThatCannotBeReadIsNamedBeforeAnyClientStarts() throws {
        let out = try CompositorTests().runCompositor(
            ["--socket", "ir-synth-\(getpid())-e", "--input", "synthetic:42,devices=tablet", "--client", "/bin/false"],
            status: 2)
        #expect(
            out == [
                "ir-compositor: synthetic:42,devices=tablet: unknown device 'tablet' "
                    + "(keyboard, mouse, touchscreen, switches; join several with +)"
            ])
    }
}
