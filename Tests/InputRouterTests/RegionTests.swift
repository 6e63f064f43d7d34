import InputRouter
import Testing

/// The core's Region is safe for any embedder: rectangles whose edges or union do not fit
/// in 32 bits saturate at ±2³⁰ instead of wrapping or trapping.
@Suite struct RegionTests {
    static let limit = Int32(Region.limit)

    @Test func aUnionWiderThan32BitsSaturates() {
        var r = Region(Rect(Int32.min + 1, 0, Int32.max, 10))
        r.add(Rect(0, 0, Int32.max, 10))
        #expect(r.extents == Rect(-Self.limit, 0, Int32(2 * Region.limit - 1), 10))
        #expect(r.contains(x: 1_000_000, y: 5))
        #expect(r.contains(x: -1_000_000, y: 5))
    }

    @Test func aFarEdgePast32BitsSaturates() {
        let r = Region(Rect(Int32.max - 10, Int32.max - 10, 100, 100))
        // Entirely beyond the limit: nothing is left, rather than a wrapped rectangle.
        #expect(r.isEmpty)
        var s = Region(Rect(0, 0, 10, 10))
        s.subtract(Rect(5, -2_000_000_000, Int32.max, Int32.max)) // a cut past the limit on three sides
        #expect(s.rects == [Rect(0, 0, 5, 10)])
    }

    @Test func aSaturatedInputRegionHitTestsAndBounds() {
        let h = Harness()
        let a = h.client("a")
        let win = h.toplevel("A", a, Rect(0, 0, 100, 100))
        var region = Region(Rect(Int32.min + 1, 0, Int32.max, 50))
        region.add(Rect(0, 0, Int32.max, 50))
        h.tree.setInputRegion(win, region) // not clipped by the caller
        #expect(h.tree.hitTest(Point(10, 10))?.node == win)
        #expect(h.tree.hitTest(Point(10, 60))?.node == h.output)
        h.expectClean()
    }

    @Test func equalRegionsCompareEqual() {
        var a = Region(Rect(0, 0, 10, 10))
        a.add(Rect(10, 0, 10, 10))
        let b = Region(Rect(0, 0, 20, 10))
        #expect(a == b)
        #expect(a != Region(Rect(0, 0, 20, 11)))
    }
}
