// `xdg_positioner`: where a popup goes relative to its parent's window geometry, and how
// it is moved when that place would put it outside the output (constraint adjustment:
// flip, then slide, then resize, on each axis apart, as xdg-shell orders them).
import CWaylandProtocolsServer
import CWaylandServer
import InputRouter

/// A positioner's rules, copied into the popup that was made from them (reactive popups
/// are placed again with the same rules when their parent changes).
struct PositionerRules {
    var size: (width: Int32, height: Int32)?
    var anchorRect: Rect?
    var anchor: UInt32 = 0
    var gravity: UInt32 = 0
    var offset: (x: Int32, y: Int32) = (0, 0)
    var adjustment: UInt32 = 0
    var reactive = false

    var isComplete: Bool { size != nil && anchorRect != nil }

    /// A client's numbers (a positioner's, a window geometry's) are kept within ±2^24 pixels
    /// and a parent's corner within ±2^28, so every sum the placement makes fits in Int32.
    /// WireFuzzer found a layer-shell popup whose positioner's numbers made `placement` trap
    /// on overflow: the whole compositor.
    static let clientLimit: Int32 = 1 << 24
    static func clientValue(_ v: Int32) -> Int32 { min(max(v, -clientLimit), clientLimit) }
    /// A parent's corner in layout space, from its node's position and its client's
    /// window geometry offset.
    static func origin(_ at: Point, plus offset: (x: Int32, y: Int32) = (0, 0)) -> (x: Int32, y: Int32) {
        let limit = Double(1 << 28)
        func clamped(_ v: Double) -> Int32 { Int32(min(max(v.isNaN ? 0 : v.rounded(.down), -limit), limit)) }
        return (
            clamped(at.x) + clientValue(offset.x), clamped(at.y) + clientValue(offset.y)
        )
    }

    /// The popup's rectangle relative to the parent's window geometry, before adjustment.
    var unconstrained: Rect? {
        guard let size, let a = anchorRect else { return nil }
        let ax: Int32 =
            switch anchor {
            case 3, 5, 6: a.x
            case 4, 7, 8: a.x + a.width
            default: a.x + a.width / 2
            }
        let ay: Int32 =
            switch anchor {
            case 1, 5, 7: a.y
            case 2, 6, 8: a.y + a.height
            default: a.y + a.height / 2
            }
        let x: Int32 =
            switch gravity {
            case 3, 5, 6: ax - size.width
            case 4, 7, 8: ax
            default: ax - size.width / 2
            }
        let y: Int32 =
            switch gravity {
            case 1, 5, 7: ay - size.height
            case 2, 6, 8: ay
            default: ay - size.height / 2
            }
        return Rect(x + offset.x, y + offset.y, size.width, size.height)
    }

    /// The popup's rectangle relative to the parent's window geometry, adjusted so that it
    /// stays inside `bounds` (layout space) where its constraint adjustment allows;
    /// `origin` is the parent's window geometry corner in layout space.
    func placement(origin: (x: Int32, y: Int32), bounds: Rect) -> Rect? {
        guard var box = unconstrained else { return nil }
        // Work in layout space; the axes are adjusted one after the other.
        box.x += origin.x
        box.y += origin.y
        box = adjusted(box, horizontal: true, origin: origin, bounds: bounds)
        box = adjusted(box, horizontal: false, origin: origin, bounds: bounds)
        return Rect(box.x - origin.x, box.y - origin.y, box.width, box.height)
    }

    private func adjusted(_ box: Rect, horizontal: Bool, origin: (x: Int32, y: Int32), bounds: Rect) -> Rect {
        let lo = horizontal ? bounds.x : bounds.y
        let hi = lo + (horizontal ? bounds.width : bounds.height)
        func span(_ r: Rect) -> (Int32, Int32) { horizontal ? (r.x, r.x + r.width) : (r.y, r.y + r.height) }
        func fits(_ r: Rect) -> Bool {
            let (a, b) = span(r)
            return a >= lo && b <= hi
        }
        if fits(box) { return box }
        let flip =
            horizontal ? XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_X : XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_Y
        let slide =
            horizontal ? XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_X : XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_Y
        let resize =
            horizontal ? XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_RESIZE_X : XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_RESIZE_Y
        var box = box
        // Flip: anchor and gravity mirrored on this axis; kept only if it then fits.
        if adjustment & flip.rawValue != 0 {
            var flipped = self
            flipped.anchor = PositionerRules.mirror(anchor, horizontal: horizontal)
            flipped.gravity = PositionerRules.mirror(gravity, horizontal: horizontal)
            if var f = flipped.unconstrained {
                f.x += origin.x
                f.y += origin.y
                // Only this axis changes; the other keeps what was decided for it.
                if horizontal {
                    f.y = box.y
                    f.height = box.height
                } else {
                    f.x = box.x
                    f.width = box.width
                }
                if fits(f) { return f }
            }
        }
        // Slide: moved along the axis until it fits; when it cannot, its start (left or top)
        // edge stays visible.
        if adjustment & slide.rawValue != 0 {
            let (a, b) = span(box)
            var shift: Int32 = 0
            if b > hi { shift = hi - b }
            if a + shift < lo { shift = lo - a }
            if horizontal { box.x += shift } else { box.y += shift }
            if fits(box) { return box }
        }
        // Resize: shrunk to the part inside the bounds, if any is.
        if adjustment & resize.rawValue != 0 {
            let (a, b) = span(box)
            let na = max(a, lo)
            let nb = min(b, hi)
            if nb > na {
                if horizontal {
                    box.x = na
                    box.width = nb - na
                } else {
                    box.y = na
                    box.height = nb - na
                }
            }
        }
        return box
    }

