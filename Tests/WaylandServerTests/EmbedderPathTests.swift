// The embedder's path through the products alone (docs/embedding.md): a display made
// without libwayland's headers, the cursor placed by the compositor, and a node's owner
// answered as a client or the compositor, never a sentinel client id.
import Foundation
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite struct EmbedderPathTests {
    /// A `WaylandDisplay` the embedder listens on and dispatches, a server on it, a real
    /// client: the cursor the compositor warps onto the window enters it at the
    /// surface-local point (wl_pointer.enter's surface_x, surface_y).
    @Test func aServerOnAWaylandDisplayTakesClientsAndTheCursorIsWarpedOntoAWindow() throws {
        let display = try WaylandDisplay()
        var config = WaylandServer.Configuration.embedded
        config.keyboard = .init(keymap: .names(.init(rules: "evdev", model: "pc105", layout: "us")), compose: false)
        config.policy.placeToplevel = MapOrderPlacement { _ in (100, 100) }.place
        let server = try WaylandServer(display: display, configuration: config)
        server.handle(InputEvent(time: 0, device: DeviceID(1), .deviceAdded(.pointer)))
        _ = runtimeDirectory
        let socket = "ir-test-display-\(getpid())"
        try display.addSocket(socket)
        let probe = try ClientProcess(
            productsDirectory + "/wl-probe", ["--toplevel", "win", "200x100"], socket: socket)
        probe.isProbe = true
        func lines(until wanted: String...) -> [String] {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline, !wanted.allSatisfy(probe.lines.contains) {
                server.dispatch(timeoutMS: 5)
                probe.poll()
            }
            return probe.take()
        }
        #expect(lines(until: "mapped win", "ready").contains("mapped win"))
        let node = try #require(server.mappedToplevels.first?.node)

        server.warpPointer(to: Point(x: 150, y: 120))
        probe.send("roundtrip 1")
        #expect(
            lines(until: "done roundtrip 1") == [
                "pointer.enter win 50.00 20.00", "pointer.motion 50.00 20.00",
                "pointer.frame", "done roundtrip 1",
            ])
        #expect(server.seat.cursor == Point(x: 150, y: 120))

        // Whose node: the window is its client's; the window layer and the output are ours.
        let tree = server.router.tree
        guard case .client(let client) = tree.owner(of: node) else {
            Issue.record("the window's owner is \(String(describing: tree.owner(of: node)))")
            return
        }
        #expect(!client.isCompositor)
        #expect(tree.owner(of: server.outputNode) == .compositor)
        #expect(tree.owner(of: server.outputs[0].node) == .compositor)
    }
}
