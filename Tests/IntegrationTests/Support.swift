// End-to-end support: real recordings (Recording) through a real seat with a real
// keyboard layer (Keyboard), every delivery checked by the InvariantChecker.

import InputRouter
import InputRouterKeyboard
import InputRouterRecording
import Testing

enum Fixtures {
    /// Tests/IntegrationTests → Tests/RecordingTests/Fixtures (read by path, no resources).
    static let directory: String = {
        let file = #filePath
        let dir = String(file[..<(file.lastIndex(of: "/") ?? file.endIndex)])
        return dir + "/../RecordingTests/Fixtures/"
    }()
    static func path(_ name: String) -> String { directory + name }
}

/// Keeps every delivery and its trace line.
struct Recorder: DeliverySink {
    let router: Router
    var deliveries: [Delivery] = []
    var lines: [String] = []
    init(router: Router) { self.router = router }
    mutating func deliver(_ d: Delivery, from queue: DeliveryQueue) {
        deliveries.append(d)
        lines.append(TraceSink.line(d, queue: queue, router: router))
    }
}

/// A fresh xkb context, keymap and state on a layout (xkb objects are not shared
/// between tests, which run in parallel).
func makeKeyboardState(layout: String = "us") throws -> KeyboardState {
    let context = try XKBContext()
    let keymap = try Keymap(context: context, names: RuleNames(layout: layout))
    return KeyboardState(keymap: keymap)
}

/// Feeds every event of `recording` into `seat`, flushing into `sink` after each one.
/// Returns the number of events fed.
@discardableResult
func replay<S: DeliverySink>(_ recording: Recording, into seat: Seat, router: Router, sink: inout S) throws -> Int {
    var replayer = try Replayer(events: recording.events, speed: .asFastAsPossible)
    replayer.start(at: 0)
    var count = 0
    while let event = replayer.next() {
        seat.handle(event)
        router.flush(into: &sink)
        count += 1
    }
    return count
}
