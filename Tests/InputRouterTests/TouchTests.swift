import InputRouter
import Testing

/// Swipes right once three fingers are down.
final class ThreeFingerSwipe: GestureRecognizer {
    var claimed = 0
    override func touchDown(slot: Int32, at: Point, touchCount: Int, time: UInt64) -> State {
        if touchCount == 3 {
            claimed += 1
            return .recognized
        }
        return .possible
    }
}

@Suite struct TouchTests {
    func setUp() -> (Harness, NodeID, NodeID) {
        let h = Harness()
        let a = h.toplevel("A", h.client("a"), Rect(0, 0, 100, 100))
        let b = h.toplevel("B", h.client("b"), Rect(200, 0, 100, 100))
        return (h, a, b)
    }

    func down(_ h: Harness, _ slot: Int32, _ x: Double, _ y: Double) -> [String] {
        h.step {
            h.seat.notifyTouchDown(time: h.tick(), slot: slot, at: Point(x, y))
            h.seat.notifyTouchFrame()
        }
    }

    @Test func ownershipPerSlotEvenOutsideTheSurface() {
        let (h, _, _) = setUp()
        #expect(down(h, 0, 10, 10) == ["seat0 touch.down \"A\" slot 0 at 10,10", "seat0 touch.frame client1(\"a\")"])
        #expect(down(h, 1, 210, 10) == ["seat0 touch.down \"B\" slot 1 at 10,10", "seat0 touch.frame client2(\"b\")"])
        let moved = h.step {
            h.seat.notifyTouchMotion(time: h.tick(), slot: 0, at: Point(250, 50)) // over B, still A's
            h.seat.notifyTouchMotion(time: h.tick(), slot: 1, at: Point(220, 20))
            h.seat.notifyTouchFrame()
        }
        #expect(
            moved == [
                "seat0 touch.motion \"A\" slot 0 at 250,50", "seat0 touch.motion \"B\" slot 1 at 20,20",
                "seat0 touch.frame client1(\"a\")", "seat0 touch.frame client2(\"b\")",
            ])
        #expect(
            h.step {
                h.seat.notifyTouchUp(time: h.tick(), slot: 0)
                h.seat.notifyTouchFrame()
            }
                == ["seat0 touch.up \"A\" slot 0", "seat0 touch.frame client1(\"a\")"])
        #expect(
            h.step { h.seat.notifyTouchMotion(time: h.tick(), slot: 0, at: Point(1, 1)) } == [
                "seat0 dropped touch.motion"
            ])
        h.expectClean()
    }

    @Test func recognizerClaimCancelsTheClients() {
        let (h, _, _) = setUp()
        let swipe = ThreeFingerSwipe()
        h.seat.addRecognizer(swipe)
        _ = down(h, 0, 10, 10)
        _ = down(h, 1, 210, 10)
        #expect(
            down(h, 2, 20, 20) == [
                "seat0 claimed by recognizer #0", "seat0 touch.cancel client1(\"a\")",
                "seat0 touch.cancel client2(\"b\")",
            ])
        // The rest of the sequence goes to the recognizer alone, even new fingers.
        #expect(down(h, 3, 30, 30) == [])
        #expect(
            h.step {
                for s in 0..<4 as Range<Int32> { h.seat.notifyTouchUp(time: h.tick(), slot: s) }
                h.seat.notifyTouchFrame()
            } == [])
        // The next sequence starts fresh.
        #expect(down(h, 0, 10, 10) == ["seat0 touch.down \"A\" slot 0 at 10,10", "seat0 touch.frame client1(\"a\")"])
        #expect(swipe.claimed == 1)
        h.expectClean()
    }

    @Test(arguments: ["destroy", "unmap", "device", "libinput-cancel", "disconnect"])
    func cancelWhenTheOwnerOrDeviceGoes(how: String) {
        let (h, a, _) = setUp()
        h.seat.notifyDeviceAdded(DeviceID(7), capabilities: .touch)
        _ = h.step {
            h.seat.notifyTouchDown(time: 1, slot: 0, at: Point(10, 10), device: DeviceID(7))
            h.seat.notifyTouchDown(time: 1, slot: 1, at: Point(20, 10), device: DeviceID(7))
            h.seat.notifyTouchFrame()
        }
        let lines = h.step {
            switch how {
            case "destroy": h.tree.destroy(a)
            case "unmap": h.tree.setMapped(a, false)
            case "device": h.seat.notifyDeviceRemoved(DeviceID(7), time: 2)
            case "libinput-cancel": h.seat.notifyTouchCancel(time: 2, slot: 1)
            default: h.router.removeClient(h.tree.client(of: a)!)
            }
        }
        switch how {
        case "disconnect": #expect(lines == [])
        case "destroy", "unmap":
            // The point ended with its surface: up for each, then a frame; never a cancel.
            #expect(
                lines == [
                    "seat0 touch.up client1(\"a\") slot 0 (surface gone)",
                    "seat0 touch.up client1(\"a\") slot 1 (surface gone)",
                    "seat0 touch.frame client1(\"a\")",
                ])
        default: #expect(lines == ["seat0 touch.cancel client1(\"a\")"])
        }
        // Nothing more for those points, ever.
        let after = h.step {
            h.seat.notifyTouchMotion(time: 3, slot: 0, at: Point(11, 11))
            h.seat.notifyTouchUp(time: 3, slot: 0)
            h.seat.notifyTouchFrame()
        }
        #expect(!after.contains { $0.hasPrefix("seat0 touch.motion") || $0.hasPrefix("seat0 touch.up") })
        h.expectClean()
    }

    @Test func touchOnNothingIsDroppedAndItsMotionSwallowed() {
        let (h, _, _) = setUp()
        #expect(down(h, 0, 500, 500) == ["seat0 dropped touch.down"])
        #expect(h.step { h.seat.notifyTouchMotion(time: 1, slot: 0, at: Point(10, 10)) } == [])
        #expect(down(h, 0, 10, 10) == ["seat0 dropped touch.down"]) // a second down on a live slot
        h.expectClean()
    }

    @Test func normalisedCoordinatesMapOntoTheOutputs() {
        let (h, _, _) = setUp()
        let lines = h.step {
            h.seat.handle(InputEvent(time: 1, device: DeviceID(1), .touchDown(slot: 5, x: 0.25, y: 0.05)))
            h.seat.handle(InputEvent(time: 1, device: DeviceID(1), .touchFrame))
        }
        #expect(lines == ["seat0 touch.down \"B\" slot 5 at 50,50", "seat0 touch.frame client2(\"b\")"])
    }
}
