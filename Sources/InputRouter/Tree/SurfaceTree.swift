// Unsafe idioms, and why: the records, side tables and hit index that hit-testing and
// routing read on every event are `@exclusivity(unchecked)` (one thread; a walk never leaves
// an access open across a call that could change the tree, and `walking` traps if a
// containment test tries). Each dynamic check is a runtime call per access,
// measured with Router.swift's, SurfaceTree.swift's and Delivery.swift's `@exclusivity(unchecked)`
// all removed (wayland-bench `--only KIND routed`, callgrind, instructions per event without
// libc's allocator): motion 4,142 -> 5,899, click 26,468 -> 36,311, key 3,643 -> 4,808,
// touch 24,233 -> 31,320, against raw Wayland's 3,559, 21,830, 3,235 and 20,655: every kind
// far over the 1.15x budget.
// The router is told of scene changes through an `Unmanaged` reference, borrowed for the
// call: the tree may outlive the router (whose deinit unhooks it), and a closure or a
// counted reference retained and released on every click's raise (`sceneObserver`).
import CPixman

/// The surface tree: outputs, compositor nodes and client surfaces in z-order.
///
/// Every update is O(1) or O(depth) and never rebuilds anything. Each change that can move
/// input (map, unmap, move, resize, restack, input region, destruction) is reported to
/// its router (`sceneObserver`), which re-picks focus under a still cursor.
public final class SurfaceTree {
    // What hit-testing and routing read is `@exclusivity(unchecked)`: one thread, no access
    // left open across a call, and the dynamic checks cost more than the lookups.
    // The records and grids live in memory the tree owns (RecordStore.swift): a walk reads
    // them without counting a reference.
    @exclusivity(unchecked) var nodes = RecordStore<NodeRecord>()
    // Side tables, indexed like `nodes`, for what routing seldom reads.
    var names: ContiguousArray<String> = []
    @exclusivity(unchecked) var inputRegions: ContiguousArray<Region?> = []
    @exclusivity(unchecked) var containmentTests: ContiguousArray<((Point) -> Bool)?> = []
    @exclusivity(unchecked) var handlers: ContiguousArray<NodeHandler?> = []
    /// The names handlers and containment tests were given, for snapshots (Snapshot/).
    var snapshotNames = SnapshotNames()
    /// A flight recorder's journal of the embedder's edits (Snapshot/SceneJournal.swift).
    var journal: SceneJournal?
    // Unchecked: `nodeCount` reads it once per scene change (HitIndex.swift).
    @exclusivity(unchecked) private var freeList: [UInt32] = []
    /// The free slots, in the order `createNode` reuses them (from the end): for snapshots.
    var capturedFreeSlots: [UInt32] { freeList }
    func setFreeList(_ slots: [UInt32]) { freeList = slots }
    /// Spatial indexes of wide child lists (ChildGrid.swift), reused through `freeGrids`.
    @exclusivity(unchecked) var grids = RecordStore<ChildGrid>()
    var freeGrids: [UInt32] = []
    /// A grid build's working lists, kept so that rebuilding allocates nothing.
    var gridChildren: [ChildGrid.Child] = []
    var gridScratch = ChildGrid.Scratch()

    /// Nodes more transparent than this are skipped by hit-testing (UIKit's 0.01).
    @exclusivity(unchecked) public var opacityThreshold: Float = 0.01 {
        didSet {
            for i in nodes.indices {
                nodes[i].boundsDirty = true
                nodes[i].selfDirty = true
            }
            sceneChanged()
        }
    }

