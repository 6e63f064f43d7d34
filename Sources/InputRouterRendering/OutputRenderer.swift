// Composites what one output shows into a premultiplied ARGB8888 image: the background,
// every visible node in paint order, and the cursor on top. pixman does the compositing
// (PIXMAN_OP_OVER), as in wlroots' and Weston's software renderers.
//
// Paint order is the reverse of hit-test order: a node's below-children bottom to top,
// then its own content, then its above-children bottom to top. Unmapped nodes are skipped
// with their subtrees; a clipping node clips what its subtree draws to its bounds; opacity
// multiplies down the tree and applies to each surface separately (no group opacity).
import CPixman
import InputRouter
import InputRouterWayland

/// A software renderer of one output: composites the tree bottom to top with pixman into a
/// new image each call (a pass over every visible pixel; not on the input path).
public struct OutputRenderer {
    /// What the pointer looks like on the picture.
    public struct Cursor {
        /// What is drawn at the hotspot.
        public enum Shape {
            /// The built-in arrow (hotspot at its tip, the top-left pixel).
            case arrow
            /// A client's cursor image; the hotspot is drawn at `position`.
            case image(SurfaceImage, hotspotX: Int32, hotspotY: Int32)
            /// The client asked for no cursor.
            case hidden
            /// A cursor by name (cursor-shape-v1), drawn from `OutputRenderer.cursorTheme`
            /// with its hotspot at `position`: `auto` is `default`, `none` draws nothing, and
            /// a shape the theme lacks is the built-in arrow.
            case named(CursorShape)
        }
        /// Layout coordinates of the hotspot.
        public var position: Point
        /// What the pointer looks like.
        public var shape: Shape
        /// A cursor of `shape` with its hotspot at `position` (layout space).
        public init(position: Point, shape: Shape) {
            self.position = position
            self.shape = shape
        }
    }

    /// Straight-alpha 0xAARRGGBB under everything.
    public var background: UInt32
    /// The fill of an output or compositor node (panel, decoration), straight-alpha
    /// 0xAARRGGBB; nil: the node draws nothing of its own (its children still draw).
    public var compositorColor: (NodeID) -> UInt32?
    /// Text drawn in the built-in font in a compositor node: 4 pixels from its left edge,
    /// centred in its top `titleBarHeight` rows (the whole node when it is shorter).
    public var title: (NodeID) -> String?
    /// The rows of a compositor node a title is centred in.
    public var titleBarHeight = 16
    /// Straight-alpha 0xAARRGGBB of titles.
    public var titleColor: UInt32
    /// Where named cursors (`Cursor.Shape.named`) are drawn from: the system's theme, as
    /// XCURSOR_THEME, XCURSOR_SIZE and XCURSOR_PATH say (XCursorTheme.swift).
    public var cursorTheme = XCursorTheme()

    /// A renderer with these colours; every parameter is also a `var`.
    public init(
        background: UInt32 = 0xff20_2428,
        compositorColor: @escaping (NodeID) -> UInt32? = { _ in nil },
        title: @escaping (NodeID) -> String? = { _ in nil },
        titleColor: UInt32 = 0xffff_ffff
    ) {
        self.background = background
        self.compositorColor = compositorColor
        self.title = title
        self.titleColor = titleColor
    }

    /// The picture of `output` (its frame's size), with client surfaces' pixels from
    /// `images` scaled to each node's logical size, and `cursor` on top (nil: none). Only
    /// the output's own subtree is drawn.
    public func render(
        tree: SurfaceTree, output: NodeID, images: (NodeID) -> SurfaceImage?, cursor: Cursor?,
        dragIcon: (image: SurfaceImage, position: Point)? = nil
    ) -> SurfaceImage {
        guard let frame = tree.frame(of: output), let origin = tree.layoutPosition(of: output) else {
            return SurfaceImage(width: 0, height: 0, pixels: [])
        }
        let area = Rect(Int32(origin.x), Int32(origin.y), frame.width, frame.height)
        // The output node sits at (0, 0) of the picture.
        return picture(
            tree: tree, area: area, nodes: tree.isMapped(output) ? [output] : [], images: images,
            cursors: cursor.map { [$0] } ?? [], dragIcons: dragIcon.map { [$0] } ?? [])
    }

    /// The picture of `area` of the layout: everything under the tree's root (outputs,
    /// the window layer, the embedder's own top-level nodes) in paint order. Where no
    /// output is (a gap in the layout), the background shows.
    public func render(
        tree: SurfaceTree, area: Rect, images: (NodeID) -> SurfaceImage?, cursor: Cursor?,
        dragIcon: (image: SurfaceImage, position: Point)? = nil
    ) -> SurfaceImage {
        render(
            tree: tree, area: area, images: images, cursors: cursor.map { [$0] } ?? [],
            dragIcons: dragIcon.map { [$0] } ?? [])
    }

