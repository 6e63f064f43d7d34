import Foundation
import InputRouter
import InputRouterWayland
import Testing

@testable import InputRouterRendering

/// Output 60x40 at layout (200, 100): a toplevel with an input-region hole, a subsurface
/// sticking out of it, and a clipping decoration whose child sticks out of it.
private struct HitScene {
    let router = Router()
    var tree: SurfaceTree { router.tree }
    let output, term, scroll, frame, clipped, hidden: NodeID
    let client: ClientID
    init() {
        let tree = router.tree
        client = router.addClient(name: "foot")
        output = tree.createNode(.output, name: "DP-1", frame: Rect(200, 100, 60, 40))
        term = tree.createNode(.toplevel, name: "term", client: client, parent: output, frame: Rect(10, 10, 30, 20))
        var region = Region(Rect(0, 0, 30, 20))
        region.subtract(Rect(20, 5, 5, 5))
        tree.setInputRegion(term, region)
        scroll = tree.createNode(.subsurface, name: "scroll", client: client, parent: term, frame: Rect(25, 15, 10, 10))
        frame = tree.createNode(.compositor, name: "deco", parent: output, frame: Rect(45, 0, 10, 10))
        clipped = tree.createNode(.toplevel, name: "inner", client: client, parent: frame, frame: Rect(5, 5, 10, 10))
        hidden = tree.createNode(.toplevel, name: "gone", client: client, parent: output, frame: Rect(0, 0, 5, 5))
        tree.setMapped(hidden, false)
    }
}

@Suite struct HitMapTests {
    @Test func pixelsAreColouredByTheNodeThatGetsThePointer() {
        let s = HitScene()
        let map = HitMap(router: s.router, output: s.output)
        #expect(map.width == 60 && map.height == 40)
        func colour(_ n: NodeID) -> UInt32 { HitMap.color(of: n, kind: s.tree.kind(of: n)!) }
        let cases: [(x: Int, y: Int, node: NodeID, why: String)] = [
            (13, 13, s.term, "inside the toplevel"),
            (32, 17, s.output, "the input-region hole shows what is beneath"),
            (38, 28, s.scroll, "the subsurface over its parent"),
            (42, 32, s.scroll, "the subsurface outside its parent still takes input"),
            (52, 7, s.clipped, "the child inside its clipping parent"),
            (57, 12, s.output, "the child's area clipped away by its parent"),
            (52, 3, s.frame, "the decoration itself"),
            (2, 2, s.output, "an unmapped node takes nothing"),
        ]
        for c in cases {
            #expect(map.node(atX: c.x, y: c.y) == c.node, "\(c.why)")
            // The router agrees at the pixel centre, in layout coordinates.
            #expect(s.tree.hitTest(Point(200 + Double(c.x) + 0.5, 100 + Double(c.y) + 0.5))?.node == c.node)
            #expect(map.image[c.x, c.y] == colour(c.node), "\(c.why): \(hex(map.image[c.x, c.y]))")
        }
        #expect(Set(cases.map { colour($0.node) }).count == 5, "distinct colours for distinct nodes")
    }

    @Test func nothingHitIsDark() {
        let s = HitScene()
        s.tree.setAcceptsInput(s.output, false)
        let map = HitMap(router: s.router, output: s.output)
        #expect(map.node(atX: 2, y: 38) == nil)
        #expect(map.image[2, 38] == HitMap.nothingColor)
        #expect(map.entries.first { $0.node == s.output }?.pixels == 0)
    }

    @Test func framesAreOutlinedAndDashedWhereClipped() {
        let s = HitScene()
        let map = HitMap(router: s.router, output: s.output)
        let termEdge = HitMap.edgeColor(HitMap.color(of: s.term, kind: .toplevel))
        #expect(map.image[10, 20] == termEdge) // left edge of the toplevel
        #expect(map.image[25, 10] == termEdge) // top edge
        #expect(map.image[13, 13] != termEdge)
        // The clipped child's right edge (x 59) lies outside its parent: dashed, 3 on, 3 off.
        let innerEdge = HitMap.edgeColor(HitMap.color(of: s.clipped, kind: .toplevel))
        let column = (5..<15).map { map.image[59, $0] == innerEdge }
        #expect(column == [true, true, true, false, false, false, true, true, true, false], "\(column)")
        // Inside its parent it is solid.
        #expect((5..<10).allSatisfy { map.image[50, $0] == innerEdge })
    }

    @Test func legendListsEveryNodeWithKindNameClientAndCount() {
        let s = HitScene()
        let map = HitMap(router: s.router, output: s.output)
        let labels = map.entries.map(\.label)
        let termPixels = map.entries.first { $0.node == s.term }!.pixels
        #expect(labels.contains("#\(s.term.index) toplevel 'term' client 1 'foot' (input region): \(termPixels) px"))
        #expect(labels.contains("#\(s.hidden.index) toplevel 'gone' client 1 'foot' (unmapped): 0 px"))
        #expect(labels.contains { $0.hasPrefix("#\(s.frame.index) compositor 'deco': ") })
        #expect(labels.first!.hasPrefix("#\(s.output.index) output 'DP-1': "))
        // Parents come before their children, topmost child first.
        let order = map.entries.map(\.node)
        #expect(order == [s.output, s.hidden, s.frame, s.clipped, s.term, s.scroll])
        // Every map pixel is counted once.
        #expect(map.entries.reduce(0) { $0 + $1.pixels } == 60 * 40)
        #expect(termPixels == 30 * 20 - 25 - 5 * 5) // minus the hole and the subsurface's corner
    }

