// What a real client process receives on wl_pointer, line for line.
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct PointerProtocolTests {
    /// The first toplevel maps at (40, 40): layout = surface-local + 40.
    static let origin = 40.0

    @Test func enterAndLeaveAcrossSubsurfaces() throws {
        let h = try ServerHarness()
        let c = try h.mappedProbe(["--toplevel", "win", "200x100", "--sub", "child", "win", "150,20", "100x60"])
        h.warp(Self.origin + 10, Self.origin + 10)
        #expect(h.settle(c) == ["pointer.enter win 10.00 10.00", "pointer.motion 10.00 10.00", "pointer.frame"])
        // The subsurface sticks out to the right of its parent and still takes input there.
        h.warp(Self.origin + 220, Self.origin + 30)
        #expect(
            h.settle(c) == [
                "pointer.leave win", "pointer.enter child 70.00 10.00", "pointer.motion 70.00 10.00", "pointer.frame",
            ])
        h.warp(Self.origin + 251, Self.origin + 30)
        #expect(h.settle(c) == ["pointer.leave child", "pointer.frame"])
    }

    @Test func subsurfaceBelowItsParentIsHitOnlyOutsideIt() throws {
        let h = try ServerHarness()
        let c = try h.mappedProbe([
            "--toplevel", "win", "100x100", "--sub", "under", "win", "50,50", "100x100", "--below",
        ])
        h.warp(Self.origin + 60, Self.origin + 60) // inside both: the parent is on top
        #expect(h.settle(c) == ["pointer.enter win 60.00 60.00", "pointer.motion 60.00 60.00", "pointer.frame"])
        h.warp(Self.origin + 120, Self.origin + 120)
        #expect(
            h.settle(c) == [
                "pointer.leave win", "pointer.enter under 70.00 70.00", "pointer.motion 70.00 70.00", "pointer.frame",
            ])
    }

    @Test func inputRegionHolePassesThroughToTheSurfaceBelow() throws {
        let h = try ServerHarness()
        let c = try h.probe([
            "--toplevel", "win", "200x200", "--sub", "top", "win", "0,0", "200x200",
            "--hole", "top", "50,50,20,20",
        ])
        h.wait(for: c, line: "mapped win")
        _ = h.settle(c)
        h.warp(Self.origin + 10, Self.origin + 10)
        #expect(h.settle(c) == ["pointer.enter top 10.00 10.00", "pointer.motion 10.00 10.00", "pointer.frame"])
        h.warp(Self.origin + 55, Self.origin + 55)
        #expect(
            h.settle(c) == [
                "pointer.leave top", "pointer.enter win 55.00 55.00", "pointer.motion 55.00 55.00", "pointer.frame",
            ])
    }

    @Test func implicitGrabKeepsThePointerUntilRelease() throws {
        let h = try ServerHarness()
        let c = try h.mappedProbe(["--toplevel", "win", "100x100"])
        h.warp(Self.origin + 50, Self.origin + 50)
        h.button(.pressed)
        _ = h.settle(c)
        h.warp(Self.origin + 300, Self.origin + 50) // outside: still ours, local coordinates
        #expect(h.settle(c) == ["pointer.motion 300.00 50.00", "pointer.frame"])
        h.button(.released)
        #expect(h.settle(c) == ["pointer.button 272 released", "pointer.leave win", "pointer.frame"])
    }

    @Test func wheelScrollCarriesSourceValue120AndFrame() throws {
        let h = try ServerHarness()
        let c = try h.probe(["--toplevel", "win", "100x100"])
        h.wait(for: c, line: "mapped win")
        h.warp(Self.origin + 50, Self.origin + 50)
        _ = h.settle(c)
        h.time += 1000
        h.server.handle(
            InputEvent(
                time: h.time, device: DeviceID(1),
                .pointerAxis(source: .wheel, vertical: AxisValue(value: 15, value120: 120), horizontal: nil)))
        #expect(
            h.settle(c) == [
                "pointer.axis_source 0", "pointer.axis_value120 0 120", "pointer.axis 0 15.00", "pointer.frame",
            ])
    }
}
