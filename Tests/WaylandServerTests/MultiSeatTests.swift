// Two seats served at once, with real clients: wl-probe "a" binds the first wl_seat, "b"
// the second (`--seat-index 1`). Each seat has its own devices, pointer, keyboard focus and
// popup grab; nothing one seat does reaches a client only bound on the other.
import Foundation
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct MultiSeatTests {
    /// a (200x100) lands at 40,40 and b (200x100) at 72,72 (the cascade); the second seat
    /// has a pointer, a keyboard and a touch screen of its own.
    static func twoSeats(_ aArgs: [String] = [], bArgs: [String] = []) throws -> (
        ServerHarness, Seat, a: ClientProcess, b: ClientProcess
    ) {
        let h = try ServerHarness()
        let second = try h.server.addSeat(name: "seat1")
        for (i, caps) in [DeviceCapabilities.pointer, .keyboard, .touch].enumerated() {
            h.server.handle(InputEvent(time: 0, device: DeviceID(UInt32(i + 1)), .deviceAdded(caps)), seat: second)
        }
        let a = try h.probe(["--toplevel", "a", "200x100"] + aArgs)
        h.wait(for: a, line: "mapped a")
        let b = try h.probe(["--seat-index", "1", "--toplevel", "b", "200x100"] + bArgs)
        h.wait(for: b, line: "mapped b")
        _ = h.settle(a)
        _ = h.settle(b)
        return (h, second, a, b)
    }

    static func on(_ h: ServerHarness, _ seat: Seat, _ kind: InputEvent.Kind, device: UInt32) {
        h.time += 1000
        h.server.handle(InputEvent(time: h.time, device: DeviceID(device), kind), seat: seat)
    }

    static func warp(_ h: ServerHarness, _ seat: Seat, _ x: Double, _ y: Double) {
        h.time += 1000
        seat.notifyPointerWarp(time: h.time, to: Point(x, y))
        h.server.sendDeliveries()
    }

    static func click(_ h: ServerHarness, _ seat: Seat) {
        on(h, seat, .pointerButton(button: 0x110, state: .pressed), device: 1)
        on(h, seat, .pointerButton(button: 0x110, state: .released), device: 1)
    }

    @Test func eachSeatHasItsOwnWlSeatAndPointer() throws {
        let (h, second, a, b) = try Self.twoSeats()
        #expect(h.server.seats.map(\.name) == ["seat0", "seat1"])
        // The second seat's pointer over a (where b does not reach): a hears nothing of it.
        Self.warp(h, second, 50, 50)
        #expect(h.settle(a) == [])
        #expect(h.settle(b) == [])
        // Over b: b's pointer, bound on the second seat, enters.
        Self.warp(h, second, 250, 150)
        #expect(h.settle(b) == ["pointer.enter b 178.00 78.00", "pointer.motion 178.00 78.00", "pointer.frame"])
        // The first seat's pointer over the same place: a is not there, b is not bound on it.
        h.warp(250, 150)
        #expect(h.settle(b) == [])
        h.warp(50, 50)
        #expect(h.settle(a) == ["pointer.enter a 10.00 10.00", "pointer.motion 10.00 10.00", "pointer.frame"])
        #expect(h.settle(b) == [])
        #expect(h.server.seat.pointerFocusNode != second.pointerFocusNode)
    }

    @Test func keyboardFocusOnOneSeatDoesNotMoveTheOthers() throws {
        let (h, second, a, b) = try Self.twoSeats()
        // A click on b with the second seat gives that seat's keyboard to b.
        Self.warp(h, second, 250, 150)
        Self.click(h, second)
        let clicked = h.settle(b)
        #expect(clicked.contains("keyboard.enter b keys=[]"), "\(clicked)")
        let bNode = try #require(second.keyboardFirstResponder)
        // The first seat clicks a: its keyboard goes to a; the second seat's stays on b.
        h.warp(50, 50)
        h.button(.pressed)
        h.button(.released)
        #expect(h.settle(a).contains("keyboard.enter a keys=[]"))
        // No input event for b (its `activated` state follows any seat's keyboard: it keeps
        // it, the second seat's keyboard is still there; docs/wayland.md, "Several seats").
        #expect(h.settle(b).filter { !$0.hasPrefix("configure b") } == [])
        #expect(second.keyboardFirstResponder == bNode)
        #expect(h.server.seat.keyboardFirstResponder != bNode)
        // Keys go to each seat's own focus.
        Self.on(h, second, .keyboardKey(key: 30, state: .pressed), device: 2)
        Self.on(h, second, .keyboardKey(key: 30, state: .released), device: 2)
        #expect(h.settle(b) == ["keyboard.key 30 pressed", "keyboard.key 30 released"])
        #expect(h.settle(a) == [])
        h.key(31, .pressed)
        h.key(31, .released)
        #expect(h.settle(a) == ["keyboard.key 31 pressed", "keyboard.key 31 released"])
        #expect(h.settle(b) == [])
    }

    @Test func aPopupGrabOnOneSeatLeavesTheOtherAlone() throws {
        let (h, second, a, b) = try Self.twoSeats(["--popup-on-press", "menu", "a", "10,10", "80x40"])
        // The first seat opens a's menu (it grabs the first seat: a binds that one).
        h.warp(60, 50)
        h.button(.pressed)
        h.wait(for: a, line: "mapped menu")
        h.button(.released)
        _ = h.settle(a)
        #expect(h.server.seat.popupGrabStack.count == 1)
        #expect(second.popupGrabStack.isEmpty)
        // The second seat clicks b outside the menu: b gets it, the menu stays open.
        Self.warp(h, second, 250, 150)
        Self.click(h, second)
        let bSaw = h.settle(b)
        #expect(bSaw.contains("pointer.button 272 pressed"), "\(bSaw)")
        #expect(!h.settle(a).contains("popup.done menu"))
        #expect(h.server.seat.popupGrabStack.count == 1)
        // The first seat's click outside ends it.
        h.warp(600, 600)
        h.button(.pressed)
        h.button(.released)
        #expect(h.settle(a).contains("popup.done menu"))
    }

    /// `ir-compositor --seat NAME` before `--input`: the keyboard replay stays on seat0, the
    /// mouse replay plays on seat1, and a client bound only on seat1 gets the mouse alone.
    @Test func theCompositorReplaysEachRecordingOnItsSeat() throws {
        let compositor = try CompositorProcess([
            "--socket", "ir-seats-\(getpid())", "--size", "800x600", "--speed", "0", "--exit-after-replay",
            "--input", "replay:\(recordingFixtures)/keyboard.yml", "--seat", "seat1", "--input",
            "replay:\(recordingFixtures)/mouse.yml",
            "--client", "\(productsDirectory)/wl-probe --seat-index 1 --toplevel b 300x200",
        ])
        let out = compositor.readToExit().split(separator: "\n")
        #expect(compositor.process.terminationStatus == 0)
        #expect(out.contains { $0.hasPrefix("client 1 | pointer.enter b ") })
        #expect(out.contains("client 1 | pointer.button 272 pressed"))
        #expect(!out.contains { $0.hasPrefix("client 1 | keyboard.key ") })
        #expect(out.last == "ir-compositor: done")
    }

    /// A device going or coming tells its own seat's wl_seat the new capabilities, and no
    /// other seat's: the first seat's and the second's through the same code (Seats.swift).
    @Test func eachSeatsWlSeatHearsOfItsOwnDevicesOnly() throws {
        let (h, second, a, b) = try Self.twoSeats()
        // The touch screens are device 3 on each seat (pointer 1, keyboard 2, touch 4).
        Self.on(h, h.server.seat, .deviceRemoved, device: 3)
        #expect(h.settle(a) == ["seat.capabilities 3"])
        #expect(h.settle(b) == [])
        Self.on(h, second, .deviceRemoved, device: 3)
        #expect(h.settle(b) == ["seat.capabilities 3"])
        #expect(h.settle(a) == [])
        Self.on(h, second, .deviceAdded(.touch), device: 3)
        #expect(h.settle(b) == ["seat.capabilities 7"])
        #expect(h.settle(a) == [])
    }
}
