import InputRouter
import Testing

/// An interactive move never carries a window off every output: its top strip (where a
/// title bar is) stays where a press can reach it.
@Suite struct MoveBoundsTests {
    /// Grabs anchored away from the window (a press beside it), dragged to each edge of
    /// the 1000×1000 output: without the bound the window would leave it.
    @Test(arguments: [
        ("right", Point(50, 350), Point(999, 500)), ("left", Point(500, 350), Point(0, 500)),
        ("top", Point(500, 350), Point(500, 0)), ("bottom", Point(500, 250), Point(500, 999)),
    ])
    func theTopStripStaysOnTheOutput(edge: String, press: Point, to: Point) {
        let h = Harness()
        let a = h.client("a")
        let top = h.toplevel("top", a, Rect(100, 300, 200, 100))
        _ = h.warp(press.x, press.y)
        _ = h.button(.pressed)
        #expect(h.seat.beginMove(top))
        _ = h.warp(to.x, to.y)
        let f = h.tree.frame(of: top)!
        // 24 pixels of the top strip across, the top edge on the output with 24 rows below it.
        #expect(f.x + f.width >= 24 && f.x <= 1000 - 24, "\(edge): \(f)")
        #expect(f.y >= 0 && f.y <= 1000 - 24, "\(edge): \(f)")
        switch edge { // as far as it may go, not further
        case "right": #expect(f.x == 1000 - 24)
        case "left": #expect(f.x == 24 - 200)
        case "top": #expect(f.y == 0)
        default: #expect(f.y == 1000 - 24)
        }
        _ = h.button(.released)
        h.expectClean()
    }

    /// Two outputs side by side: the window may cross to the second, and is kept by the
    /// one nearest to where the drag would put it.
    @Test func theNearestOutputKeepsIt() {
        let h = Harness()
        h.tree.createNode(.output, name: "right", frame: Rect(1000, 0, 800, 600))
        let a = h.client("a")
        let top = h.toplevel("top", a, Rect(100, 100, 200, 100))
        _ = h.warp(150, 110)
        _ = h.button(.pressed)
        #expect(h.seat.beginMove(top))
        _ = h.warp(1500, 590) // on the right output, near its bottom (600 < 1000)
        #expect(h.tree.frame(of: top) == Rect(1450, 600 - 24, 200, 100)) // unbounded: y 580
        _ = h.button(.released)
        h.expectClean()
    }
}
