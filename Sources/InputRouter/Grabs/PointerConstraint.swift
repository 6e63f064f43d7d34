// The values of relative pointer motion and pointer constraints (relative-pointer and
// pointer-constraints, unstable v1), as the core decides them. Seat+Constraints.swift
// holds the decisions.

/// One motion event's deltas: accelerated (what moves the cursor) and unaccelerated (the
/// device's own counts, what a game wants), in layout units.
public struct RelativeMotion: Hashable, Sendable {
    /// Accelerated horizontal delta: what moves the cursor.
    public var dx: Double
    /// Accelerated vertical delta: what moves the cursor.
    public var dy: Double
    /// The device's own horizontal counts, before acceleration.
    public var unacceleratedDX: Double
    /// The device's own vertical counts, before acceleration.
    public var unacceleratedDY: Double
    /// The deltas of one motion event; a trivial value, free on the hot path.
    public init(dx: Double, dy: Double, unacceleratedDX: Double, unacceleratedDY: Double) {
        self.dx = dx
        self.dy = dy
        self.unacceleratedDX = unacceleratedDX
        self.unacceleratedDY = unacceleratedDY
    }
}

/// `zwp_pointer_constraints_v1.lock_pointer` or `confine_pointer`.
public enum PointerConstraintKind: Hashable, Sendable {
    /// The cursor stays where it is; motion reaches the surface only as relative motion.
    case lock
    /// The cursor moves, clamped to the constraint's region.
    case confine
}

/// `zwp_pointer_constraints_v1.lifetime`.
public enum ConstraintLifetime: UInt32, Hashable, Sendable {
    /// Once deactivated, never active again: the object is defunct.
    case oneshot = 1
    /// Deactivated on leave (or by the escape), active again when the pointer comes back.
    case persistent = 2
}

/// A constraint registered on a surface, and where it stands.
struct PointerConstraint {
    enum State: Equatable {
        /// Waiting for the pointer to be on the surface, inside the region.
        case inactive
        case active
        /// A oneshot constraint that was active: it never activates again.
        case defunct
        /// A persistent constraint broken by the escape: inactive until the pointer leaves
        /// the surface, so that it does not lock again at once.
        case suspended
    }
    var node: NodeID
    var kind: PointerConstraintKind
    var lifetime: ConstraintLifetime
    /// Surface-local; nil is the infinite region (the whole input region).
    var region: Region?
    /// `zwp_locked_pointer_v1.set_cursor_position_hint`, surface-local.
    var hint: Point?
    var state = State.inactive
}

/// The seat's constraints: few (one per surface that asked), looked at on every motion.
struct ConstraintTable {
    var items: [PointerConstraint] = []
    /// Index into `items` of the active constraint.
    var active: Int?
    /// The active confinement's region, surface-local (bounds ∩ input region ∩ the
    /// constraint's region), computed when it activates or the scene changes, never per
    /// motion.
    var confineRects: [Rect] = []

    func index(of node: NodeID) -> Int? { items.firstIndex { $0.node == node } }

    var activeLock: NodeID? {
        guard let a = active, items[a].kind == .lock else { return nil }
        return items[a].node
    }
}
