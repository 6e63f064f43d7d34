import CPixman

/// A `wl_region`: a union of added rectangles minus subtracted ones, kept by pixman (the
/// region algebra wlroots and Weston use). A value type; copies share storage until one
/// of them changes.
///
/// Coordinates saturate at ±2³⁰ (`Region.limit`): pixman keeps 32-bit boxes, and a union of
/// rectangles that each fit could otherwise span more than 2³¹ pixels, whose extents
/// nothing can represent. No output or surface comes near that size, so clamping changes
/// no point anyone can reach, and every embedder gets a region whose extents fit.
public struct Region: Sendable, Equatable, CustomStringConvertible {
    final class Storage: @unchecked Sendable {
        // Heap-allocated so its address is stable for pixman; freed with the storage.
        let region: UnsafeMutablePointer<pixman_region32_t>
        init() {
            region = .allocate(capacity: 1)
            pixman_region32_init(region)
        }
        init(copying other: Storage) {
            region = .allocate(capacity: 1)
            pixman_region32_init(region)
            pixman_region32_copy(region, other.region)
        }
        deinit {
            pixman_region32_fini(region)
            region.deallocate()
        }
    }
    var storage: Storage

    /// An empty region. Allocates its pixman storage: build regions on surface commit, not per event.
    public init() { storage = Storage() }
    /// A region of one rectangle (clamped to ±`limit`). Allocates, as `init()` does.
    public init(_ rect: Rect) {
        self.init()
        add(rect)
    }
    /// The union of `rects` (clamped to ±`limit`). Allocates, as `init()` does.
    public init(_ rects: [Rect]) {
        self.init()
        for r in rects { add(r) }
    }

    private mutating func unique() {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage) }
    }

    /// The largest coordinate magnitude a region keeps; beyond it, edges saturate.
    public static let limit: Int64 = 1 << 30

    /// `r` with both edges clamped to ±`limit` (computed in 64 bits: `x + width` may not
    /// fit in 32), or nil when nothing is left.
    static func saturated(_ r: Rect) -> (x: Int32, y: Int32, width: UInt32, height: UInt32)? {
        guard !r.isEmpty else { return nil }
        func clamp(_ v: Int64) -> Int64 { min(max(v, -limit), limit - 1) }
        let x1 = clamp(Int64(r.x))
        let y1 = clamp(Int64(r.y))
        let x2 = clamp(Int64(r.x) + Int64(r.width))
        let y2 = clamp(Int64(r.y) + Int64(r.height))
        guard x2 > x1, y2 > y1 else { return nil }
        return (Int32(x1), Int32(y1), UInt32(x2 - x1), UInt32(y2 - y1))
    }

    /// `wl_region.add`. Rectangles with a non-positive size add nothing.
    public mutating func add(_ r: Rect) {
        guard let s = Region.saturated(r) else { return }
        unique()
        pixman_region32_union_rect(storage.region, storage.region, s.x, s.y, s.width, s.height)
    }

    /// `wl_region.subtract`.
    public mutating func subtract(_ r: Rect) {
        guard let s = Region.saturated(r) else { return }
        unique()
        var cut = pixman_region32_t()
        pixman_region32_init_rect(&cut, s.x, s.y, s.width, s.height)
        pixman_region32_subtract(storage.region, storage.region, &cut)
        pixman_region32_fini(&cut)
    }

    /// Keeps only the part inside `r` (the surface bounds, for input regions).
    public mutating func intersect(_ r: Rect) {
        unique()
        guard let s = Region.saturated(r) else {
            pixman_region32_clear(storage.region)
            return
        }
        pixman_region32_intersect_rect(storage.region, storage.region, s.x, s.y, s.width, s.height)
    }

    /// Same set of pixels, however built; O(1) when both share storage, else pixman's comparison.
    public static func == (a: Region, b: Region) -> Bool {
        a.storage === b.storage || pixman_region32_equal(a.storage.region, b.storage.region) != 0
    }

    /// Keeps only the part inside `other` (a constraint region within an input region).
    public mutating func intersect(_ other: Region) {
        unique()
        pixman_region32_intersect(storage.region, storage.region, other.storage.region)
    }

    /// Whether the integer pixel (x, y) is inside.
    @inlinable public func contains(x: Int32, y: Int32) -> Bool { containsPixel(x, y) }

    @usableFromInline func containsPixel(_ x: Int32, _ y: Int32) -> Bool {
        pixman_region32_contains_point(storage.region, x, y, nil) != 0
    }

    /// The floor rule: a point is inside when the pixel containing it is.
    public func contains(_ p: Point) -> Bool {
        let fx = p.x.rounded(.down)
        let fy = p.y.rounded(.down)
        guard fx >= -2_147_483_648, fx <= 2_147_483_647, fy >= -2_147_483_648, fy <= 2_147_483_647 else { return false }
        return containsPixel(Int32(fx), Int32(fy))
    }

    /// True when the region holds no pixel (then no point of it takes input).
    public var isEmpty: Bool { pixman_region32_not_empty(storage.region) == 0 }

    /// The rectangles pixman keeps (y-x banded, non-overlapping).
    public var rects: [Rect] {
        var n: Int32 = 0
        guard let boxes = pixman_region32_rectangles(storage.region, &n) else { return [] }
        return (0..<Int(n)).map { i in
            let b = boxes[i]
            return Rect(b.x1, b.y1, b.x2 - b.x1, b.y2 - b.y1)
        }
    }

    /// The smallest rectangle holding the whole region; empty for an empty region. No allocation.
    public var extents: Rect {
        let e = storage.region.pointee.extents
        return Rect(e.x1, e.y1, e.x2 - e.x1, e.y2 - e.y1)
    }

    /// Pointer to the pixman region, valid while this value lives unchanged.
    var pixmanRegion: UnsafeMutablePointer<pixman_region32_t> { storage.region }

    /// The rectangles, for traces and test failures. Allocates.
    public var description: String { rects.map { "[\($0)]" }.joined(separator: " ") }
}
