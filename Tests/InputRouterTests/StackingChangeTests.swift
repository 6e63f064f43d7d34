// A restack reaches the seats as a stacking-only scene change (`SurfaceTree.sceneObserver`),
// which skips the focus history, touch and layout checks. These tests fail when a change
// that is more than a restack is reported as one, or when a restack skips what it must do.
import InputRouter
import Testing

@Suite struct StackingChangeTests {
    /// Three windows side by side, each a client's; with `wide`, 20 more below them, so
    /// that the raises go through the child grid's in-place restack.
    func setUp(wide: Bool) -> (Harness, [NodeID]) {
        let h = Harness()
        h.seat.keyTranslator = CodeTranslator()
        if wide {
            for i in 0..<20 {
                h.toplevel("bg\(i)", h.client("bg\(i)"), Rect(Int32(i % 5) * 150, 500 + Int32(i / 5) * 100, 140, 90))
            }
        }
        let windows = ["A", "B", "C"].enumerated().map { i, name in
            h.toplevel(name, h.client(name.lowercased()), Rect(Int32(i) * 300, 0, 250, 300))
        }
        return (h, windows)
    }

    func click(_ h: Harness, _ node: NodeID, at x: Double) -> [String] {
        h.warp(x, 50)
            + h.step {
                h.seat.notifyPointerButton(time: h.tick(), button: 0x110, state: .pressed)
                h.tree.raiseToTop(node)
                h.seat.setKeyboardFocus(node)
            } + h.button(.released)
    }

    /// Focus on click, then the focused window destroyed between clicks: the focus goes
    /// back along the history (the window focused before it), raises or not in between.
    @Test(arguments: [false, true])
    func aDestroyedFocusedWindowHandsTheFocusBackAfterRaises(wide: Bool) {
        let (h, w) = setUp(wide: wide)
        let (a, b, c) = (w[0], w[1], w[2])
        _ = click(h, a, at: 50)
        _ = click(h, b, at: 350)
        _ = click(h, c, at: 650)
        #expect(h.seat.keyboardFirstResponder == c)
        #expect(h.step { h.tree.destroy(c) }.contains("seat0 keyboard.enter \"B\" keys []"))
        #expect(h.seat.keyboardFirstResponder == b)
        // A raise alone moves no focus, and leaves the history as it was.
        #expect(!h.step { h.tree.raiseToTop(a) }.contains { $0.contains("keyboard") })
        #expect(h.seat.keyboardFirstResponder == b)
        #expect(h.step { h.tree.destroy(b) }.contains("seat0 keyboard.enter \"A\" keys []"))
        #expect(h.seat.keyboardFirstResponder == a)
        h.expectClean()
    }

    /// A raise and an unmap in one batch are more than a restack: the focus leaves the
    /// window that is no longer visible.
    @Test(arguments: [false, true])
    func aRaiseBatchedWithAnUnmapStillMovesTheFocus(wide: Bool) {
        let (h, w) = setUp(wide: wide)
        let (a, b) = (w[0], w[1])
        _ = click(h, a, at: 50)
        _ = click(h, b, at: 350)
        let lines = h.step {
            h.tree.batchUpdates {
                h.tree.raiseToTop(a)
                h.tree.setMapped(b, false)
            }
        }
        #expect(lines.contains("seat0 keyboard.leave \"B\""))
        #expect(lines.contains("seat0 keyboard.enter \"A\" keys []"))
        #expect(h.seat.keyboardFirstResponder == a)
        h.expectClean()
    }

