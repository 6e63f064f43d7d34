// Geometry shared by every layer: layout points in Double, integer rectangles, wl_fixed.

/// A point in layout space or in a node's local space, in logical pixels.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    @inlinable public init(x: Double, y: Double) { self.x = x; self.y = y }
    @inlinable public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    public static let zero = Point(0, 0)
    public var description: String { "\(Fixed(x)),\(Fixed(y))" }
}

/// An integer rectangle in logical pixels, the unit of Wayland regions and surface sizes.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int32
    public var y: Int32
    public var width: Int32
    public var height: Int32
    @inlinable public init(x: Int32, y: Int32, width: Int32, height: Int32) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    @inlinable public init(_ x: Int32, _ y: Int32, _ width: Int32, _ height: Int32) {
        self.init(x: x, y: y, width: width, height: height)
    }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The floor rule used everywhere: a point belongs to the pixel that contains `floor(p)`.
    @inlinable public func contains(_ p: Point) -> Bool {
        let px = p.x.rounded(.down), py = p.y.rounded(.down)
        return px >= Double(x) && py >= Double(y)
            && px < Double(x) + Double(width) && py < Double(y) + Double(height)
    }
    public var description: String { "\(x),\(y) \(width)x\(height)" }
}

/// Wayland's 24.8 signed fixed-point number (`wl_fixed_t`), what clients receive.
public struct Fixed: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var raw: Int32
    @inlinable public init(raw: Int32) { self.raw = raw }
    /// Rounds to the nearest 1/256, as libwayland's `wl_fixed_from_double` does.
    @inlinable public init(_ value: Double) {
        let scaled = (value * 256).rounded(.toNearestOrAwayFromZero)
        raw = Int32(clamping: Int64(max(min(scaled, 2_147_483_647), -2_147_483_648)))
    }
    public var double: Double { Double(raw) / 256 }
    public static func < (a: Fixed, b: Fixed) -> Bool { a.raw < b.raw }
    /// Exact decimal text: 24.8 fixed point needs at most 8 fractional digits.
    public var description: String {
        let negative = raw < 0
        let magnitude = Int64(raw).magnitude
        let whole = magnitude >> 8
        var fraction = (magnitude & 0xff) * 390_625  // 1/256 = 0.00390625
        var text = negative ? "-\(whole)" : "\(whole)"
        if fraction != 0 {
            var digits = 8
            while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
            let f = String(fraction)
            text += "." + String(repeating: "0", count: digits - f.count) + f
        }
        return text
    }
}
