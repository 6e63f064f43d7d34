// ir-replay: rebuilds a scene from its snapshot, replays input through the routing core
// with no client running, prints the trace, and says where it first differs from the
// trace the compositor recorded (docs/bug-reports.md).
//
//   ir-replay BUNDLE                       a directory with scene.jsonl, input.yml, trace.txt
//   ir-replay SCENE INPUT [TRACE]          a snapshot and a `libinput record` file or a
//                                          `libinput debug-events` paste, optionally a trace

import Foundation
import InputRouter
import InputRouterKeyboard
import InputRouterRecording

let usage = """
    usage: ir-replay BUNDLE
           ir-replay SCENE.jsonl INPUT [TRACE]

      BUNDLE   a directory written by a flight recorder: scene.jsonl (the scene when the
               window began), input.yml (the input since, a `libinput record` file),
               journal.jsonl (the scene's edits since, redone at the same points, and
               each handler's answers) and trace.txt (what the compositor routed)
      SCENE    a scene snapshot; INPUT a `libinput record` file (YAML) or the text
               `libinput debug-events` printed; TRACE a trace to compare with
      --quiet  print only the comparison, not the trace

    Exit status: 0 identical (or no trace to compare), 1 the traces differ, 2 an error.
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("ir-replay: \(message)\n".utf8))
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
let quiet = arguments.contains("--quiet")
arguments.removeAll { $0 == "--quiet" }
if arguments.isEmpty || arguments.contains("--help") || arguments.contains("-h") {
    print(usage)
    exit(arguments.isEmpty ? 2 : 0)
}

var scenePath: String
var inputPath: String
var tracePath: String?
var isDirectory: ObjCBool = false
if arguments.count == 1, FileManager.default.fileExists(atPath: arguments[0], isDirectory: &isDirectory),
    isDirectory.boolValue
{
    let dir = arguments[0]
    scenePath = dir + "/" + ReportBundle.sceneFile
    inputPath = dir + "/" + ReportBundle.inputFile
    tracePath = dir + "/" + ReportBundle.traceFile
    if !FileManager.default.fileExists(atPath: tracePath!) { tracePath = nil }
} else if arguments.count == 2 || arguments.count == 3 {
    scenePath = arguments[0]
    inputPath = arguments[1]
    tracePath = arguments.count == 3 ? arguments[2] : nil
} else {
    fail("expected a bundle directory, or a snapshot and an input file (--help)")
}

do {
    let snapshot = try SceneSnapshot.read(path: scenePath)
    // A bundle's journal: the scene's edits during the window and what each handler answered.
    let journalPath = (scenePath as NSString).deletingLastPathComponent + "/" + ReportBundle.journalFile
    let edits =
        arguments.count == 1 && FileManager.default.fileExists(atPath: journalPath)
        ? try SceneJournalText.read(path: journalPath) : nil
    var handlers = SceneHandlers()
    // Every handler the snapshot names is answered from the journal.
    if edits != nil { handlers.fallbackHandler = { _ in .notHandled } }
    // Each seat gets the keymap the snapshot names (xkbcommon's defaults for names it lacks).
    let router = try SceneSnapshot.rebuild(snapshot, handlers: handlers) { seat in
        if let file = seat.keymap["file"] {
            return KeyboardState(keymap: try Keymap(context: try XKBContext(), file: file))
        }
        let k = seat.keymap
        let names = RuleNames(
            rules: k["rules"] ?? "evdev", model: k["model"] ?? "pc105", layout: k["layout"] ?? "us",
            variant: k["variant"] ?? "", options: k["options"] ?? "")
        return KeyboardState(keymap: try Keymap(context: try XKBContext(), names: names))
    }
    guard let data = FileManager.default.contents(atPath: inputPath) else { fail("cannot read \(inputPath)") }
    let text = String(decoding: data, as: UTF8.self)
    // `libinput record` files are YAML that starts with a comment or `version:`; anything
    // else is taken for debug-events text.
    let firstLine = text.split(separator: "\n").first { !$0.isEmpty }.map(String.init) ?? ""
    let events: [InputEvent]
    if firstLine.hasPrefix("#") || firstLine.hasPrefix("version:") || firstLine.hasPrefix("---") {
        // A bundle's input file says which id its first device had (the snapshot's ids).
        let recording = try RecordingReader.parse(
            text, file: inputPath, deviceIDBase: FlightRecorder.deviceBase(ofInput: text))
        for w in recording.warnings { FileHandle.standardError.write(Data("ir-replay: \(w)\n".utf8)) }
        events = recording.events
    } else {
        let log = try DebugEventsReader.parse(text, file: inputPath)
        for w in log.warnings { FileHandle.standardError.write(Data("ir-replay: \(w)\n".utf8)) }
        events = log.events
    }
    let trace = SceneSnapshot.replay(events, through: router, edits: edits, handlers: handlers)
    if !quiet { for line in trace { print(line) } }
    guard let tracePath else { exit(0) }
    guard let recorded = FileManager.default.contents(atPath: tracePath) else { fail("cannot read \(tracePath)") }
    var expected = String(decoding: recorded, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        .map(String.init)
    if expected.last == "" { expected.removeLast() }
    if let i = SceneSnapshot.firstDifference(expected: expected, actual: trace) {
        let say = { (s: String) in FileHandle.standardError.write(Data((s + "\n").utf8)) }
        say("ir-replay: differs from \(tracePath) at line \(i + 1)")
        say("  recorded: \(i < expected.count ? expected[i] : "(the recorded trace ends)")")
        say("  replayed: \(i < trace.count ? trace[i] : "(the replayed trace ends)")")
        exit(1)
    }
    FileHandle.standardError.write(Data("ir-replay: identical (\(trace.count) lines)\n".utf8))
} catch {
    fail("\(error)")
}