    /// `render(tree:area:images:cursor:dragIcon:)` with several cursors (one per seat),
    /// drawn in order on top.
    public func render(
        tree: SurfaceTree, area: Rect, images: (NodeID) -> SurfaceImage?, cursors: [Cursor],
        dragIcon: (image: SurfaceImage, position: Point)? = nil
    ) -> SurfaceImage {
        render(tree: tree, area: area, images: images, cursors: cursors, dragIcons: dragIcon.map { [$0] } ?? [])
    }

    /// `render(tree:area:images:cursors:dragIcon:)` with several drag icons (each seat drags
    /// on its own: one icon per seat that has one), drawn under the cursors.
    public func render(
        tree: SurfaceTree, area: Rect, images: (NodeID) -> SurfaceImage?, cursors: [Cursor],
        dragIcons: [(image: SurfaceImage, position: Point)]
    ) -> SurfaceImage {
        picture(
            tree: tree, area: area, nodes: tree.childrenBelow(of: tree.root) + tree.childrenAbove(of: tree.root),
            images: images, cursors: cursors, dragIcons: dragIcons)
    }

    private func picture(
        tree: SurfaceTree, area: Rect, nodes: [NodeID], images: (NodeID) -> SurfaceImage?, cursors: [Cursor],
        dragIcons: [(image: SurfaceImage, position: Point)]
    ) -> SurfaceImage {
        let w = max(0, Int(area.width))
        let h = max(0, Int(area.height))
        var pixels = [UInt32](repeating: premultiplied(background), count: w * h)
        guard w > 0, h > 0 else { return SurfaceImage(width: w, height: h, pixels: pixels) }
        withoutActuallyEscaping(images) { images in
            pixels.withUnsafeMutableBufferPointer { buffer in
                guard
                    let dest = pixman_image_create_bits(
                        PIXMAN_a8r8g8b8, Int32(w), Int32(h), buffer.baseAddress, Int32(w * 4))
                else { return }
                defer { pixman_image_unref(dest) }
                let painter = Painter(
                    tree: tree, images: images, renderer: self, dest: dest,
                    canvas: Canvas(pixels: buffer, width: w, height: h))
                for node in nodes {
                    guard let p = tree.layoutPosition(of: node) else { continue }
                    painter.paint(
                        node, at: (Int(p.x) - Int(area.x), Int(p.y) - Int(area.y)),
                        clip: PixelRect(x: 0, y: 0, width: w, height: h), opacity: 1)
                }
                // A drag's icon goes under the cursors, its corner at its seat's pointer.
                for icon in dragIcons {
                    let shape = OutputRenderer.Cursor.Shape.image(icon.image, hotspotX: 0, hotspotY: 0)
                    painter.paintCursor(
                        OutputRenderer.Cursor(position: icon.position, shape: shape),
                        at: (
                            Int((icon.position.x - Double(area.x)).rounded(.down)),
                            Int((icon.position.y - Double(area.y)).rounded(.down))
                        ))
                }
                for cursor in cursors {
                    painter.paintCursor(
                        cursor,
                        at: (
                            Int((cursor.position.x - Double(area.x)).rounded(.down)),
                            Int((cursor.position.y - Double(area.y)).rounded(.down))
                        ))
                }
            }
        }
        return SurfaceImage(width: w, height: h, pixels: pixels)
    }

    /// The server's layout as its user sees it: the bounding box of its outputs, client
    /// buffers as `pixels` kept them, each seat's pointer where that seat has it (the first
    /// seat's always, the others' while they have a pointer device), shaped as the client
    /// with that seat's pointer focus asked (a surface, or a shape from `cursorTheme`; else
    /// the built-in arrow), and each seat's drag icon under the cursors. With one output,
    /// that output's picture.
    public func render(_ server: WaylandServer, pixels: SurfacePixels) -> SurfaceImage {
        render(server, pixels: pixels, area: OutputLayout(server.outputs.map(\.frame)).boundingBox)
    }

    /// One output of the server, as `render(_:pixels:)` draws the layout (windows reaching
    /// onto it from a neighbour included).
    public func render(_ server: WaylandServer, output: NodeID, pixels: SurfacePixels) -> SurfaceImage {
        render(server, pixels: pixels, area: server.outputs.first { $0.node == output }?.frame ?? Rect(0, 0, 0, 0))
    }

