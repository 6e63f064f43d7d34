import InputRouter
import Testing

/// Several outputs: the layout's geometry on its own (nearest point, bounding box,
/// absolute mapping, overlap, placement, relocation), and through a seat whose tree holds
/// two output nodes (the pointer crosses between them and never stops in a gap; removing
/// the output under the pointer moves it; a touch screen mapped to one output).
@Suite struct OutputLayoutTests {
    static let step = 1.0 / 256

    // MARK: The value

    @Test func aPointOnAnOutputStaysAndAGapPointGoesToTheNearestEdge() {
        // An L: a 1000×1000 output and a 500×500 one to its right, top-aligned.
        let l = OutputLayout([Rect(0, 0, 1000, 1000), Rect(1000, 0, 500, 500)])
        #expect(l.closestPoint(to: Point(1200, 300)) == Point(1200, 300))
        #expect(l.output(at: Point(1200, 300)) == 1)
        #expect(l.output(at: Point(999.9, 999.9)) == 0)
        // Below the small output: 200 from the big one's right edge, 300 from the small
        // one's bottom edge.
        #expect(l.output(at: Point(1200, 800)) == nil)
        #expect(l.closestPoint(to: Point(1200, 800)) == Point(1000 - Self.step, 800))
        // Just below the small one: its bottom edge is nearer.
        #expect(l.closestPoint(to: Point(1400, 520)) == Point(1400, 500 - Self.step))
        // Far outside, past the corner of the union.
        #expect(l.closestPoint(to: Point(2000, -50)) == Point(1500 - Self.step, 0))
        #expect(l.boundingBox == Rect(0, 0, 1500, 1000))
    }

    @Test func outputsWithAGapBetweenThem() {
        // Two outputs 100 pixels apart: the gap is never a resting place.
        let l = OutputLayout([Rect(0, 0, 100, 100), Rect(200, 0, 100, 100)])
        #expect(l.closestPoint(to: Point(140, 50)) == Point(100 - Self.step, 50))
        #expect(l.closestPoint(to: Point(160, 50)) == Point(200, 50))
        #expect(l.boundingBox == Rect(0, 0, 300, 100))
        #expect(l.nextPosition == (x: 300, y: 0))
    }

    @Test func emptyLayoutAndEmptyOutputs() {
        let none = OutputLayout()
        #expect(none.closestPoint(to: Point(-5, 7)) == Point(-5, 7))
        #expect(none.boundingBox == Rect(0, 0, 0, 0))
        #expect(none.nextPosition == (x: 0, y: 0))
        #expect(none.output(at: .zero) == nil)
        // A zero-sized output holds nothing and attracts nothing.
        let l = OutputLayout([Rect(0, 0, 0, 0), Rect(50, 50, 10, 10)])
        #expect(l.closestPoint(to: .zero) == Point(50, 50))
        #expect(l.output(at: Point(0, 0)) == nil)
        #expect(l.outputs(overlapping: Rect(0, 0, 100, 100)) == 0b10)
    }

    @Test func overlappingOutputsAndFarCoordinatesDoNotOverflow() {
        // Mirrored outputs share pixels; a point there belongs to the first.
        let l = OutputLayout([Rect(0, 0, 800, 600), Rect(0, 0, 640, 480)])
        #expect(l.output(at: Point(10, 10)) == 0)
        #expect(l.outputs(overlapping: Rect(700, 500, 10, 10)) == 0b01)
        #expect(l.outputs(overlapping: Rect(10, 10, 10, 10)) == 0b11)
        let far = OutputLayout([Rect(Int32.min, 0, 100, 100), Rect(Int32.max - 100, 0, 100, 100)])
        #expect(far.boundingBox == Rect(Int32.min, 0, Int32.max, 100))
        #expect(far.nextPosition == (x: Int32.max, y: 0))
    }

