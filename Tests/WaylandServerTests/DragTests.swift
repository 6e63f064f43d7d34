// Drag and drop as real clients see it (wl-probe --data-device): started only with a press
// that still holds, no wl_pointer events while it lasts, enter/motion/leave to the surface
// under the pointer or touch point, version 3's action negotiation, drop and finish, and
// the cancels (a forged serial, the source's client gone, the grab broken).
import Foundation
import InputRouter
import InputRouterRendering
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct DragTests {
    func dragLines(_ lines: [String]) -> [String] {
        lines.filter {
            ($0.hasPrefix("data.") && !$0.hasPrefix("data.selection")) || $0.hasPrefix("dropped")
                || $0.hasPrefix("pointer.")
        }
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
        _ = h.settle(a)
        _ = h.settle(b)
        return (a, b)
    }

    @Test func aDragEntersTheSurfaceUnderThePointerNegotiatesDropsAndFinishes() throws {
        let h = try ServerHarness()
        let (a, b) = try pressedOnA(h)
        h.command(a, "drag a button")
        // The pointer leaves a; a's own surface is under the drag and is entered.
        #expect(
            dragLines(h.settle(a)) == [
                "pointer.leave a", "pointer.frame", "data.data_offer", "data.offer text/plain",
                "data.source_actions 3", "data.enter a 5.00 5.00",
            ])
        h.warp(160, 160) // only b there
        #expect(
            entered(h, b) == [
                "data.data_offer", "data.offer text/plain", "data.source_actions 3",
                "data.enter b 88.00 88.00", "data.action 1",
            ])
        #expect(dragLines(h.settle(a)) == ["data.leave", "data.target text/plain", "data.source.action 1"])
        h.warp(161, 162)
        #expect(dragLines(h.settle(b)) == ["data.motion 89.00 90.00"]) // no wl_pointer event
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
        let pixels = SurfacePixels(server: h.server) // the renderer's copies, icon included
        let (a, _) = try pressedOnA(h)
        h.command(a, "drag a button icon")
        #expect(h.server.dragIcon?.position == Point(45, 45))
        #expect(
            h.server.dragIcon.flatMap { pixels.image(ofSurface: $0.surface) }.map {
                "\($0.width)x\($0.height) \(String($0.pixels[0], radix: 16))"
            } == "16x16 ffff00ff")
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

    @Test func overNoSurfaceTheDragLeaves() throws {
        let h = try ServerHarness()
        let (a, _) = try pressedOnA(h)
        h.command(a, "drag a button")
        _ = h.settle(a)
        h.warp(1000, 600)
        #expect(dragLines(h.settle(a)) == ["data.leave"])
        h.warp(45, 45)
        #expect(dragLines(h.settle(a)).filter { $0.hasPrefix("data.enter") } == ["data.enter a 5.00 5.00"])
    }

    @Test func aDropWhereNothingWasAcceptedCancelsTheSource() throws {
        let h = try ServerHarness()
        let (a, _) = try pressedOnA(h)
        h.command(a, "drag a button")
        _ = h.settle(a)
        h.button(.released) // over a, which accepts nothing
        #expect(
            dragLines(h.settle(a)) == ["data.leave", "data.cancelled", "pointer.enter a 5.00 5.00", "pointer.frame"])
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
        #expect(
            entered(h, b) == [
                "data.data_offer", "data.offer text/plain", "data.source_actions 3",
                "data.enter b 88.00 88.00", "data.action 1",
            ])
        h.touch(.touchUp(slot: 0))
        h.wait(for: b) { $0.hasPrefix("dropped") }
        #expect(dragLines(h.settle(b)).prefix(2) == ["data.drop", "dropped dragged text"])
        #expect(!b.lines.contains { $0.hasPrefix("touch.") }) // the drag's point never reached b
        // The origin's finger became the drag's: `a` was told with `wl_touch.cancel` ("no further
        // events are sent ... future touch points on this surface may reuse the touch point ID",
        // wayland.xml), so a new touch on `a` with the same id is a new point to it, not a second
        // down on one it still believes is down (the soak's stuck touch, docs/soak.md).
        h.touch(.touchDown(slot: 0, x: x, y: y))
        h.touch(.touchUp(slot: 0))
        h.wait(for: a, line: "touch.up 0")
        #expect(
            a.lines.filter { $0.hasPrefix("touch.") }.map { String($0.split(separator: " ")[0]) } == [
                "touch.down", "touch.frame", "touch.cancel", "touch.down", "touch.frame", "touch.up", "touch.frame",
            ])
    }

    /// Another client's finger, down before a touch drag began, still gets its up during the
    /// drag: only the origin's points are the drag's, also when the origin starts the drag
    /// again from the finger the first drag took (the first is cancelled; make soak found it).
    @Test func anotherClientsFingerIsReleasedDuringATouchDrag() throws {
        let h = try ServerHarness()
        let a = try h.probe(["--toplevel", "a", "100x100", "--data-device", "--no-pointer"])
        h.wait(for: a, line: "mapped a")
        let b = try h.probe(["--toplevel", "b", "100x100", "--data-device", "--accept-drops", "--no-pointer"])
        h.wait(for: b, line: "mapped b")
        let (bx, by) = h.touchPoint(160, 160)
        h.touch(.touchDown(slot: 1, x: bx, y: by))
        h.wait(for: b) { $0.hasPrefix("touch.down") }
        let (x, y) = h.touchPoint(45, 45)
        h.touch(.touchDown(slot: 0, x: x, y: y))
        _ = h.settle(a)
        h.command(a, "drag a touch")
        h.command(a, "drag a touch")
        h.touch(.touchUp(slot: 1))
        h.wait(for: b, line: "touch.up 1")
        h.touch(.touchUp(slot: 0))
        #expect(
            b.lines.filter { $0.hasPrefix("touch.") }.map { String($0.split(separator: " ")[0]) }.prefix(4) == [
                "touch.down", "touch.frame", "touch.up", "touch.frame",
            ])
    }

    /// A touch drag is driven by the origin's own fingers: once the finger its serial names
    /// has lifted, start_drag citing it starts no drag, and another client's finger is not
    /// taken to drive one (make soak found that finger swallowed: no up ever came).
    @Test func aTouchDragNeedsTheOriginsFingerDown() throws {
        let h = try ServerHarness()
        let a = try h.probe(["--toplevel", "a", "100x100", "--data-device", "--no-pointer"])
        h.wait(for: a, line: "mapped a")
        let b = try h.probe(["--toplevel", "b", "100x100", "--data-device", "--accept-drops", "--no-pointer"])
        h.wait(for: b, line: "mapped b")
        let (x, y) = h.touchPoint(45, 45)
        h.touch(.touchDown(slot: 0, x: x, y: y))
        _ = h.settle(a)
        h.command(a, "drag a touch")
        h.touch(.touchUp(slot: 0))
        h.dispatch(until: "the first drag to end") { h.server.drag == nil }
        let (bx, by) = h.touchPoint(160, 160)
        h.touch(.touchDown(slot: 1, x: bx, y: by))
        h.wait(for: b) { $0.hasPrefix("touch.down") }
        h.command(a, "drag a touch")
        #expect(h.server.drag == nil)
        h.touch(.touchUp(slot: 1))
        h.wait(for: b, line: "touch.up 1")
    }

    // MARK: weston-dnd

    /// The mapped toplevels' layout rectangles, in mapping order.
    func toplevelFrames(_ h: ServerHarness) -> [Rect] {
        let tree = h.server.router.tree
        return XdgDecorationTests.nodes(h).filter { tree.kind(of: $0) == .toplevel && tree.isMapped($0) }.sorted {
            $0.index < $1.index
        }
        .compactMap { n in
            guard let f = tree.frame(of: n), let p = tree.layoutPosition(of: n), f.width > 0 else { return nil }
            return Rect(Int32(p.x), Int32(p.y), f.width, f.height)
        }
    }

    /// Debian 12's weston-dnd (weston 10), twice side by side: a flower dragged out of one
    /// window is dropped on an empty cell of the other, which reads it from the first
    /// (wl_data_offer.receive, then finish: the first gets dnd_finished).
    @Test func westonDndDragsAFlowerFromOneWindowToAnother() throws {
        var config = WaylandServer.Configuration()
        // apart: their shadows take input
        config.policy.placeToplevel = MapOrderPlacement { n in (n == 0 ? 0 : 700, 0) }.place
        let h = try ServerHarness(configuration: config)
        let env = ["WAYLAND_DEBUG": "client"]
        let a = try h.spawn("/usr/bin/weston-dnd", environment: env)
        h.dispatch(until: "the first weston-dnd to map") { toplevelFrames(h).count == 1 }
        let b = try h.spawn("/usr/bin/weston-dnd", environment: env)
        h.dispatch(until: "the second weston-dnd to map") { toplevelFrames(h).count == 2 }
        _ = h.settleForeign(a)
        _ = h.settleForeign(b)
        let frames = toplevelFrames(h)
        let (fa, fb) = (frames[0], frames[1])
        // Find a flower in a: a press on one starts a drag (weston-dnd knows where it drew them).
        var started = false
        // Below the title bar: a double click there would maximize the window.
        search: for y in stride(from: fa.y + 100, to: fa.y + fa.height - 40, by: 16) {
            for x in stride(from: fa.x + 40, to: fa.x + fa.width - 40, by: 16) {
                h.warp(Double(x), Double(y))
                h.button(.pressed)
                _ = h.settleForeign(a)
                if h.server.drag != nil {
                    started = true
                    break search
                }
                h.button(.released)
                _ = h.settleForeign(a)
            }
        }
        try #require(started, "no press in weston-dnd started a drag:\n\(a.lines.suffix(20).joined(separator: "\n"))")
        #expect(a.lines.contains { $0.contains("wl_data_device@") && $0.contains(".start_drag(") })
        // Over b, find a cell it accepts the flower on (an empty one).
        var accepted = false
        var hovered: [String] = []
        search: for y in stride(from: fb.y + 100, to: fb.y + fb.height - 40, by: 16) {
            for x in stride(from: fb.x + 40, to: fb.x + fb.width - 40, by: 16) {
                h.warp(Double(x), Double(y))
                hovered += h.settleForeign(b)
                if a.lines[a.mark...].contains(where: { $0.contains(".target(\"application/x-wayland-dnd-flower\")") })
                {
                    accepted = true
                    break search
                }
            }
        }
        try #require(accepted, "weston-dnd accepted the flower nowhere:\n\(b.lines.suffix(20).joined(separator: "\n"))")
        #expect(!hovered.contains { $0.contains("wl_pointer@") }) // no pointer event during the drag
        h.button(.released)
        h.dispatch(until: "the source to hear the drop finished") {
            a.lines[a.mark...].contains { $0.contains(".dnd_finished()") }
        }
        b.poll()
        let target = b.take()
        #expect(target.contains { $0.contains("wl_data_device@") && $0.contains(".drop()") })
        #expect(target.contains { $0.contains(".receive(\"application/x-wayland-dnd-flower\"") })
        #expect(target.contains { $0.contains(".finish()") })
        #expect(a.lines.contains { $0.contains(".send(\"application/x-wayland-dnd-flower\"") })
    }
}