    private func render(_ server: WaylandServer, pixels: SurfacePixels, area: Rect) -> SurfaceImage {
        let cursors = server.seats.enumerated().compactMap { i, seat -> Cursor? in
            guard i == 0 || seat.presentCapabilities.contains(.pointer) else { return nil }
            return Cursor(position: seat.cursor, shape: pixels.clientCursor(on: seat))
        }
        let icons = server.seats.compactMap { seat -> (image: SurfaceImage, position: Point)? in
            server.dragIcon(on: seat).flatMap { icon in
                pixels.image(ofSurface: icon.surface).map { ($0, icon.position) }
            }
        }
        return render(
            tree: server.router.tree, area: area, images: { pixels.image(of: $0) }, cursors: cursors,
            dragIcons: icons)
    }
}

extension OutputRenderer.Cursor.Shape {
    /// What a client's cursor request asks for (`WaylandServer.clientCursor`, with the
    /// surface's pixels; `SurfacePixels.clientCursor`): nil (no client cursor) is the
    /// built-in arrow; hidden, or a cursor surface with nothing committed, draws nothing.
    public init(clientCursor c: (image: SurfaceImage?, hotspotX: Int32, hotspotY: Int32, hidden: Bool)?) {
        guard let c else {
            self = .arrow
            return
        }
        if !c.hidden, let image = c.image {
            self = .image(image, hotspotX: c.hotspotX, hotspotY: c.hotspotY)
        } else {
            self = .hidden
        }
    }
}

/// One rendering pass: walks the tree and composites into `dest`.
private struct Painter {
    let tree: SurfaceTree
    let images: (NodeID) -> SurfaceImage?
    let renderer: OutputRenderer
    let dest: OpaquePointer
    let canvas: Canvas

    /// Paints `node` whose origin is at `origin` in picture pixels, inside `clip`.
    func paint(_ node: NodeID, at origin: (x: Int, y: Int), clip: PixelRect, opacity: Float) {
        guard tree.isMapped(node), let frame = tree.frame(of: node), let kind = tree.kind(of: node) else { return }
        let alpha = opacity * max(0, min(1, tree.opacity(of: node) ?? 1))
        let bounds = PixelRect(x: origin.x, y: origin.y, width: Int(frame.width), height: Int(frame.height))
        let childClip = tree.clipsChildren(node) ? clip.intersection(bounds) : clip
        for child in tree.childrenBelow(of: node) { paintChild(child, parent: origin, clip: childClip, opacity: alpha) }
        let visible = clip.intersection(bounds)
        if !visible.isEmpty && alpha > 0 {
            if kind.isClientSurface {
                if let image = images(node) { composite(image, into: bounds, clip: visible, opacity: alpha) }
            } else {
                if let color = renderer.compositorColor(node) {
                    composite(color: premultiplied(color), rect: visible, opacity: alpha)
                }
                if let title = renderer.title(node), !title.isEmpty {
                    let bar = min(bounds.height, renderer.titleBarHeight)
                    let y = bounds.y0 + max(0, (bar - BitmapFont.glyphHeight) / 2)
                    canvas.text(
                        title, x: bounds.x0 + 4, y: y, premultiplied(scaled(renderer.titleColor, alpha)), clip: visible)
                }
            }
        }
        for child in tree.childrenAbove(of: node) { paintChild(child, parent: origin, clip: childClip, opacity: alpha) }
    }

    private func paintChild(_ child: NodeID, parent: (x: Int, y: Int), clip: PixelRect, opacity: Float) {
        guard let f = tree.frame(of: child) else { return }
        paint(child, at: (parent.x + Int(f.x), parent.y + Int(f.y)), clip: clip, opacity: opacity)
    }

    /// A straight-alpha colour with its alpha multiplied by `opacity`.
    private func scaled(_ argb: UInt32, _ opacity: Float) -> UInt32 {
        let a = UInt32((Float(argb >> 24) * opacity).rounded())
        return min(a, 255) << 24 | argb & 0x00ff_ffff
    }

