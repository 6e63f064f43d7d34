// The pointer focus's client surface is resolved once per focus (Seat+Pointer.swift,
// `pointerFocusSurface`): real clients (wl-probe) see the pointer follow a window that
// loses its role under a still cursor, and motion reach only the window now under it.
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct PointerFocusRealClientTests {
    func pointerLines(_ h: ServerHarness, _ c: ClientProcess) -> [String] {
        h.settle(c).filter { $0.hasPrefix("pointer.") }
    }

    @Test func aWindowThatLosesItsRoleUnderThePointerHandsItToTheOneBelow() throws {
        let h = try ServerHarness()
        let below = try h.mappedProbe(["--toplevel", "below", "200x200"]) // at 40,40
        let top = try h.mappedProbe(["--toplevel", "top", "200x200"]) // at 72,72, above
        h.warp(100, 100)
        #expect(
            pointerLines(h, top) == ["pointer.enter top 28.00 28.00", "pointer.motion 28.00 28.00", "pointer.frame"])
        h.warp(101, 100)
        #expect(pointerLines(h, top) == ["pointer.motion 29.00 28.00", "pointer.frame"])
        #expect(pointerLines(h, below) == [])
        h.command(top, "unrole top")
        #expect(pointerLines(h, top) == ["pointer.leave top", "pointer.frame"])
        #expect(pointerLines(h, below) == ["pointer.enter below 61.00 60.00", "pointer.frame"])
        h.warp(102, 100)
        #expect(pointerLines(h, top) == [])
        #expect(pointerLines(h, below) == ["pointer.motion 62.00 60.00", "pointer.frame"])
    }
}
