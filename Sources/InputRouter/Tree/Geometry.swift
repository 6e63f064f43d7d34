// Geometry shared by every layer: layout points in Double, integer rectangles, wl_fixed.

/// A point in layout space or in a node's local space, in logical pixels.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// Horizontal coordinate, in logical pixels.
    public var x: Double
    /// Vertical coordinate, in logical pixels (down is positive).
    public var y: Double
    /// A point; a trivial value, free to make on the hot path.
    @inlinable public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    /// A point from unlabelled coordinates.
    @inlinable public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }
    /// The origin of whatever space the point is in.
    public static let zero = Point(0, 0)
    /// As clients will see it: each coordinate rounded to `wl_fixed_t`. Allocates a string.
    public var description: String { "\(Fixed(x)),\(Fixed(y))" }
}

/// An integer rectangle in logical pixels, the unit of Wayland regions and surface sizes.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// Left edge, in logical pixels.
    public var x: Int32
    /// Top edge, in logical pixels.
    public var y: Int32
    /// Width in logical pixels; zero or negative makes the rectangle empty.
    public var width: Int32
    /// Height in logical pixels; zero or negative makes the rectangle empty.
    public var height: Int32
    /// A rectangle; a trivial value, free to make on the hot path.
    @inlinable public init(x: Int32, y: Int32, width: Int32, height: Int32) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    /// A rectangle from unlabelled origin and size.
    @inlinable public init(_ x: Int32, _ y: Int32, _ width: Int32, _ height: Int32) {
        self.init(x: x, y: y, width: width, height: height)
    }
    /// True when it holds no pixel (zero or negative width or height).
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The floor rule used everywhere: a point belongs to the pixel that contains `floor(p)`.
    @inlinable public func contains(_ p: Point) -> Bool {
        let px = p.x.rounded(.down)
        let py = p.y.rounded(.down)
        return px >= Double(x) && py >= Double(y)
            && px < Double(x) + Double(width) && py < Double(y) + Double(height)
    }
    /// "x,y wxh", for traces. Allocates a string.
    public var description: String { "\(x),\(y) \(width)x\(height)" }
}

/// Wayland's 24.8 signed fixed-point number (`wl_fixed_t`), what clients receive.
public struct Fixed: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The value times 256, as it goes on the wire.
    public var raw: Int32
    /// A fixed-point value from its wire form.
    @inlinable public init(raw: Int32) { self.raw = raw }
    /// Rounds to the nearest 1/256, as libwayland's `wl_fixed_from_double` does.
    @inlinable public init(_ value: Double) {
        let scaled = (value * 256).rounded(.toNearestOrAwayFromZero)
        raw = Int32(clamping: Int64(max(min(scaled, 2_147_483_647), -2_147_483_648)))
    }
    /// The exact value as a double (every 24.8 value has one).
    public var double: Double { Double(raw) / 256 }
    /// Orders by value.
    public static func < (a: Fixed, b: Fixed) -> Bool { a.raw < b.raw }
    /// Exact decimal text: 24.8 fixed point needs at most 8 fractional digits.
    public var description: String {
        let negative = raw < 0
        let magnitude = Int64(raw).magnitude
        let whole = magnitude >> 8
        var fraction = (magnitude & 0xff) * 390_625 // 1/256 = 0.00390625
        var text = negative ? "-\(whole)" : "\(whole)"
        if fraction != 0 {
            var digits = 8
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            let f = String(fraction)
            text += "." + String(repeating: "0", count: digits - f.count) + f
        }
        return text
    }
}
