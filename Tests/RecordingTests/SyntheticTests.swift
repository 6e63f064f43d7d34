// The generator's logs are ordinary recordings: reading one gives back exactly the events
// the generator meant. Hostile logs are read or rejected with a position, never a crash.

import InputRouter
import Testing

@testable import InputRouterRecording

@Suite struct SyntheticTests {
    @Test(arguments: 0..<40)
    func roundTrip(seed: UInt64) throws {
        let log = SyntheticGenerator(seed: seed, frames: 150).generate()
        let recording = try RecordingReader.parse(log.yaml, file: "synthetic-\(seed).yml")
        #expect(recording.warnings.isEmpty)
        #expect(recording.events.count == log.events.count)
        #expect(recording.events == log.events)
        #expect(recording.devices.map(\.name) == log.devices.map(\.name))
    }

    @Test func coversEveryKindOfEvent() throws {
        let log = SyntheticGenerator(seed: 7, frames: 600).generate()
        let counts = Counts(log.events)
        #expect(counts.added == 4)
        #expect(counts.keys > 0 && counts.motion > 0 && counts.buttons > 0 && counts.axis > 0)
        #expect(counts.touchDown > 0 && counts.touchMotion > 0 && counts.touchUp > 0 && counts.touchFrame > 0)
        #expect(counts.switches > 0)
        // Hi-res partial steps appear, written with a null `libinput:` like libinput 1.22 does.
        #expect(
            log.events.contains {
                if case .pointerAxis(_, let v, let h) = $0.kind { return ((v ?? h)?.value120 ?? 0) % 120 != 0 }
                return false
            })
        #expect(log.yaml.contains("    libinput:\n  - evdev:"))
    }

    @Test func deterministic() {
        #expect(SyntheticGenerator(seed: 42).generate().yaml == SyntheticGenerator(seed: 42).generate().yaml)
        #expect(SyntheticGenerator(seed: 42).generate().yaml != SyntheticGenerator(seed: 43).generate().yaml)
        var a = SplitMix64(seed: 1)
        var b = SplitMix64(seed: 1)
        #expect((0..<5).map { _ in a.next() } == (0..<5).map { _ in b.next() })
        // SplitMix64's published first output for seed 0.
        var zero = SplitMix64(seed: 0)
        #expect(zero.next() == 0xE220_A839_7B1D_CDAF)
    }

    @Test func singleKindLogs() throws {
        for kind in SyntheticDeviceKind.allCases {
            let log = SyntheticGenerator(seed: 3, devices: [kind, kind], frames: 80).generate()
            #expect(try RecordingReader.parse(log.yaml, file: "\(kind).yml").events == log.events)
        }
        #expect(SyntheticGenerator(seed: 1, devices: [], frames: 10).generate().events.isEmpty)
    }

    @Test func hostileLogsParseOrThrowPositionedErrors() {
        var parsed = 0
        var rejected = 0
        for seed in UInt64(0)..<400 {
            let (yaml, mutations) = HostileGenerator(seed: seed).generate()
            do {
                _ = try RecordingReader.parse(yaml, file: "hostile.yml")
                parsed += 1
            } catch {
                rejected += 1
                let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false).count
                #expect(error.line >= 1 && error.line <= lines + 1, "\(mutations): \(error)")
                #expect(error.column >= 1, "\(mutations): \(error)")
                #expect(error.description.hasPrefix("hostile.yml:\(error.line):\(error.column): "))
            }
        }
        // Both outcomes occur: the mutations are neither all harmless nor all fatal.
        #expect(parsed > 20 && rejected > 20, "parsed \(parsed), rejected \(rejected)")
    }

    @Test func unrulyLogsAreReadAsTheyAre() throws {
        // A release without a press and an up for a slot that is not down are replayed as
        // libinput entries say; the core, not the reader, decides what to do with them.
        var found = false
        for seed in UInt64(0)..<400 {
            let (yaml, mutations) = HostileGenerator(seed: seed).generate()
            guard mutations == [.releaseWithoutPress] else { continue }
            let recording = try RecordingReader.parse(yaml, file: "unruly.yml")
            #expect(recording.events.contains { $0.kind == .keyboardKey(key: 30, state: .released) && $0.time == 1 })
            found = true
        }
        #expect(found)
    }
}
