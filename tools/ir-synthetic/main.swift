// ir-synthetic: writes the synthetic generator's log for a seed as a `libinput record`
// file, the same log `ir-compositor --input synthetic:SEED` replays, so a user can keep it,
// read it, edit it or replay it elsewhere (docs/recordings.md).
//
//   ir-synthetic SEED [--devices KIND+KIND...] [--frames N] [-o FILE]
//   ir-synthetic SEED --hostile [-o FILE]
//
// --hostile writes HostileGenerator's variant instead: a synthetic log broken on purpose
// (1 to 3 mutations, named on standard error), to try a reader on.

import InputRouterRecording

#if canImport(Glibc)
    import Glibc
#endif

let usage = """
    usage: ir-synthetic SEED [--devices KIND+KIND...] [--frames N] [-o FILE]
           ir-synthetic SEED --hostile [-o FILE]

      SEED                      a decimal number; one seed always gives the same file
      --devices KIND+KIND...    the devices, in file order, from keyboard, mouse, touchscreen,
                                switches (default: all four, in that order; a kind may repeat)
      --frames N                input frames, 0 to 1000000 (default 200; each device's
                                DEVICE_ADDED comes on top)
      --hostile                 the hostile variant: a synthetic log of its own devices and
                                length with 1 to 3 mutations (truncation, YAML junk, wrong
                                version, bad numbers, a release without a press...), listed on
                                standard error; a reader must read it or name file:line:column
      -o FILE                   write to FILE instead of standard output
      --help                    this text
    """

func fail(_ message: String) -> Never {
    var line = "ir-synthetic: \(message)\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(2)
}

var arguments = CommandLine.arguments.dropFirst()
var seedText: String?
var devicesText: String?
var framesText: String?
var hostile = false
var outputPath: String?
while let argument = arguments.popFirst() {
    func value() -> String {
        guard let value = arguments.popFirst() else { fail("\(argument) needs a value") }
        return value
    }
    switch argument {
    case "--help", "-h":
        print(usage)
        exit(0)
    case "--devices": devicesText = value()
    case "--frames": framesText = value()
    case "--hostile": hostile = true
    case "-o", "--output": outputPath = value()
    default:
        guard !argument.hasPrefix("-"), seedText == nil else { fail("unexpected argument \(argument) (see --help)") }
        seedText = argument
    }
}
guard let seedText else { fail("give a seed (see --help)") }

let text: String
do {
    let seed = try SyntheticRequest.seed(parsing: seedText)
    if hostile {
        // The hostile variant picks its own devices and length from the seed.
        guard devicesText == nil, framesText == nil else { fail("--hostile takes no --devices or --frames") }
        let (yaml, mutations) = HostileGenerator(seed: seed).generate()
        var line = "ir-synthetic: hostile log \(seed): \(mutations.map(\.rawValue).joined(separator: ", "))\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        text = yaml
    } else {
        var request = SyntheticRequest(seed: seed)
        if let devicesText { request.devices = try SyntheticRequest.devices(parsing: devicesText) }
        if let framesText { request.frames = try SyntheticRequest.frames(parsing: framesText) }
        text = request.generator.generate().yaml
    }
} catch {
    fail("\(error)")
}

/// Writes all of `bytes` to `fd`; false on an error.
func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let count = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { continue }
            return false
        }
        offset += count
    }
    return true
}

let bytes = Array(text.utf8)
if let outputPath {
    let fd = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { fail("cannot write \(outputPath): \(String(cString: strerror(errno)))") }
    guard writeAll(bytes, to: fd), close(fd) == 0 else {
        fail("cannot write \(outputPath): \(String(cString: strerror(errno)))")
    }
} else {
    guard writeAll(bytes, to: 1) else { fail("cannot write to standard output: \(String(cString: strerror(errno)))") }
}
