// Where an interactive move may put a window: never off every output. The cursor cannot
// leave the outputs, but a grab anchored away from the window (or a window wider than the
// gap it is dragged into) could carry the window's top edge, its title bar, out of reach;
// then no press could ever bring it back. Weston and sway keep part of a dragged window on
// screen for the same reason.
extension Seat {
    /// `position` (in the node's parent's coordinates) moved as little as needed so that
    /// the node's top edge lies on some output and at least `moveKeepsVisible` pixels of
    /// its top strip (the node's width, if narrower) overlap that output horizontally,
    /// with `moveKeepsVisible` rows below the edge inside it. Without outputs, unchanged.
    func keepingReachable(_ node: NodeID, at position: (x: Int32, y: Int32)) -> (x: Int32, y: Int32) {
        guard !layoutRects.isEmpty, let size = tree.frame(of: node) else { return position }
        let parent = tree.parent(of: node).flatMap(tree.layoutPosition(of:)) ?? .zero
        let px = Int64(parent.x.rounded(.down))
        let py = Int64(parent.y.rounded(.down))
        let x = Int64(position.x) + px
        let y = Int64(position.y) + py
        let w = Int64(max(size.width, 1))
        let keep = Int64(max(moveKeepsVisible, 1))
        var best: (x: Int64, y: Int64)? = nil
        var bestDistance = Int64.max
        for r in layoutRects where !r.isEmpty {
            let ox = Int64(r.x)
            let oy = Int64(r.y)
            let ow = Int64(r.width)
            let oh = Int64(r.height)
            let across = min(keep, w, ow)
            let down = min(keep, oh)
            let cx = min(max(x, ox + across - w), ox + ow - across)
            let cy = min(max(y, oy), oy + oh - down)
            let d = (cx - x).magnitude + (cy - y).magnitude
            if d < bestDistance {
                bestDistance = Int64(d)
                best = (cx, cy)
            }
            if d == 0 { break }
        }
        guard let b = best else { return position }
        return (Int32(clamping: b.x - px), Int32(clamping: b.y - py))
    }
}