    /// Told after every change that can move input (`Router.sceneDidChange(stackingOnly:)`),
    /// with whether every change since the last call only restacked siblings that are not
    /// outputs (raise, lower, place above or below): then no node was made, destroyed,
    /// mapped, moved or reparented, none began or stopped taking input, and the outputs'
    /// layout is as it was; only what is on top changed. Set by the router, unretained (the
    /// tree may outlive it: its deinit unhooks it). A direct call, not a closure: calling
    /// the closure retained and released its context on every click's raise.
    var sceneObserver: Unmanaged<Router>?
    /// Called before a node's handler is replaced. Set by the router.
    var onHandlerChange: ((Responder) -> Void)?
    @exclusivity(unchecked) private var batchDepth = 0
    @exclusivity(unchecked) private var batchDirty = false
    /// The batch made a change that is more than a restack.
    @exclusivity(unchecked) private var batchReshaped = false
    /// A hit-test is walking the records (HitTest.swift).
    @exclusivity(unchecked) var walking = false
    /// Counts changes to what input sees (map, move, resize, regions, restack): a layer
    /// that derives state from the scene (the outputs each surface is on) compares it
    /// instead of recomputing on every event.
    public var sceneGeneration: UInt64 { generation }
    /// Behind a getter: `@exclusivity(unchecked)` does not carry across modules, and the
    /// Wayland layer's read of a stored public property paid a dynamic exclusivity check
    /// (about 85 instructions) on every event it handled.
    @exclusivity(unchecked) var generation: UInt64 = 0
    /// The last walked query's answer (WalkedHit.swift), and how many custom containment
    /// tests have run (a walk that ran one is not kept: it may answer otherwise next time).
    @exclusivity(unchecked) var lastWalk = WalkedHit()
    @exclusivity(unchecked) var containmentTestsRun: UInt = 0

    /// The flattened scene hit-testing reads while nothing changes (HitIndex.swift), and
    /// its build's working lists.
    @exclusivity(unchecked) var hitIndex = HitIndex()
    var hitIndexScratch = HitIndex.Scratch()
    /// Counts the changes that restart the index's build delay. A restack while it is
    /// stale does not, so a scene that changes only by raises among a few windows (a user
    /// clicking between them) still gets an index; once a current index met a restack it
    /// could not follow (more raised windows than it remembers, a lower), restacks count
    /// again until a change of another kind, so raises among many windows keep the walk
    /// instead of paying for builds they drop.
    @exclusivity(unchecked) var indexEpoch: UInt64 = 0
    @exclusivity(unchecked) var restacksRestartIndexDelay = false
    /// The raise under way was remembered by the index (HitIndex+Raises.swift): its scene
    /// change keeps the index current.
    @exclusivity(unchecked) var indexFollowsRaise = false
    /// How many hit-tests after a change walk the tree before the flat index is built for
    /// the rest (HitIndex.swift). nil: about as many as a build costs (at least 32 plus one
    /// per node), so a scene that keeps changing never pays for builds. 0 builds on the
    /// first query: for tests, and for scenes that change seldom.
    @exclusivity(unchecked) public var hitIndexDelay: Int? = nil

    /// The root of every tree: never hit itself, parent of outputs and top-level nodes.
    public let root: NodeID

    /// An empty tree holding only the root; the router makes its own, so embedders rarely call it.
    public init() {
        var r = NodeRecord()
        r.alive = true
        r.kind = .root
        nodes.append(r)
        names.append("root")
        inputRegions.append(nil)
        containmentTests.append(nil)
        handlers.append(nil)
        root = NodeID(index: 0, generation: 0)
    }

    deinit {
        for i in nodes.indices {
            let r = nodes[i]
            if r.gridAbove != NodeRecord.none { grids[Int(r.gridAbove)].deallocate() }
            if r.gridBelow != NodeRecord.none { grids[Int(r.gridBelow)].deallocate() }
        }
        nodes.deallocate()
        grids.deallocate()
        hitIndex.deallocate()
    }

    // MARK: Creating and destroying

