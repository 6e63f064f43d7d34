// Focus passing from a client surface to a compositor node (a title bar) always sends the
// client its leave, also when the client re-commits under a still pointer or takes its
// surface out of the scene; a title-bar drag moves the window and never off the output.
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct FocusLeaveTests {
    /// A window at (40, 40) whose surface starts below a 24-pixel title bar, with a header
    /// subsurface that sticks 30 pixels out above it: 6 rows above the title bar, 24 over it.
    static func headerWindow() throws -> (ServerHarness, ClientProcess) {
        var config = WaylandServer.Configuration()
        config.policy.decorationStyle = DecorationStyle(titleHeight: 24)
        let h = try ServerHarness(configuration: config)
        let c = try h.mappedProbe([
            "--ssd", "--toplevel", "win", "200x100", "--sub", "header", "win", "0,-30", "200x30",
        ])
        return (h, c)
    }

    @Test func titleBarOverASubsurfaceTakesThePointerOnlyAfterALeave() throws {
        let (h, c) = try Self.headerWindow()
        let tree = h.server.router.tree
        h.warp(100, 36) // the header's rows above the title bar
        #expect(h.settle(c) == ["pointer.enter header 60.00 2.00", "pointer.motion 60.00 2.00", "pointer.frame"])
        // Over the title bar's rows: whoever is on top there, the client's view must match.
        h.warp(100, 50)
        let over = h.settle(c)
        if let n = h.server.seat.pointerFocusNode, tree.kind(of: n) == .compositor {
            #expect(over == ["pointer.leave header", "pointer.frame"])
        } else {
            #expect(over == ["pointer.motion 60.00 16.00", "pointer.frame"])
        }
        h.expectNoStalePointer(c)
    }

    @Test(arguments: ["frame win", "commit win", "commit header", "region win 0,0,200,100"])
    func reCommitsUnderAStillPointerSendNothing(command: String) throws {
        let (h, c) = try Self.headerWindow()
        for (x, y) in [(100.0, 36.0), (100, 50), (100, 80)] { // header, title-bar rows, surface
            h.warp(x, y)
            _ = h.settle(c)
            let before = h.server.seat.pointerFocusNode
            c.send(command)
            h.wait(for: c, line: "done \(command)")
            let lines = h.settle(c).filter {
                !$0.hasPrefix("done") && !$0.hasPrefix("frame.done") && !$0.hasPrefix("buffer.release")
            }
            #expect(lines == [], "after '\(command)' at \(x),\(y)")
            #expect(h.server.seat.pointerFocusNode == before, "the focus moved at \(x),\(y)")
        }
    }

    /// The client destroys its role objects but keeps the wl_surface: it still believes
    /// it has the pointer (and keyboard) unless it is told otherwise.
    @Test(arguments: ["header", "win"])
    func losingTheRoleSendsTheLeave(surface: String) throws {
        let (h, c) = try Self.headerWindow()
        h.warp(100, surface == "header" ? 36 : 80)
        _ = h.settle(c)
        h.command(c, "unrole \(surface)")
        let lines = h.settle(c)
        #expect(lines.contains("pointer.leave \(surface)"), "\(lines)")
        if surface == "win" {
            #expect(lines.contains("keyboard.leave win"), "\(lines)")
            #expect(lines.contains("pointer.leave header") == false) // it never had the pointer
        }
    }

    @Test func aTitleBarPressStartsTheMoveAndTheWindowStaysOnTheOutput() throws {
        var config = WaylandServer.Configuration()
        config.policy.decorationStyle = DecorationStyle(titleHeight: 24)
        let h = try ServerHarness(configuration: config)
        let c = try h.mappedProbe(["--ssd", "--toplevel", "win", "200x100"])
        let tree = h.server.router.tree
        let window = try #require(tree.children(of: h.server.outputNode).first { tree.name(of: $0) == "window" })
        h.warp(100, 50) // the title bar
        h.button(.pressed)
        h.warp(100, 0) // drag up as far as the cursor goes, then far left
        h.warp(0, 0)
        h.button(.released)
        let f = try #require(tree.frame(of: window))
        #expect(f.y == 0) // moved (the press started the move), but not above the output
        #expect(f.x == -60) // the whole drag: the title bar is still on the output
        h.warp(0, 0)
        h.button(.pressed) // the press that the title bar promises: it moves again
        h.warp(1279, 719)
        h.button(.released)
        let g = try #require(tree.frame(of: window))
        #expect(g.x <= 1280 - 24 && g.y <= 720 - 24 && g.x + g.width >= 24, "\(g)")
        #expect(g.x > 0 && g.y > 0, "\(g)")
    }
}

extension ServerHarness {
    /// The client's last pointer event is a leave exactly when the seat's pointer focus is
    /// not one of its surfaces.
    func expectNoStalePointer(_ c: ClientProcess, sourceLocation: SourceLocation = #_sourceLocation) {
        let pointerLines = c.lines.filter { $0.hasPrefix("pointer.enter") || $0.hasPrefix("pointer.leave") }
        let clientThinksFocused = pointerLines.last?.hasPrefix("pointer.enter") == true
        let focused =
            server.seat.pointerFocusNode.flatMap { server.router.tree.client(of: $0) }.map { !$0.isCompositor } ?? false
        #expect(
            clientThinksFocused == focused, "client's pointer view: \(pointerLines.last ?? "none")",
            sourceLocation: sourceLocation)
    }
}
