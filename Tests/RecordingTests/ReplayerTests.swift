// The replayer computes due times from the caller's clock and never sleeps.

import InputRouter
import Testing

@testable import InputRouterRecording

@Suite struct ReplayerTests {
    func events(_ times: [UInt64]) -> [InputEvent] {
        times.enumerated().map {
            InputEvent(time: $1, device: DeviceID(0), .keyboardKey(key: UInt32($0), state: .pressed))
        }
    }

    @Test func recordedSpeed() throws {
        var replayer = try Replayer(events: events([1_000_000, 1_000_500, 1_002_000]))
        replayer.start(at: 50)
        #expect(replayer.dueTime() == 50)
        #expect(replayer.due(now: 50).count == 1)
        #expect(replayer.delay(now: 100) == 450)
        #expect(replayer.nextDue(now: 549) == nil)
        #expect(replayer.nextDue(now: 550)?.time == 1_000_500)
        #expect(replayer.dueTime() == 2050)
        #expect(replayer.due(now: 10_000).count == 1)
        #expect(replayer.isFinished)
        #expect(replayer.dueTime() == nil && replayer.delay(now: 0) == nil && replayer.next() == nil)
    }

    @Test func multipleAndFastest() throws {
        var double = try Replayer(events: events([0, 1000, 3000]), speed: .multiple(2))
        double.start(at: 0)
        _ = double.next()
        #expect(double.dueTime() == 500)
        _ = double.next()
        #expect(double.dueTime() == 1500)
        var fastest = try Replayer(events: events([0, 1000, 3000]), speed: .asFastAsPossible)
        fastest.start(at: 7)
        #expect(fastest.due(now: 7).count == 3)
    }

    @Test func timeGoingBackwardsIsDueAtOnce() throws {
        var replayer = try Replayer(events: events([0, 5000, 2000, 6000]))
        replayer.start(at: 0)
        _ = replayer.next()
        _ = replayer.next()
        #expect(replayer.dueTime() == 5000)
        _ = replayer.next()
        #expect(replayer.dueTime() == 6000)
    }

    @Test func invalidSpeedIsRejected() {
        for factor in [0, -1, Double.nan, .infinity] {
            #expect(throws: Replayer.InvalidSpeed.self) { try Replayer(events: [], speed: .multiple(factor)) }
        }
        #expect(
            Replayer.InvalidSpeed(factor: 0).description
                == "replay speed multiple must be finite and greater than 0, got 0.0")
    }

    @Test func hugeTimesSaturate() throws {
        var replayer = try Replayer(events: events([0, UInt64.max]), speed: .multiple(1e-300))
        replayer.start(at: UInt64.max - 1)
        _ = replayer.next()
        #expect(replayer.dueTime() == UInt64.max)
    }

    @Test func stepsAFixtureInOrder() throws {
        let recording = try RecordingReader.read(path: Paths.fixture("multi.yml"))
        var replayer = try Replayer(events: recording.events)
        replayer.start(at: 0)
        var stepped: [InputEvent] = []
        var clock: UInt64 = 0
        while let delay = replayer.delay(now: clock) {
            clock += delay // what a compositor's timer would do
            stepped += replayer.due(now: clock)
        }
        #expect(stepped == recording.events)
        #expect(clock == recording.events.last!.time - recording.events.first!.time)
    }

    /// A replay hands each `deviceAdded` the file's description of its device (the header's
    /// name, node and ids) and nothing with any other event; two seats fed the same replay
    /// one after the other each own the description from then on.
    @Test func aReplayDescribesEachDeviceAddedAsTheFileDoes() throws {
        let recording = try RecordingReader.read(path: Paths.fixture("mouse.yml"), deviceIDBase: 100)
        let mouse = DeviceDescription(
            name: "Synthetic Fixture Mouse", path: "/dev/input/event4", bus: 3, vendor: 4617,
            product: 1, version: 273)
        let router = Router()
        for seat in [router.addSeat(name: "seat0"), router.addSeat(name: "seat1")] {
            var replayer = try Replayer(recording, speed: .asFastAsPossible)
            var described: [DeviceID: DeviceDescription] = [:]
            var others = 0
            while let event = replayer.next() {
                let d = replayer.description(of: event)
                if case .deviceAdded = event.kind { described[event.device] = d } else if d != nil { others += 1 }
                seat.handle(event, description: d)
                router.queue.removeAll()
            }
            #expect(described == [DeviceID(100): mouse])
            #expect(others == 0)
            #expect(seat.deviceDescription(of: DeviceID(100)) == mouse)
        }
        // Made from events alone, a replay describes nothing unless told.
        let bare = try Replayer(events: recording.events)
        #expect(bare.events.first.flatMap(bare.description(of:)) == nil)
        let told = try Replayer(events: recording.events, descriptions: recording.descriptions)
        #expect(told.events.first.flatMap(told.description(of:)) == mouse)
    }

    /// A generated log's descriptions are what reading its text gives back.
    @Test func aSyntheticLogsDescriptionsReadBack() throws {
        let log = SyntheticGenerator(seed: 7, frames: 20).generate()
        let recording = try RecordingReader.parse(log.yaml, file: "synthetic.yml")
        #expect(!log.descriptions.isEmpty)
        #expect(recording.descriptions == log.descriptions)
    }
}
