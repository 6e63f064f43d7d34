import InputRouter
import Testing

// Grabs written here, outside the library, on the public grab protocols only: the way an
// embedder adds its own (a drag, a selection, a compositor's capture).

/// Captures all pointer motion and buttons to one node, whatever is under the cursor; ends
/// itself at a button release when asked to (as a drop does); records being cancelled.
final class CaptureGrab: PointerGrab {
    let node: NodeID
    let endsOnRelease: Bool
    var cancelled = 0
    init(_ node: NodeID, endsOnRelease: Bool = false) {
        self.node = node
        self.endsOnRelease = endsOnRelease
    }
    func enter(_ seat: Seat, hit: Hit?, time: UInt64) {} // keeps its node
    func motion(_ seat: Seat, time: UInt64) { seat.sendPointerMotion(time: time) }
    func button(_ seat: Seat, time: UInt64, button: UInt32, state: ButtonState) {
        seat.sendPointerButton(time: time, button: button, state: state)
        if endsOnRelease, state == .released, seat.heldButtons == 0 { seat.endPointerGrab(self) }
    }
    func cancel(_ seat: Seat) { cancelled += 1 }
}

/// A drag in miniature: no `wl_pointer` or `wl_touch` event reaches any client while it
/// lasts; it hit-tests under the pointer and each touch point itself and names what it
/// finds; a release or the point's up drops.
final class DragProbe: PointerGrab, TouchGrab {
    let tree: SurfaceTree
    var seen: [String] = []
    var cancelled = 0
    init(tree: SurfaceTree) { self.tree = tree }
    func over(_ seat: Seat, _ p: Point) -> String { seat.hitTest(p).map { tree.name(of: $0.node) ?? "?" } ?? "nothing" }

    func enter(_ seat: Seat, hit: Hit?, time: UInt64) {}
    func motion(_ seat: Seat, time: UInt64) { seen.append("over " + over(seat, seat.cursor)) }
    func button(_ seat: Seat, time: UInt64, button: UInt32, state: ButtonState) {
        guard state == .released, seat.heldButtons == 0 else { return }
        seen.append("drop on " + over(seat, seat.cursor))
        seat.endPointerGrab(self)
    }
    func axis(_ seat: Seat, time: UInt64, source: AxisSource, vertical: AxisValue?, horizontal: AxisValue?) {}
    func down(_ seat: Seat, time: UInt64, slot: Int32, at point: Point, hit: Hit?) {
        seen.append("touch \(slot) down on " + (hit.map { tree.name(of: $0.node) ?? "?" } ?? "nothing"))
    }
    func motion(_ seat: Seat, time: UInt64, slot: Int32, at point: Point) {
        seen.append("touch \(slot) over " + over(seat, point))
    }
    func up(_ seat: Seat, time: UInt64, slot: Int32) {
        seen.append("touch \(slot) up")
        seat.endTouchGrab(self)
    }
    func touchFrame(_ seat: Seat) {}
    func cancel(_ seat: Seat) { cancelled += 1 }
}

/// Keeps every key press no binding took (a compositor's key chord mode); modifiers still
/// reach the focus through the default.
final class KeySwallower: KeyboardGrab {
    var keys: [String] = []
    var cancelled = 0
    func key(_ seat: Seat, time: UInt64, key: UInt32, state: KeyState, meaning: KeyMeaning) {
        keys.append("\(key) \(state == .pressed ? "down" : "up")")
    }
    func cancel(_ seat: Seat) { cancelled += 1 }
}

@Suite struct OpenGrabTests {
    /// Two windows of two clients, the pointer on "left".
    func scene() -> (Harness, left: NodeID, right: NodeID) {
        let h = Harness()
        let a = h.client("a")
        let b = h.client("b")
        let left = h.toplevel("left", a, Rect(0, 0, 100, 100))
        let right = h.toplevel("right", b, Rect(200, 0, 100, 100))
        _ = h.warp(10, 10)
        return (h, left, right)
    }