    @Test func overlapCountsSharedPixelsOnly() {
        let l = OutputLayout([Rect(0, 0, 800, 600), Rect(800, 0, 640, 480)])
        #expect(l.outputs(overlapping: Rect(700, 10, 100, 50)) == 0b01) // ends at 800: touching is not sharing
        #expect(l.outputs(overlapping: Rect(700, 10, 101, 50)) == 0b11)
        #expect(l.outputs(overlapping: Rect(900, 500, 50, 50)) == 0) // below the smaller output
        #expect(l.outputs(overlapping: Rect(900, 500, 0, 0)) == 0)
    }

    @Test func absoluteCoordinatesOntoTheBoxOrOneOutput() {
        let l = OutputLayout([Rect(0, 0, 800, 600), Rect(800, 0, 640, 480)])
        #expect(l.mapAbsolute(x: 0.5, y: 0.5) == Point(720, 300))
        #expect(l.mapAbsolute(x: 0.5, y: 0.5, onto: 1) == Point(1120, 240))
        #expect(l.mapAbsolute(x: 0, y: 1, onto: 1) == Point(800, 480))
        #expect(l.mapAbsolute(x: .nan, y: 7, onto: 0) == Point(0, 600))
    }

    @Test func aWindowOnTheRemovedOutputMovesOntoTheFirstOneLeft() {
        let removed = Rect(800, 0, 640, 480)
        let left = OutputLayout([Rect(0, 0, 800, 600)])
        // Wholly on the removed output: same offset from the origin, on the output left.
        #expect(left.relocation(of: Rect(900, 40, 200, 100), from: removed) ?? (0, 0) == (100, 40))
        // An offset that would not fit is pulled in; a window larger than the output goes
        // to its top-left corner.
        #expect(left.relocation(of: Rect(1300, 420, 200, 100), from: removed) ?? (0, 0) == (500, 420))
        #expect(left.relocation(of: Rect(1420, 420, 200, 100), from: removed) ?? (0, 0) == (600, 420))
        #expect(left.relocation(of: Rect(810, 10, 2000, 2000), from: removed) ?? (1, 1) == (0, 0))
        // Partly on an output that stays: it stays.
        #expect(left.relocation(of: Rect(700, 40, 200, 100), from: removed) == nil)
        // Nothing left to move onto.
        #expect(OutputLayout().relocation(of: Rect(900, 40, 200, 100), from: removed) == nil)
    }

    // MARK: Through a seat

    /// Outputs 800×600 at (0, 0) and 640×480 at (800, 0); toplevel "A" fills the first,
    /// "B" the second.
    func twoOutputs() -> (Harness, NodeID, NodeID) {
        let h = Harness(outputSize: Rect(0, 0, 800, 600))
        let second = h.tree.createNode(.output, name: "out2", frame: Rect(800, 0, 640, 480))
        let a = h.client("a")
        let b = h.client("b")
        h.toplevel("A", a, Rect(0, 0, 800, 600))
        h.toplevel("B", b, Rect(0, 0, 640, 480), parent: second)
        return (h, second, h.output)
    }

    func move(_ h: Harness, _ dx: Double, _ dy: Double) -> [String] {
        h.step { h.seat.notifyPointerMotion(time: h.tick(), dx: dx, dy: dy) }
    }

