// The compositor's policy (Policies/CompositorPolicy.swift) as an embedder writes one, with
// real wl-probe clients: what it is told (map, unmap, close, in that order), what it
// refuses (a maximize: xdg-shell says the request is still answered with a configure,
// which then does not say maximized), a placement that sees which window went (a grid that
// fills the gap), and maximize filling the usable area of the output the window is on.
import Foundation
import Glibc
import InputRouter
import Testing

@testable import InputRouterWayland

/// What a policy was told, in order.
final class PolicyLog {
    var lines: [String] = []
}

/// A grid of 300x200 cells from the usable area's corner, each window in the first free
/// cell; the cell of a window that closed is free again.
final class GapFillingGrid {
    var cells: [NodeID?] = []

    func place(_ server: WaylandServer, _ toplevel: ToplevelInfo, _ usable: Rect) -> (x: Int32, y: Int32)? {
        let cell = cells.firstIndex(of: nil) ?? cells.count
        if cell == cells.count { cells.append(toplevel.node) } else { cells[cell] = toplevel.node }
        return (usable.x + Int32(cell % 3) * 300, usable.y + Int32(cell / 3) * 200)
    }

    func closed(_ server: WaylandServer, _ toplevel: ToplevelInfo) {
        if let cell = cells.firstIndex(of: toplevel.node) { cells[cell] = nil }
    }
}

@Suite struct CompositorPolicyTests {
    /// The minimal policy, told of every toplevel's map, unmap and close.
    func loggingConfiguration(_ log: PolicyLog) -> WaylandServer.Configuration {
        var config = WaylandServer.Configuration.embedded
        config.policy.toplevelMapped = { _, t in log.lines.append("mapped \(t.title)") }
        config.policy.toplevelUnmapped = { _, t in log.lines.append("unmapped \(t.title)") }
        config.policy.toplevelClosed = { _, t in log.lines.append("closed \(t.title)") }
        return config
    }

    /// xdg-shell: a toplevel maps with its first buffer after the first configure, unmaps
    /// when it attaches no buffer, and goes with its xdg_toplevel. One that closes while
    /// mapped unmaps first; a client that disconnects closes its windows too.
    @Test func thePolicyHearsOfMapsUnmapsAndClosesInOrder() throws {
        let log = PolicyLog()
        let h = try ServerHarness(configuration: loggingConfiguration(log))
        let probe = try h.mappedProbe(["--toplevel", "a", "100x100"])
        #expect(log.lines == ["mapped a"])
        h.command(probe, "unmap a")
        #expect(log.lines == ["mapped a", "unmapped a"])
        h.command(probe, "unrole a")
        #expect(log.lines == ["mapped a", "unmapped a", "closed a"])

        log.lines = []
        let second = try h.mappedProbe(["--toplevel", "b", "100x100"])
        h.command(second, "unrole b")
        #expect(log.lines == ["mapped b", "unmapped b", "closed b"])

        log.lines = []
        let third = try h.mappedProbe(["--toplevel", "c", "100x100"])
        kill(third.process.processIdentifier, SIGKILL)
        h.dispatch(until: "c closed") { log.lines.count == 3 }
        #expect(log.lines == ["mapped c", "unmapped c", "closed c"])
    }

