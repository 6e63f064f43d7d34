import InputRouter
import Testing

@Suite struct PointerTests {
    @Test func enterMotionLeaveArePairedAndFramed() {
        let h = Harness()
        let a = h.client("a")
        let b = h.client("b")
        h.toplevel("A", a, Rect(0, 0, 100, 100))
        h.toplevel("B", b, Rect(200, 0, 100, 100))
        #expect(
            h.warp(10, 10) == [
                "seat0 pointer.enter \"A\" at 10,10", "seat0 pointer.motion \"A\" at 10,10",
                "seat0 pointer.frame client1(\"a\")",
            ])
        #expect(h.warp(20.5, 10) == ["seat0 pointer.motion \"A\" at 20.5,10", "seat0 pointer.frame client1(\"a\")"])
        #expect(
            h.warp(250, 50) == [
                "seat0 pointer.leave \"A\"", "seat0 pointer.enter \"B\" at 50,50",
                "seat0 pointer.motion \"B\" at 50,50",
                "seat0 pointer.frame client1(\"a\")", "seat0 pointer.frame client2(\"b\")",
            ])
        #expect(
            h.warp(150, 50) == [
                "seat0 pointer.leave \"B\"", "seat0 dropped pointer.motion", "seat0 pointer.frame client2(\"b\")",
            ])
        h.expectClean()
    }

    @Test func implicitGrabKeepsFocusUntilLastReleaseThenRepicks() {
        let h = Harness()
        let a = h.client("a")
        let b = h.client("b")
        h.toplevel("A", a, Rect(0, 0, 100, 100))
        h.toplevel("B", b, Rect(200, 0, 100, 100))
        _ = h.warp(10, 10)
        _ = h.button(.pressed)
        _ = h.button(.pressed, 0x111)
        #expect(h.warp(250, 10) == ["seat0 pointer.motion \"A\" at 250,10", "seat0 pointer.frame client1(\"a\")"])
        #expect(
            h.button(.released) == [
                "seat0 pointer.button \"A\" BTN_LEFT released", "seat0 pointer.frame client1(\"a\")",
            ])
        #expect(
            h.button(.released, 0x111) == [
                "seat0 pointer.button \"A\" BTN_RIGHT released", "seat0 pointer.leave \"A\"",
                "seat0 pointer.enter \"B\" at 50,10",
                "seat0 pointer.frame client1(\"a\")", "seat0 pointer.frame client2(\"b\")",
            ])
        h.expectClean()
    }

    @Test func buttonCountsAcrossDevices() {
        let h = Harness()
        let a = h.client("a")
        h.toplevel("A", a, Rect(0, 0, 100, 100))
        h.seat.notifyDeviceAdded(DeviceID(1), capabilities: .pointer)
        h.seat.notifyDeviceAdded(DeviceID(2), capabilities: .pointer)
        _ = h.warp(10, 10)
        #expect(h.button(.pressed, device: DeviceID(1)).first == "seat0 pointer.button \"A\" BTN_LEFT pressed")
        #expect(h.button(.pressed, device: DeviceID(2)) == []) // second device: count 2, not forwarded
        #expect(h.button(.released, device: DeviceID(1)) == []) // count back to 1
        #expect(h.button(.released, device: DeviceID(2)).first == "seat0 pointer.button \"A\" BTN_LEFT released")
        #expect(h.button(.released, device: DeviceID(2)) == ["seat0 dropped pointer.button"]) // no press: dropped
        h.expectClean()
    }

    /// A device that goes away with buttons held releases them, newest first, and only its
    /// own: another device's hold of the same button keeps the seat's press. A device never
    /// added (index past the seat's preallocated ones) counts too.
    @Test(arguments: [DeviceID(1), DeviceID(40)])
    func deviceRemovedReleasesItsButtons(device: DeviceID) {
        let h = Harness()
        let a = h.client("a")
        h.toplevel("A", a, Rect(0, 0, 100, 100))
        h.seat.notifyDeviceAdded(DeviceID(2), capabilities: .pointer)
        _ = h.warp(10, 10)
        _ = h.button(.pressed, 0x110, device: device)
        _ = h.button(.pressed, 0x111, device: device)
        _ = h.button(.pressed, 0x110, device: DeviceID(2))
        let removed = h.step { h.seat.handle(InputEvent(time: h.tick(), device: device, .deviceRemoved)) }
        #expect(removed.filter { $0.contains("pointer.button") } == ["seat0 pointer.button \"A\" BTN_RIGHT released"])
        #expect(h.seat.heldButtons == 1)
        #expect(h.button(.released, 0x110, device: DeviceID(2)).first == "seat0 pointer.button \"A\" BTN_LEFT released")
        // The removed device's holds are gone: its next release of either is unmatched.
        #expect(h.button(.released, 0x111, device: device) == ["seat0 dropped pointer.button"])
        h.expectClean()
    }

    /// Every kind of scene change under a still cursor re-picks at once.
    @Test(arguments: ["map", "unmap", "move", "region", "restack", "destroy", "opacity"])
    func sceneChangesRepickWithoutMotion(change: String) {
        let h = Harness()
        let a = h.client("a")
        let b = h.client("b")
        let back = h.toplevel("back", a, Rect(0, 0, 100, 100))
        let front = h.toplevel("front", b, Rect(0, 0, 100, 100))
        _ = h.warp(10, 10)
        if change == "map" {
            h.tree.setMapped(front, false)
            _ = h.flush()
        }
        let lines = h.step {
            switch change {
            case "map": h.tree.setMapped(front, true)
            case "unmap": h.tree.setMapped(front, false)
            case "move": h.tree.move(front, to: (50, 50))
            case "region": h.tree.setInputRegion(front, Region(Rect(50, 50, 50, 50)))
            case "restack": h.tree.raiseToTop(back)
            case "destroy": h.tree.destroy(front)
            default: h.tree.setOpacity(front, 0)
            }
        }
        if change == "map" {
            #expect(
                lines == [
                    "seat0 pointer.leave \"back\"", "seat0 pointer.enter \"front\" at 10,10",
                    "seat0 pointer.frame client1(\"a\")", "seat0 pointer.frame client2(\"b\")",
                ])
        } else if change == "destroy" {
            // No leave to a destroyed surface.
            #expect(lines == ["seat0 pointer.enter \"back\" at 10,10", "seat0 pointer.frame client1(\"a\")"])
        } else {
            #expect(
                lines == [
                    "seat0 pointer.leave \"front\"", "seat0 pointer.enter \"back\" at 10,10",
                    "seat0 pointer.frame client2(\"b\")", "seat0 pointer.frame client1(\"a\")",
                ])
        }
        _ = back
        h.expectClean()
    }

    @Test func batchedChangesRepickOnce() {
        let h = Harness()
        let a = h.client("a")
        let n = h.toplevel("A", a, Rect(0, 0, 100, 100))
        _ = h.warp(10, 10)
        let lines = h.step {
            h.tree.batchUpdates {
                h.tree.setMapped(n, false)
                h.tree.move(n, to: (5, 5))
                h.tree.setMapped(n, true)
            }
        }
        // The surface is still under the cursor: no leave/enter pair, one motion for the
        // surface-local position that changed.
        #expect(lines == ["seat0 pointer.motion \"A\" at 5,5", "seat0 pointer.frame client1(\"a\")"])
        #expect(h.warp(10, 10) == ["seat0 pointer.motion \"A\" at 5,5", "seat0 pointer.frame client1(\"a\")"])
    }

    @Test func axisWithValue120StopAndSources() {
        let h = Harness()
        let a = h.client("a")
        h.toplevel("A", a, Rect(0, 0, 100, 100))
        _ = h.warp(10, 10)
        let wheel = h.step {
            h.seat.notifyPointerAxis(
                time: 5, source: .wheel, vertical: AxisValue(value: 15, value120: 120),
                horizontal: AxisValue(value: -7.5, value120: -60))
        }
        #expect(
            wheel == [
                "seat0 pointer.axis \"A\" vertical wheel 15 v120=120",
                "seat0 pointer.axis \"A\" horizontal wheel -7.5 v120=-60",
                "seat0 pointer.frame client1(\"a\")",
            ])
        let stop = h.step {
            h.seat.notifyPointerAxis(time: 6, source: .finger, vertical: AxisValue(value: 0), horizontal: nil)
        }
        #expect(stop == ["seat0 pointer.axis_stop \"A\" vertical", "seat0 pointer.frame client1(\"a\")"])
        h.expectClean()
    }

    @Test func cursorStaysInsideTheOutputs() {
        let h = Harness(outputSize: Rect(0, 0, 100, 100))
        h.seat.notifyPointerMotion(time: 1, dx: 500, dy: -500)
        #expect(h.seat.cursor.x < 100 && h.seat.cursor.x >= 99)
        #expect(h.seat.cursor.y == 0)
        h.seat.notifyPointerMotion(time: 2, dx: .nan, dy: 1) // garbage in: ignored
        #expect(h.seat.cursor.y == 0)
    }
}

@Suite struct CountRuleTests {
    /// 300 presses of one button from one hostile device: the count saturates instead of
    /// wrapping to zero, so no press is forwarded twice.
    @Test func countsSaturateUnderHostileInput() {
        let h = Harness()
        let a = h.client("a")
        h.toplevel("A", a, Rect(0, 0, 100, 100))
        _ = h.warp(10, 10)
        var presses = 0
        for _ in 0..<300 { presses += h.button(.pressed).filter { $0.contains("pressed") }.count }
        #expect(presses == 1)
        h.expectClean()
    }
}
