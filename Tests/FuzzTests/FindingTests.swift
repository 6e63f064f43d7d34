import InputRouter
import InputRouterFuzzing
import Testing

/// Each fuzz finding, reduced to the smallest scene that shows it, as a plain test of the
/// core. The crash files themselves are replayed by CorpusTests (Regressions/).
@Suite struct FindingTests {
    /// One client window under the cursor with the keyboard focus, seen through the
    /// invariant checker and the client model.
    final class Scene {
        let router = Router()
        let seat: Seat
        let window: NodeID
        var sink: InvariantChecker<ClientModel<RecordingSink>>
        init() {
            seat = router.addSeat()
            let output = router.tree.createNode(.output, frame: Rect(0, 0, 400, 300))
            let client = router.addClient(name: "app")
            seat.setBound([.pointer, .keyboard, .touch], for: client, true)
            window = router.tree.createNode(.toplevel, client: client, parent: output, frame: Rect(0, 0, 400, 300))
            seat.setKeyboardFocus(window)
            seat.notifyPointerWarp(time: 1, to: Point(10, 10))
            sink = InvariantChecker(wrapping: ClientModel(wrapping: RecordingSink(), router: router), router: router)
            flush()
        }
        func flush() { router.flush(into: &sink) }
    }

    /// RecordingFuzzer, Regressions/recording/keys-of-a-device-never-added.yml: a recording
    /// whose DEVICE_ADDED was corrupted still sent key presses; the seat forwarded them but
    /// kept no record of the device, so removing it released nothing and the client
    /// believed Ctrl and O were down for ever.
    @Test func holdsOfADeviceNeverAddedAreReleasedWhenItGoes() {
        let s = Scene()
        let ghost = DeviceID(5)
        s.seat.notifyKey(time: 2, key: 29, state: .pressed, device: ghost)
        s.seat.notifyPointerButton(time: 3, button: 0x110, state: .pressed, device: ghost)
        s.seat.notifyTouchDown(time: 4, slot: 0, at: Point(20, 20), device: ghost)
        s.flush()
        #expect(s.sink.inner.stuck().count == 3)
        s.seat.notifyDeviceRemoved(ghost, time: 5)
        s.flush()
        #expect(s.sink.violations == [])
        #expect(s.sink.inner.stuck() == [])
        #expect(s.seat.activeTouchCount == 0)
    }

    /// The same after the device was removed once: what it pressed afterwards goes when
    /// it is removed again.
    @Test func holdsOfADeviceAfterItsRemovalAreReleasedByTheNextOne() {
        let s = Scene()
        let device = DeviceID(1)
        s.seat.notifyDeviceAdded(device, capabilities: [.keyboard, .pointer])
        s.seat.notifyDeviceRemoved(device, time: 2)
        s.seat.notifyKey(time: 3, key: 30, state: .pressed, device: device)
        s.flush()
        #expect(s.sink.inner.stuck().count == 1)
        s.seat.notifyDeviceRemoved(device, time: 4)
        s.flush()
        #expect(s.sink.violations == [])
        #expect(s.sink.inner.stuck() == [])
    }
}

extension FindingTests {
    /// RandomBytesTests (the router decoder on seeded bytes): absolute motion with two
    /// outputs whose bounding box does not fit in Int32 trapped on arithmetic overflow in
    /// `Seat.absoluteRect`.
    @Test func absoluteMotionOverOutputsFarApart() {
        let s = Scene()
        s.router.tree.createNode(.output, frame: Rect(Int32.min + 1, Int32.max - 3, Int32.max, Int32.max - 1))
        s.router.tree.createNode(.output, frame: Rect(Int32.max - 10, Int32.min, Int32.max, 5))
        s.seat.handle(InputEvent(time: 2, device: DeviceID(0), .pointerMotionAbsolute(x: 1, y: 1)))
        s.seat.handle(InputEvent(time: 3, device: DeviceID(0), .touchDown(slot: 0, x: 0.5, y: 1)))
        s.seat.handle(InputEvent(time: 4, device: DeviceID(0), .touchUp(slot: 0)))
        s.flush()
        #expect(s.sink.violations == [])
    }
}

