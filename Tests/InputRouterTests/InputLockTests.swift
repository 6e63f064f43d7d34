// The input lock (InputLock.swift): while a session is locked, the exact deliveries say that
// input reaches the lock's scope and nothing else, and that what was in progress outside it
// ended the way the core ends it elsewhere.
import InputRouter
import Testing

@Suite struct InputLockTests {
    /// Window "A" of client "app" at (0, 0) 400×400 with the keyboard, the pointer on it; a
    /// lock node over the whole output that takes every event reaching it, not yet mapped
    /// (`lockUp(_:_:)` maps it as a compositor does), and the locker's client.
    func setUp() -> (h: Harness, a: NodeID, lock: NodeID, locker: ClientID) {
        let h = Harness()
        h.seat.keyTranslator = CodeTranslator()
        let a = h.toplevel("A", h.client("app"), Rect(0, 0, 400, 400))
        h.seat.setKeyboardFocus(a)
        _ = h.warp(100, 100)
        let lock = h.tree.createNode(.compositor, name: "lock", frame: Rect(0, 0, 1000, 1000))
        h.tree.setHandler(lock) { _ in .handled }
        h.tree.setMapped(lock, false)
        let locker = h.client("locker")
        _ = h.flush()
        return (h, a, lock, locker)
    }

    /// Maps the lock node and locks input to it: the trace lines.
    func lockUp(_ h: Harness, _ lock: NodeID) -> [String] {
        h.step {
            h.tree.setMapped(lock, true)
            h.router.lockInput(to: lock)
        }
    }

    /// The locker's surface "L" on the right half of the output, under the lock node, whose
    /// events that the locker does not take end at the lock node.
    func lockSurface(
        _ h: Harness, _ lock: NodeID, _ locker: ClientID, _ name: String = "L",
        _ frame: Rect = Rect(500, 0, 500, 1000)
    ) -> NodeID {
        let l = h.tree.createNode(.lock, name: name, client: locker, parent: lock, frame: frame)
        h.tree.setNextResponder(l, lock)
        _ = h.flush()
        return l
    }

