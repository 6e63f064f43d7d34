// Popup grabs and interactive moves requested by a real client, with the serial of its
// own button press.
import InputRouter
import Testing

@testable import WaylandServer

@Suite(.serialized) struct GrabProtocolTests {
    @Test func popupGrabIsDismissedByAClickOutsideTheClient() throws {
        let h = try ServerHarness()
        let c = try h.probe(["--toplevel", "win", "200x100", "--popup-on-press", "menu", "win", "10,10", "80x40"])
        h.wait(for: c, line: "mapped win")
        h.warp(90, 90)
        h.button(.pressed)
        h.wait(for: c, line: "mapped menu")
        h.button(.released)
        let opened = h.settle(c)
        #expect(opened.contains("keyboard.enter menu keys=[]"))
        // The popup (at 10,10 of win → layout 50,50) takes the pointer.
        h.warp(60, 60)
        #expect(h.settle(c).contains("pointer.enter menu 10.00 10.00"))
        h.warp(600, 600)  // nothing of this client here: no enter anywhere
        _ = h.settle(c)
        h.button(.pressed)
        let closed = h.settle(c)
        #expect(closed.contains("popup.done menu"))
        #expect(!closed.contains { $0.hasPrefix("pointer.button") })
    }

    @Test func moveFollowsTheCursorUntilRelease() throws {
        let h = try ServerHarness()
        let c = try h.probe(["--toplevel", "win", "100x100", "--move-on-press", "win"])
        h.wait(for: c, line: "mapped win")
        h.warp(50, 50)
        h.button(.pressed)
        h.wait(for: c, line: "move requested")
        _ = h.settle(c)
        let tree = h.server.router.tree
        let window = try #require(tree.children(of: h.server.outputNode).first { tree.kind(of: $0) == .toplevel })
        h.warp(150, 250)
        h.button(.released)
        _ = h.settle(c)
        #expect(tree.frame(of: window)?.x == 140)
        #expect(tree.frame(of: window)?.y == 240)
    }

    @Test func moveWithAForgedSerialIsIgnored() throws {
        let h = try ServerHarness()
        let c = try h.probe(["--toplevel", "win", "100x100", "--forged-move-on-press", "win"])
        h.wait(for: c, line: "mapped win")
        h.warp(50, 50)
        h.button(.pressed)
        h.wait(for: c, line: "move requested")
        _ = h.settle(c)
        h.warp(150, 250)
        // No grab: the client keeps the pointer (implicit grab) and the window stays.
        #expect(h.settle(c) == ["pointer.motion 110.00 210.00", "pointer.frame"])
        h.button(.released)
        _ = h.settle(c)
        let tree = h.server.router.tree
        let window = try #require(tree.children(of: h.server.outputNode).first { tree.kind(of: $0) == .toplevel })
        #expect(tree.frame(of: window)?.x == 40)
        #expect(tree.frame(of: window)?.y == 40)
    }
}
