// xdg_positioner constraint adjustment: flip, slide and resize, each axis on its own, in
// the order xdg-shell gives, against the output's bounds.
import CWaylandProtocolsServer
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite struct PositionerTests {
    static let bounds = Rect(0, 0, 1000, 800)
    static let flipX = XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_X.rawValue
    static let flipY = XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_Y.rawValue
    static let slideX = XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_X.rawValue
    static let slideY = XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_Y.rawValue
    static let resizeX = XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_RESIZE_X.rawValue
    static let resizeY = XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_RESIZE_Y.rawValue

    /// A 200×100 popup anchored at the bottom-right corner of a 20×20 rect at (x, y) of a
    /// parent whose geometry starts at `origin`, growing right and down.
    func rules(_ x: Int32, _ y: Int32, adjustment: UInt32) -> PositionerRules {
        var r = PositionerRules()
        r.size = (200, 100)
        r.anchorRect = Rect(x, y, 20, 20)
        r.anchor = 8 // bottom_right
        r.gravity = 8 // bottom_right
        r.adjustment = adjustment
        return r
    }

    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var anchorAt: (Int32, Int32)
        var adjustment: UInt32
        var expected: Rect // relative to the parent's geometry, which starts at (100, 100)
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "fits: untouched", anchorAt: (10, 10), adjustment: flipX | slideX | resizeX,
            expected: Rect(30, 30, 200, 100)),
        Case(
            name: "no adjustment: left outside", anchorAt: (800, 10), adjustment: 0, expected: Rect(820, 30, 200, 100)),
        // Right edge at 100 + 820 + 200 = 1120 > 1000: flipped to grow left from the rect's left edge.
        Case(name: "flip x", anchorAt: (800, 10), adjustment: flipX, expected: Rect(600, 30, 200, 100)),
        Case(name: "slide x", anchorAt: (800, 10), adjustment: slideX, expected: Rect(700, 30, 200, 100)),
        Case(name: "resize x", anchorAt: (800, 10), adjustment: resizeX, expected: Rect(820, 30, 80, 100)),
        // Flip first when it fits; slide is not needed.
        Case(
            name: "flip before slide", anchorAt: (800, 10), adjustment: flipX | slideX,
            expected: Rect(600, 30, 200, 100)),
        // Bottom at 100 + 670 + 100 = 870 > 800.
        Case(name: "flip y", anchorAt: (10, 650), adjustment: flipY, expected: Rect(30, 550, 200, 100)),
        Case(name: "slide y", anchorAt: (10, 650), adjustment: slideY, expected: Rect(30, 600, 200, 100)),
        Case(name: "resize y", anchorAt: (10, 650), adjustment: resizeY, expected: Rect(30, 670, 200, 30)),
        // Both axes, each by its own rule.
        Case(
            name: "flip x, slide y", anchorAt: (800, 650), adjustment: flipX | slideY,
            expected: Rect(600, 600, 200, 100)),
        // Past the left edge (-100 + ...): a flip that lands outside is not kept; slide then.
        Case(
            name: "flip does not fit: slide", anchorAt: (-150, 10), adjustment: flipX | slideX,
            expected: Rect(-100, 30, 200, 100)),
    ]

    @Test(arguments: cases)
    func adjustment(_ c: Case) {
        let r = rules(c.anchorAt.0, c.anchorAt.1, adjustment: c.adjustment)
        #expect(r.placement(origin: (100, 100), bounds: Self.bounds) == c.expected)
    }

    @Test func mirroredEdges() {
        // left↔right and top↔bottom; the other axis and the centre stay.
        #expect((0...8).map { PositionerRules.mirror(UInt32($0), horizontal: true) } == [0, 1, 2, 4, 3, 7, 8, 5, 6])
        #expect((0...8).map { PositionerRules.mirror(UInt32($0), horizontal: false) } == [0, 2, 1, 3, 4, 6, 5, 8, 7])
    }
}
