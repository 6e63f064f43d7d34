// Writes the committed seed corpus (fuzz/corpus/<target>/) from the synthetic and hostile
// generators and the router script encoder. Deterministic: same seeds, same files.
//   swift run --scratch-path .build/plain make-seeds corpus
import Foundation
import InputRouterFuzzing
import InputRouterRecording

let arguments = CommandLine.arguments
// `make-seeds explain router|recording|keyboard|wire FILE`: what an input does and what is wrong.
if arguments.count == 4, arguments[1] == "explain", let data = FileManager.default.contents(atPath: arguments[3]) {
    let bytes = [UInt8](data)
    switch arguments[2] {
    case "router": for p in RouterFuzz.run(bytes, log: { print($0) }) { print("PROBLEM:", p) }
    case "wire": for p in WireFuzz.run(bytes, checksFileDescriptors: true, log: { print($0) }) { print("PROBLEM:", p) }
    case "recording":
        do {
            let r = try RecordingReader.parse(bytes, file: arguments[3])
            for d in r.devices { print("device", d.id, d.name, d.libinputCapabilities.map { "\($0.rawValue)" } ?? "-") }
            for e in r.events { print(e.time, e.device, e.kind) }
        } catch { print("error:", error) }
        for p in RecordingFuzz.run(bytes) { print("PROBLEM:", p) }
    default: for p in KeyboardFuzz.run(bytes) { print("PROBLEM:", p) }
    }
    exit(0)
}
let out = arguments.count > 1 ? arguments[1] : "corpus"

func write(_ bytes: [UInt8], _ dir: String, _ name: String) {
    let path = "\(out)/\(dir)/\(name)"
    try! FileManager.default.createDirectory(atPath: "\(out)/\(dir)", withIntermediateDirectories: true)
    FileManager.default.createFile(atPath: path, contents: Data(bytes))
}

// Recordings: small synthetic logs of each device kind and all together, and hostile ones.
for (i, kind) in SyntheticDeviceKind.allCases.enumerated() {
    write(
        Array(SyntheticGenerator(seed: UInt64(i), devices: [kind], frames: 12).generate().yaml.utf8),
        "recording", "synthetic-\(kind).yml")
}
write(Array(SyntheticGenerator(seed: 99, frames: 30).generate().yaml.utf8), "recording", "synthetic-all.yml")
for seed in 0..<12 as Range<UInt64> {
    write(Array(HostileGenerator(seed: seed).generate().yaml.utf8), "recording", "hostile-\(seed).yml")
}

// Keyboard: each keymap typing, holding modifiers, switching layouts, composing.
for seeds in KeyboardSeeds.all { write(seeds.bytes, "keyboard", seeds.name) }

// Router: the synthetic generator's events on a few scenes, and scene churn.
for seeds in RouterSeeds.all { write(seeds.bytes, "router", seeds.name) }

// Wire: client sessions against the real server (one, two, popups, subsurfaces, selection,
// tablet, a bad client beside good ones).
for seed in WireSeeds.all { write(seed.bytes, "wire", seed.name) }