    @Test func thePointerCrossesToTheNextOutputAndSlidesAlongItsEdges() {
        let (h, _, _) = twoOutputs()
        _ = h.warp(790, 100)
        #expect(
            move(h, 20, 0) == [
                "seat0 pointer.leave \"A\"", "seat0 pointer.enter \"B\" at 10,100",
                "seat0 pointer.motion \"B\" at 10,100",
                "seat0 pointer.frame client1(\"a\")", "seat0 pointer.frame client2(\"b\")",
            ])
        // Down past the smaller output's bottom, far from the taller one: it stops on that
        // edge, not in the gap below.
        _ = h.warp(1000, 100)
        #expect(
            move(h, 0, 450) == ["seat0 pointer.motion \"B\" at 200,479.99609375", "seat0 pointer.frame client2(\"b\")"])
        #expect(h.seat.cursor == Point(1000, 480 - Self.step))
        // Left along that edge, back onto the taller output.
        _ = move(h, -300, 0)
        #expect(h.seat.cursor == Point(700, 480 - Self.step))
        // Down the taller output, then right into the gap, nearer its edge than the other
        // output's: it stops on its edge.
        _ = move(h, 0, 100)
        #expect(
            move(h, 150, 0) == [
                "seat0 pointer.motion \"A\" at 799.99609375,579.99609375", "seat0 pointer.frame client1(\"a\")",
            ])
        // Just below the smaller output: nearer its bottom edge than the taller one's right
        // edge, so it jumps there (the nearest point of the union, as in wlroots).
        _ = h.warp(790, 485)
        #expect(
            move(h, 30, 0) == [
                "seat0 pointer.leave \"A\"", "seat0 pointer.enter \"B\" at 20,479.99609375",
                "seat0 pointer.motion \"B\" at 20,479.99609375",
                "seat0 pointer.frame client1(\"a\")", "seat0 pointer.frame client2(\"b\")",
            ])
        h.expectClean()
    }

    @Test func removingTheOutputUnderThePointerMovesItToTheNearestOneLeft() {
        let (h, second, _) = twoOutputs()
        _ = h.warp(1000, 200)
        // "B" goes with its output (a destroyed surface is sent nothing); the cursor lands on
        // the first output's right edge, on "A", which hears of it at once.
        let lines = h.step { h.tree.destroy(second) }
        #expect(lines == ["seat0 pointer.enter \"A\" at 799.99609375,200", "seat0 pointer.frame client1(\"a\")"])
        #expect(h.seat.cursor == Point(800 - Self.step, 200))
        #expect(h.seat.layout == OutputLayout([Rect(0, 0, 800, 600)]))
        h.expectClean()
    }

    @Test func anOutputAddedWhileRunningExtendsWhereThePointerCanGo() {
        let h = Harness(outputSize: Rect(0, 0, 800, 600))
        _ = h.warp(700, 100)
        _ = move(h, 300, 0)
        #expect(h.seat.cursor == Point(800 - Self.step, 100))
        _ = h.tree.createNode(.output, name: "out2", frame: Rect(800, 0, 640, 480))
        _ = h.flush()
        _ = move(h, 300, 0)
        #expect(h.seat.cursor == Point(800 - Self.step + 300, 100))
        #expect(h.seat.layout.frames == [Rect(0, 0, 800, 600), Rect(800, 0, 640, 480)])
        h.expectClean()
    }

    @Test func aTouchScreenMappedToItsOutputLandsOnThatOutput() {
        let (h, _, _) = twoOutputs()
        h.seat.absoluteMapping = h.seat.layout.frames[1]
        let lines = h.step {
            h.seat.handle(InputEvent(time: 1, device: DeviceID(1), .touchDown(slot: 0, x: 0.5, y: 0.25)))
            h.seat.handle(InputEvent(time: 1, device: DeviceID(1), .touchFrame))
        }
        #expect(lines == ["seat0 touch.down \"B\" slot 0 at 320,120", "seat0 touch.frame client2(\"b\")"])
        // Unmapped, the same coordinates cover the layout's bounding box: on "A".
        h.seat.absoluteMapping = nil
        let across = h.step {
            h.seat.handle(InputEvent(time: 2, device: DeviceID(1), .touchDown(slot: 1, x: 0.25, y: 0.25)))
            h.seat.handle(InputEvent(time: 2, device: DeviceID(1), .touchFrame))
        }
        #expect(across == ["seat0 touch.down \"A\" slot 1 at 360,150", "seat0 touch.frame client1(\"a\")"])
        h.expectClean()
    }
}
