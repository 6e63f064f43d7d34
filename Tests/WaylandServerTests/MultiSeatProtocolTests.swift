// The protocols that name a seat (a `wl_seat` or a `wl_pointer` argument) serve the seat
// they name, with real wl-probe clients: "a" binds the first wl_seat, "b" the second one
// (seat1). Relative pointers, locks, gestures, text inputs, selections, cursors, activation
// tokens and idle notifications of one seat see that seat's input only; a window is
// `activated` while any seat's keyboard is in it.
import Foundation
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct MultiSeatProtocolTests {
    /// a (200x100) at 40,40 on the first seat and b (200x100) at 72,72 on seat1, each probe
    /// started with its own extra arguments; seat1 has a pointer, a keyboard and a touch screen.
    static func twoSeats(a aArgs: [String] = [], b bArgs: [String] = [], bSeat: [String] = ["--seat-index", "1"])
        throws -> (ServerHarness, Seat, a: ClientProcess, b: ClientProcess)
    {
        let h = try ServerHarness()
        let second = try h.server.addSeat(name: "seat1")
        for (i, caps) in [DeviceCapabilities.pointer, .keyboard, .touch].enumerated() {
            h.server.handle(InputEvent(time: 0, device: DeviceID(UInt32(i + 1)), .deviceAdded(caps)), seat: second)
        }
        let a = try h.probe(["--toplevel", "a", "200x100", "--no-touch"] + aArgs)
        h.wait(for: a, line: "mapped a")
        let b = try h.probe(bSeat + ["--toplevel", "b", "200x100", "--no-touch"] + bArgs)
        h.wait(for: b, line: "mapped b")
        _ = h.settle(a)
        _ = h.settle(b)
        return (h, second, a, b)
    }

    static func on(_ h: ServerHarness, _ seat: Seat, _ kind: InputEvent.Kind, device: UInt32) {
        MultiSeatTests.on(h, seat, kind, device: device)
    }
    static func warp(_ h: ServerHarness, _ seat: Seat, _ x: Double, _ y: Double) { MultiSeatTests.warp(h, seat, x, y) }
    static func click(_ h: ServerHarness, _ seat: Seat) { MultiSeatTests.click(h, seat) }

    static func gesture(_ h: ServerHarness, _ seat: Seat, _ kind: GestureKind, _ phase: GesturePhase, fingers: Int32) {
        let g = GestureEvent(
            kind: kind, phase: phase, fingers: fingers, dx: 0, dy: 0, scale: 1, rotation: 0, cancelled: false)
        on(h, seat, .gesture(g), device: 1)
    }

    static func move(_ h: ServerHarness, _ seat: Seat, _ dx: Double, _ dy: Double) {
        on(h, seat, .pointerMotion(dx: dx, dy: dy, unacceleratedDX: dx, unacceleratedDY: dy), device: 1)
    }

    static func events(_ h: ServerHarness, _ c: ClientProcess) -> [String] {
        h.settle(c).filter { !$0.hasPrefix("done ") }
    }

    @Test func relativeMotionComesOnTheSecondSeatsPointer() throws {
        // b finds its seat by name (wl-probe --seat-name), not by position.
        let (h, second, _, b) = try Self.twoSeats(b: ["--relative"], bSeat: ["--seat-name", "seat1"])
        Self.warp(h, second, 250, 150)
        #expect(h.settle(b) == ["pointer.enter b 178.00 78.00", "pointer.motion 178.00 78.00", "pointer.frame"])
        Self.move(h, second, 3, 4)
        #expect(
            h.settle(b) == [
                "relative.motion 3.00 4.00 raw 3.00 4.00 us=\(h.time)", "pointer.motion 181.00 82.00", "pointer.frame",
            ])
        // The first seat's motion is not b's: it binds nothing there.
        h.warp(250, 150)
        #expect(h.settle(b) == [])
    }

    @Test func aLockOnTheSecondSeatsPointerLeavesTheFirstSeatsPointerFree() throws {
        let (h, second, a, b) = try Self.twoSeats(b: ["--relative"])
        // seat1's pointer and keyboard on b (a lock needs its window to have the keyboard).
        Self.warp(h, second, 250, 150)
        Self.click(h, second)
        _ = h.settle(b)
        h.command(b, "lock b persistent")
        #expect(Self.events(h, b) == ["locked b"])
        Self.move(h, second, 30, -5)
        #expect(Self.events(h, b) == ["relative.motion 30.00 -5.00 raw 30.00 -5.00 us=\(h.time)", "pointer.frame"])
        #expect(second.cursor == Point(250, 150))
        // The first seat's pointer moves freely, over a and across b's lock.
        h.warp(50, 50)
        #expect(h.settle(a) == ["pointer.enter a 10.00 10.00", "pointer.motion 10.00 10.00", "pointer.frame"])
        h.warp(250, 150)
        #expect(h.server.seat.cursor == Point(250, 150))
        #expect(h.settle(a).first == "pointer.leave a")
        #expect(Self.events(h, b) == [])
        #expect(second.cursor == Point(250, 150))
    }

    @Test func gesturesComeOnTheGestureObjectsOfTheirSeatsPointer() throws {
        // a has gesture objects for its first-seat pointer and a second-seat pointer too.
        let (h, second, a, b) = try Self.twoSeats(a: ["--gestures", "--also-seat-index", "1"], b: ["--gestures"])
        Self.warp(h, second, 250, 150)
        _ = h.settle(b)
        Self.gesture(h, second, .swipe, .begin, fingers: 3)
        Self.gesture(h, second, .swipe, .end, fingers: 3)
        #expect(h.settle(b) == ["gesture.swipe.begin b fingers 3", "gesture.swipe.end cancelled=0"])
        // Over a with the second seat's pointer: a's gesture objects are its first seat's.
        Self.warp(h, second, 50, 50)
        #expect(
            h.settle(a) == [
                "other.pointer.enter a 10.00 10.00", "other.pointer.motion 10.00 10.00", "other.pointer.frame",
            ])
        Self.gesture(h, second, .pinch, .begin, fingers: 2)
        Self.gesture(h, second, .pinch, .end, fingers: 2)
        #expect(h.settle(a) == [])
        h.warp(50, 50)
        _ = h.settle(a)
        h.gesture(.pinch, .begin, fingers: 2)
        #expect(h.settle(a) == ["gesture.pinch.begin a fingers 2"])
    }

    @Test func aWindowIsActivatedWhileAnySeatsKeyboardIsInIt() throws {
        let (h, second, a, b) = try Self.twoSeats()
        // The first seat's keyboard went to b as it mapped; it clicks a.
        h.warp(50, 50)
        h.button(.pressed)
        h.button(.released)
        #expect(h.settle(a).contains("configure a 0x0 [activated]"))
        #expect(h.settle(b).filter { $0.hasPrefix("configure") } == ["configure b 0x0 []"])
        // The second seat clicks b: b is activated too, a stays so.
        Self.warp(h, second, 250, 150)
        Self.click(h, second)
        #expect(h.settle(b).filter { $0.hasPrefix("configure") } == ["configure b 0x0 [activated]"])
        #expect(h.settle(a).filter { $0.hasPrefix("configure") } == [])
        #expect(h.server.isActivated(try #require(second.keyboardFirstResponder)))
    }

    @Test func textInputEntersWithTheKeyboardOfItsSeat() throws {
        let (h, second, a, b) = try Self.twoSeats(a: ["--text-input"], b: ["--text-input"])
        // b mapped last and has the first seat's keyboard, but its text input is seat1's: it
        // enters with seat1's keyboard.
        Self.warp(h, second, 250, 150)
        Self.click(h, second)
        #expect(h.settle(b).filter { $0.hasPrefix("text.") } == ["text.enter b"])
        // The first seat's keyboard moves to a: a's text input enters, b's stays.
        h.warp(50, 50)
        h.button(.pressed)
        h.button(.released)
        #expect(h.settle(a).filter { $0.hasPrefix("text.") } == ["text.enter a"])
        #expect(h.settle(b).filter { $0.hasPrefix("text.") } == [])
    }

    @Test func aSelectionSetOnTheSecondSeatIsNotOfferedOnTheFirst() throws {
        let (h, second, a, b) = try Self.twoSeats(a: ["--data-device"], b: ["--data-device"])
        Self.warp(h, second, 250, 150)
        Self.click(h, second)
        #expect(h.settle(b).contains("data.selection none"))
        h.command(b, "copy clipboard button from b")
        #expect(
            Self.events(h, b) == [
                "data.data_offer", "data.offer text/plain;charset=utf-8", "data.offer text/plain",
                "data.selection offer",
            ])
        // The first seat's keyboard goes to a: a is offered the first seat's clipboard, empty.
        h.warp(50, 50)
        h.button(.pressed)
        h.button(.released)
        let aSaw = h.settle(a)
        #expect(aSaw.filter { $0.hasPrefix("data.") } == ["data.selection none"], "\(aSaw)")
        #expect(h.server.selections.clipboard.source == nil)
        #expect(h.server.services(1).selections.clipboard.source != nil)
    }

    @Test func aSelectionCitingAnotherSeatsClickIsRefused() throws {
        let (h, second, a, _) = try Self.twoSeats(a: ["--data-device", "--also-seat-index", "1"])
        // seat1 clicks a; a sets the first seat's clipboard citing that click.
        MultiSeatTests.warp(h, second, 50, 50)
        MultiSeatTests.click(h, second)
        #expect(h.settle(a).contains("other.pointer.button 272 pressed"))
        h.command(a, "copy clipboard other-button from the wrong seat")
        #expect(Self.events(h, a) == [])
        #expect(h.server.selections.clipboard.source == nil)
        // Citing a click of the first seat's pointer: set.
        h.warp(50, 50)
        h.button(.pressed)
        h.button(.released)
        _ = h.settle(a)
        h.command(a, "copy clipboard button from the right seat")
        #expect(h.server.selections.clipboard.source != nil)
    }

    @Test func setCursorCitesAnEnterOfThePointersOwnSeat() throws {
        let (h, second, a, _) = try Self.twoSeats(a: ["--also-seat-index", "1"])
        // Both pointers over a: seat1's first, then the first seat's (the newest enter).
        Self.warp(h, second, 50, 50)
        h.warp(50, 50)
        _ = h.settle(a)
        // seat1's pointer citing the first seat's enter: refused.
        h.command(a, "cursor other main")
        #expect(h.server.clientCursor(on: second) == nil)
        #expect(h.server.clientCursor == nil)
        // Citing its own enter: accepted, on seat1's pointer only.
        h.command(a, "cursor other other")
        let cursor = try #require(h.server.clientCursor(on: second))
        guard case .surface(_, hotspotX: 1, hotspotY: 2) = cursor else {
            Issue.record("\(cursor)")
            return
        }
        #expect(h.server.clientCursor == nil)
        h.command(a, "cursor main main")
        guard case .surface(_, hotspotX: 1, hotspotY: 2) = h.server.clientCursor else {
            Issue.record("no cursor on seat0")
            return
        }
    }

    @Test func anActivationTokenCitesAPressOfTheSeatItNames() throws {
        let (h, second, _, b) = try Self.twoSeats(b: ["--toplevel", "c", "100x50"])
        Self.warp(h, second, 250, 150)
        Self.click(h, second)
        _ = h.settle(b)
        // b's token cites seat1's press with seat1's wl_seat: granted, seat1's keyboard moves.
        h.command(b, "token c press")
        let token = try #require(h.settle(b).first { $0.hasPrefix("activation.token ") }?.split(separator: " ").last)
        let firstSeatFocus = h.server.seat.keyboardFirstResponder
        h.command(b, "activate c \(token)")
        #expect(h.server.activationLog.last?.outcome == .granted)
        #expect(Self.events(h, b).contains("keyboard.enter c keys=[]"))
        #expect(h.server.seat.keyboardFirstResponder == firstSeatFocus)
    }

    @Test func anIdleNotificationWatchesTheInputOfItsSeat() throws {
        // Long enough not to pass while the clients start.
        let (h, second, _, b) = try Self.twoSeats(b: ["--idle-notify", "300"])
        h.wait(for: b, line: "idle.idled 300")
        _ = h.settle(b)
        // Input on the first seat is not activity on seat1.
        h.key(30, .pressed)
        h.key(30, .released)
        #expect(h.settle(b).filter { $0.hasPrefix("idle.") } == [])
        Self.on(h, second, .keyboardKey(key: 30, state: .pressed), device: 2)
        #expect(h.settle(b).filter { $0.hasPrefix("idle.") } == ["idle.resumed 300"])
    }

    @Test func aShortcutsInhibitorIsActiveWithTheKeyboardOfItsSeat() throws {
        let (h, second, _, b) = try Self.twoSeats(b: ["--inhibit-shortcuts", "b"])
        // b mapped last and has the first seat's keyboard: its inhibitor is seat1's, inactive.
        #expect(h.server.seat.keyboardFirstResponder == h.server.toplevels.last?.node)
        #expect(h.settle(b).filter { $0.hasPrefix("inhibitor.") } == [])
        MultiSeatTests.warp(h, second, 250, 150)
        MultiSeatTests.click(h, second)
        #expect(h.settle(b).filter { $0.hasPrefix("inhibitor.") } == ["inhibitor.active b"])
    }

    /// sway#7190: a window mapped while seat1 is typing takes seat1's keyboard (the seat whose
    /// action it answers: here a program launched from seat1's window) and leaves the first
    /// seat's keyboard where it was: a, which the first seat is typing into, hears nothing.
    @Test func aNewWindowTakesTheKeyboardOfTheSeatItAnswersAndNoOther() throws {
        let (h, second, a, b) = try Self.twoSeats()
        h.warp(50, 50) // a, where b does not reach
        h.button(.pressed)
        h.button(.released)
        h.key(30, .pressed)
        h.key(30, .released)
        let aNode = try #require(h.server.seat.keyboardFirstResponder)
        _ = h.settle(a)
        Self.warp(h, second, 250, 150) // b
        Self.click(h, second)
        Self.on(h, second, .keyboardKey(key: 31, state: .pressed), device: 2)
        Self.on(h, second, .keyboardKey(key: 31, state: .released), device: 2)
        let bNode = try #require(second.keyboardFirstResponder)
        #expect(bNode != aNode)
        _ = h.settle(b)
        // A program started from seat1's window maps one of its own, on both seats.
        let c = try h.probe(["--also-seat-index", "1", "--toplevel", "c", "100x100", "--no-touch"])
        h.wait(for: c, line: "mapped c")
        let cNode = try #require(h.server.toplevels.last?.node)
        #expect(second.keyboardFirstResponder == cNode)
        #expect(h.server.seat.keyboardFirstResponder == aNode)
        #expect(h.settle(a).filter { $0.hasPrefix("keyboard.") || $0.hasPrefix("configure") } == [])
        #expect(h.settle(b).contains("keyboard.leave b"))
    }

    // MARK: A real client on the second seat

    /// Dispatches until a new window of `client` takes the first seat's keyboard (every new
    /// window does), then gives it seat1's keyboard as well, as an embedder's focus policy
    /// would: wl-clipboard waits for its seat's keyboard before it copies or pastes.
    static func focusNewWindow(_ h: ServerHarness, on seat: Seat, of client: ClientProcess, after previous: NodeID?) {
        h.dispatch(until: "a window of \(client.process.arguments ?? [])") {
            !client.process.isRunning || (h.server.seat.keyboardFirstResponder.map { $0 != previous } ?? false)
        }
        if let node = h.server.seat.keyboardFirstResponder, node != previous { h.server.activate(node, seat: seat) }
    }

    /// wl-copy and wl-paste choose their seat by name (`--seat`): a copy on seat1 pastes on
    /// seat1, and the first seat's clipboard stays empty.
    @Test func wlCopyOnTheSecondSeatPastesThereAndNotOnTheFirst() throws {
        let wlCopy = SelectionRealClientTests.wlCopy
        let wlPaste = SelectionRealClientTests.wlPaste
        #expect(FileManager.default.isExecutableFile(atPath: wlCopy), "wl-clipboard is not installed (make deps)")
        let h = try ServerHarness()
        let second = try h.server.addSeat(name: "seat1")
        h.server.handle(InputEvent(time: 0, device: DeviceID(2), .deviceAdded(.keyboard)), seat: second)
        let copier = try h.spawn(
            "/bin/sh", ["-c", "echo -n 'seat one text' | exec \(wlCopy) --foreground --seat seat1 --type text/plain"])
        Self.focusNewWindow(h, on: second, of: copier, after: nil)
        h.dispatch(until: "wl-copy to set seat1's selection") {
            h.server.services(1).selections.clipboard.source != nil || !copier.process.isRunning
        }
        #expect(copier.process.isRunning)
        // On seat1: the text.
        let pasteHere = try h.spawn("/bin/sh", ["-c", "exec \(wlPaste) --seat seat1 --type text/plain"])
        Self.focusNewWindow(h, on: second, of: pasteHere, after: h.server.seat.keyboardFirstResponder)
        h.dispatch(until: "wl-paste --seat seat1 to exit") { !pasteHere.process.isRunning }
        pasteHere.process.waitUntilExit()
        pasteHere.poll()
        #expect(pasteHere.process.terminationStatus == 0)
        #expect(pasteHere.lines == ["seat one text"])
        // On the first seat: nothing was copied.
        let pasteThere = try h.spawn(
            "/bin/sh", ["-c", "exec \(wlPaste) --seat seat0 --no-newline --type text/plain 2>&1"])
        h.dispatch(until: "wl-paste --seat seat0 to exit") { !pasteThere.process.isRunning }
        pasteThere.process.waitUntilExit()
        pasteThere.poll()
        #expect(pasteThere.process.terminationStatus != 0)
        #expect(pasteThere.lines == ["No selection"])
    }
}