    /// Creates a node as the topmost child of `parent` (on `layer`), at `frame` relative
    /// to the parent. Outputs and compositor nodes clip their children by default; client
    /// surfaces do not (Wayland subsurfaces may stick out and still take input there).
    @discardableResult
    public func createNode(
        _ kind: NodeKind, name: String = "", client: ClientID = .compositor,
        parent: NodeID? = nil, frame: Rect = Rect(0, 0, 0, 0), layer: ChildLayer = .above
    ) -> NodeID {
        precondition(kind != .root, "there is one root")
        let index: UInt32
        if let reused = freeList.popLast() {
            index = reused
        } else {
            index = UInt32(nodes.count)
            nodes.append(NodeRecord())
            names.append("")
            inputRegions.append(nil)
            containmentTests.append(nil)
            handlers.append(nil)
        }
        let i = Int(index)
        var r = NodeRecord()
        r.generation = nodes[i].generation
        r.alive = true
        r.kind = kind
        r.client = client
        r.x = frame.x
        r.y = frame.y
        r.width = frame.width
        r.height = frame.height
        r.clipsChildren = (kind == .output || kind == .compositor)
        r.canBecomeFirstResponder = (kind == .toplevel || kind == .popup || kind == .layer || kind == .lock)
        nodes[i] = r
        names[i] = name
        let id = NodeID(index: index, generation: r.generation)
        link(index, into: parent.flatMap(resolve) ?? 0, layer: layer, after: nil)
        sceneChanged()
        journalNote(.createNode, id) {
            $0.kind = kind
            $0.name = name
            $0.client = client.index
            $0.other = parent
            ($0.a, $0.b, $0.c, $0.d) = (frame.x, frame.y, frame.width, frame.height)
            $0.flag = layer == .below
        }
        return id
    }

    /// Destroys `id` and its whole subtree. Handles to them become dead; nothing is ever
    /// delivered to them again.
    public func destroy(_ id: NodeID) {
        guard let i = resolve(id), i != 0 else { return }
        journalNote(.destroy, id)
        unlink(i)
        destroySubtree(i)
        sceneChanged()
    }

    private func destroySubtree(_ i: UInt32) {
        var c = nodes[Int(i)].firstBelow
        while c != NodeRecord.none {
            let n = nodes[Int(c)].next
            destroySubtree(c)
            c = n
        }
        c = nodes[Int(i)].firstAbove
        while c != NodeRecord.none {
            let n = nodes[Int(c)].next
            destroySubtree(c)
            c = n
        }
        let k = Int(i)
        nodes[k].alive = false
        nodes[k].generation &+= 1
        nodes[k].inputRegion = nil
        releaseGrids(of: k)
        inputRegions[k] = nil
        containmentTests[k] = nil
        handlers[k] = nil
        snapshotNames.forget(slot: i)
        names[k] = ""
        freeList.append(i)
    }

    /// Keeps an edit in the flight recorder's journal when it is the embedder's.
    @inline(__always) func journalNote(_ op: SceneEdit.Op, _ id: NodeID, _ fill: (inout SceneEdit) -> Void = { _ in }) {
        guard let j = journal, j.accepts else { return }
        var e = SceneEdit(op)
        e.node = id
        fill(&e)
        j.append(e)
    }

    /// Keeps an edit the embedder made through a call that may make others (which are not
    /// kept: redoing the call redoes them).
    @inline(__always) func journaled<R>(
        _ op: SceneEdit.Op, _ fill: (inout SceneEdit) -> Void, _ body: () -> R
    ) -> R {
        guard let j = journal, j.accepts else { return body() }
        var e = SceneEdit(op)
        fill(&e)
        j.append(e)
        j.routingDepth += 1
        defer { j.routingDepth -= 1 }
        return body()
    }

    // MARK: Looking up

    /// The slot of a live node, or nil for a dead or foreign handle.
    @inline(__always) func resolve(_ id: NodeID) -> UInt32? {
        let i = Int(id.index)
        guard i < nodes.count, nodes[i].alive, nodes[i].generation == id.generation else { return nil }
        return id.index
    }

    func id(ofSlot i: UInt32) -> NodeID { NodeID(index: i, generation: nodes[Int(i)].generation) }

    /// Whether `id` still names a node: false once destroyed, even if its slot was reused.
    /// O(1), no allocation.
    public func isAlive(_ id: NodeID) -> Bool { resolve(id) != nil }

    /// Alive, mapped, and every ancestor mapped up to the root: what a user can see.
    public func isVisible(_ id: NodeID) -> Bool {
        guard var i = resolve(id) else { return false }
        while i != 0 {
            let r = nodes[Int(i)]
            if !r.mapped || r.parent == NodeRecord.none { return false }
            i = r.parent
        }
        return true
    }

