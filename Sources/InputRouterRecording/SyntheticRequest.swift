// What a user asks the synthetic generator for on a command line: a seed, and optionally
// which devices and how many frames. `ir-compositor --input synthetic:SPEC` and
// `ir-synthetic` read it with the same rules, so one seed names one log in both.
//
//   SEED[,devices=KIND+KIND...][,frames=N]      e.g. 42   or   7,devices=keyboard+mouse,frames=50

/// A synthetic log as a user names it: `SEED[,devices=KIND+KIND...][,frames=N]`.
public struct SyntheticRequest: Hashable, Sendable {
    /// The generator's seed (decimal, 0 to 2⁶⁴−1).
    public var seed: UInt64
    /// The devices, in file order; the same kind may come more than once.
    public var devices: [SyntheticDeviceKind]
    /// Input frames (each device's DEVICE_ADDED comes on top).
    public var frames: Int

    /// The devices when none are named: every kind the generator has, in its order.
    public static let defaultDevices = SyntheticDeviceKind.allCases
    /// The frames when none are named: 200, about 4 s at the recorded speed (1 to 40 ms apart).
    public static let defaultFrames = 200
    /// The most frames one request may ask for: the log is built in memory (about 150 bytes
    /// of text a frame); a longer run repeats the input.
    public static let maximumFrames = 1_000_000

    /// A request for `seed` with the given devices and length.
    public init(seed: UInt64, devices: [SyntheticDeviceKind] = defaultDevices, frames: Int = defaultFrames) {
        self.seed = seed
        self.devices = devices
        self.frames = frames
    }

    /// Reads `SEED[,devices=KIND+KIND...][,frames=N]`; each key at most once, in any order.
    public init(parsing text: String) throws(SyntheticRequestError) {
        var parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)[...]
        self.init(seed: try Self.seed(parsing: parts.removeFirst()))
        var seen: Set<String> = []
        for part in parts {
            guard let equals = part.firstIndex(of: "=") else {
                throw SyntheticRequestError("'\(part)' is not KEY=VALUE (devices=..., frames=N)")
            }
            let key = String(part[..<equals])
            let value = String(part[part.index(after: equals)...])
            guard seen.insert(key).inserted else { throw SyntheticRequestError("\(key) is given twice") }
            switch key {
            case "devices": devices = try Self.devices(parsing: value)
            case "frames": frames = try Self.frames(parsing: value)
            default: throw SyntheticRequestError("unknown key '\(key)' (devices, frames)")
            }
        }
    }

    /// A seed: a decimal number from 0 to 18446744073709551615.
    public static func seed(parsing text: String) throws(SyntheticRequestError) -> UInt64 {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let seed = UInt64(text)
        else { throw SyntheticRequestError("seed '\(text)' is not a decimal number from 0 to \(UInt64.max)") }
        return seed
    }

    /// Device kinds joined by `+`, e.g. `keyboard+touchscreen+touchscreen`.
    public static func devices(parsing text: String) throws(SyntheticRequestError) -> [SyntheticDeviceKind] {
        let names = SyntheticDeviceKind.allCases.map(\.rawValue).joined(separator: ", ")
        var kinds: [SyntheticDeviceKind] = []
        for name in text.split(separator: "+", omittingEmptySubsequences: false) {
            guard let kind = SyntheticDeviceKind(rawValue: String(name)) else {
                throw SyntheticRequestError("unknown device '\(name)' (\(names); join several with +)")
            }
            kinds.append(kind)
        }
        return kinds
    }

    /// A frame count from 0 to `maximumFrames`.
    public static func frames(parsing text: String) throws(SyntheticRequestError) -> Int {
        guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let frames = Int(text),
            frames <= maximumFrames
        else { throw SyntheticRequestError("frames '\(text)' is not a whole number from 0 to \(maximumFrames)") }
        return frames
    }

    /// The generator this request names.
    public var generator: SyntheticGenerator { SyntheticGenerator(seed: seed, devices: devices, frames: frames) }
}

/// A synthetic log request that cannot be read; the text says why and what is expected.
public struct SyntheticRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, in words for the user.
    public var message: String
    init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