    @Test func aCaptureGrabSendsAllMotionToItsNodeUntilCancelled() {
        let (h, _, right) = scene()
        let grab = CaptureGrab(right)
        #expect(
            h.step {
                h.seat.beginPointerGrab(grab)
                h.seat.focusPointer(on: right)
                h.seat.defaultPointerFrame()
            } == [
                "seat0 pointer.leave \"left\"", "seat0 pointer.enter \"right\" at -190,10",
                "seat0 pointer.frame client1(\"a\")", "seat0 pointer.frame client2(\"b\")",
            ])
        // Over "left", the motion still goes to "right", in its coordinates.
        #expect(h.warp(50, 50) == ["seat0 pointer.motion \"right\" at -150,50", "seat0 pointer.frame client2(\"b\")"])
        #expect(
            h.button(.pressed) == [
                "seat0 pointer.button \"right\" BTN_LEFT pressed", "seat0 pointer.frame client2(\"b\")",
            ])
        #expect(
            h.button(.released) == [
                "seat0 pointer.button \"right\" BTN_LEFT released", "seat0 pointer.frame client2(\"b\")",
            ])
        #expect(h.step { h.seat.cancelPointerGrab() } == [])
        #expect(grab.cancelled == 1 && h.seat.activePointerGrab == nil)
        // The default behaviour is back: the next motion picks what is under the cursor.
        #expect(
            h.warp(60, 60) == [
                "seat0 pointer.leave \"right\"", "seat0 pointer.enter \"left\" at 60,60",
                "seat0 pointer.motion \"left\" at 60,60",
                "seat0 pointer.frame client2(\"b\")", "seat0 pointer.frame client1(\"a\")",
            ])
        h.expectClean()
    }

    @Test func aGrabThatEndsItselfGivesThePointerBackAtOnce() {
        let (h, _, right) = scene()
        let grab = CaptureGrab(right, endsOnRelease: true)
        _ = h.step {
            h.seat.beginPointerGrab(grab)
            h.seat.focusPointer(on: right)
        }
        _ = h.button(.pressed)
        #expect(
            h.button(.released) == [
                "seat0 pointer.button \"right\" BTN_LEFT released",
                "seat0 pointer.leave \"right\"", "seat0 pointer.enter \"left\" at 10,10",
                "seat0 pointer.frame client2(\"b\")", "seat0 pointer.frame client1(\"a\")",
            ])
        #expect(grab.cancelled == 0 && h.seat.activePointerGrab == nil)
        h.expectClean()
    }

    @Test func aDragSuppressesPointerAndTouchEventsAndHitTestsItself() {
        let (h, left, _) = scene()
        _ = h.button(.pressed)
        let drag = DragProbe(tree: h.tree)
        #expect(
            h.step {
                h.seat.beginPointerGrab(drag)
                h.seat.focusPointer(on: nil)
                h.seat.defaultPointerFrame()
            } == [
                "seat0 pointer.leave \"left\"", "seat0 pointer.frame client1(\"a\")",
            ])
        #expect(h.warp(250, 50) == [])
        #expect(h.warp(150, 50) == [])
        #expect(
            h.step {
                h.seat.handle(
                    InputEvent(
                        time: 9, device: DeviceID(1),
                        .pointerAxis(source: .wheel, vertical: AxisValue(value: 15, value120: 120), horizontal: nil)))
            } == [])
        #expect(h.warp(220, 30) == [])
        #expect(
            h.button(.released) == ["seat0 pointer.enter \"right\" at 20,30", "seat0 pointer.frame client2(\"b\")"])
        #expect(drag.seen == ["over right", "over out", "over right", "drop on right"])
        // By touch: the points the drag keeps never reach a client.
        h.seat.beginTouchGrab(drag)
        drag.seen = []
        #expect(
            h.step {
                h.seat.notifyTouchDown(time: 20, slot: 3, at: Point(10, 10))
                h.seat.notifyTouchMotion(time: 21, slot: 3, at: Point(250, 10))
                h.seat.notifyTouchFrame()
                h.seat.notifyTouchUp(time: 22, slot: 3)
                h.seat.notifyTouchFrame()
            } == [])
        #expect(drag.seen == ["touch 3 down on left", "touch 3 over right", "touch 3 up"])
        #expect(h.seat.activeTouchGrab == nil && h.seat.activeTouchCount == 0)
        _ = left
        h.expectClean()
    }

    @Test func aDeviceCancellingAGrabbedTouchCancelsTheGrab() {
        let (h, _, _) = scene()
        let drag = DragProbe(tree: h.tree)
        h.seat.beginTouchGrab(drag)
        #expect(
            h.step {
                h.seat.notifyTouchDown(time: 1, slot: 0, at: Point(10, 10))
                h.seat.notifyTouchCancel(time: 2, slot: 0)
                h.seat.notifyTouchFrame()
            } == [])
        #expect(drag.cancelled == 1 && h.seat.activeTouchGrab == nil)
        // Touches route by default again.
        #expect(
            h.step {
                h.seat.notifyTouchDown(time: 3, slot: 1, at: Point(10, 10))
                h.seat.notifyTouchFrame()
            } == [
                "seat0 touch.down \"left\" slot 1 at 10,10", "seat0 touch.frame client1(\"a\")",
            ])
        h.expectClean()
    }

    @Test func aKeyboardGrabKeepsPressesAndTheirReleasesOnly() {
        let (h, left, _) = scene()
        h.seat.keyTranslator = CodeTranslator()
        h.seat.setKeyboardFocus(left)
        _ = h.flush()
        #expect(h.key(30, .pressed) == ["seat0 keyboard.key \"left\" 30 pressed"]) // before the grab
        let grab = KeySwallower()
        h.seat.beginKeyboardGrab(grab)
        #expect(h.key(31, .pressed) == [])
        #expect(h.key(30, .released) == ["seat0 keyboard.key \"left\" 30 released"]) // where it was pressed
        #expect(h.key(42, .pressed) == ["seat0 keyboard.modifiers \"left\" 1,0,0,0"]) // the default, for modifiers
        #expect(h.key(31, .released) == [])
        h.seat.cancelKeyboardGrab()
        #expect(grab.keys == ["31 down", "42 down", "31 up"] && grab.cancelled == 1)
        // The Shift release was the grab's press: it is the grab's too, and now nobody's key.
        #expect(h.key(42, .released) == ["seat0 keyboard.modifiers \"left\" 0,0,0,0"])
        #expect(h.key(32, .pressed) == ["seat0 keyboard.key \"left\" 32 pressed"])
        h.expectClean()
    }

    @Test func theDefaultGrabsAreInvisible() {
        func run(_ install: Bool) -> [String] {
            let (h, left, right) = scene()
            h.seat.keyTranslator = CodeTranslator()
            if install {
                h.seat.beginPointerGrab(DefaultPointerGrab())
                h.seat.beginTouchGrab(DefaultTouchGrab())
                h.seat.beginKeyboardGrab(DefaultKeyboardGrab())
            }
            var lines: [String] = []
            lines += h.warp(250, 50)
            lines += h.button(.pressed)
            lines += h.warp(50, 50)
            lines += h.button(.released)
            lines += h.step {
                h.seat.notifyPointerAxis(
                    time: 5, source: .wheel, vertical: AxisValue(value: 15, value120: 120), horizontal: nil)
            }
            lines += h.step { _ = h.seat.setKeyboardFocus(right) }
            lines += h.key(42, .pressed) + h.key(30, .pressed) + h.key(30, .released) + h.key(42, .released)
            lines += h.step {
                h.seat.notifyTouchDown(time: 6, slot: 0, at: Point(10, 10))
                h.seat.notifyTouchMotion(time: 7, slot: 0, at: Point(250, 10))
                h.seat.notifyTouchFrame()
                h.seat.notifyTouchUp(time: 8, slot: 0)
                h.seat.notifyTouchFrame()
            }
            h.tree.setMapped(left, false)
            lines += h.flush()
            h.expectClean()
            return lines
        }
        let plain = run(false)
        #expect(plain.count > 20)
        #expect(run(true) == plain)
    }

    @Test func aNewPointerGrabCancelsAPopupGrabAndMoveWaitsForIt() {
        let h = Harness()
        let a = h.client("a")
        let top = h.toplevel("top", a, Rect(0, 0, 100, 100))
        let menu = h.tree.createNode(.popup, name: "menu", client: a, parent: h.output, frame: Rect(50, 50, 100, 100))
        h.tree.setNextResponder(menu, top)
        _ = h.warp(60, 60)
        _ = h.step { h.seat.beginPopupGrab(menu) }
        let grab = CaptureGrab(top)
        #expect(
            h.step { h.seat.beginPointerGrab(grab) } == [
                "seat0 popup.done \"menu\"", "seat0 keyboard.leave \"menu\"",
                "seat0 keyboard.enter \"top\" keys []", "seat0 keyboard.modifiers \"top\" 0,0,0,0",
            ])
        #expect(h.seat.popupGrabStack.isEmpty && h.seat.activeTouchGrab == nil && h.seat.activeKeyboardGrab == nil)
        // An embedder's grab holds the pointer: no move or popup grab starts under it.
        #expect(!h.seat.beginMove(top))
        #expect(!h.seat.beginPopupGrab(menu))
        h.seat.endPointerGrab(grab)
        #expect(h.seat.beginMove(top))
        h.expectClean()
    }
}
