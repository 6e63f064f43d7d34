import InputRouter
import InputRouterWayland
import Testing

@testable import InputRouterRendering

private let black: UInt32 = 0xff00_0000
private let red: UInt32 = 0xffff_0000
private let green: UInt32 = 0xff00_ff00
private let blue: UInt32 = 0xff00_00ff
private let white: UInt32 = 0xffff_ffff

/// An output 40x30 at layout (100, 50), so output and layout coordinates differ.
private struct Scene {
    let tree = SurfaceTree()
    let output: NodeID
    var images: [NodeID: SurfaceImage] = [:]
    init() { output = tree.createNode(.output, name: "out", frame: Rect(100, 50, 40, 30)) }
    func render(_ renderer: OutputRenderer = OutputRenderer(background: black), cursor: OutputRenderer.Cursor? = nil)
        -> SurfaceImage
    {
        renderer.render(tree: tree, output: output, images: { images[$0] }, cursor: cursor)
    }
}

@Suite struct OutputRendererTests {
    @Test func emptyOutputIsBackground() {
        let s = Scene()
        let image = s.render(OutputRenderer(background: 0xff12_3456))
        #expect(image.width == 40 && image.height == 30)
        #expect(image.pixels.allSatisfy { $0 == 0xff12_3456 })
    }

    @Test func subsurfacesBelowAndAboveTheirParent() {
        var s = Scene()
        let top = s.tree.createNode(
            .toplevel, name: "t", client: ClientID(index: 1), parent: s.output, frame: Rect(10, 5, 10, 10))
        let below = s.tree.createNode(
            .subsurface, client: ClientID(index: 1), parent: top, frame: Rect(-5, 2, 10, 10), layer: .below)
        let above = s.tree.createNode(.subsurface, client: ClientID(index: 1), parent: top, frame: Rect(5, 5, 10, 10))
        s.images[top] = solid(10, 10, red)
        s.images[below] = solid(10, 10, green)
        s.images[above] = solid(10, 10, blue)
        let image = s.render()
        #expect(image[7, 10] == green) // the below child where its parent is not
        #expect(image[12, 10] == red) // the parent covers its below child
        #expect(image[12, 6] == red)
        #expect(image[17, 12] == blue) // the above child covers its parent
        #expect(image[22, 12] == blue) // and sticks out: subsurfaces do not clip
        #expect(image[9, 5] == black)
        #expect(image[12, 16] == green) // below child, under nothing
        // Restacking the below child above shows it over its parent.
        s.tree.place(below, above: above)
        #expect(s.render()[12, 10] == green)
    }

    @Test func belowChildrenPaintBottomToTop() {
        var s = Scene()
        let top = s.tree.createNode(.toplevel, client: ClientID(index: 1), parent: s.output, frame: Rect(20, 0, 10, 10))
        let first = s.tree.createNode(
            .subsurface, client: ClientID(index: 1), parent: top, frame: Rect(-20, 0, 15, 10), layer: .below)
        let second = s.tree.createNode(
            .subsurface, client: ClientID(index: 1), parent: top, frame: Rect(-10, 5, 15, 10), layer: .below)
        s.images[top] = solid(10, 10, white)
        s.images[first] = solid(15, 10, red)
        s.images[second] = solid(15, 10, green)
        var image = s.render()
        #expect(image[12, 7] == green) // the later below child is above the earlier one
        #expect(image[5, 2] == red && image[17, 12] == green && image[22, 7] == white)
        s.tree.place(first, above: second)
        image = s.render()
        #expect(image[12, 7] == red && image[22, 7] == white)
    }

    @Test func aboveChildrenPaintBottomToTop() {
        var s = Scene()
        let a = s.tree.createNode(.toplevel, client: ClientID(index: 1), parent: s.output, frame: Rect(0, 0, 20, 20))
        let b = s.tree.createNode(.toplevel, client: ClientID(index: 2), parent: s.output, frame: Rect(10, 10, 20, 20))
        s.images[a] = solid(20, 20, red)
        s.images[b] = solid(20, 20, blue)
        #expect(s.render()[15, 15] == blue)
        s.tree.raiseToTop(a)
        #expect(s.render()[15, 15] == red)
    }