    /// An anchor or gravity mirrored left↔right or top↔bottom (the two enums share values).
    static func mirror(_ edge: UInt32, horizontal: Bool) -> UInt32 {
        let pairs: [(UInt32, UInt32)] = horizontal ? [(3, 4), (5, 7), (6, 8)] : [(1, 2), (5, 6), (7, 8)]
        for (a, b) in pairs {
            if edge == a { return b }
            if edge == b { return a }
        }
        return edge
    }
}

final class XdgPositioner: WaylandObject {
    var rules = PositionerRules()

    override func request(_ opcode: UInt32, _ args: Arguments) {
        let limit = PositionerRules.clientValue
        guard let request: XdgPositionerRequest = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource()
        case .setSize(let width, let height): // set_size
            guard width > 0, height > 0 else {
                return postError(XDG_POSITIONER_ERROR_INVALID_INPUT.rawValue, "positioner size must be positive")
            }
            rules.size = (limit(width), limit(height))
        case .setAnchorRect(let x, let y, let width, let height): // set_anchor_rect
            guard width >= 0, height >= 0 else {
                return postError(XDG_POSITIONER_ERROR_INVALID_INPUT.rawValue, "anchor rect size must not be negative")
            }
            rules.anchorRect = Rect(limit(x), limit(y), limit(width), limit(height))
        case .setAnchor(let anchor):
            guard anchor <= 8 else { return postError(XDG_POSITIONER_ERROR_INVALID_INPUT.rawValue, "invalid anchor") }
            rules.anchor = anchor
        case .setGravity(let gravity):
            guard gravity <= 8 else { return postError(XDG_POSITIONER_ERROR_INVALID_INPUT.rawValue, "invalid gravity") }
            rules.gravity = gravity
        // set_constraint_adjustment
        case .setConstraintAdjustment(let constraintAdjustment): rules.adjustment = constraintAdjustment
        case .setOffset(let x, let y): rules.offset = (limit(x), limit(y))
        case .setReactive: rules.reactive = true // set_reactive (v3)
        // set_parent_size, set_parent_configure: the parent's current state is used
        case .setParentSize, .setParentConfigure: break
        }
    }
}

extension WaylandServer {
    /// Where `parent`'s window geometry corner is in layout space, for placing its popups.
    func popupOrigin(of parent: XdgSurfaceObject) -> (x: Int32, y: Int32) {
        let at = parent.surface.node.flatMap { router.tree.layoutPosition(of: $0) } ?? .zero
        let g: (x: Int32, y: Int32) = parent.geometry.map { ($0.x, $0.y) } ?? (0, 0)
        return PositionerRules.origin(at, plus: g)
    }

    /// What a popup may not leave: the output.
    var popupBounds: Rect { Rect(0, 0, configuration.outputWidth, configuration.outputHeight) }
}

extension WaylandServer {
    /// Every popup where its rules and its parent now put it. A reactive one is placed again
    /// against its parent's place and the output (xdg_positioner.set_reactive: "the surface
    /// is reconstrained if the conditions used for constraining changed, e.g. the parent
    /// window moved"), and configured anew when its place on the parent changed; one that
    /// is not keeps its place on the parent, where its node already goes along (a child of
    /// the parent's). Every popup's node stays at its place from the parent's window
    /// geometry, which may have changed with a commit. Parents come first (`popupObjects`
    /// is in creation order), so a popup of a popup is placed against where its parent
    /// has just gone. Run when the scene changed (SceneChanges.swift) and after a commit.
    func placePopupsAgain() {
        popupObjects.removeAll { $0.object == nil }
        let tree = router.tree
        for entry in popupObjects {
            // Still its surface's role (not one destroyed while something held it).
            guard let popup = entry.object, let xdg = popup.xdg, case .popup(let role) = xdg.roleObject, role === popup,
                let node = popup.node, let parent = popup.parent, parent.surface.node != nil
            else { continue }
            var placedAgain = false
            if popup.rules.reactive,
                let rect = popup.rules.placement(origin: popupOrigin(of: parent), bounds: popupBounds),
                rect != popup.placement
            {
                popup.placement = rect
                placedAgain = true
            }
            let g: (x: Int32, y: Int32) = parent.geometry.map { ($0.x, $0.y) } ?? (0, 0)
            tree.move(node, to: (g.x + popup.placement.x, g.y + popup.placement.y))
            // Before its first configure the new place simply goes out with that one.
            if placedAgain, xdg.initialConfigureSent { xdg.sendConfigure() }
        }
    }
}
