import InputRouter
import InputRouterWayland
import Testing

@testable import InputRouterRendering

/// Two outputs: the screenshot and the hit map cover the layout's bounding box (a gap
/// shows the background, and takes no input); one output's picture is that part of it,
/// with what reaches onto it from its neighbour.
private let black: UInt32 = 0xff00_0000

@Suite struct LayoutRenderingTests {
    static let outputColor: UInt32 = 0xff44_5566, barColor: UInt32 = 0xffc0_1020, background: UInt32 = 0xff11_2233

    /// 200×150 and 160×120 side by side (small: the hit map tests every pixel); a compositor
    /// bar across the seam at (175, 25).
    func scene() throws -> (WaylandServer, NodeID) {
        var config = WaylandServer.Configuration()
        config.outputs = [OutputConfiguration(width: 200, height: 150), OutputConfiguration(width: 160, height: 120)]
        let server = try WaylandServer(configuration: config)
        let bar = server.router.tree.createNode(
            .compositor, name: "bar", parent: server.outputNode, frame: Rect(175, 25, 50, 12))
        return (server, bar)
    }

    func renderer(_ server: WaylandServer, _ bar: NodeID) -> OutputRenderer {
        OutputRenderer(
            background: Self.background,
            compositorColor: { n in
                n == bar ? Self.barColor : server.outputs.contains { $0.node == n } ? Self.outputColor : nil
            })
    }

    @Test func theScreenshotCoversTheLayout() throws {
        let (server, bar) = try scene()
        server.seat.notifyPointerWarp(time: 1, to: Point(350, 10))
        let image = renderer(server, bar).render(server, pixels: SurfacePixels(server: server))
        #expect(image.width == 360 && image.height == 150)
        #expect(image[10, 140] == premultiplied(Self.outputColor))
        #expect(image[250, 10] == premultiplied(Self.outputColor))
        #expect(image[250, 140] == premultiplied(Self.background)) // below the smaller output
        #expect(image[180, 30] == premultiplied(Self.barColor) && image[210, 30] == premultiplied(Self.barColor))
        #expect(image[350, 10] == black) // the arrow's tip, on the second output
    }

    @Test func eachSeatsPointerIsDrawn() throws {
        let (server, bar) = try scene()
        let second = try server.addSeat(name: "seat1")
        server.seat.notifyPointerWarp(time: 1, to: Point(350, 10))
        second.notifyPointerWarp(time: 1, to: Point(50, 100))
        // seat1 has no pointer device yet: only the first seat's arrow.
        var image = renderer(server, bar).render(server, pixels: SurfacePixels(server: server))
        #expect(image[350, 10] == black && image[50, 100] == premultiplied(Self.outputColor))
        server.handle(InputEvent(time: 2, device: DeviceID(1), .deviceAdded(.pointer)), seat: second)
        image = renderer(server, bar).render(server, pixels: SurfacePixels(server: server))
        #expect(image[350, 10] == black && image[50, 100] == black) // both arrows' tips
    }

    @Test func oneOutputsPictureIsItsPartOfTheLayout() throws {
        let (server, bar) = try scene()
        server.seat.notifyPointerWarp(time: 1, to: Point(10, 140)) // not on the second output
        let image = renderer(server, bar).render(
            server, output: server.outputs[1].node, pixels: SurfacePixels(server: server))
        #expect(image.width == 160 && image.height == 120)
        #expect(image[0, 30] == premultiplied(Self.barColor) && image[24, 30] == premultiplied(Self.barColor))
        #expect(image[25, 30] == premultiplied(Self.outputColor))
        #expect(!image.pixels.contains(black))
    }

    @Test func theHitMapCoversTheLayoutAndItsGap() throws {
        let (server, bar) = try scene()
        let map = HitMap(server)
        #expect(map.width == 360 && map.height == 150)
        #expect(map.node(atX: 250, y: 140) == nil)
        #expect(map.node(atX: 210, y: 30) == bar)
        #expect(map.node(atX: 250, y: 10) == server.outputs[1].node)
        #expect(map.entries.map(\.node) == server.outputs.map(\.node) + [bar])
        #expect(map.entries.first { $0.node == bar }?.pixels == 50 * 12)
    }
}
