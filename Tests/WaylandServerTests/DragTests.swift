// Drag and drop as real clients see it (wl-probe --data-device): started only with a press
// that still holds, no wl_pointer events while it lasts, enter/motion/leave to the surface
// under the pointer or touch point, version 3's action negotiation, drop and finish, and
// the cancels (a forged serial, the source's client gone, the grab broken).
import Foundation
import InputRouter
import Testing

@testable import WaylandServer

@Suite(.serialized) struct DragTests {
    func dragLines(_ lines: [String]) -> [String] {
        lines.filter { ($0.hasPrefix("data.") && !$0.hasPrefix("data.selection")) || $0.hasPrefix("dropped") || $0.hasPrefix("pointer.") }
    }

    /// The target's lines up to its action, which comes once the server read its
    /// `set_actions` (sent from its enter handler, possibly after the barrier).
    func entered(_ h: ServerHarness, _ b: ClientProcess) -> [String] {
        dragLines(h.settle(b, until: "the negotiated action") { $0 == "data.action 1" })
    }

    /// `a` at (40, 40), `b` at (72, 72) accepting drops; the pointer on `a` alone, pressed.
    func pressedOnA(_ h: ServerHarness) throws -> (ClientProcess, ClientProcess) {
        let a = try h.probe(["--toplevel", "a", "100x100", "--data-device", "--no-touch"])
        h.wait(for: a, line: "mapped a")
        let b = try h.probe(["--toplevel", "b", "100x100", "--data-device", "--accept-drops", "--no-touch"])
        h.wait(for: b, line: "mapped b")
        h.warp(45, 45)
        h.button(.pressed)
        _ = h.settle(a); _ = h.settle(b)
        return (a, b)
    }

    @Test func aDragEntersTheSurfaceUnderThePointerNegotiatesDropsAndFinishes() throws {
        let h = try ServerHarness()
        let (a, b) = try pressedOnA(h)
        h.command(a, "drag a button")
        // The pointer leaves a; a's own surface is under the drag and is entered.
        #expect(dragLines(h.settle(a)) == ["pointer.leave a", "pointer.frame", "data.data_offer", "data.offer text/plain",
                                          "data.source_actions 3", "data.enter a 5.00 5.00"])
        h.warp(160, 160)  // only b there
        #expect(entered(h, b) == ["data.data_offer", "data.offer text/plain", "data.source_actions 3",
                                          "data.enter b 88.00 88.00", "data.action 1"])
        #expect(dragLines(h.settle(a)) == ["data.leave", "data.target text/plain", "data.source.action 1"])
        h.warp(161, 162)
        #expect(dragLines(h.settle(b)) == ["data.motion 89.00 90.00"])  // no wl_pointer event
        #expect(h.server.drag?.position == Point(161, 162))
        h.button(.released)
        h.wait(for: b) { $0.hasPrefix("dropped") }
        let target = dragLines(h.settle(b))
        #expect(target.prefix(2) == ["data.drop", "dropped dragged text"])
        #expect(target.contains("data.leave"))
        // The drag is over: the pointer is picked again and b has it.
        #expect(target.suffix(2) == ["pointer.enter b 89.00 90.00", "pointer.frame"])
        #expect(dragLines(h.settle(a)) == ["data.dnd_drop_performed", "data.send text/plain", "data.dnd_finished"])
        #expect(h.server.drag == nil)
    }

    @Test func theIconFollowsThePointer() throws {
        let h = try ServerHarness()
        let (a, _) = try pressedOnA(h)
        h.command(a, "drag a button icon")
        #expect(h.server.dragIcon?.position == Point(45, 45))
        #expect(h.server.dragIcon?.image.map { "\($0.width)x\($0.height) \(String($0.pixels[0], radix: 16))" } == "16x16 ffff00ff")
        h.warp(200, 150)
        #expect(h.server.dragIcon?.position == Point(200, 150))
        h.button(.released)
        #expect(h.server.dragIcon?.position == nil)
    }

    @Test func aForgedSerialStartsNoDragAndCancelsTheSource() throws {
        let h = try ServerHarness()
        let (a, b) = try pressedOnA(h)
        h.command(a, "drag a forged")
        #expect(dragLines(h.settle(a)) == ["data.cancelled"])
        #expect(h.server.drag == nil)
        h.warp(46, 46)
        #expect(dragLines(h.settle(a)) == ["pointer.motion 6.00 6.00", "pointer.frame"])
        _ = b
    }

    @Test func aDropWhereNothingWasAcceptedCancelsTheSource() throws {
        let h = try ServerHarness()
        let (a, _) = try pressedOnA(h)
        h.command(a, "drag a button")
        _ = h.settle(a)
        h.button(.released)  // over a, which accepts nothing
        #expect(dragLines(h.settle(a)) == ["data.leave", "data.cancelled", "pointer.enter a 5.00 5.00", "pointer.frame"])
    }

    @Test func theTargetIsLeftWhenTheGrabIsBroken() throws {
        let h = try ServerHarness()
        let (a, b) = try pressedOnA(h)
        h.command(a, "drag a button")
        h.warp(160, 160)
        _ = entered(h, b)
        h.server.seat.cancelPointerGrab()
        h.server.sendDeliveries()
        #expect(dragLines(h.settle(b)) == ["data.leave"])
        #expect(dragLines(h.settle(a)).contains("data.cancelled"))
    }

    @Test func aDisconnectedSourceEndsTheDrag() throws {
        let h = try ServerHarness()
        let (a, b) = try pressedOnA(h)
        h.command(a, "drag a button")
        h.warp(160, 160)
        _ = entered(h, b)
        kill(a.process.processIdentifier, SIGKILL)
        h.dispatch(until: "a to be gone") { h.server.drag == nil }
        #expect(dragLines(h.settle(b)) == ["data.leave"])
    }

    @Test func aTouchPointDragsAndDrops() throws {
        let h = try ServerHarness()
        let a = try h.probe(["--toplevel", "a", "100x100", "--data-device", "--no-pointer"])
        h.wait(for: a, line: "mapped a")
        let b = try h.probe(["--toplevel", "b", "100x100", "--data-device", "--accept-drops", "--no-pointer"])
        h.wait(for: b, line: "mapped b")
        let (x, y) = h.touchPoint(45, 45)
        h.touch(.touchDown(slot: 0, x: x, y: y))
        _ = h.settle(a)
        h.command(a, "drag a touch")
        let (x2, y2) = h.touchPoint(160, 160)
        h.touch(.touchMotion(slot: 0, x: x2, y: y2))
        #expect(entered(h, b) == ["data.data_offer", "data.offer text/plain", "data.source_actions 3",
                                          "data.enter b 88.00 88.00", "data.action 1"])
        h.touch(.touchUp(slot: 0))
        h.wait(for: b) { $0.hasPrefix("dropped") }
        #expect(dragLines(h.settle(b)).prefix(2) == ["data.drop", "dropped dragged text"])
        #expect(!b.lines.contains { $0.hasPrefix("touch.") })  // the drag's point never reached b
    }
}
