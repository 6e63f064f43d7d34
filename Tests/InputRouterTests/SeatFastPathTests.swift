// The seat's per-event shortcuts (docs/performance.md, "The core's share"), each checked
// against the general code it stands in for, on the inputs where a wrong shortcut would
// give another answer: a cursor clamp that skips the loop over the outputs, a touch point's
// owner origin kept until the scene changes, a slot looked up at its own index first, the
// touch frame's client list, relative motion skipped while no client asked for it, and the
// absolute-input box kept with the outputs.
import InputRouter
import Testing

@Suite struct SeatFastPathTests {
    /// Layouts where the first output is not the only one that matters: empty, overlapped,
    /// beside or away from another, at negative coordinates.
    static let layouts: [[Rect]] = [
        [Rect(0, 0, 1000, 1000)],
        [Rect(0, 0, 0, 0), Rect(100, 100, 800, 600)],
        [Rect(0, 0, 1000, 800), Rect(1000, 0, 1280, 1024)],
        [Rect(0, 0, 1000, 1000), Rect(500, 500, 1000, 1000)],
        [Rect(-500, -300, 800, 600), Rect(300, 300, 1000, 1000)],
    ]

    /// The cursor after a warp is `OutputLayout.closestPoint`'s answer, to the bit (a signed
    /// zero included), at and around every output's edges and at random points.
    @Test(arguments: layouts.indices)
    func cursorClampIsTheLayoutsClosestPoint(_ layoutIndex: Int) {
        let frames = Self.layouts[layoutIndex]
        let router = Router()
        let seat = router.addSeat()
        for (i, f) in frames.enumerated() { router.tree.createNode(.output, name: "out\(i)", frame: f) }
        let layout = OutputLayout(frames)
        #expect(seat.layout == layout)
        var points: [Point] = [Point(-0.0, -0.0), Point(0, -0.0), Point(-0.0, 5)]
        for r in frames {
            let xs = [Double(r.x), Double(r.x) + Double(r.width)]
            let ys = [Double(r.y), Double(r.y) + Double(r.height)]
            for x in xs {
                for y in ys {
                    for dx in [-1, -1.0 / 256, -1.0 / 512, 0, 1.0 / 512, 1] {
                        for dy in [-1, -1.0 / 512, 0, 1.0 / 256] {
                            points.append(Point(x + dx, y + dy))
                        }
                    }
                }
            }
        }
        var rng = SeededRandom(seed: 17)
        for _ in 0..<500 {
            points.append(Point(Double(Int64(rng.next() % 4000)) / 2 - 800, Double(Int64(rng.next() % 3000)) / 2 - 600))
        }
        for (i, p) in points.enumerated() {
            seat.notifyPointerWarp(time: UInt64(i), to: p)
            let expected = layout.closestPoint(to: p)
            #expect(
                seat.cursor.x.bitPattern == expected.x.bitPattern && seat.cursor.y.bitPattern == expected.y.bitPattern,
                "warp to \(p): cursor \(seat.cursor), closestPoint \(expected)")
        }
    }

    func down(_ h: Harness, _ slot: Int32, _ x: Double, _ y: Double) -> [String] {
        h.step {
            h.seat.notifyTouchDown(time: h.tick(), slot: slot, at: Point(x, y))
            h.seat.notifyTouchFrame()
        }
    }

    func motion(_ h: Harness, _ slot: Int32, _ x: Double, _ y: Double) -> [String] {
        h.step {
            h.seat.notifyTouchMotion(time: h.tick(), slot: slot, at: Point(x, y))
            h.seat.notifyTouchFrame()
        }
    }

    /// A point's local position follows its owner through every scene change that moves it:
    /// the owner moved, its parent moved, it was reparented, raised, or its slot reused by
    /// a new owner.
    @Test func touchMotionFollowsItsOwnerWhenTheSceneChanges() {
        let h = Harness()
        let c = h.client("a")
        let a = h.toplevel("A", c, Rect(100, 100, 300, 300))
        h.tree.createNode(.subsurface, name: "S", client: c, parent: a, frame: Rect(200, 200, 50, 50))
        let b = h.toplevel("B", h.client("b"), Rect(600, 600, 300, 300))
        _ = h.flush()
        #expect(down(h, 0, 150, 150) == ["seat0 touch.down \"A\" slot 0 at 50,50", "seat0 touch.frame client1(\"a\")"])
        #expect(
            motion(h, 0, 160, 150) == ["seat0 touch.motion \"A\" slot 0 at 60,50", "seat0 touch.frame client1(\"a\")"])
        _ = h.step { h.tree.move(a, to: (200, 100)) }
        #expect(
            motion(h, 0, 260, 150) == ["seat0 touch.motion \"A\" slot 0 at 60,50", "seat0 touch.frame client1(\"a\")"])
        _ = h.step { h.tree.raiseToTop(b) }
        #expect(
            motion(h, 0, 270, 150) == ["seat0 touch.motion \"A\" slot 0 at 70,50", "seat0 touch.frame client1(\"a\")"])
        _ = h.step { _ = h.tree.setParent(a, b) } // now at 600 + 200, 600 + 100
        #expect(
            motion(h, 0, 850, 750) == ["seat0 touch.motion \"A\" slot 0 at 50,50", "seat0 touch.frame client1(\"a\")"])
        _ = h.step {
            _ = h.tree.setParent(a, h.output)
            h.seat.notifyTouchUp(time: h.tick(), slot: 0)
            h.seat.notifyTouchFrame()
        }

        // A subsurface's origin comes from its parent's: moving the parent moves it.
        #expect(down(h, 1, 415, 315) == ["seat0 touch.down \"S\" slot 1 at 15,15", "seat0 touch.frame client1(\"a\")"])
        #expect(
            motion(h, 1, 420, 320) == ["seat0 touch.motion \"S\" slot 1 at 20,20", "seat0 touch.frame client1(\"a\")"])
        _ = h.step { h.tree.move(a, to: (0, 0)) }
        #expect(
            motion(h, 1, 220, 220) == ["seat0 touch.motion \"S\" slot 1 at 20,20", "seat0 touch.frame client1(\"a\")"])
        _ = h.step {
            h.seat.notifyTouchUp(time: h.tick(), slot: 1)
            h.seat.notifyTouchFrame()
        }

        // The same slot on another owner, with nothing changed in the scene in between.
        #expect(down(h, 1, 650, 650) == ["seat0 touch.down \"B\" slot 1 at 50,50", "seat0 touch.frame client2(\"b\")"])
        #expect(
            motion(h, 1, 660, 650) == ["seat0 touch.motion \"B\" slot 1 at 60,50", "seat0 touch.frame client2(\"b\")"])
        h.expectClean()
    }

    /// Slots that are not their points' indices (landed out of order, one lifted so the
    /// others shift): each motion still goes to its own slot's owner.
    @Test func slotsAwayFromTheirIndexReachTheirOwners() {
        let h = Harness()
        h.toplevel("A", h.client("a"), Rect(0, 0, 100, 100))
        h.toplevel("B", h.client("b"), Rect(200, 0, 100, 100))
        _ = down(h, 3, 10, 10) // index 0
        _ = down(h, 0, 210, 10) // index 1
        _ = down(h, 1, 20, 20) // index 2
        let moved = h.step {
            for slot: Int32 in [0, 1, 3] {
                h.seat.notifyTouchMotion(time: h.tick(), slot: slot, at: Point(Double(slot) + 50, 50))
            }
            h.seat.notifyTouchFrame()
        }
        #expect(
            moved == [
                "seat0 touch.motion \"B\" slot 0 at -150,50", "seat0 touch.motion \"A\" slot 1 at 51,50",
                "seat0 touch.motion \"A\" slot 3 at 53,50", "seat0 touch.frame client2(\"b\")",
                "seat0 touch.frame client1(\"a\")",
            ])
        _ = h.step {
            h.seat.notifyTouchUp(time: h.tick(), slot: 3)
            h.seat.notifyTouchFrame()
        } // 0 and 1 shift down
        #expect(
            motion(h, 1, 30, 30) == ["seat0 touch.motion \"A\" slot 1 at 30,30", "seat0 touch.frame client1(\"a\")"])
        #expect(
            motion(h, 0, 230, 30) == ["seat0 touch.motion \"B\" slot 0 at 30,30", "seat0 touch.frame client2(\"b\")"])
        #expect(motion(h, 3, 1, 1) == ["seat0 dropped touch.motion"])
        #expect(h.step { h.seat.notifyTouchUp(time: h.tick(), slot: 2) } == ["seat0 dropped touch.up"])
        h.expectClean()
    }

    /// One frame per client that was told something, in the order each was first told,
    /// when their fingers alternate.
    @Test func touchFrameOncePerClientWhenFingersAlternate() {
        let h = Harness()
        h.toplevel("A", h.client("a"), Rect(0, 0, 100, 100))
        h.toplevel("B", h.client("b"), Rect(200, 0, 100, 100))
        let lines = h.step {
            for (slot, x) in [(0, 10.0), (1, 210), (2, 20), (3, 220), (4, 30)] as [(Int32, Double)] {
                h.seat.notifyTouchDown(time: h.tick(), slot: slot, at: Point(x, 10))
            }
            h.seat.notifyTouchFrame()
        }
        #expect(
            lines.filter { $0.contains("touch.frame") } == [
                "seat0 touch.frame client1(\"a\")", "seat0 touch.frame client2(\"b\")",
            ])
        #expect(lines.count == 7)
        h.expectClean()
    }

    /// Relative motion reaches a client that binds `zwp_relative_pointer` at any time, and
    /// stops when it lets go, whatever other clients did before.
    @Test func relativeMotionFollowsEveryBindingChange() {
        let h = Harness()
        let a = h.client("a")
        let b = h.client("b")
        h.toplevel("A", a, Rect(0, 0, 100, 100))
        h.toplevel("B", b, Rect(200, 0, 100, 100))
        func move(_ dx: Double) -> [String] { h.step { h.seat.notifyPointerMotion(time: h.tick(), dx: dx, dy: 0) } }
        _ = h.warp(10, 10)
        #expect(move(1) == ["seat0 pointer.motion \"A\" at 11,10", "seat0 pointer.frame client1(\"a\")"])
        h.seat.setBound(.relativePointer, for: b, true) // not the focus's client
        _ = h.flush()
        #expect(move(1) == ["seat0 pointer.motion \"A\" at 12,10", "seat0 pointer.frame client1(\"a\")"])
        h.seat.setBound(.relativePointer, for: a, true)
        _ = h.flush()
        #expect(
            move(1) == [
                "seat0 pointer.relative_motion \"A\" d 1,0 raw 1,0", "seat0 pointer.motion \"A\" at 13,10",
                "seat0 pointer.frame client1(\"a\")",
            ])
        h.seat.setBound(.relativePointer, for: b, false) // a still has it
        _ = h.flush()
        #expect(move(1).first == "seat0 pointer.relative_motion \"A\" d 1,0 raw 1,0")
        h.seat.setBound(.relativePointer, for: a, false)
        _ = h.flush()
        #expect(move(1) == ["seat0 pointer.motion \"A\" at 15,10", "seat0 pointer.frame client1(\"a\")"])
        // A client removed with it bound, and a new one binding it afterwards.
        h.seat.setBound(.relativePointer, for: a, true)
        h.router.removeClient(b)
        _ = h.flush()
        #expect(move(1).first == "seat0 pointer.relative_motion \"A\" d 1,0 raw 1,0")
        h.router.removeClient(a)
        let c = h.client("c", [.pointer, .relativePointer])
        h.toplevel("C", c, Rect(0, 0, 100, 100))
        #expect(move(1).first == "seat0 pointer.relative_motion \"C\" d 1,0 raw 1,0")
        h.expectClean()
    }

    /// Absolute input (touch screens, absolute pointers) maps onto the outputs' box as it is
    /// after every output change: added, moved.
    @Test func absoluteInputMapsOntoTheCurrentOutputs() {
        let h = Harness()
        let second = h.tree.createNode(.output, name: "out2", frame: Rect(1000, 0, 500, 500))
        let c = h.client("a")
        h.toplevel("W", c, Rect(0, 0, 500, 500), parent: second)
        _ = h.flush()
        let touch = InputEvent(time: h.tick(), device: DeviceID(0), .touchDown(slot: 0, x: 0.9, y: 0.4))
        #expect(
            h.step {
                h.seat.handle(touch)
                h.seat.handle(InputEvent(time: h.tick(), device: DeviceID(0), .touchFrame))
            }
                == ["seat0 touch.down \"W\" slot 0 at 350,400", "seat0 touch.frame client1(\"a\")"])
        _ = h.step { h.seat.handle(InputEvent(time: h.tick(), device: DeviceID(0), .touchUp(slot: 0))) }
        _ = h.step { h.tree.move(second, to: (0, 1000)) } // now below: the box is 1000 x 1500
        let moved = h.step {
            h.seat.handle(InputEvent(time: h.tick(), device: DeviceID(0), .touchDown(slot: 0, x: 0.2, y: 0.9)))
            h.seat.handle(InputEvent(time: h.tick(), device: DeviceID(0), .touchMotion(slot: 0, x: 0.3, y: 0.8)))
            h.seat.handle(InputEvent(time: h.tick(), device: DeviceID(0), .touchFrame))
        }
        #expect(
            moved == [
                "seat0 touch.down \"W\" slot 0 at 200,350", "seat0 touch.motion \"W\" slot 0 at 300,200",
                "seat0 touch.frame client1(\"a\")",
            ])
        h.expectClean()
    }

    /// `OutputLayout.map`'s spelt-out clamp is `min(max(x, 0), 1)` (0 when not finite), to
    /// the bit, at every edge a clamp can get wrong.
    @Test func absoluteMappingClampsAsMinAndMax() {
        let values: [Double] = [
            -.infinity, -1, -0.5, -.ulpOfOne, -.leastNonzeroMagnitude, -0.0, 0, .leastNonzeroMagnitude, 0.25, 0.5,
            1 - .ulpOfOne, 1, 1 + .ulpOfOne, 2, .greatestFiniteMagnitude, .infinity, .nan,
        ]
        for r in [Rect(-100, 50, 1920, 1080), Rect(0, 0, 1, 1), Rect(0, 0, 0, 0)] {
            for x in values {
                for y in values {
                    let p = OutputLayout.map(x: x, y: y, onto: r)
                    let cx = x.isFinite ? min(max(x, 0), 1) : 0
                    let cy = y.isFinite ? min(max(y, 0), 1) : 0
                    let e = Point(Double(r.x) + cx * Double(r.width), Double(r.y) + cy * Double(r.height))
                    #expect(
                        p.x.bitPattern == e.x.bitPattern && p.y.bitPattern == e.y.bitPattern,
                        "\(x), \(y) onto \(r): \(p), not \(e)")
                }
            }
        }
    }

    /// A device's held keys and buttons, released out of the order they were pressed, are
    /// still the ones its removal releases (newest first).
    @Test func holdsReleasedOutOfOrderAreTheOnesADeviceRemovalReleases() {
        let h = Harness()
        let a = h.toplevel("A", h.client("a"), Rect(0, 0, 100, 100))
        _ = h.step { _ = h.seat.setKeyboardFocus(a) }
        _ = h.warp(10, 10)
        let device = DeviceID(3)
        h.seat.notifyDeviceAdded(device, capabilities: [.keyboard, .pointer])
        for k: UInt32 in [30, 31, 32] { _ = h.key(k, .pressed, device: device) }
        _ = h.key(30, .released, device: device) // not the newest
        _ = h.key(32, .released, device: device) // the newest
        _ = h.key(33, .pressed, device: device)
        for b: UInt32 in [0x110, 0x111, 0x112] { _ = h.button(.pressed, b, device: device) }
        _ = h.button(.released, 0x110, device: device)
        let lines = h.step { h.seat.notifyDeviceRemoved(device, time: h.tick()) }
        #expect(
            lines.filter { $0.contains("keyboard.key") } == [
                "seat0 keyboard.key \"A\" 33 released", "seat0 keyboard.key \"A\" 31 released",
            ])
        #expect(
            lines.filter { $0.contains("pointer.button") } == [
                "seat0 pointer.button \"A\" BTN_MIDDLE released", "seat0 pointer.button \"A\" BTN_RIGHT released",
            ])
        h.expectClean()
    }
}

