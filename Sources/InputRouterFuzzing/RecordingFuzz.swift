import InputRouter
import InputRouterRecording

/// The `libinput record` reader fuzz target: bytes are a file. It must read them or throw
/// a positioned error; what it reads is then routed through a seat under the invariant
/// checker, each device added with the file's description of it, as a replay does; at the
/// end nothing may stay held, and the seat may describe no device.
public enum RecordingFuzz {
    /// The problems found (empty when none). `mode: .trap` stops at the first violation.
    public static func run(_ bytes: [UInt8], mode: InvariantChecker<ClientModel<NullSink>>.Mode = .collect) -> [String]
    {
        let recording: Recording
        do {
            recording = try RecordingReader.parse(bytes, file: "fuzz.yml")
        } catch {
            if error.position.line < 1 || error.position.column < 1 {
                return ["error without a position: \(error)"]
            }
            return []
        }
        let router = Router()
        let seat = router.addSeat()
        let output = router.tree.createNode(.output, name: "out", frame: Rect(0, 0, 800, 600))
        let client = router.addClient(name: "app")
        seat.setBound([.pointer, .keyboard, .touch], for: client, true)
        let window = router.tree.createNode(.toplevel, client: client, parent: output, frame: Rect(100, 100, 400, 300))
        seat.setKeyboardFocus(window)
        var sink = InvariantChecker(
            wrapping: ClientModel(wrapping: NullSink(), router: router), router: router, mode: mode)
        router.flush(into: &sink)
        let descriptions = recording.descriptions
        // Bounded, so one input cannot make one run take minutes.
        for event in recording.events.prefix(20_000) {
            if case .deviceAdded = event.kind {
                seat.handle(event, description: descriptions[event.device])
            } else {
                seat.handle(event)
            }
            router.flush(into: &sink)
        }
        for d in 0..<UInt32(recording.devices.count + 1) { seat.notifyDeviceRemoved(DeviceID(d), time: UInt64.max) }
        // Events may name devices the file did not describe.
        for event in recording.events.prefix(20_000) { seat.notifyDeviceRemoved(event.device, time: UInt64.max) }
        router.flush(into: &sink)
        let described = seat.describedDevices.map { "\($0) still described after every device went" }
        return sink.violations + sink.inner.stuck() + described
    }
}
