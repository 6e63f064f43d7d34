// Popup grabs and interactive moves requested by a real client, with the serial of its
// own button press.
import InputRouter
import Testing

@testable import InputRouterWayland

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
        h.warp(600, 600) // nothing of this client here: no enter anywhere
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

@Suite(.serialized) struct DecorationTests {
    static func decorated() throws -> ServerHarness {
        var config = WaylandServer.Configuration()
        config.policy.decorationStyle = DecorationStyle(titleHeight: 24)
        return try ServerHarness(configuration: config)
    }

    @Test func titleBarMovesTheWindowAndCloseButtonAsksToClose() throws {
        let h = try Self.decorated()
        let c = try h.mappedProbe(["--toplevel", "win", "100x100", "--ssd"])
        // The window container is at (40, 40); the surface below a 24-pixel title bar.
        h.warp(50, 70)
        #expect(h.settle(c) == ["pointer.enter win 10.00 6.00", "pointer.motion 10.00 6.00", "pointer.frame"])
        h.warp(50, 50) // the title bar: a compositor node, so the client is left
        h.button(.pressed)
        h.warp(150, 250)
        h.button(.released)
        let tree = h.server.router.tree
        let window = try #require(tree.children(of: h.server.outputNode).first { tree.name(of: $0) == "window" })
        #expect(tree.frame(of: window)?.x == 140)
        #expect(tree.frame(of: window)?.y == 240)
        #expect(h.settle(c).first == "pointer.leave win")
        // Close button: the right end of the title bar.
        h.warp(140 + 100 - 10, 250)
        h.button(.pressed)
        h.button(.released)
        #expect(h.settle(c).contains("close"))
    }

    @Test func eventsTheClientDoesNotTakeBubbleToTheTitleBar() throws {
        let h = try Self.decorated()
        var trace: [String] = []
        h.server.deliveryObserver = { [unowned h] d, q in
            trace.append(TraceSink.line(d, queue: q, router: h.server.router))
        }
        let c = try h.mappedProbe(["--toplevel", "win", "100x100", "--no-pointer", "--ssd"])
        let tree = h.server.router.tree
        let window = try #require(tree.children(of: h.server.outputNode).first { tree.name(of: $0) == "window" })
        // A press on the surface of a client without wl_pointer reaches the decoration (its
        // next responder), which takes it, but a drag in the content never moves the
        // window: only a press on the title bar itself does (issue 12, defect 5).
        trace.removeAll()
        h.warp(60, 100)
        h.button(.pressed)
        h.warp(70, 110)
        h.button(.released)
        _ = h.settle(c)
        #expect(trace.contains("seat0 handled pointer.enter by \"title bar\""))
        #expect(trace.contains("seat0 handled pointer.button by \"title bar\""))
        #expect(tree.frame(of: window)?.x == 40)
        #expect(tree.frame(of: window)?.y == 40)
    }
}
