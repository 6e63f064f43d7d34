// The pointer focus's client surface is resolved once per focus (Seat+Pointer.swift,
// `pointerFocusSurface`), not on every motion, button and scroll: each test changes what
// the answer depends on (the focus, the node's life, its client's pointer) and checks that
// what the clients are told is what resolving it every time tells them.
import InputRouter
import Testing

@Suite struct PointerFocusCacheTests {
    func scroll(_ h: Harness) -> [String] {
        h.step {
            h.seat.notifyPointerAxis(
                time: h.tick(), source: .wheel, vertical: AxisValue(value: 10, value120: 120), horizontal: nil)
        }
    }

    /// Moving from one client's window to another's: motion, buttons and scroll follow the
    /// new focus at once, and back again.
    @Test func motionButtonsAndScrollFollowANewFocus() {
        let h = Harness()
        let a = h.client("a")
        let b = h.client("b")
        h.toplevel("A", a, Rect(0, 0, 100, 100))
        h.toplevel("B", b, Rect(200, 0, 100, 100))
        #expect(h.warp(10, 10).contains("seat0 pointer.enter \"A\" at 10,10"))
        #expect(h.warp(20, 10) == ["seat0 pointer.motion \"A\" at 20,10", "seat0 pointer.frame client1(\"a\")"])
        #expect(
            h.warp(210, 10) == [
                "seat0 pointer.leave \"A\"", "seat0 pointer.enter \"B\" at 10,10",
                "seat0 pointer.motion \"B\" at 10,10",
                "seat0 pointer.frame client1(\"a\")", "seat0 pointer.frame client2(\"b\")",
            ])
        #expect(h.warp(220, 20) == ["seat0 pointer.motion \"B\" at 20,20", "seat0 pointer.frame client2(\"b\")"])
        #expect(h.button(.pressed).first?.hasPrefix("seat0 pointer.button \"B\"") == true)
        #expect(h.button(.released).first?.hasPrefix("seat0 pointer.button \"B\"") == true)
        #expect(scroll(h).first?.hasPrefix("seat0 pointer.axis \"B\"") == true)
        #expect(h.warp(30, 30).contains("seat0 pointer.enter \"A\" at 30,30"))
        #expect(h.warp(31, 30) == ["seat0 pointer.motion \"A\" at 31,30", "seat0 pointer.frame client1(\"a\")"])
        h.expectClean()
    }

    /// The focused window destroyed inside a batch while a button holds the pointer on it
    /// (the re-pick waits for the batch's end): the motion and the release routed meanwhile
    /// are told to nobody, as when the focus was resolved for each event; after the batch
    /// the window below gets the pointer.
    @Test func aFocusDestroyedInsideABatchIsToldNothing() {
        let h = Harness()
        let a = h.client("a")
        let b = h.client("b")
        h.toplevel("below", b, Rect(0, 0, 200, 200))
        let top = h.toplevel("top", a, Rect(0, 0, 100, 100))
        #expect(h.warp(10, 10).contains("seat0 pointer.enter \"top\" at 10,10"))
        #expect(h.button(.pressed).first == "seat0 pointer.button \"top\" BTN_LEFT pressed")
        let during = h.step {
            h.tree.batchUpdates {
                h.tree.destroy(top)
                h.seat.notifyPointerWarp(time: h.tick(), to: Point(20, 20))
                h.seat.notifyPointerButton(time: h.tick(), button: 0x110, state: .released)
            }
        }
        #expect(!during.contains { $0.hasPrefix("seat0 pointer.motion") || $0.hasPrefix("seat0 pointer.button") })
        #expect(during.contains("seat0 pointer.enter \"below\" at 20,20"))
        #expect(h.warp(30, 30) == ["seat0 pointer.motion \"below\" at 30,30", "seat0 pointer.frame client2(\"b\")"])
    }

    /// The focus's client lets its pointer go and binds it again, the cursor still: a
    /// leave, nothing while it has no pointer, an enter when it has one again.
    @Test func theFocusClientUnbindingAndRebindingItsPointer() {
        let h = Harness()
        let a = h.client("a")
        h.toplevel("A", a, Rect(0, 0, 100, 100))
        #expect(h.warp(10, 10).contains("seat0 pointer.enter \"A\" at 10,10"))
        #expect(h.step { h.seat.setBound(.pointer, for: a, false) }.contains("seat0 pointer.leave \"A\""))
        let unbound = h.warp(20, 20) + h.button(.pressed) + h.button(.released) + scroll(h)
        #expect(!unbound.contains { $0.contains("\"A\"") })
        #expect(h.step { h.seat.setBound(.pointer, for: a, true) }.contains("seat0 pointer.enter \"A\" at 20,20"))
        #expect(h.warp(25, 20) == ["seat0 pointer.motion \"A\" at 25,20", "seat0 pointer.frame client1(\"a\")"])
        #expect(h.button(.pressed).first?.hasPrefix("seat0 pointer.button \"A\"") == true)
        h.expectClean()
    }

    /// Restacks while a button is held (the focus surface is kept across them, Seat's
    /// `sceneDidChange(stackingOnly:)`): the release goes to the window the press went to,
    /// whichever window went on top meanwhile; the focus destroyed in a batch with a
    /// restack after it is told nothing, and the next press goes to the window below.
    @Test func restacksWhileAButtonIsHeldKeepTheButtonsWindow() {
        let h = Harness()
        let a = h.client("a")
        let b = h.client("b")
        let below = h.toplevel("below", b, Rect(0, 0, 200, 200))
        let top = h.toplevel("top", a, Rect(0, 0, 100, 100))
        let aside = h.toplevel("aside", b, Rect(300, 0, 100, 100))
        #expect(h.warp(10, 10).contains("seat0 pointer.enter \"top\" at 10,10"))
        #expect(h.button(.pressed).first == "seat0 pointer.button \"top\" BTN_LEFT pressed")
        _ = h.step { h.tree.raiseToTop(aside) }
        _ = h.step { h.tree.raiseToTop(top) }
        #expect(h.button(.released).first == "seat0 pointer.button \"top\" BTN_LEFT released")
        #expect(h.button(.pressed).first == "seat0 pointer.button \"top\" BTN_LEFT pressed")
        let during = h.step {
            h.tree.batchUpdates {
                h.tree.raiseToTop(aside)
                h.tree.destroy(top)
                h.tree.raiseToTop(below)
                h.seat.notifyPointerButton(time: h.tick(), button: 0x110, state: .released)
            }
        }
        #expect(!during.contains { $0.hasPrefix("seat0 pointer.button") })
        #expect(during.contains("seat0 pointer.enter \"below\" at 10,10"))
        _ = h.step { h.tree.raiseToTop(aside) }
        #expect(h.button(.pressed).first == "seat0 pointer.button \"below\" BTN_LEFT pressed")
        #expect(h.button(.released).first == "seat0 pointer.button \"below\" BTN_LEFT released")
    }
}
