// Interactive moves a real client asks for after its drag threshold, as GTK does: the
// window follows the pointer from the press the serial names.
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct MoveAnchorTests {
    static func window(_ h: ServerHarness) throws -> NodeID {
        let tree = h.server.router.tree
        return try #require(tree.children(of: h.server.outputNode).first { tree.kind(of: $0) == .toplevel })
    }

    static func position(of node: NodeID, in h: ServerHarness) -> String? {
        h.server.router.tree.frame(of: node).map { "\($0.x),\($0.y)" }
    }

    /// Press at (50, 50), drag by 120,80 in steps; the client asks for the move once the
    /// pointer is 8 pixels from the press.
    @Test func dragAfterTheThresholdMovesTheWindowByTheDragExactly() throws {
        let h = try ServerHarness()
        let c = try h.probe(["--toplevel", "win", "200x100", "--move-after", "win", "8"])
        h.wait(for: c, line: "mapped win")
        let tree = h.server.router.tree
        let window = try Self.window(h)
        #expect(Self.position(of: window, in: h) == "40,40")
        h.warp(50, 50)
        h.button(.pressed)
        _ = h.settle(c)
        // Under the threshold: motion to the client, no move yet.
        h.warp(54, 53)
        #expect(h.settle(c) == ["pointer.motion 14.00 13.00", "pointer.frame"])
        h.warp(60, 56) // 11.7 pixels from the press
        h.wait(for: c, line: "move requested")
        _ = h.settle(c)
        // The window caught up with the pointer at once: the press point is under it again.
        #expect(Self.position(of: window, in: h) == "50,46")
        for step in 1...10 { h.warp(50 + 12 * Double(step), 50 + 8 * Double(step)) }
        h.button(.released)
        #expect(Self.position(of: window, in: h) == "160,120")
        // The point of the window pressed (10, 10) is under the pointer again: the re-pick
        // after the release enters there.
        #expect(h.settle(c) == ["pointer.enter win 10.00 10.00", "pointer.frame"])
    }

    /// A move asked for after the button is up again would follow the pointer with no
    /// button held, until some later release: it is refused.
    @Test func moveCitingAReleasedPressIsIgnored() throws {
        let h = try ServerHarness()
        let c = try h.probe(["--toplevel", "win", "200x100", "--move-on-release", "win"])
        h.wait(for: c, line: "mapped win")
        h.warp(50, 50)
        h.button(.pressed)
        h.button(.released)
        h.wait(for: c, line: "move requested")
        _ = h.settle(c)
        // No grab: motion still reaches the client, nothing follows the pointer.
        h.warp(100, 100)
        #expect(h.settle(c) == ["pointer.motion 60.00 60.00", "pointer.frame"])
        #expect(Self.position(of: try Self.window(h), in: h) == "40,40")
    }
}