/// A client that goes takes only its own nodes: another client's node below one of them (an
/// input method's candidate popup on the focused window) leaves the scene but stays alive,
/// for its client to place again. WireFuzzer found it destroyed with the window's client,
/// and the input method's popup never showed again.
@Suite struct ClientRemovalTests {
    @Test func anotherClientsNodeBelowADepartingClientsWindowLivesOn() {
        let h = Harness()
        let app = h.client("app")
        let inputMethod = h.client("input method")
        let window = h.toplevel("window", app, Rect(0, 0, 200, 100))
        let sub = h.tree.createNode(.subsurface, name: "sub", client: app, parent: window, frame: Rect(0, 0, 10, 10))
        let popup = h.tree.createNode(
            .popup, name: "candidates", client: inputMethod, parent: sub, frame: Rect(0, 20, 50, 30))
        let compositorChild = h.tree.createNode(
            .compositor, name: "title bar", parent: window, frame: Rect(0, -20, 200, 20))
        h.router.removeClient(app)
        _ = h.flush()
        #expect(!h.tree.isAlive(window) && !h.tree.isAlive(sub))
        #expect(!h.tree.isAlive(compositorChild), "the compositor's nodes on the window go with it")
        #expect(h.tree.isAlive(popup))
        #expect(h.tree.parent(of: popup) == nil)
        #expect(h.tree.liveNodesByClient == [inputMethod: 1])
        // Its client places it again, on the next window.
        let next = h.toplevel("next", h.client("next app"), Rect(300, 0, 200, 100))
        _ = h.tree.setParent(popup, next)
        h.tree.setMapped(popup, true)
        #expect(h.tree.parent(of: popup) == next)
        h.expectClean()
    }
}