    /// `image` stretched over `bounds`, drawn where `clip` allows.
    func composite(_ image: SurfaceImage, into bounds: PixelRect, clip: PixelRect, opacity: Float) {
        guard image.width > 0, image.height > 0, image.pixels.count >= image.width * image.height,
            bounds.width > 0, bounds.height > 0
        else { return }
        image.pixels.withUnsafeBufferPointer { px in
            // pixman only reads a source image; the cast does not let it write.
            guard
                let src = pixman_image_create_bits(
                    PIXMAN_a8r8g8b8, Int32(image.width), Int32(image.height),
                    UnsafeMutablePointer(mutating: px.baseAddress), Int32(image.width * 4))
            else { return }
            defer { pixman_image_unref(src) }
            if image.width != bounds.width || image.height != bounds.height {
                // Picture pixels to buffer pixels: the buffer shown at the node's logical size.
                var t = pixman_transform()
                pixman_transform_init_scale(
                    &t, fixed(Double(image.width) / Double(bounds.width)),
                    fixed(Double(image.height) / Double(bounds.height)))
                pixman_image_set_transform(src, &t)
                pixman_image_set_filter(src, PIXMAN_FILTER_BILINEAR, nil, 0)
                pixman_image_set_repeat(src, PIXMAN_REPEAT_PAD)
            }
            withMask(opacity) { mask in
                pixman_image_composite32(
                    PIXMAN_OP_OVER, src, mask, dest, Int32(clip.x0 - bounds.x0), Int32(clip.y0 - bounds.y0), 0, 0,
                    Int32(clip.x0), Int32(clip.y0), Int32(clip.width), Int32(clip.height))
            }
        }
    }

    /// A premultiplied colour over `rect`.
    func composite(color: UInt32, rect: PixelRect, opacity: Float) {
        var c = pixmanColor(color)
        guard let src = pixman_image_create_solid_fill(&c) else { return }
        defer { pixman_image_unref(src) }
        withMask(opacity) { mask in
            pixman_image_composite32(
                PIXMAN_OP_OVER, src, mask, dest, 0, 0, 0, 0, Int32(rect.x0), Int32(rect.y0), Int32(rect.width),
                Int32(rect.height))
        }
    }

    /// nil for full opacity, else a solid mask of that alpha.
    private func withMask(_ opacity: Float, _ body: (OpaquePointer?) -> Void) {
        if opacity >= 1 {
            body(nil)
            return
        }
        let a = UInt32((max(0, opacity) * 255).rounded())
        var c = pixmanColor(a << 24)
        let mask = pixman_image_create_solid_fill(&c)
        defer { if let mask { pixman_image_unref(mask) } }
        body(mask)
    }

    func paintCursor(_ cursor: OutputRenderer.Cursor, at p: (x: Int, y: Int)) {
        let all = canvas.bounds
        switch cursor.shape {
        case .hidden:
            return
        case .arrow:
            paintArrow(at: p)
        case .image(let image, let hx, let hy):
            let r = PixelRect(x: p.x - Int(hx), y: p.y - Int(hy), width: image.width, height: image.height)
            composite(image, into: r, clip: r.intersection(all), opacity: 1)
        case .named(let shape):
            if shape == .none { return }
            guard let themed = renderer.cursorTheme.image(for: shape) else { return paintArrow(at: p) }
            let image = themed.image
            let r = PixelRect(
                x: p.x - Int(themed.hotspotX), y: p.y - Int(themed.hotspotY), width: image.width, height: image.height)
            composite(image, into: r, clip: r.intersection(all), opacity: 1)
        }
    }

    private func paintArrow(at p: (x: Int, y: Int)) {
        let arrow = BuiltinCursor.arrow
        let r = PixelRect(x: p.x, y: p.y, width: arrow.width, height: arrow.height)
        composite(arrow, into: r, clip: r.intersection(canvas.bounds), opacity: 1)
    }
}

private func fixed(_ d: Double) -> pixman_fixed_t { pixman_fixed_t((d * 65536).rounded()) }

/// pixman's 16-bit premultiplied channels from a premultiplied 0xAARRGGBB.
private func pixmanColor(_ c: UInt32) -> pixman_color_t {
    func ch(_ shift: UInt32) -> UInt16 { UInt16(c >> shift & 0xff) * 257 }
    return pixman_color_t(red: ch(16), green: ch(8), blue: ch(0), alpha: ch(24))
}

/// The compositor's own pointer, drawn when no client set one.
public enum BuiltinCursor {
    /// A 12×19 arrow, black outline and white fill, its hotspot at the tip (0, 0).
    public static let arrow: SurfaceImage = {
        let art = [
            "B...........",
            "BB..........",
            "BWB.........",
            "BWWB........",
            "BWWWB.......",
            "BWWWWB......",
            "BWWWWWB.....",
            "BWWWWWWB....",
            "BWWWWWWWB...",
            "BWWWWWWWWB..",
            "BWWWWWWWWWB.",
            "BWWWWWWBBBBB",
            "BWWWBWWB....",
            "BWWBBWWB....",
            "BWB..BWWB...",
            "BB...BWWB...",
            "B.....BWWB..",
            "......BWWB..",
            ".......BB...",
        ]
        let pixels = art.flatMap { row in
            row.map { ch -> UInt32 in ch == "B" ? 0xff00_0000 : ch == "W" ? 0xffff_ffff : 0 }
        }
        return SurfaceImage(width: 12, height: art.count, pixels: pixels)
    }()
}
