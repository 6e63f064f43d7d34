// What an embedder asks of one seat, with real clients on two seats: the device objects a
// client got from that seat's wl_seat (`boundDevices(of:seat:)`), and the icon of that
// seat's drag (`dragIcon(on:)`). wl-probe "a" binds the first wl_seat, "b" the second.
import CWaylandServer
import Foundation
import InputRouter
import InputRouterRendering
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct SeatQueriesTests {
    static func interfaces(_ resources: [UnsafeMutablePointer<wl_resource>]) -> [String] {
        resources.map { String(cString: wl_resource_get_class($0)) }
    }

    @Test func boundDevicesAreThoseOfTheSeatAsked() throws {
        let (h, second, _, b) = try MultiSeatTests.twoSeats()
        // The first seat's keyboard is on a (b bound nothing on that seat to be entered).
        h.warp(50, 50)
        h.button(.pressed)
        h.button(.released)
        let aNode = try #require(h.server.seat.keyboardFirstResponder)
        let aID = try #require(h.server.router.tree.client(of: aNode))
        MultiSeatTests.warp(h, second, 250, 150)
        MultiSeatTests.click(h, second)
        _ = h.settle(b)
        let bNode = try #require(second.keyboardFirstResponder)
        let bID = try #require(h.server.router.tree.client(of: bNode))
        #expect(aID != bID)
        let bOnSecond = h.server.boundDevices(of: bID, seat: second)
        #expect(Self.interfaces(bOnSecond.pointers) == ["wl_pointer"])
        #expect(Self.interfaces(bOnSecond.keyboards) == ["wl_keyboard"])
        #expect(Self.interfaces(bOnSecond.touches) == ["wl_touch"])
        #expect(bOnSecond.devices == [.pointer, .keyboard, .touch])
        #expect(h.server.boundDevices(of: bID).devices == [])
        #expect(h.server.boundDevices(of: bID, seat: h.server.seat).devices == [])
        #expect(h.server.boundDevices(of: aID, seat: second).devices == [])
        let aOnFirst = h.server.boundDevices(of: aID)
        #expect(Self.interfaces(aOnFirst.pointers) == ["wl_pointer"])
        #expect(aOnFirst.pointers != bOnSecond.pointers)
    }

    /// b drags with an icon on the second seat: that seat's icon follows that seat's
    /// pointer, and the renderer draws it there; the first seat has none.
    @Test func eachSeatHasItsOwnDragIcon() throws {
        let (h, second, _, b) = try MultiSeatTests.twoSeats(bArgs: ["--data-device"])
        let pixels = SurfacePixels(server: h.server) // the renderer's copies, icon included
        MultiSeatTests.warp(h, second, 250, 150)
        MultiSeatTests.on(h, second, .pointerButton(button: 0x110, state: .pressed), device: 1)
        _ = h.settle(b)
        h.command(b, "drag b button icon")
        #expect(h.server.dragIcon(on: second)?.position == Point(250, 150))
        #expect(h.server.dragIcon == nil)
        #expect(h.server.dragIcon(on: h.server.seat) == nil)
        MultiSeatTests.warp(h, second, 260, 170)
        #expect(h.server.dragIcon(on: second)?.position == Point(260, 170))
        h.warp(300, 300) // the first seat's pointer moves nothing of it
        #expect(h.server.dragIcon(on: second)?.position == Point(260, 170))
        // The 16x16 magenta icon's corner at the second seat's pointer; (275, 172) is right
        // of that seat's arrow.
        let picture = OutputRenderer().render(h.server, pixels: pixels)
        #expect(String(picture.pixels[172 * picture.width + 275], radix: 16) == "ffff00ff")
        #expect(String(picture.pixels[172 * picture.width + 277], radix: 16) != "ffff00ff")
        MultiSeatTests.on(h, second, .pointerButton(button: 0x110, state: .released), device: 1)
        #expect(h.server.dragIcon(on: second) == nil)
    }
}
