// Locating fixtures by path (no bundle resources): the test file's directory holds
// Fixtures/; the package root is two levels up, and the shared third-party recordings
// live beside the package in ../shared/fixtures/recordings/.

import InputRouter

@testable import InputRouterRecording

enum Paths {
    static let testsDirectory: String = {
        let file = #filePath
        return String(file[..<(file.lastIndex(of: "/") ?? file.endIndex)])
    }()
    static func fixture(_ name: String) -> String { testsDirectory + "/Fixtures/" + name }
    static var packageRoot: String { testsDirectory + "/../.." }
    static func shared(_ name: String) -> String { packageRoot + "/../shared/fixtures/recordings/" + name }
    static func exists(_ path: String) -> Bool { RecordingReader.readFile(path) != nil }
}

/// Counts of event kinds, for comparing with the fixtures README table.
struct Counts: Equatable, CustomStringConvertible {
    var added = 0, motion = 0, buttons = 0, axis = 0, keys = 0
    var touchDown = 0, touchMotion = 0, touchUp = 0, touchFrame = 0, gestures = 0, switches = 0, other = 0

    init(_ events: [InputEvent]) {
        for event in events {
            switch event.kind {
            case .deviceAdded: added += 1
            case .pointerMotion: motion += 1
            case .pointerButton: buttons += 1
            case .pointerAxis: axis += 1
            case .keyboardKey: keys += 1
            case .touchDown: touchDown += 1
            case .touchMotion: touchMotion += 1
            case .touchUp: touchUp += 1
            case .touchFrame: touchFrame += 1
            case .gesture: gestures += 1
            case .switchToggle: switches += 1
            default: other += 1
            }
        }
    }
    init() {}

    var description: String {
        "added \(added) motion \(motion) buttons \(buttons) axis \(axis) keys \(keys) down \(touchDown) "
            + "touch-motion \(touchMotion) up \(touchUp) frames \(touchFrame) gestures \(gestures) "
            + "switches \(switches) other \(other)"
    }
}

func render(_ events: [InputEvent], first count: Int) -> String {
    events.prefix(count).map(EventText.describe).joined(separator: "\n")
}
