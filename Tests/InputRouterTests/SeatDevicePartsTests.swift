import Testing

@testable import InputRouter

/// The seat's per-device parts keep their invariants (PointerState.swift and the files
/// beside it): what a client sees when several devices share a seat, and the checker's
/// report when a part's bookkeeping goes wrong (each broken here by hand, as a bug would).
@Suite struct SeatDevicePartsTests {
    static func scene() -> (Harness, ClientID, NodeID) {
        let h = Harness()
        let a = h.client("a")
        let win = h.toplevel("win", a, Rect(0, 0, 200, 200))
        _ = h.warp(10, 10)
        return (h, a, win)
    }

    // MARK: Pointer

    /// wl_pointer has one button state per seat: a button held on two mice is one press
    /// (the first) and one release (the last) for the client.
    @Test func aButtonHeldOnTwoDevicesIsOnePressAndOneRelease() {
        let (h, _, _) = Self.scene()
        #expect(
            h.button(.pressed, device: DeviceID(1)) == [
                "seat0 pointer.button \"win\" BTN_LEFT pressed", "seat0 pointer.frame client1(\"a\")",
            ])
        #expect(h.button(.pressed, device: DeviceID(2)) == [])
        #expect(h.button(.released, device: DeviceID(1)) == [])
        #expect(
            h.button(.released, device: DeviceID(2)) == [
                "seat0 pointer.button \"win\" BTN_LEFT released", "seat0 pointer.frame client1(\"a\")",
            ])
        h.expectClean()
    }

    @Test func aHeldButtonCountThatDisagreesIsReported() {
        let (h, _, _) = Self.scene()
        h.seat.pointer.heldButtonCount = 1 // no button is held
        _ = h.warp(20, 20)
        // Each pointer delivery of the motion is judged: the motion and its frame.
        #expect(
            h.sink.violations == [
                "seat state: 1 buttons counted held, 0 held: seat0 pointer.motion \"win\" at 20,20",
                "seat state: 1 buttons counted held, 0 held: seat0 pointer.frame client1(\"a\")",
            ])
    }

    // MARK: Keyboard

    /// wl_keyboard has one key state per seat: a key held on two keyboards is one press and
    /// one release for the client.
    @Test func aKeyHeldOnTwoKeyboardsIsOnePressAndOneRelease() {
        let (h, _, win) = Self.scene()
        _ = h.step { h.seat.setKeyboardFocus(win) }
        #expect(h.key(30, .pressed, device: DeviceID(1)) == ["seat0 keyboard.key \"win\" 30 pressed"])
        #expect(h.key(30, .pressed, device: DeviceID(2)) == [])
        #expect(h.key(30, .released, device: DeviceID(1)) == [])
        #expect(h.key(30, .released, device: DeviceID(2)) == ["seat0 keyboard.key \"win\" 30 released"])
        h.expectClean()
    }

    @Test func aHeldKeyTheSeatDoesNotCountIsReported() {
        let (h, _, win) = Self.scene()
        _ = h.step { h.seat.setKeyboardFocus(win) }
        h.seat.keyboard.heldKeys.append(31) // listed held, held by no device
        _ = h.key(30, .pressed)
        #expect(h.sink.violations == ["seat state: 2 keys listed held, 1 held: seat0 keyboard.key \"win\" 30 pressed"])
        h.seat.keyboard.heldKeys.remove(31)
    }

    // MARK: Touch

    /// A second down on a slot that is down is dropped: the client never sees a slot twice.
    @Test func aSecondDownOnALiveSlotIsDropped() {
        let (h, _, _) = Self.scene()
        #expect(
            h.step {
                h.seat.notifyTouchDown(time: h.tick(), slot: 0, at: Point(50, 50))
                h.seat.notifyTouchFrame()
            }
                == ["seat0 touch.down \"win\" slot 0 at 50,50", "seat0 touch.frame client1(\"a\")"])
        #expect(
            h.step { h.seat.notifyTouchDown(time: h.tick(), slot: 0, at: Point(60, 60)) } == [
                "seat0 dropped touch.down"
            ])
        #expect(
            h.step {
                h.seat.notifyTouchUp(time: h.tick(), slot: 0)
                h.seat.notifyTouchFrame()
            }
                == ["seat0 touch.up \"win\" slot 0", "seat0 touch.frame client1(\"a\")"])
        h.expectClean()
    }

    @Test func aSlotDownTwiceIsReported() {
        let (h, _, _) = Self.scene()
        _ = h.step {
            h.seat.notifyTouchDown(time: h.tick(), slot: 0, at: Point(50, 50))
            h.seat.notifyTouchFrame()
        }
        h.seat.touch.points.append(h.seat.touch.points[0])
        _ = h.step {
            h.seat.notifyTouchMotion(time: h.tick(), slot: 0, at: Point(55, 55))
            h.seat.notifyTouchFrame()
        }
        #expect(
            h.sink.violations.first
                == "seat state: touch slot 0 is down twice: seat0 touch.motion \"win\" slot 0 at 55,55")
    }

    // MARK: Tablet

    @Test func aTabletWithTwoToolsInProximityIsReported() {
        let tablets = TabletTests()
        let (h, _, _) = tablets.setUp()
        _ = tablets.proximity(h, true, 10, 10)
        let i = h.seat.tabletIndex(tablets.pen)!
        h.seat.tablet.tools.append(h.seat.tablet.tools[i]) // a second record in proximity for the pen
        _ = h.step { h.seat.notifyTabletAxis(time: h.tick(), device: tablets.pen, axes: TabletAxes(x: 0.02, y: 0.02)) }
        #expect(
            h.sink.violations.first
                == "seat state: tablet dev5 has two tools in proximity: seat0 tablet.motion \"A\" dev5 at 20,20")
    }

    // MARK: Pad

    @Test func aPadWithTwoRecordsIsReported() {
        let pads = PadTests()
        let (h, a, _) = pads.setUp()
        _ = h.step { _ = h.seat.setKeyboardFocus(a) }
        _ = h.step { h.seat.handle(InputEvent(time: h.tick(), device: pads.pad, .tabletPadAdded(pads.layout))) }
        h.seat.pads.records.append(h.seat.pads.records[0])
        _ = pads.press(h, 1, .pressed)
        #expect(
            h.sink.violations.first == "seat state: pad dev6 has two records: seat0 pad.button \"A\" dev6 1 pressed")
    }
}