    /// Visible, and neither it nor an ancestor refuses input or is transparent.
    public func canReceiveInput(_ id: NodeID) -> Bool {
        guard var i = resolve(id) else { return false }
        while i != 0 {
            let r = nodes[Int(i)]
            if !r.mapped || !r.acceptsInput || r.opacity < opacityThreshold || r.parent == NodeRecord.none {
                return false
            }
            i = r.parent
        }
        return true
    }

    /// What the node is (output, toplevel, popup...); nil for a dead id. O(1).
    public func kind(of id: NodeID) -> NodeKind? { resolve(id).map { nodes[Int($0)].kind } }
    /// The client that owns the node (`.compositor` for compositor nodes); nil for a dead id. O(1).
    public func client(of id: NodeID) -> ClientID? { resolve(id).map { nodes[Int($0)].client } }
    /// The node's debugging name, as given at creation; nil for a dead id.
    public func name(of id: NodeID) -> String? { resolve(id).map { names[Int($0)] } }
    /// The parent node, nil for a top-level node (child of the root) or a dead id. O(1).
    public func parent(of id: NodeID) -> NodeID? {
        guard let i = resolve(id) else { return nil }
        let p = nodes[Int(i)].parent
        return p == NodeRecord.none || p == 0 ? nil : self.id(ofSlot: p)
    }
    /// Position relative to the parent and logical size.
    public func frame(of id: NodeID) -> Rect? {
        resolve(id).map {
            let r = nodes[Int($0)]
            return Rect(r.x, r.y, r.width, r.height)
        }
    }
    /// The region set with `setInputRegion`; nil: the infinite default (or a dead id).
    public func inputRegion(of id: NodeID) -> Region? { resolve(id).flatMap { inputRegions[Int($0)] } }
    /// The node's own mapped flag, ignoring its ancestors (see `isVisible` for those).
    public func isMapped(_ id: NodeID) -> Bool { resolve(id).map { nodes[Int($0)].mapped } ?? false }

    /// Children bottom to top: those below the node's content, then those above it.
    public func children(of id: NodeID) -> [NodeID] {
        guard let i = resolve(id) else { return [] }
        var out: [NodeID] = []
        var c = nodes[Int(i)].firstBelow
        while c != NodeRecord.none {
            out.append(self.id(ofSlot: c))
            c = nodes[Int(c)].next
        }
        c = nodes[Int(i)].firstAbove
        while c != NodeRecord.none {
            out.append(self.id(ofSlot: c))
            c = nodes[Int(c)].next
        }
        return out
    }

    /// Position of the node's origin in layout space: O(depth).
    public func layoutPosition(of id: NodeID) -> Point? {
        guard let i = resolve(id) else { return nil }
        return layoutOrigin(i)
    }

    func layoutOrigin(_ slot: UInt32) -> Point {
        var x = 0.0
        var y = 0.0
        var i = slot
        while i != NodeRecord.none && i != 0 {
            let r = nodes[Int(i)]
            x += Double(r.x)
            y += Double(r.y)
            i = r.parent
        }
        return Point(x, y)
    }

    /// Live nodes, the root not counted.
    public var nodeCount: Int { nodes.count - freeList.count - 1 }

    /// Live nodes of clients (not the compositor's own): walks every slot, so for a
    /// once-a-second sample (`ir-compositor --stats-every`), not per event.
    public var clientNodeCount: Int {
        var count = 0
        for i in 1..<nodes.count where nodes[i].alive && !nodes[i].client.isCompositor { count += 1 }
        return count
    }

    /// Live nodes of each client, in the scene or out of it (a surface whose parent went):
    /// walks every slot, so for checks, not per event.
    public var liveNodesByClient: [ClientID: Int] {
        var counts: [ClientID: Int] = [:]
        for i in 1..<nodes.count where nodes[i].alive && !nodes[i].client.isCompositor {
            counts[nodes[i].client, default: 0] += 1
        }
        return counts
    }

    /// Bytes the tree keeps per node slot: the routing record plus the side tables' slots.
    public static var bytesPerNode: Int {
        MemoryLayout<NodeRecord>.stride + MemoryLayout<String>.stride + MemoryLayout<Region?>.stride
            + MemoryLayout<((Point) -> Bool)?>.stride + MemoryLayout<NodeHandler?>.stride
    }

