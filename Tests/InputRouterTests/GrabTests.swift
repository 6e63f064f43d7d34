import InputRouter
import Testing

/// Claims the pointer when Super is held at a press: a compositor's Super+drag.
final class SuperDrag: GestureRecognizer {
    var ended = 0
    override func pointerButton(
        _ button: UInt32, _ state: ButtonState, at: Point, modifiers: ModifierMask, time: UInt64
    ) -> State {
        state == .pressed && modifiers.contains(.superKey) ? .recognized : .failed
    }
    override func reset() { ended += 1 }
}

@Suite struct GrabTests {
    @Test func popupGrabRestrictsPointerAndClickOutsideDismisses() {
        let h = Harness()
        let a = h.client("a")
        let b = h.client("b")
        let top = h.toplevel("top", a, Rect(0, 0, 100, 100))
        h.toplevel("other", b, Rect(200, 0, 100, 100))
        let menu = h.tree.createNode(.popup, name: "menu", client: a, parent: h.output, frame: Rect(50, 50, 100, 100))
        h.tree.setNextResponder(menu, top)
        _ = h.warp(60, 60)
        _ = h.button(.pressed)
        _ = h.button(.released)
        #expect(h.seat.serialEntry(12345, client: a, for: .popupGrab) == nil)
        #expect(
            h.step { h.seat.beginPopupGrab(menu) } == [
                "seat0 keyboard.enter \"menu\" keys []", "seat0 keyboard.modifiers \"menu\" 0,0,0,0",
            ])
        // Another client's surface gets nothing while the grab holds.
        #expect(
            h.warp(250, 50) == [
                "seat0 pointer.leave \"menu\"", "seat0 dropped pointer.motion", "seat0 pointer.frame client1(\"a\")",
            ])
        #expect(
            h.button(.pressed) == [
                "seat0 popup.done \"menu\"", "seat0 keyboard.leave \"menu\"",
                "seat0 keyboard.enter \"top\" keys []", "seat0 keyboard.modifiers \"top\" 0,0,0,0",
            ])
        // The dismissing click is consumed, release included; then the pointer re-picks.
        #expect(
            h.button(.released) == ["seat0 pointer.enter \"other\" at 50,50", "seat0 pointer.frame client2(\"b\")"])
        h.expectClean()
    }

    @Test func pressSerialsAreRecordedPerClient() {
        let h = Harness()
        let a = h.client("a")
        let b = h.client("b")
        h.toplevel("top", a, Rect(0, 0, 100, 100))
        _ = h.warp(10, 10)
        var recorder = RecordingSink()
        h.seat.notifyPointerButton(time: 1, button: 0x110, state: .pressed)
        h.router.flush(into: &recorder)
        guard case .pointerButton(_, _, _, _, _, let serial)? = recorder.deliveries.first else {
            Issue.record("no button delivered")
            return
        }
        #expect(h.seat.serialEntry(serial, client: a, for: .popupGrab)?.action == .buttonPress)
        #expect(h.seat.serialEntry(serial, client: b, for: .popupGrab) == nil)
    }

    @Test func moveGrabFollowsTheCursorAndEndsOnRelease() {
        let h = Harness()
        let a = h.client("a")
        let top = h.toplevel("top", a, Rect(100, 100, 100, 100))
        _ = h.warp(110, 110)
        _ = h.button(.pressed)
        #expect(
            h.step { h.seat.beginMove(top) } == ["seat0 pointer.leave \"top\"", "seat0 pointer.frame client1(\"a\")"])
        #expect(h.warp(310, 210) == [])
        #expect(h.tree.frame(of: top) == Rect(300, 200, 100, 100))
        #expect(h.button(.released) == ["seat0 pointer.enter \"top\" at 10,10", "seat0 pointer.frame client1(\"a\")"])
        h.expectClean()
    }

    @Test func resizeGrabAsksForSizes() {
        let h = Harness()
        let a = h.client("a")
        let top = h.toplevel("top", a, Rect(100, 100, 100, 100))
        _ = h.warp(199, 199)
        _ = h.button(.pressed)
        _ = h.step { h.seat.beginResize(top, edges: [.bottom, .right]) }
        #expect(h.warp(249, 219) == ["seat0 resize.request \"top\" 150x120"])
        _ = h.step { h.seat.beginResize(top, edges: [.top]) } // refused: a grab is active
        #expect(h.warp(249, 229) == ["seat0 resize.request \"top\" 150x130"])
        h.expectClean()
    }

    @Test func pointerRecognizerClaimSendsLeaveAndTakesTheSequence() {
        let h = Harness()
        h.seat.keyTranslator = CodeTranslator()
        let a = h.client("a")
        h.toplevel("top", a, Rect(0, 0, 100, 100))
        let drag = SuperDrag()
        h.seat.addRecognizer(drag)
        _ = h.warp(10, 10)
        h.seat.setKeyboardFocus(nil)
        _ = h.key(125, .pressed)
        #expect(
            h.button(.pressed) == [
                "seat0 claimed by recognizer #0", "seat0 pointer.leave \"top\"", "seat0 pointer.frame client1(\"a\")",
            ])
        #expect(h.warp(20, 20) == [])
        #expect(h.button(.released) == ["seat0 pointer.enter \"top\" at 20,20", "seat0 pointer.frame client1(\"a\")"])
        _ = h.key(125, .released)
        // Without Super the recognizer fails and the client gets its click.
        #expect(
            h.button(.pressed) == [
                "seat0 pointer.button \"top\" BTN_LEFT pressed", "seat0 pointer.frame client1(\"a\")",
            ])
        h.expectClean()
    }

    @Test func gesturesGoToThePointerFocusUntilTheyEnd() {
        let h = Harness()
        let a = h.client("a")
        let b = h.client("b")
        let top = h.toplevel("top", a, Rect(0, 0, 100, 100))
        h.toplevel("other", b, Rect(200, 0, 100, 100))
        _ = h.warp(10, 10)
        let begin = h.step { h.seat.notifyGesture(time: 1, GestureEvent(kind: .swipe, phase: .begin, fingers: 3)) }
        #expect(begin == ["seat0 gesture.swipe.begin \"top\" fingers 3"])
        _ = h.warp(250, 10) // the focus moves, the gesture stays
        let update = h.step {
            h.seat.notifyGesture(time: 2, GestureEvent(kind: .swipe, phase: .update, fingers: 3, dx: 4, dy: 0))
        }
        #expect(update == ["seat0 gesture.swipe.update \"top\" fingers 3 d 4,0"])
        h.tree.destroy(top)
        _ = h.flush()
        let end = h.step { h.seat.notifyGesture(time: 3, GestureEvent(kind: .swipe, phase: .end, fingers: 3)) }
        #expect(end == ["seat0 dropped gesture"]) // never to a destroyed surface
    }
}
