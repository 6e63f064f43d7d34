// The core's decisions behind pointer-gestures and keyboard-shortcuts-inhibit, as traces.
import InputRouter
import Testing

/// Claims a swipe once it has gone 10 to the right.
final class SwipeRight: GestureRecognizer {
    var travelled = 0.0
    override func gesture(_ event: GestureEvent, time: UInt64) -> State {
        guard event.kind == .swipe else { return .failed }
        travelled += event.dx
        return travelled >= 10 ? .recognized : .possible
    }
    override func reset() { travelled = 0 }
}

@Suite struct GestureClaimTests {
    func swipe(_ h: Harness, _ phase: GesturePhase, dx: Double = 0) -> [String] {
        h.step { h.seat.notifyGesture(time: h.tick(), GestureEvent(kind: .swipe, phase: phase, fingers: 3, dx: dx)) }
    }

    @Test func aRecognizerTakesTheGestureMidwayAndTheClientGetsACancelledEnd() {
        let h = Harness()
        let a = h.client("a")
        h.toplevel("top", a, Rect(0, 0, 100, 100))
        h.seat.addRecognizer(SwipeRight())
        _ = h.warp(10, 10)
        #expect(swipe(h, .begin) == ["seat0 gesture.swipe.begin \"top\" fingers 3"])
        #expect(swipe(h, .update, dx: 6) == ["seat0 gesture.swipe.update \"top\" fingers 3 d 6,0"])
        #expect(
            swipe(h, .update, dx: 6) == [
                "seat0 gesture.swipe.end \"top\" fingers 3 cancelled", "seat0 claimed by recognizer #0",
                "seat0 pointer.leave \"top\"", "seat0 pointer.frame client1(\"a\")",
            ])
        #expect(swipe(h, .update, dx: 6) == [])
        // The end gives the pointer back to the surface under it.
        #expect(swipe(h, .end) == ["seat0 pointer.enter \"top\" at 10,10", "seat0 pointer.frame client1(\"a\")"])
        #expect(swipe(h, .begin) == ["seat0 gesture.swipe.begin \"top\" fingers 3"])
        h.expectClean()
    }
}

extension GestureClaimTests {
    @Test func aBeginBeforeTheLastEndEndsTheClientsGestureCancelled() {
        let h = Harness()
        let a = h.client("a")
        h.toplevel("top", a, Rect(0, 0, 100, 100))
        _ = h.warp(10, 10)
        _ = swipe(h, .begin)
        let pinch = h.step {
            h.seat.notifyGesture(time: h.tick(), GestureEvent(kind: .pinch, phase: .begin, fingers: 2))
        }
        #expect(
            pinch == [
                "seat0 gesture.swipe.end \"top\" fingers 3 cancelled", "seat0 gesture.pinch.begin \"top\" fingers 2",
            ])
        h.expectClean()
    }
}

@Suite struct ShortcutsInhibitCoreTests {
    @Test func bindingsPassToTheFocusedInhibitorExceptTheEscape() {
        let h = Harness()
        h.seat.keyTranslator = CodeTranslator()
        var runs = 0
        h.seat.addBinding(KeyBinding(keysym: 16, modifiers: .superKey)) { runs += 1 }
        h.seat.escapeBinding = KeyBinding(keysym: 1, modifiers: .superKey)
        let a = h.client("a")
        let b = h.client("b")
        let top = h.toplevel("top", a, Rect(0, 0, 100, 100))
        let other = h.toplevel("other", b, Rect(200, 0, 100, 100))
        _ = h.step { h.seat.setKeyboardFocus(top) }
        #expect(h.step { h.seat.addShortcutsInhibitor(top) } == ["seat0 shortcuts_inhibitor \"top\" active"])
        #expect(h.seat.addShortcutsInhibitor(top) == false) // already_inhibited
        _ = h.key(125, .pressed)
        #expect(h.key(16, .pressed).first == "seat0 keyboard.key \"top\" 16 pressed")
        #expect(runs == 0)
        _ = h.key(16, .released)
        #expect(h.key(1, .pressed) == ["seat0 binding #-1 key 1", "seat0 shortcuts_inhibitor \"top\" inactive"])
        _ = h.key(1, .released)
        #expect(h.key(16, .pressed) == ["seat0 binding #0 key 16"])
        #expect(runs == 1)
        _ = h.key(16, .released)
        // Away and back: active again.
        let away = h.step { h.seat.setKeyboardFocus(other) }
        #expect(!away.contains { $0.contains("shortcuts_inhibitor") })
        #expect(h.step { h.seat.setKeyboardFocus(top) }.last == "seat0 shortcuts_inhibitor \"top\" active")
        #expect(h.step { h.seat.setKeyboardFocus(other) }.last == "seat0 shortcuts_inhibitor \"top\" inactive")
        #expect(h.step { h.seat.setKeyboardFocus(top) }.last == "seat0 shortcuts_inhibitor \"top\" active")
        #expect(h.step { h.seat.removeShortcutsInhibitor(top) } == []) // the object is gone: nothing to tell
        #expect(!h.seat.shortcutsInhibited)
        h.expectClean()
    }
}

@Suite struct InputProtocolInvariantTests {
    @Test func theCheckerCatchesUnpairedGesturesAndInhibitorsWithoutFocus() {
        let h = Harness()
        let a = h.client("a")
        let top = h.toplevel("top", a, Rect(0, 0, 100, 100))
        let other = h.toplevel("other", a, Rect(200, 0, 100, 100))
        _ = h.step { h.seat.setKeyboardFocus(top) }
        let s = h.seat.id
        let bad: [Delivery] = [
            .gesture(s, top, time: 1, GestureEvent(kind: .swipe, phase: .update, fingers: 3)),
            .shortcutsInhibited(s, other, active: true),
            .shortcutsInhibited(s, top, active: false),
        ]
        for d in bad { h.sink.deliver(d, from: h.router.queue) }
        #expect(
            h.sink.violations == [
                "gesture event without its begin: seat0 gesture.swipe.update \"top\" fingers 3 d 0,0",
                "shortcuts inhibitor active without keyboard focus: seat0 shortcuts_inhibitor \"other\" active",
                "shortcuts inhibitor inactive that was not active: seat0 shortcuts_inhibitor \"top\" inactive",
            ])
    }
}
