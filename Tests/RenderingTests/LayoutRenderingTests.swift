import InputRouter
import Testing
import WaylandServer

@testable import Rendering

/// Two outputs: the screenshot and the hit map cover the layout's bounding box (a gap
/// shows the background, and takes no input); one output's picture is that part of it,
/// with what reaches onto it from its neighbour.
private let black: UInt32 = 0xff00_0000

@Suite struct LayoutRenderingTests {
    static let outputColor: UInt32 = 0xff44_5566, barColor: UInt32 = 0xffc0_1020, background: UInt32 = 0xff11_2233

    /// 800×600 and 640×480 side by side; a compositor bar across the seam at (700, 100).
    func scene() throws -> (WaylandServer, NodeID) {
        var config = WaylandServer.Configuration()
        config.outputs = [OutputConfiguration(width: 800, height: 600), OutputConfiguration(width: 640, height: 480)]
        let server = try WaylandServer(configuration: config)
        let bar = server.router.tree.createNode(.compositor, name: "bar", parent: server.outputNode, frame: Rect(700, 100, 200, 50))
        return (server, bar)
    }

    func renderer(_ server: WaylandServer, _ bar: NodeID) -> OutputRenderer {
        OutputRenderer(background: Self.background, compositorColor: { n in
            n == bar ? Self.barColor : server.outputs.contains { $0.node == n } ? Self.outputColor : nil
        })
    }

    @Test func theScreenshotCoversTheLayout() throws {
        let (server, bar) = try scene()
        server.seat.notifyPointerWarp(time: 1, to: Point(1400, 10))
        let image = renderer(server, bar).render(server)
        #expect(image.width == 1440 && image.height == 600)
        #expect(image[10, 590] == premultiplied(Self.outputColor))
        #expect(image[1000, 10] == premultiplied(Self.outputColor))
        #expect(image[1000, 550] == premultiplied(Self.background))  // below the smaller output
        #expect(image[750, 120] == premultiplied(Self.barColor) && image[850, 120] == premultiplied(Self.barColor))
        #expect(image[1400, 10] == black)  // the arrow's tip, on the second output
    }

    @Test func oneOutputsPictureIsItsPartOfTheLayout() throws {
        let (server, bar) = try scene()
        server.seat.notifyPointerWarp(time: 1, to: Point(10, 590))  // not on the second output
        let image = renderer(server, bar).render(server, output: server.outputs[1].node)
        #expect(image.width == 640 && image.height == 480)
        #expect(image[0, 120] == premultiplied(Self.barColor) && image[99, 120] == premultiplied(Self.barColor))
        #expect(image[100, 120] == premultiplied(Self.outputColor))
        #expect(!image.pixels.contains(black))
    }

    @Test func theHitMapCoversTheLayoutAndItsGap() throws {
        let (server, bar) = try scene()
        let map = HitMap(server)
        #expect(map.width == 1440 && map.height == 600)
        #expect(map.node(atX: 1000, y: 550) == nil)
        #expect(map.node(atX: 850, y: 120) == bar)
        #expect(map.node(atX: 1000, y: 10) == server.outputs[1].node)
        #expect(map.entries.map(\.node) == server.outputs.map(\.node) + [bar])
        #expect(map.entries.first { $0.node == bar }?.pixels == 200 * 50)
    }
}
