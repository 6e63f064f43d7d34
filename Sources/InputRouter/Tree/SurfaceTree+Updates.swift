import CPixman

// Cheap updates: each touches one record (restacking: a few list links), marks the subtree
// bounds dirty up to the root (O(depth), see SubtreeBounds.swift) and reports one scene
// change. None rebuilds anything: the next hit-test refreshes what is dirty.
extension SurfaceTree {
    /// Moves a node relative to its parent. Marks bounds dirty and re-picks every seat's pointer;
    /// a scene change, not a per-event call.
    public func move(_ id: NodeID, to position: (x: Int32, y: Int32)) {
        journalNote(.move, id) { ($0.a, $0.b) = (position.x, position.y) }
        guard let i = resolve(id), nodes[Int(i)].x != position.x || nodes[Int(i)].y != position.y else { return }
        nodes[Int(i)].x = position.x
        nodes[Int(i)].y = position.y
        // Its own box (in its coordinates) stays; its parent's box and grid learn of the move.
        nodes[Int(i)].moved = true
        markBoundsDirty(i, selfChanged: false)
        sceneChanged()
    }

    /// Logical size of the node.
    public func resize(_ id: NodeID, width: Int32, height: Int32) {
        journalNote(.resize, id) { ($0.a, $0.b) = (width, height) }
        update(id) {
            $0.width = max(width, 0)
            $0.height = max(height, 0)
        }
    }

    /// A client surface's size comes from its buffer: logical size = buffer size / scale.
    public func setBuffer(_ id: NodeID, width: Int32, height: Int32, scale: Int32) {
        journalNote(.setBuffer, id) { ($0.a, $0.b, $0.c) = (width, height, scale) }
        let s = max(scale, 1)
        update(id) {
            $0.bufferScale = s
            $0.width = max(width, 0) / s
            $0.height = max(height, 0) / s
        }
    }

    /// Renames a node (what traces and debugging pictures call it); input is unaffected.
    public func setName(_ id: NodeID, _ name: String) {
        guard let i = resolve(id) else { return }
        journalNote(.setName, id) { $0.name = name }
        names[Int(i)] = name
    }

    /// The node's `wl_surface.set_buffer_scale`, nil for a dead id.
    public func bufferScale(of id: NodeID) -> Int32? { resolve(id).map { nodes[Int($0)].bufferScale } }

    /// Shows or hides a node and its subtree (map/unmap); a change re-picks every seat's pointer.
    public func setMapped(_ id: NodeID, _ mapped: Bool) {
        journalNote(.setMapped, id) { $0.flag = mapped }
        update(id) { $0.mapped = mapped }
    }
    /// False: hit tests skip the node with its whole subtree (input passes to what is below).
    public func setAcceptsInput(_ id: NodeID, _ accepts: Bool) {
        journalNote(.setAcceptsInput, id) { $0.flag = accepts }
        update(id) { $0.acceptsInput = accepts }
    }
    /// Opacity 0...1: below the tree's `opacityThreshold` the node and its subtree are skipped by
    /// hit tests. Any change is a scene change: every seat re-picks its pointer. Kept within
    /// 0...1, and NaN (an animation's 0/0) is 0: every hit test then reads it alike. Stored as
    /// given, NaN failed `<` and `>=` both, so the index skipped a node the walk took
    /// (RouterFuzzer).
    public func setOpacity(_ id: NodeID, _ opacity: Float) {
        let opacity = opacity.isNaN ? 0 : min(max(opacity, 0), 1)
        journalNote(.setOpacity, id) { $0.opacity = opacity }
        update(id) { $0.opacity = opacity }
    }
    /// True: hit tests of its children stop at the node's bounds (outputs, scrolled views).
    public func setClipsChildren(_ id: NodeID, _ clips: Bool) {
        journalNote(.setClipsChildren, id) { $0.flag = clips }
        update(id) { $0.clipsChildren = clips }
    }
    /// Allows or forbids the node taking the keyboard focus; not a scene change, so no re-pick.
    public func setCanBecomeFirstResponder(_ id: NodeID, _ can: Bool) {
        journalNote(.setFocusable, id) { $0.flag = can }
        update(id, changesInput: false) { $0.canBecomeFirstResponder = can }
    }
    /// Whether `setKeyboardFocus` would accept the node: allowed and not a subsurface.
    public func canBecomeFirstResponder(_ id: NodeID) -> Bool {
        resolve(id).map { nodes[Int($0)].canBecomeFirstResponder && nodes[Int($0)].kind != .subsurface } ?? false
    }