    @Test func aButtonHeldOnAWindowSendsItNothingMoreOnceLocked() {
        let (h, _, lock, _) = setUp()
        #expect(
            h.button(.pressed) == [
                "seat0 pointer.button \"A\" BTN_LEFT pressed", "seat0 pointer.frame client1(\"app\")",
            ])
        #expect(
            lockUp(h, lock) == [
                "seat0 keyboard.leave \"A\"",
                "seat0 pointer.leave \"A\"", "seat0 handled pointer.enter by \"lock\"",
                "seat0 pointer.frame client1(\"app\")",
            ])
        // The implicit grab is over: motion under the held button reaches the lock node only,
        // and the button's release goes nowhere.
        #expect(h.warp(120, 100) == ["seat0 handled pointer.motion by \"lock\""])
        #expect(h.button(.released) == [])
        #expect(h.warp(130, 100) == ["seat0 handled pointer.motion by \"lock\""])
        #expect(h.button(.pressed) == ["seat0 handled pointer.button by \"lock\""])
        h.expectClean()
    }

    @Test func keysReachTheLockSurfaceAndNoWindow() {
        let (h, a, lock, locker) = setUp()
        #expect(h.key(30, .pressed) == ["seat0 keyboard.key \"A\" 30 pressed"])
        _ = lockUp(h, lock)
        // A key pressed before the lock is released to nobody; with no lock surface, keys stop
        // at the lock node instead of reaching the seat.
        #expect(h.key(30, .released) == [])
        #expect(h.key(31, .pressed) == ["seat0 handled keyboard.key by \"lock\""])
        #expect(h.seat.setKeyboardFocus(a) == false)
        #expect(h.seat.keyboardFirstResponder == nil)
        let l = lockSurface(h, lock, locker)
        var took = false
        #expect(
            h.step { took = h.seat.setKeyboardFocus(l) } == [
                "seat0 keyboard.enter \"L\" keys []", "seat0 keyboard.modifiers \"L\" 0,0,0,0",
            ])
        #expect(took)
        #expect(h.key(32, .pressed) == ["seat0 keyboard.key \"L\" 32 pressed"])
        #expect(h.key(32, .released) == ["seat0 keyboard.key \"L\" 32 released"])
        #expect(h.seat.setKeyboardFocus(a) == false)
        #expect(h.key(33, .pressed) == ["seat0 keyboard.key \"L\" 33 pressed"])
        h.expectClean()
    }

    @Test func theLockSurfaceGoingLeavesTheKeyboardWithNobodyNotAWindow() {
        let (h, _, lock, locker) = setUp()
        _ = lockUp(h, lock)
        let l = lockSurface(h, lock, locker)
        h.seat.setKeyboardFocus(l)
        _ = h.flush()
        #expect(h.step { h.tree.destroy(l) } == [])
        #expect(h.seat.keyboardFirstResponder == nil)
        #expect(h.key(30, .pressed) == ["seat0 handled keyboard.key by \"lock\""])
        // Unmapped rather than destroyed: the same.
        let m = lockSurface(h, lock, locker, "M")
        h.seat.setKeyboardFocus(m)
        _ = h.flush()
        #expect(h.step { h.tree.setMapped(m, false) } == ["seat0 keyboard.leave \"M\""])
        #expect(h.seat.keyboardFirstResponder == nil)
        h.expectClean()
    }

    @Test func unlockingGivesTheKeyboardBackAndFocusMovesAgain() {
        let (h, a, lock, locker) = setUp()
        _ = lockUp(h, lock)
        let l = lockSurface(h, lock, locker)
        h.seat.setKeyboardFocus(l)
        _ = h.flush()
        h.tree.destroy(l)
        _ = h.flush()
        // The keyboard is with nobody: unlocking gives it back to the window that had it.
        #expect(
            h.step { h.router.unlockInput() } == [
                "seat0 keyboard.enter \"A\" keys []", "seat0 keyboard.modifiers \"A\" 0,0,0,0",
            ])
        #expect(h.router.inputLockScope == nil)
        // The lock node still covers the output until its owner unmaps it; then the pointer
        // finds the window again.
        #expect(
            h.step { h.tree.setMapped(lock, false) } == [
                "seat0 pointer.enter \"A\" at 100,100", "seat0 pointer.frame client1(\"app\")",
            ])
        let b = h.toplevel("B", h.client("other"), Rect(500, 500, 100, 100))
        #expect(h.seat.setKeyboardFocus(b))
        #expect(h.seat.keyboardFirstResponder == b)
        #expect(h.seat.setKeyboardFocus(a))
        h.expectClean()
    }

    @Test func bindingsAreOffWhileLockedExceptTheOnesAllowed() {
        let (h, _, lock, locker) = setUp()
        var ran: [String] = []
        h.seat.addBinding(KeyBinding(keysym: 28, modifiers: .superKey)) { ran.append("launcher") }
        h.seat.addBinding(KeyBinding(keysym: 59, modifiers: [.control, .alt]), whileLocked: true) { ran.append("vt") }
        _ = lockUp(h, lock)
        let l = lockSurface(h, lock, locker)
        h.seat.setKeyboardFocus(l)
        _ = h.flush()
        #expect(
            h.key(125, .pressed) == ["seat0 keyboard.key \"L\" 125 pressed", "seat0 keyboard.modifiers \"L\" 64,0,0,0"])
        // Super+Return is the lock surface's key, not the launcher's.
        #expect(h.key(28, .pressed) == ["seat0 keyboard.key \"L\" 28 pressed"])
        #expect(h.key(28, .released) == ["seat0 keyboard.key \"L\" 28 released"])
        _ = h.key(125, .released)
        _ = h.key(29, .pressed)
        _ = h.key(56, .pressed)
        #expect(h.key(59, .pressed) == ["seat0 binding #1 key 59"])
        #expect(h.key(59, .released) == [])
        _ = h.key(56, .released)
        _ = h.key(29, .released)
        #expect(ran == ["vt"])
        _ = h.step { h.router.unlockInput() }
        _ = h.key(125, .pressed)
        #expect(h.key(28, .pressed) == ["seat0 binding #0 key 28"])
        #expect(ran == ["vt", "launcher"])
        h.expectClean()
    }

    @Test func popupGrabsTouchesAndMovesOutsideTheLockEnd() {
        let (h, a, lock, _) = setUp()
        let app = h.tree.client(of: a)!
        let popup = h.tree.createNode(.popup, name: "P", client: app, parent: a, frame: Rect(10, 10, 50, 50))
        h.tree.setNextResponder(popup, a)
        _ = h.flush()
        #expect(h.seat.beginPopupGrab(popup))
        _ = h.flush()
        _ = h.step {
            h.seat.notifyTouchDown(time: h.tick(), slot: 0, at: Point(200, 200))
            h.seat.notifyTouchFrame()
        }
        // The lock node mapping over the window takes the pointer from it (the popup grab
        // lets only its client's surfaces have it); then the lock ends the rest.
        #expect(
            lockUp(h, lock) == [
                "seat0 pointer.leave \"A\"", "seat0 pointer.frame client1(\"app\")",
                "seat0 popup.done \"P\"", "seat0 keyboard.leave \"P\"", "seat0 touch.cancel client1(\"app\")",
                "seat0 handled pointer.enter by \"lock\"",
            ])
        // The rest of the touch point goes nowhere; a new one lands on the lock node.
        #expect(
            h.step {
                h.seat.notifyTouchMotion(time: h.tick(), slot: 0, at: Point(210, 200))
                h.seat.notifyTouchFrame()
            } == [])
        #expect(
            h.step {
                h.seat.notifyTouchDown(time: h.tick(), slot: 1, at: Point(50, 50))
                h.seat.notifyTouchFrame()
            } == ["seat0 handled touch.down by \"lock\""])
        // A popup grab, a move or a resize of a window under the lock is refused.
        #expect(h.seat.beginPopupGrab(popup) == false)
        #expect(h.seat.beginMove(a) == false)
        #expect(h.seat.beginResize(a, edges: .right) == false)
        #expect(h.flush() == [])
        h.expectClean()
    }

    @Test func aNodeAddedAboveTheLockIsPutBackUnderIt() {
        let (h, _, lock, locker) = setUp()
        _ = lockUp(h, lock)
        _ = lockSurface(h, lock, locker)
        // A root child made while locked lands on top of the root's children; the scope goes
        // back above it before any seat picks.
        let intruder = h.tree.createNode(.toplevel, name: "X", client: h.client("late"), frame: Rect(0, 0, 1000, 1000))
        #expect(h.flush() == [])
        #expect(
            h.warp(700, 100) == [
                "seat0 handled pointer.leave by \"lock\"", "seat0 pointer.enter \"L\" at 200,100",
                "seat0 pointer.motion \"L\" at 200,100",
                "seat0 pointer.frame client2(\"locker\")",
            ])
        h.tree.raiseToTop(intruder)
        #expect(
            h.warp(100, 100) == [
                "seat0 pointer.leave \"L\"", "seat0 handled pointer.enter by \"lock\"",
                "seat0 handled pointer.motion by \"lock\"",
                "seat0 pointer.frame client2(\"locker\")",
            ])
        #expect(h.tree.hitTest(Point(100, 100))?.node == lock)
        h.expectClean()
    }
}
