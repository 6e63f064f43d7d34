// The layer shell's placement rules (LayerShell.swift), on numbers a client may send:
// where a surface goes for its anchors, margins and size, and what an exclusive zone
// takes from the usable area. Expected values are the protocol's (zwlr_layer_surface_v1).
import InputRouter
import Testing

@testable import InputRouterWayland

struct LayerArrangementTests {
    let output = Rect(0, 0, 1280, 720)

    func state(
        width: UInt32, height: UInt32, anchor: UInt32, zone: Int32 = 0,
        margin: (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
    ) -> LayerState {
        var s = LayerState()
        s.width = width
        s.height = height
        s.anchor = anchor
        s.exclusiveZone = zone
        s.margin = (top: margin.0, right: margin.1, bottom: margin.2, left: margin.3)
        return s
    }

    @Test func aTopPanelSpansTheWidthLessItsMarginsAndReservesItsZonePlusTheTopMargin() throws {
        let panel = state(
            width: 0, height: 30, anchor: Anchor.top | Anchor.left | Anchor.right, zone: 30, margin: (5, 10, 0, 10))
        let placed = try #require(WaylandServer.layerBox(panel, in: output))
        #expect(placed.box == Rect(10, 5, 1260, 30))
        #expect((placed.width, placed.height) == (1260, 30))
        var usable = output
        WaylandServer.reserve(panel, from: &usable)
        #expect(usable == Rect(0, 35, 1280, 685))
    }

    @Test func aSurfaceAnchoredToNoEdgeOrBothIsCentredAndItsMarginsIgnored() throws {
        let centred = state(width: 200, height: 100, anchor: 0, margin: (50, 50, 50, 50))
        #expect(try #require(WaylandServer.layerBox(centred, in: output)).box == Rect(540, 310, 200, 100))
        let both = state(width: 200, height: 100, anchor: Anchor.all, margin: (50, 50, 50, 50))
        #expect(try #require(WaylandServer.layerBox(both, in: output)).box == Rect(540, 310, 200, 100))
    }

    @Test func aCornerSurfaceReservesNothingEvenWithAZone() {
        let corner = state(width: 100, height: 100, anchor: Anchor.top | Anchor.left, zone: 40)
        var usable = output
        WaylandServer.reserve(corner, from: &usable)
        #expect(usable == output)
    }

    @Test func hostileMarginsAndSizesNeitherTrapNorReserveMoreThanTheOutput() {
        let huge = state(
            width: 0, height: UInt32.max, anchor: Anchor.left | Anchor.right | Anchor.bottom,
            zone: Int32.max, margin: (Int32.min, Int32.max, Int32.max, Int32.max))
        // Width 0 spans the output less both margins: less than nothing, so it cannot be shown.
        #expect(WaylandServer.layerBox(huge, in: output) == nil)
        var usable = output
        WaylandServer.reserve(huge, from: &usable)
        #expect(usable == Rect(0, 0, 1280, 0))
        let tall = state(
            width: UInt32.max, height: UInt32.max, anchor: Anchor.right | Anchor.bottom,
            margin: (0, Int32.min, Int32.min, 0))
        let placed = WaylandServer.layerBox(tall, in: output)
        #expect(placed?.box.width == Int32.max && placed?.box.height == Int32.max)
    }
}