    /// `wl_surface.set_input_region`: nil restores the infinite default. The region is
    /// clipped to the surface bounds at hit-test time, so a later resize needs no update.
    public func setInputRegion(_ id: NodeID, _ region: Region?) {
        guard let i = resolve(id) else { return }
        journalNote(.setInputRegion, id) { $0.region = region }
        // A commit that sets the same region again changes nothing: no re-pick.
        switch (inputRegions[Int(i)], region) {
        case (nil, nil): return
        case (let old?, let new?) where old == new: return
        default: break
        }
        inputRegions[Int(i)] = region
        nodes[Int(i)].inputRegion = region?.pixmanRegion
        markBoundsDirty(i)
        sceneChanged()
    }

    /// Replaces the node's own containment test (bounds and input region), as a UIKit view
    /// overrides `point(inside:with:)`. The point is node-local. `name` is what a scene
    /// snapshot calls it (`SceneHandlers` maps it back to a test).
    public func setContainmentTest(_ id: NodeID, name: String = "", _ test: ((Point) -> Bool)?) {
        guard let i = resolve(id) else { return }
        journalNote(.setContainmentTest, id) {
            $0.name = name
            $0.flag = test != nil
        }
        snapshotNames.containmentTests[i] = test == nil || name.isEmpty ? nil : name
        containmentTests[Int(i)] = test
        nodes[Int(i)].hasContainmentTest = test != nil
        markBoundsDirty(i)
        sceneChanged()
    }

    /// The handler of a compositor node (decoration, panel...). Client surfaces are handled
    /// by delivery to their client; a handler on one is asked only when delivery fails.
    /// `name` is what a scene snapshot calls it (`SceneHandlers` maps it back to a handler).
    public func setHandler(_ id: NodeID, name: String = "", _ handler: NodeHandler?) {
        guard let i = resolve(id) else { return }
        journalNote(.setHandler, id) {
            $0.name = name
            $0.flag = handler != nil
        }
        snapshotNames.handlers[i] = handler == nil || name.isEmpty ? nil : name
        // A focus this handler took ends with it (the leave goes to the handler that had the
        // enter); then who takes the pointer under a still cursor may have changed: re-pick,
        // with the responder cache reset (a scene change does both).
        onHandlerChange?(.node(id))
        handlers[Int(i)] = handler
        sceneChanged()
    }

    /// Overrides the next responder (a popup's or a dialog's is its xdg parent). nil
    /// restores the default chain. Who takes the pointer under a still cursor can change
    /// with the chain, so this is a scene change.
    public func setNextResponder(_ id: NodeID, _ next: NodeID?) {
        guard let i = resolve(id) else { return }
        journalNote(.setNextResponder, id) { $0.other = next }
        if let n = next, let j = resolve(n) {
            nodes[Int(i)].nextResponder = j
            nodes[Int(i)].nextResponderGeneration = n.generation
        } else {
            nodes[Int(i)].nextResponder = NodeRecord.none
        }
        sceneChanged()
    }

    /// The next responder set with `setNextResponder`, if it is still alive.
    public func nextResponderOverride(of id: NodeID) -> NodeID? {
        guard let i = resolve(id) else { return nil }
        let o = nodes[Int(i)].nextResponder
        guard o != NodeRecord.none else { return nil }
        let target = NodeID(index: o, generation: nodes[Int(i)].nextResponderGeneration)
        return resolve(target) == nil ? nil : target
    }

    // MARK: Parent and z-order

    /// Moves `id` under `parent` as its topmost child on `layer`. Refuses cycles.
    @discardableResult
    public func setParent(_ id: NodeID, _ parent: NodeID?, layer: ChildLayer = .above) -> Bool {
        guard let i = resolve(id), i != 0 else { return false }
        let p = parent.flatMap(resolve) ?? 0
        if isAncestor(i, of: p) || i == p { return false }
        journalNote(.setParent, id) {
            $0.other = parent
            $0.flag = layer == .below
        }
        unlink(i)
        link(i, into: p, layer: layer, after: nil)
        sceneChanged()
        return true
    }

    /// Removes `id` from the tree without destroying it: it and its subtree are no longer
    /// visible until re-parented (a subsurface whose parent went away).
    public func detach(_ id: NodeID) {
        guard let i = resolve(id), i != 0 else { return }
        journalNote(.detach, id)
        unlink(i)
        sceneChanged()
    }

