// A picture of where input goes: each pixel of an output coloured by the node that a
// pointer event at that pixel's centre would reach (the tree's own `hitTest`), with each
// visible node's frame outlined and a legend beside it. Input-region holes show the colour
// of whatever takes the point instead; a child's frame outline is dashed where a clipping
// ancestor cuts it off, so the area it loses is plain to see.
import InputRouter
import InputRouterWayland

/// Which node each pixel of an output sends pointer events to, as a picture with a legend:
/// each pixel is hit-tested through the router (one hit-test per pixel: a debugging tool,
/// not for a frame loop). docs/rendering.md.
public struct HitMap {
    /// One node of the output's subtree, as the legend lists it.
    public struct Entry: Sendable {
        /// The node the pixels of this colour reach.
        public var node: NodeID
        /// Opaque 0xAARRGGBB of its pixels.
        public var color: UInt32
        /// What the legend says: "#3 toplevel 'wev' client 2 'wev': 1200 px".
        public var label: String
        /// Map pixels whose pointer events it would receive.
        public var pixels: Int
        /// Depth below the output (the legend indents by it).
        public var depth: Int
    }

    /// Pixels where nothing takes input.
    public static let nothingColor: UInt32 = 0xff0a_0a0c
    /// The output's own area (hit when no node above it takes the point).
    public static let outputColor: UInt32 = 0xff3a_3a42
    static let legendBackground: UInt32 = 0xff1c_1c20
    static let textColor: UInt32 = 0xffe8_e8e8
    /// Kelly's colours of maximum contrast (without white, black and olive green), ordered
    /// so that nodes created one after another (neighbouring slot indices) differ in hue.
    public static let palette: [UInt32] = [
        0xffff_b300, 0xff80_3e75, 0xff00_7d34, 0xffff_6800, 0xffa6_bdd7, 0xffc1_0020, 0xff93_aa00,
        0xff00_538a, 0xfff6_768e, 0xffce_a262, 0xff53_377a, 0xfff1_3a13, 0xfff4_c800, 0xffb3_2851,
        0xff81_7066, 0xffff_8e00, 0xff7f_180d, 0xffff_7a5c, 0xff59_3315,
    ]

    /// The colour of `node` in every hit map: stable for its slot index.
    public static func color(of node: NodeID, kind: NodeKind) -> UInt32 {
        kind == .output ? outputColor : palette[Int(node.index) % palette.count]
    }

    /// The output's width: the map occupies `(0, 0, width, height)` of `image`.
    public let width: Int
    /// The output's height.
    public let height: Int
    /// The map with the legend panel to its right.
    public private(set) var image: SurfaceImage
    /// The legend's lines, in its order: the output, then each node followed by its
    /// children, topmost first.
    public private(set) var entries: [Entry] = []
    private var hits: [NodeID?]