    // MARK: Batching

    /// Runs `body` and reports one scene change at its end, however many changes it made:
    /// a Wayland commit applies many state changes as one.
    public func batchUpdates<T>(_ body: () throws -> T) rethrows -> T {
        batchDepth += 1
        defer {
            batchDepth -= 1
            if batchDepth == 0 && batchDirty {
                let stackingOnly = !batchReshaped
                batchDirty = false
                batchReshaped = false
                sceneObserver?._withUnsafeGuaranteedRef { $0.sceneDidChange(stackingOnly: stackingOnly) }
            }
        }
        return try body()
    }

    /// `stackingOnly`: the change restacked siblings that are not outputs, and nothing else
    /// (see `sceneObserver`). Every other change reports false, the default.
    @inline(__always) func sceneChanged(stackingOnly: Bool = false) {
        // A hit-test holds the record memory's address while it walks (a custom containment
        // test runs inside the walk): a change now could free what it reads next.
        precondition(!walking, "the surface tree changed during a hit-test (a containment test must not change it)")
        generation &+= 1
        if indexFollowsRaise {
            indexFollowsRaise = false
            hitIndex.generation = generation
        } else if !stackingOnly {
            indexEpoch &+= 1
            restacksRestartIndexDelay = false
        } else if restacksRestartIndexDelay || hitIndex.generation == generation &- 1 {
            // A restack the current index could not follow: from now on every restack
            // restarts the delay, as any change does, until the scene changes otherwise.
            indexEpoch &+= 1
            restacksRestartIndexDelay = true
        }
        if batchDepth > 0 {
            batchDirty = true
            if !stackingOnly { batchReshaped = true }
        } else {
            sceneObserver?._withUnsafeGuaranteedRef { $0.sceneDidChange(stackingOnly: stackingOnly) }
        }
    }

    // MARK: Intrusive child lists

    /// Links slot `i` into `parent`'s `layer` list, after `after` (nil: at the top).
    /// `listChanged` false: a restack that `restackInGrid` accounts for itself.
    func link(_ i: UInt32, into parent: UInt32, layer: ChildLayer, after: UInt32?, listChanged: Bool = true) {
        let k = Int(i)
        let p = Int(parent)
        nodes[k].parent = parent
        nodes[k].layer = layer
        let last = layer == .above ? nodes[p].lastAbove : nodes[p].lastBelow
        let prev = after ?? last
        let next =
            prev == NodeRecord.none
            ? (layer == .above ? nodes[p].firstAbove : nodes[p].firstBelow)
            : nodes[Int(prev)].next
        nodes[k].prev = prev
        nodes[k].next = next
        if prev != NodeRecord.none { nodes[Int(prev)].next = i } else { setFirst(p, layer, i) }
        if next != NodeRecord.none { nodes[Int(next)].prev = i } else { setLast(p, layer, i) }
        if listChanged { childrenChanged(parent) }
    }

    func unlink(_ i: UInt32, listChanged: Bool = true) {
        let k = Int(i)
        let parent = nodes[k].parent
        guard parent != NodeRecord.none else { return }
        let p = Int(parent)
        let layer = nodes[k].layer
        let prev = nodes[k].prev
        let next = nodes[k].next
        if prev != NodeRecord.none { nodes[Int(prev)].next = next } else { setFirst(p, layer, next) }
        if next != NodeRecord.none { nodes[Int(next)].prev = prev } else { setLast(p, layer, prev) }
        if listChanged { childrenChanged(parent) }
        nodes[k].parent = NodeRecord.none
        nodes[k].prev = NodeRecord.none
        nodes[k].next = NodeRecord.none
    }

    private func setFirst(_ p: Int, _ layer: ChildLayer, _ v: UInt32) {
        if layer == .above { nodes[p].firstAbove = v } else { nodes[p].firstBelow = v }
    }
    private func setLast(_ p: Int, _ layer: ChildLayer, _ v: UInt32) {
        if layer == .above { nodes[p].lastAbove = v } else { nodes[p].lastBelow = v }
    }
}
