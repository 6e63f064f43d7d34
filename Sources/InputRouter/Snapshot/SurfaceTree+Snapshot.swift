// The tree's part of a scene snapshot: every live node as a value, and a fresh tree
// rebuilt from them with each node back in its own slot (traces name unnamed nodes by slot).

extension SurfaceTree {
    /// Every live node but the root: those under the root first, each after its parent and
    /// siblings bottom to top (below the parent's content, then above it), then detached
    /// subtrees in slot order.
    func captureNodes() -> [NodeState] {
        var out: [NodeState] = []
        func visit(_ i: UInt32) {
            out.append(state(ofSlot: i))
            var c = nodes[Int(i)].firstBelow
            while c != NodeRecord.none {
                visit(c)
                c = nodes[Int(c)].next
            }
            c = nodes[Int(i)].firstAbove
            while c != NodeRecord.none {
                visit(c)
                c = nodes[Int(c)].next
            }
        }
        for layer in [ChildLayer.below, .above] {
            var c = layer == .below ? nodes[0].firstBelow : nodes[0].firstAbove
            while c != NodeRecord.none {
                visit(c)
                c = nodes[Int(c)].next
            }
        }
        for i in 1..<nodes.count where nodes[i].alive && nodes[i].parent == NodeRecord.none { visit(UInt32(i)) }
        return out
    }

    private func state(ofSlot i: UInt32) -> NodeState {
        let r = nodes[Int(i)]
        var s = NodeState(slot: i, kind: r.kind, frame: Rect(r.x, r.y, r.width, r.height))
        s.generation = r.generation
        s.parent = r.parent == NodeRecord.none ? nil : r.parent
        s.name = names[Int(i)]
        s.client = r.client.index
        s.bufferScale = r.bufferScale
        s.layer = r.layer
        s.mapped = r.mapped
        s.acceptsInput = r.acceptsInput
        s.opacity = r.opacity
        s.clipsChildren = r.clipsChildren
        s.canBecomeFirstResponder = r.canBecomeFirstResponder
        s.inputRegion = inputRegions[Int(i)]?.rects
        if r.hasContainmentTest { s.containmentTest = snapshotNames.containmentTests[i] ?? "" }
        if handlers[Int(i)] != nil { s.handler = snapshotNames.handlers[i] ?? "" }
        if r.nextResponder != NodeRecord.none, nodes[Int(r.nextResponder)].alive,
            nodes[Int(r.nextResponder)].generation == r.nextResponderGeneration
        {
            s.nextResponder = r.nextResponder
        }
        return s
    }

    /// Fills this tree, which must hold only the root, with `scene`'s nodes. Throws for a
    /// node whose slot is taken or out of range, or whose parent or next responder is not
    /// (yet) a node.
    func restore(_ scene: SceneState, handlers named: SceneHandlers) throws {
        guard nodes.count == 1 else { throw SceneRebuildError("the tree to rebuild into is not empty") }
        guard scene.slotCount >= 1, scene.slotCount <= 1 << 24 else {
            throw SceneRebuildError("slot count \(scene.slotCount) is out of range")
        }
        opacityThreshold = scene.opacityThreshold
        while nodes.count < Int(scene.slotCount) {
            nodes.append(NodeRecord())
            names.append("")
            inputRegions.append(nil)
            containmentTests.append(nil)
            handlers.append(nil)
        }
        for n in scene.nodes {
            let i = Int(n.slot)
            guard n.slot != 0, i < nodes.count else {
                throw SceneRebuildError("node \(n.slot): slot out of range (the tree has \(nodes.count) slots)")
            }
            guard !nodes[i].alive else { throw SceneRebuildError("node \(n.slot): slot used twice") }
            guard n.kind != .root else { throw SceneRebuildError("node \(n.slot): a second root") }
            if let p = n.parent {
                guard Int(p) < nodes.count, nodes[Int(p)].alive else {
                    throw SceneRebuildError("node \(n.slot): parent \(p) is not a node listed before it")
                }
            }
            guard n.client == 0 || Int(n.client) <= scene.clients.count else {
                throw SceneRebuildError("node \(n.slot): client \(n.client) is not in the scene")
            }
            var r = NodeRecord()
            r.generation = n.generation
            r.alive = true
            r.kind = n.kind
            r.client = ClientID(index: n.client)
            r.x = n.frame.x
            r.y = n.frame.y
            r.width = n.frame.width
            r.height = n.frame.height
            r.bufferScale = max(n.bufferScale, 1)
            r.mapped = n.mapped
            r.acceptsInput = n.acceptsInput
            r.opacity = n.opacity
            r.clipsChildren = n.clipsChildren
            r.canBecomeFirstResponder = n.canBecomeFirstResponder
            r.parent = NodeRecord.none
            r.layer = n.layer
            nodes[i] = r
            names[i] = n.name
            let id = NodeID(index: n.slot, generation: n.generation)
            if let p = n.parent { link(n.slot, into: p, layer: n.layer, after: nil) }
            if let rects = n.inputRegion {
                let region = Region(rects)
                inputRegions[i] = region
                nodes[i].inputRegion = region.pixmanRegion
            }
            if let name = n.containmentTest, let make = named.containmentTests[name] {
                containmentTests[i] = make(self, id)
                nodes[i].hasContainmentTest = true
                snapshotNames.containmentTests[n.slot] = name
            }
            if let name = n.handler, let h = named.nodeHandlers[name] ?? named.fallbackHandler {
                handlers[i] = h
                snapshotNames.handlers[n.slot] = name
            }
        }
        for n in scene.nodes {
            guard let next = n.nextResponder else { continue }
            guard Int(next) < nodes.count, nodes[Int(next)].alive else {
                throw SceneRebuildError("node \(n.slot): next responder \(next) is not a node")
            }
            nodes[Int(n.slot)].nextResponder = next
            nodes[Int(n.slot)].nextResponderGeneration = nodes[Int(next)].generation
        }
        var free: [UInt32] = []
        for slot in scene.freeSlots {
            guard slot != 0, Int(slot) < nodes.count, !nodes[Int(slot)].alive, !free.contains(slot) else {
                throw SceneRebuildError("free slot \(slot) is not a free slot")
            }
            free.append(slot)
        }
        // Slots neither live nor listed free (a hand-written snapshot): free, lowest reused last.
        for i in stride(from: nodes.count - 1, to: 0, by: -1) where !nodes[i].alive && !free.contains(UInt32(i)) {
            free.insert(UInt32(i), at: 0)
        }
        setFreeList(free)
        sceneChanged()
    }
}