extension FindingTests {
    /// RandomBytesTests: with no output mapped the cursor is not clamped, and a move or
    /// resize grab converted a cursor 1e300 px away to Int64 and trapped.
    @Test(arguments: [false, true]) func grabsWithTheCursorFarAwayAndNoOutput(resize: Bool) {
        let s = Scene()
        s.seat.notifyPointerButton(time: 2, button: 0x110, state: .pressed)
        s.flush()
        if resize { s.seat.beginResize(s.window, edges: [.left, .top]) } else { s.seat.beginMove(s.window) }
        s.flush()
        s.router.tree.setMapped(s.router.tree.parent(of: s.window)!, false) // the only output goes
        s.flush()
        s.seat.notifyPointerMotion(time: 3, dx: 1e300, dy: -1e300)
        s.seat.notifyPointerMotion(time: 4, dx: -1e300, dy: 1e300)
        s.seat.notifyPointerButton(time: 5, button: 0x110, state: .released)
        s.flush()
        #expect(s.sink.violations == [])
    }
}

extension FindingTests {
    /// RandomBytesTests seed 32: a next-responder override pointing at an unmapped popup
    /// made the popup take a touch down (its client had bound wl_touch), so the client
    /// was sent an event for a surface it had unmapped.
    @Test func anUnmappedNextResponderTakesNothing() {
        let s = Scene()
        let client = s.router.tree.client(of: s.window)!
        let popup = s.router.tree.createNode(
            .popup, client: client, parent: s.router.tree.parent(of: s.window),
            frame: Rect(0, 0, 10, 10))
        s.router.tree.setMapped(popup, false)
        let panel = s.router.tree.createNode(
            .compositor, parent: s.router.tree.parent(of: s.window),
            frame: Rect(200, 200, 50, 50))
        s.router.tree.setNextResponder(panel, popup)
        s.flush()
        s.seat.notifyTouchDown(time: 2, slot: 0, at: Point(210, 210))
        s.seat.notifyTouchFrame()
        s.flush()
        #expect(s.sink.violations == [])
        #expect(s.sink.inner.stuck() == [])
        #expect(s.seat.dropCount(.touchDown) == 1)
    }

    /// RandomBytesTests seed 27: a handler on a client surface took a touch down for a
    /// client that had not bound wl_touch (here: had disconnected), and the seat then sent
    /// the touch to that client anyway, frames included.
    @Test(arguments: [false, true]) func aHandlerTakingForAClientSendsTheClientNothing(disconnected: Bool) {
        let s = Scene()
        let other = s.router.addClient(name: "other")
        if disconnected { s.router.removeClient(other) } else { s.seat.setBound(.keyboard, for: other, true) }
        let surface = s.router.tree.createNode(
            .toplevel, client: other, parent: s.router.tree.parent(of: s.window),
            frame: Rect(50, 50, 100, 100))
        s.router.tree.setHandler(surface) { _ in .handled }
        s.flush()
        s.seat.notifyPointerWarp(time: 2, to: Point(60, 60))
        s.seat.notifyPointerButton(time: 3, button: 0x110, state: .pressed)
        s.seat.notifyTouchDown(time: 4, slot: 0, at: Point(70, 70))
        s.seat.notifyTouchFrame()
        s.flush()
        #expect(s.sink.violations == [])
        var sent = RecordingSink()
        s.seat.notifyTouchMotion(time: 5, slot: 0, at: Point(80, 80))
        s.seat.notifyTouchUp(time: 6, slot: 0)
        s.seat.notifyTouchFrame()
        s.seat.notifyPointerButton(time: 7, button: 0x110, state: .released)
        s.router.flush(into: &sent)
        let toOther = sent.deliveries.filter { d in
            switch d {
            case .pointerFrame(_, let c), .touchFrame(_, let c), .touchCancel(_, let c),
                .touchReleased(_, let c, _, _, _):
                c == other
            default: d.surface == surface
            }
        }
        #expect(toOther == [])
        #expect(sent.deliveries.contains(.handled(s.seat.id, .node(surface), .pointerButton)))
    }

