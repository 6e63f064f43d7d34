import Foundation
import InputRouterFuzzing
import InputRouterRecording
import Testing

/// The fuzz targets' own code, run without libFuzzer: every committed seed and every
/// finding the fuzzers made (Regressions/, each fixed) must come out clean. A finding is
/// added here by copying the crash file into Regressions/<target>/ under a name that says
/// what went wrong.
@Suite struct CorpusTests {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let repository = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()

    static func files(_ directory: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") }.map { directory.appendingPathComponent($0) }
    }

    static func inputs(_ target: String) -> [String] {
        (files(repository.appendingPathComponent("fuzz/corpus/\(target)"))
            + files(testsDirectory.appendingPathComponent("Regressions/\(target)"))).map(\.path)
    }

    static func run(_ target: String, _ path: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else { return ["cannot read \(path)"] }
        let bytes = [UInt8](data)
        switch target {
        case "router": return RouterFuzz.run(bytes)
        case "recording": return RecordingFuzz.run(bytes)
        case "wire": return WireFuzz.run(bytes)
        default: return KeyboardFuzz.run(bytes)
        }
    }

    @Test func everyTargetHasSeeds() {
        for target in ["router", "recording", "keyboard", "wire"] {
            #expect(Self.inputs(target).count >= 5, "\(target)")
        }
    }

    @Test(arguments: inputs("router")) func router(_ path: String) {
        #expect(Self.run("router", path) == [], "\(path)")
    }

    @Test(arguments: inputs("recording")) func recording(_ path: String) {
        #expect(Self.run("recording", path) == [], "\(path)")
    }

    @Test(arguments: inputs("keyboard")) func keyboard(_ path: String) {
        #expect(Self.run("keyboard", path) == [], "\(path)")
    }

    @Test(arguments: inputs("wire")) func wire(_ path: String) {
        #expect(Self.run("wire", path) == [], "\(path)")
    }
}

/// A little fuzzing in every CI run: seeded random bytes through the same decoders.
@Suite struct RandomBytesTests {
    static func bytes(seed: UInt64, count: Int) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    @Test(arguments: 0..<64 as Range<UInt64>) func router(seed: UInt64) {
        #expect(RouterFuzz.run(Self.bytes(seed: seed, count: 4096)) == [], "seed \(seed)")
    }

    @Test(arguments: 0..<16 as Range<UInt64>) func keyboard(seed: UInt64) {
        #expect(KeyboardFuzz.run(Self.bytes(seed: seed, count: 2048)) == [], "seed \(seed)")
    }

    /// Random bytes after a session prefix (one client with a window), so that they act
    /// on real objects rather than mostly on wl_display.
    @Test(arguments: 0..<12 as Range<UInt64>) func wire(seed: UInt64) {
        let prefix = WireSeeds.all[0].bytes
        #expect(WireFuzz.run(prefix + Self.bytes(seed: seed, count: 1024)) == [], "seed \(seed)")
    }
}

extension RandomBytesTests {
    @Test(arguments: 0..<24 as Range<UInt64>) func hostileRecording(seed: UInt64) {
        let yaml = HostileGenerator(seed: seed &+ 1000).generate().yaml
        #expect(RecordingFuzz.run(Array(yaml.utf8)) == [], "seed \(seed)")
    }
}