    /// "After requesting that the surface should be maximized, the compositor will respond
    /// by emitting a configure event. Whether this configure actually sets the window
    /// maximized is subject to compositor policies." Refused: the configure does not say
    /// maximized, and the window keeps its place. A granted fullscreen fills the output.
    @Test func aPolicyThatRefusesMaximizeAnswersWithAConfigureThatIsNotMaximized() throws {
        let log = PolicyLog()
        var config = WaylandServer.Configuration()
        config.policy.toplevelRequest = { _, request, toplevel in
            log.lines.append("\(request) \(toplevel.title)")
            if case .maximize = request { return false }
            return true
        }
        let h = try ServerHarness(configuration: config)
        let probe = try h.mappedProbe(["--toplevel", "win", "200x100"])
        let node = try #require(h.server.mappedToplevels.first?.node)
        let before = h.server.router.tree.layoutPosition(of: node)
        h.command(probe, "maximize win")
        #expect(h.settle(probe) == ["done maximize win", "configure win 0x0 [activated]"])
        #expect(h.server.router.tree.layoutPosition(of: node) == before)
        #expect(log.lines == ["maximize win"])
        h.command(probe, "fullscreen win")
        // Granted: the window fills the output, and comes under the cursor at its corner.
        #expect(
            h.settle(probe) == [
                "pointer.enter win 0.00 0.00", "pointer.frame", "done fullscreen win",
                "configure win 1280x720 [fullscreen,activated]",
            ])
        #expect(log.lines == ["maximize win", "fullscreen(output: nil) win"])
    }

    /// A grid placement that sees each window's node: the window mapped after one closed
    /// takes the closed one's cell, where a count of windows ever mapped would go on.
    @Test func aGridPlacementFillsTheGapAWindowLeft() throws {
        let grid = GapFillingGrid()
        var config = WaylandServer.Configuration.embedded
        config.policy.placeToplevel = grid.place
        config.policy.toplevelClosed = grid.closed
        let h = try ServerHarness(configuration: config)
        let tree = h.server.router.tree
        func position(_ title: String) -> Point? {
            h.server.mappedToplevels.first { $0.title == title }.flatMap { tree.layoutPosition(of: $0.node) }
        }
        let first = try h.mappedProbe(["--toplevel", "a", "100x100"])
        _ = try h.mappedProbe(["--toplevel", "b", "100x100"])
        #expect(position("a") == Point(x: 0, y: 0))
        #expect(position("b") == Point(x: 300, y: 0))
        h.command(first, "unrole a")
        _ = try h.mappedProbe(["--toplevel", "c", "100x100"])
        #expect(position("c") == Point(x: 0, y: 0))
        _ = try h.mappedProbe(["--toplevel", "d", "100x100"])
        #expect(position("d") == Point(x: 600, y: 0))
    }

    /// Two outputs side by side, a window on the second: maximized, it fills the usable
    /// area of the second output (at its origin, at its size), not the first's.
    @Test func maximizeFillsTheUsableAreaOfTheOutputTheWindowIsOn() throws {
        let log = PolicyLog()
        var config = WaylandServer.Configuration()
        config.outputs = [OutputConfiguration(width: 800, height: 600), OutputConfiguration(width: 640, height: 480)]
        config.policy.placeToplevel = MapOrderPlacement { _ in (900, 100) }.place
        let standard = config.policy.fillArea
        config.policy.fillArea = { server, toplevel, fill, output, usable in
            log.lines.append("\(fill) on \(output.frame) usable \(usable)")
            return standard(server, toplevel, fill, output, usable)
        }
        let h = try ServerHarness(configuration: config)
        let probe = try h.mappedProbe(["--toplevel", "win", "200x100"])
        let node = try #require(h.server.mappedToplevels.first?.node)
        let tree = h.server.router.tree
        #expect(tree.layoutPosition(of: node) == Point(x: 900, y: 100))
        h.command(probe, "maximize win")
        #expect(h.settle(probe) == ["done maximize win", "configure win 640x480 [maximized,activated]"])
        #expect(tree.layoutPosition(of: node) == Point(x: 800, y: 0))
        #expect(log.lines == ["maximized on \(Rect(800, 0, 640, 480)) usable \(Rect(800, 0, 640, 480))"])
        // Unmaximized, it goes back to where it was.
        h.command(probe, "unmaximize win")
        #expect(h.settle(probe) == ["done unmaximize win", "configure win 0x0 [activated]"])
        #expect(tree.layoutPosition(of: node) == Point(x: 900, y: 100))
    }
}