    @Test func clippingNodeClipsItsSubtree() {
        var s = Scene()
        let frame = s.tree.createNode(.compositor, name: "frame", parent: s.output, frame: Rect(0, 20, 10, 5))
        let window = s.tree.createNode(.toplevel, client: ClientID(index: 1), parent: frame, frame: Rect(5, 0, 10, 10))
        let grey: UInt32 = 0xff80_8080
        s.images[window] = solid(10, 10, white)
        let r = OutputRenderer(background: black, compositorColor: { $0 == frame ? grey : nil })
        var image = s.render(r)
        #expect(image[2, 22] == grey)
        #expect(image[7, 22] == white)
        #expect(image[12, 22] == black) // outside the frame: clipped
        #expect(image[7, 26] == black)
        s.tree.setClipsChildren(frame, false)
        image = s.render(r)
        #expect(image[12, 22] == white && image[7, 26] == white)
        // The output clips everything to itself, even what sticks out past its edge.
        s.tree.move(window, to: (35, 0))
        #expect(s.render(r).width == 40)
    }

    @Test func bufferScaleShowsTheBufferAtTheLogicalSize() {
        var s = Scene()
        let top = s.tree.createNode(.toplevel, client: ClientID(index: 1), parent: s.output, frame: Rect(0, 0, 0, 0))
        s.tree.setBuffer(top, width: 20, height: 20, scale: 2) // logical 10x10
        // Quadrants: red, green / blue, white.
        var pixels: [UInt32] = []
        for y in 0..<20 { for x in 0..<20 { pixels.append(y < 10 ? (x < 10 ? red : green) : (x < 10 ? blue : white)) } }
        s.images[top] = SurfaceImage(width: 20, height: 20, pixels: pixels)
        let image = s.render()
        #expect(image[0, 0] == red && image[4, 4] == red)
        #expect(image[5, 0] == green && image[9, 4] == green)
        #expect(image[0, 5] == blue && image[4, 9] == blue)
        #expect(image[5, 5] == white && image[9, 9] == white)
        #expect(image[10, 0] == black && image[0, 10] == black)
    }

    @Test func unmappedNodesAndTheirSubtreesAreNotDrawn() {
        var s = Scene()
        let top = s.tree.createNode(.toplevel, client: ClientID(index: 1), parent: s.output, frame: Rect(0, 0, 10, 10))
        let child = s.tree.createNode(.subsurface, client: ClientID(index: 1), parent: top, frame: Rect(10, 0, 10, 10))
        s.images[top] = solid(10, 10, red)
        s.images[child] = solid(10, 10, green)
        #expect(s.render()[15, 5] == green)
        s.tree.setMapped(top, false)
        let image = s.render()
        #expect(image[5, 5] == black && image[15, 5] == black)
    }

    @Test func opacityMultipliesDownTheTree() {
        var s = Scene()
        let panel = s.tree.createNode(.compositor, parent: s.output, frame: Rect(0, 0, 20, 20))
        let top = s.tree.createNode(.toplevel, client: ClientID(index: 1), parent: panel, frame: Rect(10, 0, 10, 10))
        s.images[top] = solid(10, 10, white)
        s.tree.setOpacity(panel, 0.5)
        s.tree.setOpacity(top, 0.5)
        let image = s.render(OutputRenderer(background: black, compositorColor: { $0 == panel ? white : nil }))
        #expect(image[2, 2] == 0xff80_8080, "\(hex(image[2, 2]))") // white at 128/255 over black
        // The surface at 0.25 (alpha 64) over the panel's 128: 64 + 128 * 191/255 = 160.
        #expect(image[12, 2] == 0xffa0_a0a0, "\(hex(image[12, 2]))")
    }