    /// A raise under a still pointer re-picks at once: the window now on top gets the enter.
    @Test(arguments: [false, true])
    func aRaiseUnderAStillPointerRepicks(wide: Bool) {
        let (h, w) = setUp(wide: wide)
        let d = h.toplevel("D", h.client("d"), Rect(400, 0, 300, 300)) // over B's right part
        _ = h.warp(450, 50)
        #expect(
            h.step { h.tree.raiseToTop(w[1]) } == [
                "seat0 pointer.leave \"D\"", "seat0 pointer.enter \"B\" at 150,50",
                "seat0 pointer.frame client\(wide ? 24 : 4)(\"d\")",
                "seat0 pointer.frame client\(wide ? 22 : 2)(\"b\")",
            ])
        #expect(
            h.step { h.tree.raiseToTop(d) } == [
                "seat0 pointer.leave \"B\"", "seat0 pointer.enter \"D\" at 50,50",
                "seat0 pointer.frame client\(wide ? 22 : 2)(\"b\")",
                "seat0 pointer.frame client\(wide ? 24 : 4)(\"d\")",
            ])
        h.expectClean()
    }

    /// A raise while a button is held waits for the release to re-pick; raising a window
    /// that does not hold the pointer's hit is not one that keeps it (WalkedHit.swift): the
    /// release finds the raised window on top and moves the pointer there. Raising the one
    /// under the pointer keeps it (no leave, no enter).
    @Test(arguments: [false, true])
    func aReleaseAfterARaiseFindsTheWindowNowOnTop(wide: Bool) {
        let (h, w) = setUp(wide: wide)
        let d = h.toplevel("D", h.client("d"), Rect(400, 0, 300, 300)) // over B's right part
        _ = h.warp(450, 50)
        _ = h.button(.pressed)
        _ = h.step { h.tree.raiseToTop(d) }
        #expect(!h.button(.released).contains { $0.contains("enter") || $0.contains("leave") })
        _ = h.button(.pressed)
        _ = h.step { h.tree.raiseToTop(w[1]) }
        #expect(
            h.button(.released).filter { $0.contains("enter") || $0.contains("leave") } == [
                "seat0 pointer.leave \"D\"", "seat0 pointer.enter \"B\" at 150,50",
            ])
        h.expectClean()
    }

    /// Outputs' order is the layout's: a point as near to two outputs goes to the first
    /// (bottommost) one, and raising an output makes it the last.
    @Test func raisingAnOutputReordersTheLayout() {
        let h = Harness(outputSize: Rect(0, 0, 100, 100))
        let right = h.tree.createNode(.output, name: "right", frame: Rect(200, 0, 100, 100))
        _ = h.flush()
        // Halfway between the left output's last column (100 - 1/256) and the right's first.
        let middle = (100 - 1.0 / 256 + 200) / 2
        _ = h.warp(middle, 50)
        #expect(h.seat.cursor.x == 100 - 1.0 / 256)
        h.tree.raiseToTop(h.output)
        _ = h.flush()
        _ = h.warp(middle, 50)
        #expect(h.seat.cursor.x == 200)
        h.tree.raiseToTop(right)
        _ = h.flush()
        _ = h.warp(middle, 50)
        #expect(h.seat.cursor.x == 100 - 1.0 / 256)
        h.expectClean()
    }

    /// The release after a raise re-picks from the cache of the press's pick: a compositor
    /// panel that takes the pointer is asked once per entry, not again when the click that
    /// raised it ends, and keeps the pointer.
    @Test(arguments: [false, true])
    func aClickThatRaisesAPanelAsksItsHandlerOnce(wide: Bool) {
        let (h, w) = setUp(wide: wide)
        let panel = h.tree.createNode(.compositor, name: "panel", parent: h.output, frame: Rect(0, 0, 100, 100))
        var enters = 0
        h.tree.setHandler(panel) { e in
            if e.kind == .pointerEnter { enters += 1 }
            return e.kind == .pointerEnter || e.kind == .pointerButton ? .handled : .notHandled
        }
        h.tree.raiseToTop(w[0]) // A over the panel
        _ = h.flush()
        _ = h.warp(50, 50)
        #expect(h.step { h.tree.raiseToTop(panel) }.contains("seat0 handled pointer.enter by \"panel\""))
        #expect(enters == 1)
        _ = h.step {
            h.seat.notifyPointerButton(time: h.tick(), button: 0x110, state: .pressed)
            h.tree.raiseToTop(w[1]) // a restack while the button is held
        }
        #expect(!h.button(.released).contains { $0.contains("pointer.leave") || $0.contains("pointer.enter") })
        #expect(enters == 1)
        // The next entry asks again.
        _ = h.warp(350, 50)
        _ = h.warp(50, 50)
        #expect(enters == 2)
        h.expectClean()
    }

    /// A focus a grab verb took away while the button was held is picked again at the
    /// release, though the cursor is still over the window it pressed: the client there
    /// gets its enter back.
    @Test(arguments: [false, true])
    func aFocusMovedDuringTheClickIsPickedAgainAtTheRelease(wide: Bool) {
        let (h, w) = setUp(wide: wide)
        let a = w[0]
        _ = h.warp(50, 50)
        _ = h.button(.pressed)
        // What a drag does: nobody has the pointer while it lasts.
        #expect(h.step { h.seat.focusPointer(on: nil) }.first == "seat0 pointer.leave \"A\"")
        _ = h.step { h.tree.raiseToTop(a) }
        #expect(h.button(.released).contains("seat0 pointer.enter \"A\" at 50,50"))
        h.expectClean()
    }
}
