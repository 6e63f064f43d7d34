import Foundation
import InputRouter
import Testing

@testable import InputRouterWayland

/// A server an embedder drops is freed with everything it made: its router, tree and
/// seats. Each test holds only weak references once the harness is gone.
@Suite(.serialized) struct ServerTeardownTests {
    struct Freed {
        weak var server: WaylandServer?
        weak var router: Router?
        weak var tree: SurfaceTree?
        weak var seat: Seat?
        weak var second: Seat?
        var all: [AnyObject?] { [server, router, tree, seat, second] }
    }

    /// A server with a client on two seats and two outputs, a popup grab open and a button
    /// held (an implicit grab), torn down while the client is still connected.
    @Test func aServerWithClientsSeatsOutputsAndAGrabIsFreed() throws {
        var freed = Freed()
        try {
            let h = try ServerHarness()
            let second = try h.server.addSeat(name: "seat1")
            _ = try #require(h.server.addOutput(OutputConfiguration(width: 640, height: 480)))
            let c = try h.probe([
                "--toplevel", "win", "200x100", "--popup-on-press", "menu", "win", "10,10", "80x40",
                "--also-seat-index", "1", "--tablet", "--outputs",
            ])
            h.wait(for: c, line: "mapped win")
            h.warp(90, 90)
            h.button(.pressed)
            h.wait(for: c, line: "mapped menu")
            _ = h.settle(c)
            freed = Freed(
                server: h.server, router: h.server.router, tree: h.server.router.tree, seat: h.server.seat,
                second: second)
        }()
        #expect(
            freed.all.allSatisfy { $0 == nil }, "still alive: \(freed.all.map { $0.map { "\(type(of: $0))" } ?? "-" })")
    }
}