    /// Topmost among its siblings of the same layer.
    public func raiseToTop(_ id: NodeID) {
        guard let i = resolve(id) else { return }
        journalNote(.raise, id)
        let before = generation
        let keepsHit = raiseKeepsWalkedHit(i) // WalkedHit.swift
        indexFollowsRaise = hitIndex.generation == generation && rememberRaiseInIndex(i) // HitIndex+Raises.swift
        if !restackInGrid(i, top: true) {
            restack(id) { tree, i, p, layer in tree.link(i, into: p, layer: layer, after: nil) }
        }
        indexFollowsRaise = false
        if keepsHit { keepWalkedHit(after: before) }
    }

    /// Bottommost among its siblings of the same layer.
    public func lowerToBottom(_ id: NodeID) {
        journalNote(.lower, id)
        if let i = resolve(id), restackInGrid(i, top: false) { return }
        restack(id) { tree, i, p, layer in tree.link(i, into: p, layer: layer, after: NodeRecord.none) }
    }

    /// `wl_subsurface.place_above`: directly above `sibling`, or, when `sibling` is the
    /// parent, directly above the parent's own content (bottom of the above layer).
    @discardableResult
    public func place(_ id: NodeID, above sibling: NodeID) -> Bool {
        guard let i = resolve(id), let s = resolve(sibling), i != s else { return false }
        journalNote(.placeAbove, id) { $0.other = sibling }
        let p = nodes[Int(i)].parent
        guard p != NodeRecord.none else { return false }
        if s == p {
            restack(id) { tree, i, p, _ in tree.link(i, into: p, layer: .above, after: NodeRecord.none) }
        } else {
            guard nodes[Int(s)].parent == p else { return false }
            let layer = nodes[Int(s)].layer
            restack(id) { tree, i, p, _ in tree.link(i, into: p, layer: layer, after: s) }
        }
        return true
    }

    /// `wl_subsurface.place_below`: directly below `sibling`, or, when `sibling` is the
    /// parent, directly below the parent's own content (top of the below layer).
    @discardableResult
    public func place(_ id: NodeID, below sibling: NodeID) -> Bool {
        guard let i = resolve(id), let s = resolve(sibling), i != s else { return false }
        journalNote(.placeBelow, id) { $0.other = sibling }
        let p = nodes[Int(i)].parent
        guard p != NodeRecord.none else { return false }
        if s == p {
            restack(id) { tree, i, p, _ in tree.link(i, into: p, layer: .below, after: nil) }
        } else {
            guard nodes[Int(s)].parent == p else { return false }
            let layer = nodes[Int(s)].layer
            // Read the neighbour after unlinking: it may have been `id` itself.
            restack(id) { tree, i, p, _ in tree.link(i, into: p, layer: layer, after: tree.nodes[Int(s)].prev) }
        }
        return true
    }

    // MARK: Helpers

    /// Applies `change`; only a change to what input sees marks bounds and re-picks, so a
    /// commit that changes nothing (same buffer size, same mapped state) costs nothing.
    func update(_ id: NodeID, changesInput: Bool = true, _ change: (inout NodeRecord) -> Void) {
        guard let i = resolve(id) else { return }
        let before = nodes[Int(i)]
        change(&nodes[Int(i)])
        if changesInput && !nodes[Int(i)].sameInputState(as: before) {
            markBoundsDirty(i)
            sceneChanged()
        }
    }

    /// Unlinks and relinks under the same parent. `link(after: .none)` means bottom.
    private func restack(_ id: NodeID, _ relink: (SurfaceTree, UInt32, UInt32, ChildLayer) -> Void) {
        guard let i = resolve(id) else { return }
        let p = nodes[Int(i)].parent
        guard p != NodeRecord.none else { return }
        let layer = nodes[Int(i)].layer
        unlink(i)
        relink(self, i, p, layer)
        // Outputs: their order is the layout's (`Seat.refreshLayout`).
        sceneChanged(stackingOnly: nodes[Int(i)].kind != .output)
    }

    func isAncestor(_ a: UInt32, of b: UInt32) -> Bool {
        var i = b
        while i != NodeRecord.none {
            if i == a { return true }
            i = nodes[Int(i)].parent
        }
        return false
    }
}

extension NodeRecord {
    /// Whether what `update` may change is as in `other`: size, scale and the flags
    /// hit-testing reads.
    func sameInputState(as other: NodeRecord) -> Bool {
        width == other.width && height == other.height && bufferScale == other.bufferScale && mapped == other.mapped
            && acceptsInput == other.acceptsInput && opacity == other.opacity && clipsChildren == other.clipsChildren
    }
}
