// Tablet bugs a real GTK 4 application found (TabletGtkTests), each pinned with wl-probe
// so that the failing case is small and fast.
import Foundation
import InputRouter
@testable import Recording
import Testing

@testable import WaylandServer

@Suite(.serialized) struct TabletRegressionTests {
    /// A client that has a tablet seat but no wl_pointer (GTK on a seat whose only devices
    /// are a tablet and a pad has none) gets the tool: the core once sent tool events only
    /// to clients that had bound the pointer.
    @Test func aClientWithoutAPointerGetsTheTool() throws {
        let h = try ServerHarness()
        let c = try h.probe(["--toplevel", "win", "100x100", "--tablet", "--no-pointer", "--no-touch"])
        h.wait(for: c, line: "mapped win")
        _ = h.settle(c)
        for event in try TabletTests.recording().events { h.server.handle(event) }
        // The tool's stroke without its axes and serials (TabletTests checks those).
        let lines = h.settle(c).map { $0.split(separator: " ").filter { !$0.hasPrefix("serial=") }.joined(separator: " ") }
            .filter { ["tool.proximity_in", "tool.proximity_out", "tool.down", "tool.up", "tool.button"].contains($0.split(separator: " ")[0]) }
        #expect(lines == [
            "tool.proximity_in tool0 win T0", "tool.down tool0", "tool.up tool0",
            "tool.button tool0 331 pressed", "tool.button tool0 331 released", "tool.proximity_out tool0",
        ], "\(lines)")
    }
}
