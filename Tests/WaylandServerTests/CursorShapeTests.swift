// wp_cursor_shape_manager_v1 as a real client (wl-probe --cursor-shape) uses it. The rules
// are the protocol's: set_shape "must match the latest wl_pointer.enter or
// zwp_tablet_tool_v2.proximity_in serial number sent to the client", "the cursor actually
// changes only if the input device focus is one of the requesting client's surfaces",
// "the previous cursor image (surface or shape) is replaced", and a value outside the enum
// (or `auto`/`none`, added in version 2, on a version-1 object) is `invalid_shape`.
// What the user would see is the server's `clientCursor`, which the renderer draws.
import Foundation
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct CursorShapeTests {
    /// The first window maps at (40, 40), the second at (72, 72) (the cascade).
    static let inA = (50.0, 50.0), inB = (150.0, 150.0), nowhere = (600.0, 600.0)

    @Test func theShapeIsTakenWithTheLatestEnterAndIgnoredWithAnOlderOne() throws {
        let h = try ServerHarness()
        let a = try h.mappedProbe(["--toplevel", "a", "100x100", "--cursor-shape", "2"])
        h.warp(Self.inA.0, Self.inA.1)
        h.warp(Self.nowhere.0, Self.nowhere.1)
        h.warp(Self.inA.0, Self.inA.1)
        #expect(h.settle(a).filter { $0.hasPrefix("pointer.enter") }.count == 2)
        h.command(a, "shape text stale") // the first enter: no longer the latest
        #expect(h.server.clientCursor == nil)
        h.command(a, "shape text")
        #expect(h.server.clientCursor == .shape(.text))
    }

    @Test func ignoredWhileThePointerIsOnAnotherClientsSurface() throws {
        let h = try ServerHarness()
        let a = try h.mappedProbe(["--toplevel", "a", "100x100", "--cursor-shape", "2"])
        let b = try h.mappedProbe(["--toplevel", "b", "100x100"])
        _ = h.settle(a) // b took the keyboard
        h.warp(Self.inA.0, Self.inA.1)
        h.warp(Self.inB.0, Self.inB.1)
        #expect(
            h.settle(a) == [
                "pointer.enter a 10.00 10.00", "pointer.motion 10.00 10.00", "pointer.frame",
                "pointer.leave a", "pointer.frame",
            ])
        #expect(h.settle(b) == ["pointer.enter b 78.00 78.00", "pointer.motion 78.00 78.00", "pointer.frame"])
        h.command(a, "shape text") // citing its enter, while the pointer is on b
        #expect(h.server.clientCursor == nil)
        // Back on a (a new enter): nothing was kept from the refused request.
        h.warp(Self.inA.0, Self.inA.1)
        #expect(
            h.settle(a) == [
                "done shape text", "pointer.enter a 10.00 10.00", "pointer.motion 10.00 10.00", "pointer.frame",
            ])
        #expect(h.server.clientCursor == nil)
        h.command(a, "shape text")
        #expect(h.server.clientCursor == .shape(.text))
        // b's pointer focus shows b's choice (none), not a's.
        h.warp(Self.inB.0, Self.inB.1)
        #expect(h.server.clientCursor == nil)
    }

    @Test func setCursorAndSetShapeReplaceEachOther() throws {
        let h = try ServerHarness()
        let a = try h.mappedProbe(["--toplevel", "a", "100x100", "--cursor-shape", "2"])
        h.warp(Self.inA.0, Self.inA.1)
        _ = h.settle(a)
        h.command(a, "shape text")
        #expect(h.server.clientCursor == .shape(.text))
        h.command(a, "cursor main main") // wl_pointer.set_cursor: an 8×8 surface, hotspot (1, 2)
        guard case .surface(_, hotspotX: 1, hotspotY: 2) = h.server.clientCursor else {
            Issue.record("set_cursor after set_shape: \(String(describing: h.server.clientCursor))")
            return
        }
        h.command(a, "shape pointer")
        #expect(h.server.clientCursor == .shape(.pointer))
        h.command(a, "shape none") // version 2: no cursor image
        #expect(h.server.clientCursor == .hidden)
        h.command(a, "shape auto")
        #expect(h.server.clientCursor == .shape(.auto))
        h.command(a, "shape ew-resize")
        #expect(h.server.clientCursor == .shape(.ewResize))
    }

    /// (manager version, shape) → the message the client is disconnected with.
    static let invalid: [(UInt32, String, String)] = [
        (2, "999", "999 is not a cursor shape"),
        (2, "36", "36 is not a cursor shape"), // one past `none`
        (1, "auto", "the shape 'auto' needs version 2; this wp_cursor_shape_device_v1 is version 1"),
        (1, "none", "the shape 'none' needs version 2; this wp_cursor_shape_device_v1 is version 1"),
    ]

    @Test(arguments: invalid.indices)
    func anInvalidShapeIsAProtocolError(_ i: Int) throws {
        let (version, shape, message) = Self.invalid[i]
        let h = try ServerHarness()
        let good = try h.mappedProbe(["--toplevel", "good", "100x100"])
        let bad = try h.mappedProbe(["--toplevel", "bad", "100x100", "--cursor-shape", "\(version)"])
        h.warp(Self.inB.0, Self.inB.1)
        _ = h.settle(bad)
        if version == 1 {
            // A shape of version 1 is taken on a version-1 device.
            h.command(bad, "shape default")
            #expect(h.server.clientCursor == .shape(.default))
        }
        bad.send("shape \(shape)")
        var errorLine = ""
        h.wait(for: bad, awaiting: "a protocol error") { line in
            if line.hasPrefix("protocol-error") {
                errorLine = line
                return true
            }
            return false
        }
        let object = try #require(errorLine.split(separator: " ").dropFirst().first.map(String.init), "\(errorLine)")
        #expect(object.hasPrefix("wp_cursor_shape_device_v1@") && errorLine.hasSuffix(" code=1"), "\(errorLine)")
        // libwayland-client's report of the error, as the client prints it.
        #expect(bad.lines.contains("\(object): error 1: \(message)"), "\(bad.lines)")
        // The other client goes on.
        _ = h.settle(good)
        h.warp(Self.inA.0, Self.inA.1)
        #expect(h.settle(good) == ["pointer.enter good 10.00 10.00", "pointer.motion 10.00 10.00", "pointer.frame"])
    }

    /// A tablet tool's device: the same rules with the tool's `proximity_in`. The server
    /// draws no cursor for tools, so what the client chose is read from the tool object.
    @Test func aToolsShapeCitesItsLatestProximityIn() throws {
        let h = try ServerHarness()
        let a = try h.mappedProbe(["--toplevel", "a", "100x100", "--tablet", "--no-touch", "--cursor-shape", "2"])
        let pen = DeviceID(5)
        let tool = TabletTool(type: .pen, serial: 77)
        let over = TabletAxes(x: Self.inA.0 / 1280, y: Self.inA.1 / 720)
        func proximity(_ inProximity: Bool) {
            h.time += 1000
            h.server.handle(
                InputEvent(time: h.time, device: pen, .tabletToolProximity(tool, inProximity: inProximity, over)))
        }
        h.server.handle(InputEvent(time: h.time, device: pen, .deviceAdded([.tabletTool])))
        proximity(true)
        proximity(false)
        proximity(true)
        #expect(h.settle(a).filter { $0.hasPrefix("tool.proximity_in tool0 a T0") }.count == 2)
        let node = try #require(h.server.mappedToplevels.first?.node)
        let client = try #require(h.server.router.tree.client(of: node).flatMap { h.server.client($0) })
        let toolObject = try #require(
            client.onSeat(0).tablet.tools.first.flatMap { WaylandObject.from($0.resource) as? TabletToolObject })
        h.command(a, "tool-shape text stale")
        #expect(toolObject.cursor == nil)
        h.command(a, "tool-shape text")
        guard case .shape(.text) = toolObject.cursor else {
            Issue.record("\(String(describing: toolObject.cursor))")
            return
        }
        // The pointer's cursor is another device's: unchanged.
        #expect(h.server.clientCursor == nil)
    }
}
