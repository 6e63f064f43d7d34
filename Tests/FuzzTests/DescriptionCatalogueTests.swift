import FuzzSupport
import InputRouter
import Recording
import Testing

/// The recording fuzzer reads files whose devices have names of its own making: the device
/// description catalogue must forget each once the run is over (DeviceDescription.swift),
/// or a long fuzzing session grows it per distinct name.
struct DescriptionCatalogueTests {
    /// Valid recordings, each device named at random under `token`, as the fuzzer makes them
    /// from its seeds: read, routed through a seat and dropped, `RecordingFuzz.run`'s way.
    static func recordings(_ token: String, count: Int) -> [[UInt8]] {
        var rng = SplitMix64(seed: 0x5eed)
        return (0..<count).map { i in
            let yaml = SyntheticGenerator(seed: UInt64(i), frames: 12).generate().yaml
            let renamed = yaml.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                guard line.hasPrefix("    name: ") else { return String(line) }
                return "    name: \"Fuzzed \(token) \(rng.next())\""
            }
            return Array(renamed.joined(separator: "\n").utf8)
        }
    }

    @Test func theRecordingFuzzerLeavesTheCatalogueAsItWas() {
        let token = "f\(UInt64.random(in: 0...UInt64.max))"
        let inputs = Self.recordings(token, count: 20)
        // The inputs do describe devices as the fuzzer reads them (else nothing is to forget):
        // read and routed here as RecordingFuzz does, then dropped.
        do {
            let recording = try? RecordingReader.parse(inputs[0], file: "fuzz.yml")
            let router = Router()
            let seat = router.addSeat()
            for event in recording?.events ?? [] { seat.handle(event) }
            #expect(recording?.events.first?.deviceDescription?.name.contains(token) == true)
        }
        for bytes in inputs { #expect(RecordingFuzz.run(bytes).isEmpty) }
        let kept = DeviceDescription.catalogued.filter { $0.name.contains(token) }.count
        #expect(kept == 0, "\(kept) of the fuzzed devices' descriptions stayed")
    }
}
