// Where the outputs sit in layout space, and the geometry questions every layer asks of
// them: which output holds a point, the nearest point on some output (the cursor never
// leaves the outputs, and never stops in a gap between them), where absolute input lands,
// which outputs a surface overlaps, and where a window goes when its output is unplugged.
//
// The frames may form any union: side by side, stacked, offset, with gaps or overlaps. The
// nearest point is the one wlroots' `wlr_output_layout_closest_point` finds: clamp into
// each output, keep the closest; a point already on an output stays where it is. The seat
// keeps one of these, rebuilt from the tree's mapped output nodes on every scene change.

/// The outputs' frames in layout space, in tree order. A plain value with no I/O.
public struct OutputLayout: Equatable, Sendable {
    /// Each mapped output's frame in layout space, in tree order.
    public var frames: [Rect]

    /// A layout of the given frames; the seat builds its own on scene changes.
    public init(_ frames: [Rect] = []) { self.frames = frames }

    /// True with no mapped output (then the cursor is not clamped to any).
    public var isEmpty: Bool { frames.isEmpty }

    /// The smallest rectangle holding every output (gaps included); empty with no output.
    /// Computed in 64 bits: outputs far apart (or absurdly large) must not overflow it.
    public var boundingBox: Rect {
        guard var box = frames.first else { return Rect(0, 0, 0, 0) }
        for r in frames.dropFirst() {
            let x2 = max(Int64(box.x) + Int64(box.width), Int64(r.x) + Int64(r.width))
            let y2 = max(Int64(box.y) + Int64(box.height), Int64(r.y) + Int64(r.height))
            box.x = min(box.x, r.x)
            box.y = min(box.y, r.y)
            box.width = Int32(clamping: x2 - Int64(box.x))
            box.height = Int32(clamping: y2 - Int64(box.y))
        }
        return box
    }

    /// The index of the first output whose frame holds `p` (floor rule); nil: a gap or
    /// outside every output.
    public func output(at p: Point) -> Int? {
        frames.firstIndex { !$0.isEmpty && $0.contains(p) }
    }

    /// The nearest point that lies on some output; `p` itself when it already does. The
    /// right and bottom edges are exclusive, so a clamped point stops 1/256 pixel (one
    /// `wl_fixed` step) inside them. With no output, `p` unchanged.
    public func closestPoint(to p: Point) -> Point {
        guard !frames.isEmpty else { return p }
        var best = p
        var bestDistance = Double.infinity
        for r in frames where !r.isEmpty {
            let x = min(max(p.x, Double(r.x)), Double(r.x) + Double(r.width) - 1 / 256)
            let y = min(max(p.y, Double(r.y)), Double(r.y) + Double(r.height) - 1 / 256)
            let d = (x - p.x) * (x - p.x) + (y - p.y) * (y - p.y)
            if d < bestDistance {
                bestDistance = d
                best = Point(x, y)
            }
            if d == 0 { break }
        }
        return best
    }

    /// Absolute device coordinates (0...1 on each axis, clamped; NaN is 0) in layout space:
    /// on output `index` when given (a touch screen mapped to its own output), else across
    /// the bounding box.
    public func mapAbsolute(x: Double, y: Double, onto index: Int? = nil) -> Point {
        let r = index.map { frames[$0] } ?? boundingBox
        return OutputLayout.map(x: x, y: y, onto: r)
    }

    /// Absolute device coordinates onto `r`.
    @inline(__always) public static func map(x: Double, y: Double, onto r: Rect) -> Point {
        let cx = unitClamp(x)
        let cy = unitClamp(y)
        return Point(Double(r.x) + cx * Double(r.width), Double(r.y) + cy * Double(r.height))
    }

    /// `x.isFinite ? min(max(x, 0), 1) : 0` in plain comparisons: that spelling compiled
    /// to about 35 instructions of bit tests per axis (the finiteness check and the
    /// clamps classified together), once per touch or absolute event. `max(x, 0)` is
    /// `0 >= x ? 0 : x` (so -0.0 gives +0.0) and `min(v, 1)` is `1 < v ? 1 : v`; NaN fails
    /// every comparison and ends at 0, as do both infinities.
    @inline(__always) static func unitClamp(_ x: Double) -> Double {
        if x > 0 && x <= 1 { return x }
        if x > 1 { return x == .infinity ? 0 : 1 }
        return 0
    }

    /// Bit `i` set when `rect` shares at least one pixel with output `i` (the first 64
    /// outputs): what `wl_surface.enter` and `leave` follow.
    public func outputs(overlapping rect: Rect) -> UInt64 {
        var mask: UInt64 = 0
        for (i, r) in frames.enumerated().prefix(64) where OutputLayout.overlap(r, rect) { mask |= 1 << UInt64(i) }
        return mask
    }

    /// Whether `a` and `b` share at least one pixel.
    public static func overlap(_ a: Rect, _ b: Rect) -> Bool {
        guard !a.isEmpty, !b.isEmpty else { return false }
        return Int64(a.x) < Int64(b.x) + Int64(b.width) && Int64(b.x) < Int64(a.x) + Int64(a.width)
            && Int64(a.y) < Int64(b.y) + Int64(b.height) && Int64(b.y) < Int64(a.y) + Int64(a.height)
    }

    /// Where a new output goes when no position is asked for: to the right of everything,
    /// top edge at 0 (the first output at the origin). This is the side-by-side,
    /// left-to-right order of repeated `--output` options.
    public var nextPosition: (x: Int32, y: Int32) {
        guard !frames.isEmpty else { return (0, 0) }
        let right = frames.map { Int64($0.x) + Int64(max($0.width, 0)) }.max() ?? 0
        return (Int32(clamping: right), 0)
    }

    /// Where a window with layout frame `window` goes once the output `removed` is gone
    /// and `self` holds the outputs left. A window still sharing a pixel with a remaining
    /// output stays (part of it is on screen, and a press can reach it). Otherwise it moves
    /// onto the first remaining output, keeping its offset from the removed output's origin
    /// where it fits and pulled inside (top-left first) where it does not. nil: it stays.
    public func relocation(of window: Rect, from removed: Rect) -> (x: Int32, y: Int32)? {
        guard let target = frames.first(where: { !$0.isEmpty }) else { return nil }
        if frames.contains(where: { OutputLayout.overlap($0, window) }) { return nil }
        let dx = Int64(window.x) - Int64(removed.x)
        let dy = Int64(window.y) - Int64(removed.y)
        func place(_ offset: Int64, _ size: Int32, _ origin: Int32, _ extent: Int32) -> Int32 {
            let room = Int64(extent) - Int64(max(size, 0))
            let inside = room <= 0 ? 0 : min(max(offset, 0), room)
            return Int32(clamping: Int64(origin) + inside)
        }
        return (place(dx, window.width, target.x, target.width), place(dy, window.height, target.y, target.height))
    }
}