    @Test func compositorTitleInBuiltInFont() {
        let s = Scene()
        let bar = s.tree.createNode(.compositor, name: "bar", parent: s.output, frame: Rect(0, 0, 40, 12))
        let grey: UInt32 = 0xff40_4040
        let image = s.render(
            OutputRenderer(
                background: black, compositorColor: { $0 == bar ? grey : nil }, title: { $0 == bar ? "H" : nil },
                titleColor: white))
        // 'H' starts 4 pixels in, vertically centred: (12 - 8) / 2 = 2. Row 0 is "#...#".
        #expect(image[4, 2] == white && image[8, 2] == white)
        #expect(image[5, 2] == grey)
        #expect(image[5, 5] == white) // the bar of the H, row 3: "#####"
        #expect(image[1, 1] == grey)
        #expect(image[10, 14] == black)
        // A taller node (a decoration) has its title in its top 16 rows: (16 - 8) / 2 = 4.
        s.tree.resize(bar, width: 40, height: 30)
        let tall = s.render(
            OutputRenderer(
                background: black, compositorColor: { $0 == bar ? grey : nil }, title: { $0 == bar ? "H" : nil },
                titleColor: white))
        #expect(tall[4, 4] == white && tall[4, 2] == grey && tall[5, 7] == white)
    }

    @Test func clientCursorHotspotAndBuiltinArrow() {
        let s = Scene()
        // A 3x3 cursor, magenta in the middle, hotspot at the middle.
        var px = [UInt32](repeating: 0, count: 9)
        px[4] = 0xffff_00ff
        let cursor = SurfaceImage(width: 3, height: 3, pixels: px)
        // Layout (120.7, 65.2) is output pixel (20, 15).
        var image = s.render(
            cursor: .init(position: Point(120.7, 65.2), shape: .image(cursor, hotspotX: 1, hotspotY: 1)))
        #expect(image[20, 15] == 0xffff_00ff)
        #expect(image[19, 14] == black && image[21, 16] == black)
        image = s.render(cursor: .init(position: Point(120, 65), shape: .arrow))
        #expect(image[20, 15] == black) // the tip, outlined in black
        #expect(image[21, 17] == white) // inside the arrow
        #expect(image[25, 15] == black) // to the right of the tip: background
        #expect(image.pixels.filter { $0 == white }.count > 20)
        image = s.render(cursor: .init(position: Point(120, 65), shape: .hidden))
        #expect(image.pixels.allSatisfy { $0 == black })
        // A cursor half off the output is drawn where it overlaps.
        image = s.render(cursor: .init(position: Point(139, 79), shape: .arrow))
        #expect(image[39, 29] == black)
    }

    @Test func clientCursorRequestsMapToShapes() {
        let image = solid(2, 2, white)
        guard case .arrow = OutputRenderer.Cursor.Shape(clientCursor: nil) else {
            Issue.record("no client cursor: arrow")
            return
        }
        guard case .hidden = OutputRenderer.Cursor.Shape(clientCursor: (nil, 0, 0, true)) else {
            Issue.record("hidden")
            return
        }
        guard case .hidden = OutputRenderer.Cursor.Shape(clientCursor: (nil, 3, 4, false)) else {
            Issue.record("no buffer")
            return
        }
        guard case .image(let i, 3, 4) = OutputRenderer.Cursor.Shape(clientCursor: (image, 3, 4, false)) else {
            Issue.record("image")
            return
        }
        #expect(i.pixels == image.pixels)
    }

    @Test func serverWithoutClientsShowsBackgroundAndArrow() throws {
        let server = try WaylandServer()
        server.seat.notifyPointerWarp(time: 1, to: Point(300, 200))
        let image = OutputRenderer(background: 0xff11_2233).render(server, pixels: SurfacePixels(server: server))
        #expect(image.width == 1280 && image.height == 720)
        #expect(image[0, 0] == 0xff11_2233)
        #expect(image[301, 202] == white)
        #expect(image[300, 200] == black)
    }
}
