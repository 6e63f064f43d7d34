// A small deterministic PRNG (SplitMix64) so a seed gives the same log on every machine
// and Swift version; the standard library's generator is neither seedable nor stable.

/// A seedable random number generator that gives the same numbers on every machine and
/// Swift version, so a seed reproduces a generated recording anywhere.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    /// A generator starting from `seed`; equal seeds give equal sequences.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits. No allocation.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<bound (bound > 0), by rejection so there is no modulo bias.
    mutating func below(_ bound: UInt64) -> UInt64 {
        precondition(bound > 0)
        let limit = UInt64.max - UInt64.max % bound
        while true {
            let value = next()
            if value < limit { return value % bound }
        }
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(below(UInt64(range.upperBound - range.lowerBound) + 1))
    }

    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    mutating func pick<T>(_ items: [T]) -> T { items[int(0...items.count - 1)] }
}