    @Test func legendIsDrawnBesideTheMapInTheBuiltInFont() {
        let s = HitScene()
        let map = HitMap(router: s.router, output: s.output)
        #expect(map.image.width > 60 + 100)
        #expect(map.image.height >= 8 + 10 * 12)
        // The first header line starts at (60 + 2 + 8, 8) with 'h': rows "#...." "#...." "#.##.".
        let x = 70
        let y = 8
        #expect(map.image[x, y] == HitMap.textColor && map.image[x, y + 1] == HitMap.textColor)
        #expect(map.image[x + 1, y] == HitMap.legendBackground)
        #expect(map.image[x + 2, y + 2] == HitMap.textColor)
        // A swatch for each entry in its node's colour.
        let entriesTop = 8 + 4 * 12 + 12
        for (i, e) in map.entries.enumerated() {
            #expect(map.image[x + e.depth * 8 + 5, entriesTop + i * 12 + 5] == e.color)
        }
        // Text ink on every legend line.
        for i in 0..<map.entries.count {
            let row = entriesTop + i * 12 + 1
            let ink = (row..<(row + 8)).contains { yy in
                (x..<map.image.width).contains { map.image[$0, yy] == HitMap.textColor }
            }
            #expect(ink, "line \(i)")
        }
    }

    @Test func customContainmentTestShapesTheArea() {
        let router = Router()
        let output = router.tree.createNode(.output, name: "o", frame: Rect(0, 0, 20, 20))
        let round = router.tree.createNode(.compositor, name: "button", parent: output, frame: Rect(0, 0, 20, 20))
        router.tree.setContainmentTest(round) { p in (p.x - 10) * (p.x - 10) + (p.y - 10) * (p.y - 10) < 64 }
        let map = HitMap(router: router, output: output)
        #expect(map.node(atX: 10, y: 10) == round)
        #expect(map.node(atX: 1, y: 1) == output)
        #expect(map.image[1, 1] == HitMap.outputColor)
        #expect(map.entries.last!.label.hasPrefix("#\(round.index) compositor 'button' (custom test): "))
    }

    @Test func serverHitMapCoversItsOutput() throws {
        var config = WaylandServer.Configuration()
        config.outputWidth = 200
        config.outputHeight = 120
        let server = try WaylandServer(configuration: config)
        let map = HitMap(server)
        #expect(map.width == 200 && map.height == 120)
        #expect(map.node(atX: 199, y: 119) == server.outputs[0].node)
        #expect(map.node(atX: 200, y: 0) == nil)
    }

    /// The picture in README: renders the sample scene and compares it with the committed
    /// docs/hit-map-example.png. `HIT_MAP_EXAMPLE=1 swift test --filter exampleHitMap`
    /// writes it afresh.
    @Test func exampleHitMap() throws {
        let map = HitMap(router: ExampleScene.router(), output: ExampleScene.output)
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/hit-map-example.png").standardized.path
        let png = try PNGWriter.encode(map.image)
        if ProcessInfo.processInfo.environment["HIT_MAP_EXAMPLE"] != nil { try PNGWriter.write(map.image, to: path) }
        let committed = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let same = committed == png // (not inside #expect: it would print every byte)
        #expect(same, "docs/hit-map-example.png is stale: HIT_MAP_EXAMPLE=1 swift test --filter exampleHitMap")
        #expect(map.entries.count >= 8)
    }
}

/// The README's scene, in small: a panel, a decorated terminal with a scrollbar, a browser
/// with an input-region hole and a shadow below it, a popup, a clipped tooltip, a hidden window.
enum ExampleScene {
    static let output = NodeID(index: 1, generation: 0)
    static func router() -> Router {
        let router = Router()
        let tree = router.tree
        let term = router.addClient(name: "foot")
        let web = router.addClient(name: "firefox")
        let out = tree.createNode(.output, name: "DP-1", frame: Rect(0, 0, 320, 180))
        precondition(out == output)
        tree.createNode(.compositor, name: "panel", parent: out, frame: Rect(0, 0, 320, 14))
        let deco = tree.createNode(.compositor, name: "term-frame", parent: out, frame: Rect(14, 26, 140, 110))
        let t = tree.createNode(.toplevel, name: "term", client: term, parent: deco, frame: Rect(4, 16, 132, 90))
        tree.createNode(.subsurface, name: "scrollbar", client: term, parent: t, frame: Rect(120, 0, 12, 90))
        tree.createNode(.compositor, name: "tooltip", parent: deco, frame: Rect(100, 90, 70, 30))
        let b = tree.createNode(.toplevel, name: "browser", client: web, parent: out, frame: Rect(176, 40, 124, 96))
        var region = Region(Rect(0, 0, 124, 96))
        region.subtract(Rect(40, 34, 44, 28))
        tree.setInputRegion(b, region)
        tree.createNode(.subsurface, name: "shadow", client: web, parent: b, frame: Rect(8, 8, 124, 96), layer: .below)
        tree.createNode(.popup, name: "menu", client: web, parent: b, frame: Rect(90, 70, 60, 40))
        let gone = tree.createNode(
            .toplevel, name: "minimized", client: term, parent: out, frame: Rect(30, 140, 60, 30))
        tree.setMapped(gone, false)
        return router
    }
}
