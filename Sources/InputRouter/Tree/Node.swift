import CPixman

/// What a node of the surface tree is. Routing treats client kinds alike; the kind decides
/// defaults (clipping, keyboard focus) and what the trace and checker say.
public enum NodeKind: UInt8, Sendable, CustomStringConvertible {
    case root
    /// An output: a container at its layout position that clips its children.
    case output
    /// A compositor-side node: panel, window decoration, background, container.
    case compositor
    case toplevel
    case subsurface
    case popup
    /// A panel, launcher, notification or wallpaper a client placed in one of the layers
    /// above or below the windows (`zwlr_layer_surface_v1`).
    case layer
    /// A lock screen's surface on one output (`ext_session_lock_surface_v1`): while the
    /// session is locked, the only client surfaces that take input.
    case lock

    /// The surfaces a client owns and is told about: every kind but the root, outputs and
    /// compositor nodes. The raw values keep them last, so the test is one comparison.
    @inlinable @inline(__always) public var isClientSurface: Bool { rawValue >= NodeKind.toplevel.rawValue }
    /// The name used in traces and checker reports.
    public var description: String {
        switch self {
        case .root: "root"
        case .output: "output"
        case .compositor: "node"
        case .toplevel: "toplevel"
        case .subsurface: "subsurface"
        case .popup: "popup"
        case .layer: "layer"
        case .lock: "lock"
        }
    }
}

/// Where a new or restacked child goes relative to its parent's own content. Wayland
/// subsurfaces may sit below their parent; everything else is above by default.
public enum ChildLayer: UInt8, Sendable { case above, below }

/// One node's state, stored by value in one contiguous array: hit-testing walks plain
/// memory, with no reference counting and no hashing. Children form two intrusive,
/// z-ordered lists (below and above the node's own content), so restacking is O(1).
struct NodeRecord {
    static let none = UInt32.max

    // What a hit-test reads for every node it considers, together (one or two cache lines
    // instead of three: wide and deep trees do not fit in cache).
    /// Where the subtree can take input, in the node's coordinates (see SubtreeBounds.swift).
    var box = Box.empty
    var x: Int32 = 0, y: Int32 = 0
    var width: Int32 = 0, height: Int32 = 0
    var prev = none
    var lastBelow = none, lastAbove = none
    /// Spatial indexes of wide child lists: slots in `SurfaceTree.grids`, or `none`.
    var gridAbove = none, gridBelow = none
    var opacity: Float = 1
    var mapped = true
    var acceptsInput = true
    var clipsChildren = false
    var hasContainmentTest = false
    /// In the parent's grid: z-rank (0 topmost), and whether this child's cells are stale
    /// (it moved or changed since the grid was built, and sits in the grid's `moved` list).
    var gridMoved = false
    var gridRank: UInt32 = 0
    var generation: UInt32 = 0

    var alive = false
    var kind = NodeKind.compositor
    var layer = ChildLayer.above
    var canBecomeFirstResponder = false
    /// Something in the subtree changed (see SubtreeBounds.swift); `selfDirty`: the node
    /// itself or its child lists did, so its box is recomputed from all its children.
    var boundsDirty = true
    var selfDirty = true
    /// Its position changed since its parent last looked.
    var moved = false
    /// Children that became dirty, linked through `nextDirty` (an intrusive list).
    var firstDirty = none, nextDirty = none
    /// The child lists changed (added, removed, restacked): rebuild the grids.
    var gridStale = false
    var client = ClientID.compositor
    var parent = none
    var next = none
    var firstBelow = none, firstAbove = none
    var bufferScale: Int32 = 1
    /// nil: the infinite default region. Owned by `SurfaceTree.inputRegions[index]`.
    var inputRegion: UnsafeMutablePointer<pixman_region32_t>? = nil
    var nextResponder = none
    var nextResponderGeneration: UInt32 = 0
}