    /// RandomBytesTests seed 10: a client bound wl_pointer after it had disconnected and
    /// then got pointer frames.
    @Test func aDisconnectedClientCannotBind() {
        let s = Scene()
        let gone = s.router.addClient(name: "gone")
        s.router.removeClient(gone)
        s.seat.setBound([.pointer, .keyboard, .touch], for: gone, true)
        #expect(s.seat.boundDevices(of: gone) == [])
    }

    /// Found while fixing the above: a client that binds or lets go of wl_pointer while its
    /// surface has the pointer focus gets the focus picked again, with leave and enter.
    @Test(arguments: [false, true]) func bindingThePointerUnderTheCursorRepairsFocus(buttonHeld: Bool) {
        let s = Scene()
        let client = s.router.tree.client(of: s.window)!
        if buttonHeld { s.seat.notifyPointerButton(time: 2, button: 0x110, state: .pressed) }
        s.flush()
        s.seat.setBound(.pointer, for: client, false)
        s.seat.notifyPointerMotion(time: 3, dx: 1, dy: 1)
        s.flush()
        s.seat.setBound(.pointer, for: client, true)
        s.seat.notifyPointerMotion(time: 4, dx: 1, dy: 1)
        if buttonHeld { s.seat.notifyPointerButton(time: 5, button: 0x110, state: .released) }
        s.seat.notifyPointerMotion(time: 6, dx: 1, dy: 1)
        s.flush()
        #expect(s.sink.violations == [])
        #expect(s.sink.inner.stuck() == [])
    }
}

extension FindingTests {
    /// RouterFuzzer (37 s): the pointer focus came to a window through a next-responder
    /// override of the node under the cursor; when the override was removed nothing
    /// re-picked, and motion kept going to a window neither under the cursor nor in the
    /// chain of what was.
    @Test func removingAnOverrideRepicksThePointer() {
        let s = Scene()
        let output = s.router.tree.parent(of: s.window)!
        let client = s.router.tree.client(of: s.window)!
        let far = s.router.tree.createNode(.toplevel, client: client, parent: output, frame: Rect(300, 200, 50, 50))
        let panel = s.router.tree.createNode(.compositor, parent: output, frame: Rect(0, 0, 100, 30))
        s.flush()
        s.router.tree.setNextResponder(panel, far)
        s.seat.notifyPointerMotion(time: 2, dx: 1, dy: 1)
        s.flush()
        #expect(
            s.sink.inner.inner.deliveries.contains { if case .pointerEnter(_, far, _, _) = $0 { true } else { false } })
        s.router.tree.setNextResponder(panel, nil)
        s.seat.notifyPointerMotion(time: 3, dx: 1, dy: 1)
        s.flush()
        #expect(s.sink.violations == [])
    }
}

extension FindingTests {
    /// RouterFuzzer (366 s): the node under the cursor had a next-responder override to a
    /// window with a handler; when the window was unmapped, the re-pick found it through
    /// the override, its handler took pointer.enter, and since its client had bound
    /// wl_pointer the enter went to the client, on an unmapped surface.
    @Test func anUnmappedClientSurfaceTakesNothingThroughItsHandler() {
        let s = Scene()
        let output = s.router.tree.parent(of: s.window)!
        let panel = s.router.tree.createNode(.compositor, parent: output, frame: Rect(0, 0, 100, 30))
        s.router.tree.setNextResponder(panel, s.window)
        s.router.tree.setHandler(s.window) { _ in .handled }
        s.flush()
        s.router.tree.setMapped(s.window, false)
        s.seat.notifyPointerMotion(time: 2, dx: 1, dy: 1)
        s.flush()
        #expect(s.sink.violations == [])
    }
}