    /// The node a pointer event at the centre of map pixel (x, y) reaches; nil: none.
    public func node(atX x: Int, y: Int) -> NodeID? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        return hits[y * width + x]
    }

    /// The server's layout (the bounding box of its outputs); toplevels are named by their
    /// title (else their app id). The legend lists the outputs, then the windows.
    public init(_ server: WaylandServer) {
        let tree = server.router.tree
        let outputs = server.outputs
        let tops =
            outputs.map(\.node) + tree.childrenAbove(of: server.outputNode).reversed()
            + tree.childrenBelow(of: server.outputNode).reversed()
        self.init(
            router: server.router, area: OutputLayout(outputs.map(\.frame)).boundingBox, tops: tops,
            title: outputs.count == 1 ? "'\(outputs[0].name)'" : "the layout"
        ) { node in
            guard let t = server.toplevelTitle(of: node) else { return nil }
            return t.title.isEmpty ? t.appID : t.title
        }
    }

    /// Hit-tests the centre of every pixel of `output` through `router.tree`. `name` may
    /// give a node a better name for the legend than its tree name (nil or empty: the
    /// tree's).
    public init(router: Router, output: NodeID, name: (NodeID) -> String? = { _ in nil }) {
        let tree = router.tree
        let frame = tree.frame(of: output) ?? Rect(0, 0, 0, 0)
        let origin = tree.layoutPosition(of: output) ?? .zero
        self.init(
            router: router, area: Rect(Int32(origin.x), Int32(origin.y), frame.width, frame.height),
            tops: tree.isAlive(output) ? [output] : [],
            title: tree.name(of: output).map { "'\($0)'" } ?? "output", name: name)
    }

    /// Hit-tests the centre of every pixel of `area` (layout space); the legend lists each
    /// of `tops` with its subtree, in that order.
    init(router: Router, area: Rect, tops: [NodeID], title: String, name: (NodeID) -> String?) {
        let tree = router.tree
        let origin = Point(Double(area.x), Double(area.y))
        width = max(0, Int(area.width))
        height = max(0, Int(area.height))
        hits = [NodeID?](repeating: nil, count: width * height)
        var counts: [NodeID: Int] = [:]
        for y in 0..<height {
            for x in 0..<width {
                let hit = tree.hitTest(Point(origin.x + Double(x) + 0.5, origin.y + Double(y) + 0.5))?.node
                hits[y * width + x] = hit
                if let hit { counts[hit, default: 0] += 1 }
            }
        }

        // The legend's entries: the output's subtree, parents before children, topmost first.
        var entries: [Entry] = []
        var outlines: [(rect: PixelRect, clip: PixelRect, color: UInt32)] = []
        func visit(_ node: NodeID, depth: Int, at o: (x: Int, y: Int), clip: PixelRect, visible: Bool) {
            guard let kind = tree.kind(of: node), let f = tree.frame(of: node) else { return }
            let color = HitMap.color(of: node, kind: kind)
            entries.append(
                Entry(
                    node: node, color: color,
                    label: HitMap.label(
                        node, kind: kind, name: name(node), tree: tree, router: router, pixels: counts[node] ?? 0),
                    pixels: counts[node] ?? 0, depth: depth))
            let shown = visible && tree.isMapped(node)
            let rect = PixelRect(x: o.x, y: o.y, width: Int(f.width), height: Int(f.height))
            if shown && (depth > 0 || kind != .output) { outlines.append((rect, clip, color)) }
            let childClip = tree.clipsChildren(node) ? clip.intersection(rect) : clip
            for child in tree.childrenAbove(of: node).reversed() + tree.childrenBelow(of: node).reversed() {
                guard let cf = tree.frame(of: child) else { continue }
                visit(child, depth: depth + 1, at: (o.x + Int(cf.x), o.y + Int(cf.y)), clip: childClip, visible: shown)
            }
        }
        let mapBounds = PixelRect(x: 0, y: 0, width: width, height: height)
        for top in tops {
            guard let p = tree.layoutPosition(of: top) else { continue }
            visit(top, depth: 0, at: (Int(p.x) - Int(area.x), Int(p.y) - Int(area.y)), clip: mapBounds, visible: true)
        }
        self.entries = entries

        // Layout: the map, a 2-pixel gap, the legend.
        let header = [
            "hit map of \(title) \(width)x\(height)",
            "colour: who gets a pointer event there",
            "outline: frame (dashed: clipped away)",
        ]
        let lineHeight = 12
        let margin = 8
        let swatch = 10
        let indent = 8
        let textWidths =
            header.map { BitmapFont.width(of: $0) }
            + entries.map { BitmapFont.width(of: $0.label) + swatch + 4 + $0.depth * indent }
            + [BitmapFont.width(of: "nothing: no node takes input") + swatch + 4]
        let legendWidth = margin * 2 + (textWidths.max() ?? 0)
        let legendHeight = margin * 2 + (header.count + 1 + 1 + entries.count) * lineHeight
        let totalWidth = width + 2 + legendWidth
        let totalHeight = max(height, legendHeight)
        var pixels = [UInt32](repeating: HitMap.legendBackground, count: totalWidth * totalHeight)
        let hitsCopy = hits
        let w = width
        let h = height
        pixels.withUnsafeMutableBufferPointer { buffer in
            let canvas = Canvas(pixels: buffer, width: totalWidth, height: totalHeight)
            canvas.fill(PixelRect(x: w, y: 0, width: 2, height: totalHeight), 0xff00_0000)
            if h < totalHeight { canvas.fill(PixelRect(x: 0, y: h, width: w, height: totalHeight - h), 0xff00_0000) }
            for y in 0..<h {
                for x in 0..<w {
                    let color: UInt32
                    if let n = hitsCopy[y * w + x] {
                        color = HitMap.color(of: n, kind: tree.kind(of: n) ?? .compositor)
                    } else {
                        color = HitMap.nothingColor
                    }
                    buffer[y * totalWidth + x] = color
                }
            }
            for o in outlines {
                HitMap.outline(o.rect, clip: o.clip.intersection(mapBounds), HitMap.edgeColor(o.color), canvas)
            }

            var y = margin
            let x0 = w + 2 + margin
            for line in header {
                canvas.text(line, x: x0, y: y, HitMap.textColor)
                y += lineHeight
            }
            y += lineHeight
            canvas.fill(PixelRect(x: x0, y: y, width: swatch, height: swatch), HitMap.nothingColor)
            canvas.outline(PixelRect(x: x0, y: y, width: swatch, height: swatch), 0xff80_8080)
            canvas.text("nothing: no node takes input", x: x0 + swatch + 4, y: y + 1, HitMap.textColor)
            y += lineHeight
            for e in entries {
                let x = x0 + e.depth * indent
                canvas.fill(PixelRect(x: x, y: y, width: swatch, height: swatch), e.color)
                canvas.outline(PixelRect(x: x, y: y, width: swatch, height: swatch), HitMap.edgeColor(e.color))
                canvas.text(e.label, x: x + swatch + 4, y: y + 1, HitMap.textColor)
                y += lineHeight
            }
        }
        image = SurfaceImage(width: totalWidth, height: totalHeight, pixels: pixels)
    }

    /// Writes the map and its legend as a PNG file.
    public func writePNG(to path: String) throws { try PNGWriter.write(image, to: path) }

    /// "#3 toplevel 'wev' client 2 'wev' (input region): 1200 px"
    static func label(
        _ node: NodeID, kind: NodeKind, name: String?, tree: SurfaceTree, router: Router, pixels: Int
    ) -> String {
        var s = "#\(node.index) "
        switch kind {
        case .output: s += "output"
        case .compositor: s += "compositor"
        default: s += kind.description
        }
        let nodeName = name.flatMap { $0.isEmpty ? nil : $0 } ?? tree.name(of: node) ?? ""
        if !nodeName.isEmpty { s += " '\(nodeName)'" }
        if let client = tree.client(of: node), !client.isCompositor {
            s += " client \(client.index)"
            let clientName = router.name(of: client)
            if !clientName.isEmpty && clientName != nodeName { s += " '\(clientName)'" }
        }
        var notes: [String] = []
        if tree.layer(of: node) == .below { notes.append("below") }
        if !tree.isMapped(node) { notes.append("unmapped") }
        if !tree.acceptsInput(node) { notes.append("no input") }
        if let o = tree.opacity(of: node), o < tree.opacityThreshold { notes.append("transparent") }
        if tree.hasContainmentTest(node) {
            notes.append("custom test")
        } else if tree.inputRegion(of: node) != nil {
            notes.append("input region")
        }
        if !notes.isEmpty { s += " (" + notes.joined(separator: ", ") + ")" }
        return s + ": \(pixels) px"
    }

    /// An edge that stands out from the fill: darker for light colours, lighter for dark.
    static func edgeColor(_ c: UInt32) -> UInt32 {
        let r = Double(c >> 16 & 0xff)
        let g = Double(c >> 8 & 0xff)
        let b = Double(c & 0xff)
        let light = 0.299 * r + 0.587 * g + 0.114 * b > 140
        func ch(_ v: Double) -> UInt32 { UInt32(light ? v * 0.35 : v + (255 - v) * 0.6) }
        return 0xff00_0000 | ch(r) << 16 | ch(g) << 8 | ch(b)
    }

    /// A one-pixel frame; outside `clip` it is dashed (3 on, 3 off).
    static func outline(_ rect: PixelRect, clip: PixelRect, _ color: UInt32, _ canvas: Canvas) {
        guard !rect.isEmpty else { return }
        func dot(_ x: Int, _ y: Int, _ along: Int) {
            guard x >= 0, y >= 0, x < canvas.width, y < canvas.height else { return }
            let inside = x >= clip.x0 && x < clip.x1 && y >= clip.y0 && y < clip.y1
            if inside || (along / 3) % 2 == 0 { canvas.blend(x, y, color) }
        }
        for x in rect.x0..<rect.x1 {
            dot(x, rect.y0, x - rect.x0)
            dot(x, rect.y1 - 1, x - rect.x0)
        }
        for y in rect.y0..<rect.y1 {
            dot(rect.x0, y, y - rect.y0)
            dot(rect.x1 - 1, y, y - rect.y0)
        }
    }
}
