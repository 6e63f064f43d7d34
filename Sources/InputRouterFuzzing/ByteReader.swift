// Fuzzer bytes in, decisions out. Every read succeeds: past the end it yields zeros, so
// any byte string decodes to some program and the decoder itself can never fail.

public struct ByteReader {
    public let bytes: [UInt8]
    public private(set) var offset = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var isAtEnd: Bool { offset >= bytes.count }

    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    public mutating func bool() -> Bool { byte() & 1 == 1 }

    public mutating func u16() -> UInt16 { UInt16(byte()) | UInt16(byte()) << 8 }

    public mutating func u32() -> UInt32 { UInt32(u16()) | UInt32(u16()) << 16 }

    /// An index below `count` (which must be positive).
    public mutating func index(_ count: Int) -> Int { Int(byte()) % count }

    /// One of `choices`, chosen by the next byte.
    public mutating func pick<T>(_ choices: [T]) -> T { choices[index(choices.count)] }

    /// A coordinate in 0...1 most of the time, and now and then one a broken device sends.
    public mutating func unit() -> Double {
        let b = byte()
        if b < 240 { return Double(b) / 239 }
        return FuzzValues.unruly[Int(b - 240) % FuzzValues.unruly.count]
    }

    /// A delta or position in about -128...128, or an unruly one.
    public mutating func delta() -> Double {
        let b = byte()
        if b < 240 { return Double(Int(b) - 120) * 1.5 }
        return FuzzValues.unruly[Int(b - 240) % FuzzValues.unruly.count]
    }
}

/// The values hostile or broken sources produce.
public enum FuzzValues {
    public static let unruly: [Double] = [
        .nan, .infinity, -.infinity, 1e300, -1e300, -0.0, 2, -1, .ulpOfOne, 4_294_967_296.5,
        -4_294_967_296.5, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, 0.999_999_999_9,
        1,
    ]
    public static let slots: [Int32] = [0, 1, 2, 3, 4, 5, 0, 1, 2, -1, 9, Int32.max, Int32.min, 31, 32, 1000]
    /// Linux codes: the usual ones, modifiers, and some past KEY_MAX.
    public static let keys: [UInt32] = [
        30, 31, 32, 42, 54, 29, 56, 100, 125, 28, 1, 57, 58, 69, 2, 16, 0, 0x2ff, 0x300, 0xFFFF, UInt32.max, 0x110,
    ]
    public static let buttons: [UInt32] = [0x110, 0x111, 0x112, 0x110, 0x111, 0x113, 0, 30, 0x2ff, 0x300, UInt32.max]
    /// BTN_STYLUS, BTN_STYLUS2, BTN_STYLUS3, BTN_TOUCH (never a button), and nonsense.
    public static let tabletButtons: [UInt32] = [0x14b, 0x14c, 0x149, 0x14a, 0x110, 0, UInt32.max]
}
