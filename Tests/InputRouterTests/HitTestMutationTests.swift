import InputRouter
import Testing

/// The differential test again, with the scene changing between queries: subtree bounds
/// and child grids are caches, and a change that forgot to mark them dirty shows up here
/// as a hit the naive reference disagrees with.
extension HitTestDifferentialTests {
    typealias Node = RefNode

    /// Every node under `n`, `n` included.
    static func subtree(_ n: Node) -> [Node] { [n] + (n.below + n.above).flatMap(subtree) }

    /// Takes `n` out of its parent's lists (or the roots); a detached node is in none.
    static func unlinkReference(_ n: Node, _ s: inout Scene) {
        if let p = n.parent {
            p.below.removeAll { $0 === n }
            p.above.removeAll { $0 === n }
        }
        s.roots.removeAll { $0 === n }
    }

    static func randomRegion(_ rng: inout SeededRandom) -> ([(add: Bool, rect: Rect)], Region) {
        var ops: [(add: Bool, rect: Rect)] = []
        var region = Region()
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let add = ops.isEmpty || Bool.random(using: &rng)
            let r = Rect(
                Int32.random(in: -20...200, using: &rng), Int32.random(in: -20...200, using: &rng),
                Int32.random(in: 1...150, using: &rng), Int32.random(in: 1...150, using: &rng))
            if add { region.add(r) } else { region.subtract(r) }
            ops.append((add, r))
        }
        return (ops, region)
    }

    /// One random change, applied to the tree and the reference alike. Returns its name.
    static func mutate(_ s: inout Scene, _ rng: inout SeededRandom) -> String {
        guard let n = s.all.randomElement(using: &rng) else { return "none" }
        let t = s.tree
        switch Int.random(in: 0..<13, using: &rng) {
        case 0:
            n.x = Int32.random(in: -60...400, using: &rng)
            n.y = Int32.random(in: -60...400, using: &rng)
            t.move(n.id, to: (n.x, n.y))
            return "move"
        case 1:
            n.w = Int32.random(in: 0...300, using: &rng)
            n.h = Int32.random(in: 0...300, using: &rng)
            t.resize(n.id, width: n.w, height: n.h)
            return "resize"
        case 2:
            let q = Int.random(in: 0..<5, using: &rng) == 0 ? nil : s.all.randomElement(using: &rng)
            var a = q
            while let c = a {
                if c === n { return "reparent refused" }
                a = c.parent
            }
            #expect(t.setParent(n.id, q?.id))
            unlinkReference(n, &s)
            n.parent = q
            if let q { q.above.append(n) } else { s.roots.append(n) }
            return "reparent"
        case 3:
            n.mapped.toggle()
            t.setMapped(n.id, n.mapped)
            return "map \(n.mapped)"
        case 4:
            if Bool.random(using: &rng) {
                n.regionOps = nil
                t.setInputRegion(n.id, nil)
                return "region nil"
            }
            let (ops, region) = randomRegion(&rng)
            n.regionOps = ops
            t.setInputRegion(n.id, region)
            return "region"
        case 5:
            n.custom = Int.random(in: 0...3, using: &rng)
            t.setContainmentTest(n.id, n.custom == 0 ? nil : { [n] p in n.customContains(p.x, p.y) })
            return "custom \(n.custom)"
        case 6:
            n.clips.toggle()
            t.setClipsChildren(n.id, n.clips)
            return "clip \(n.clips)"
        case 7:
            n.input.toggle()
            t.setAcceptsInput(n.id, n.input)
            return "input \(n.input)"
        case 8:
            n.opacity = n.opacity < 0.01 ? 1 : 0.005
            t.setOpacity(n.id, n.opacity)
            return "opacity"
        case 9:
            guard let p = n.parent else { return "restack root" }
            let below = p.below.contains { $0 === n }
            guard below || p.above.contains(where: { $0 === n }) else { return "restack detached" }
            var list = below ? p.below : p.above
            list.removeAll { $0 === n }
            if Bool.random(using: &rng) {
                list.append(n)
                t.raiseToTop(n.id)
            } else {
                list.insert(n, at: 0)
                t.lowerToBottom(n.id)
            }
            if below { p.below = list } else { p.above = list }
            return "restack"
        case 10:
            t.destroy(n.id)
            unlinkReference(n, &s)
            let gone = subtree(n)
            s.all.removeAll { m in gone.contains { $0 === m } }
            return "destroy"
        case 11:
            t.detach(n.id)
            unlinkReference(n, &s)
            return "detach"
        default:
            let frame = Rect(
                Int32.random(in: -60...400, using: &rng), Int32.random(in: -60...400, using: &rng),
                Int32.random(in: 0...300, using: &rng), Int32.random(in: 0...300, using: &rng))
            let id = t.createNode(.subsurface, client: ClientID(index: 1), parent: n.id, frame: frame)
            let child = Node(id: id, frame: frame, clips: false)
            child.parent = n
            n.above.append(child)
            s.all.append(child)
            return "add"
        }
    }

    @Test func scenesChangingBetweenQueriesAgreeWithTheNaiveReference() {
        var checked = 0
        var hits = 0
        for seed in 0..<160 as Range<UInt64> {
            var rng = SeededRandom(seed: 10_000 + seed)
            var scene = Self.randomScene(&rng, wide: true)
            // Half the scenes rebuild the flat index after every burst of changes; every
            // point is also walked.
            scene.tree.hitIndexDelay = seed % 2 == 0 ? 0 : nil
            var log: [String] = []
            for round in 0..<12 {
                // Every fourth scene changes a lot between queries: enough changes to one
                // wide list to fill its grid's `moved` list and force rebuilds.
                let changes = seed % 4 == 0 ? 40 : Int.random(in: 1...3, using: &rng)
                for _ in 0..<changes { log.append(Self.mutate(&scene, &rng)) }
                for _ in 0..<20 {
                    let far = Int.random(in: 0..<10, using: &rng) == 0
                    let base =
                        far
                        ? Point(-30_000_000, Double(Int.random(in: -80...800, using: &rng)))
                        : Point(
                            Double(Int.random(in: -80...800, using: &rng)),
                            Double(Int.random(in: -80...800, using: &rng)))
                    let fractions = [0.0, 0.5, 0.99609375, -0.00390625]
                    let p = Point(
                        base.x + fractions.randomElement(using: &rng)!, base.y + fractions.randomElement(using: &rng)!)
                    guard
                        let got = Self.hitTest(scene, p, agreeing: "seed \(seed) round \(round) after \(log.suffix(6))")
                    else { return }
                    checked += 1
                    if got != nil { hits += 1 }
                }
            }
        }
        #expect(checked == 160 * 12 * 20)
        #expect(hits > checked / 20) // the scenes really are hit (far points mostly miss)
    }

    /// Whether the tree's answer at `p`, through its flat index and through the walk, is
    /// the naive reference's; a difference is recorded with `context`.
    static func indexAndWalkAgree(_ tree: SurfaceTree, _ p: Point, _ context: @autoclosure () -> String) -> Bool {
        let expected = tree.referenceHitTest(p)
        let got = tree.hitTest(p)?.node
        let walked = tree.walkedHitTest(p)?.node
        guard got == expected, walked == expected else {
            Issue.record(
                "\(context()) point \(p): walk \(String(describing: walked)), got \(String(describing: got)), expected \(String(describing: expected))"
            )
            return false
        }
        return true
    }

    /// The tree's answer at `p` (nil: no node), when it and the tree walk's (the flat
    /// index bypassed) are the naive reference's; nil when they differ, which is recorded with `context` (seed, round, recent changes).
    static func hitTest(_ scene: Scene, _ p: Point, agreeing context: @autoclosure () -> String) -> NodeID?? {
        let expected = scene.reference(p)
        let got = scene.tree.hitTest(p)?.node
        let walked = scene.tree.walkedHitTest(p)?.node
        guard got == expected, walked == expected else {
            Issue.record(
                "\(context()) point \(p): got \(String(describing: got)), walk \(String(describing: walked)), expected \(String(describing: expected))"
            )
            return nil
        }
        return .some(got)
    }

    /// The tree keeps its node records and child grids in memory it owns and grows
    /// (RecordStore.swift), and a hit-test walks that memory by address: one that kept an
    /// address from before a growth, or a grid freed with its node, would read stale or
    /// freed records. Bursts of additions grow both stores many times over (wide lists
    /// gain grids, and lose them when destroyed, their slots and grid slots reused), and
    /// every burst is followed by queries against the naive reference.
    @Test func recordStoresGrowingBetweenQueriesAgreeWithTheNaiveReference() {
        var checked = 0
        for seed in 0..<12 as Range<UInt64> {
            var rng = SeededRandom(seed: 20_000 + seed)
            var scene = Self.randomScene(&rng, wide: Bool.random(using: &rng))
            scene.tree.hitIndexDelay = 0
            for round in 0..<10 {
                var log: [String] = []
                // A new wide list under a random node: 16 to 40 children, a grid.
                if let parent = scene.all.randomElement(using: &rng) {
                    for _ in 0..<Int.random(in: 16...40, using: &rng) {
                        let frame = Rect(
                            Int32.random(in: -60...400, using: &rng), Int32.random(in: -60...400, using: &rng),
                            Int32.random(in: 1...120, using: &rng), Int32.random(in: 1...120, using: &rng))
                        let id = scene.tree.createNode(
                            .subsurface, client: ClientID(index: 1), parent: parent.id, frame: frame)
                        let child = Node(id: id, frame: frame, clips: false)
                        child.parent = parent
                        parent.above.append(child)
                        scene.all.append(child)
                    }
                    log.append("wide list under \(parent.id)")
                }
                // Then changes of every kind, destroys (freed slots, freed grids) among them.
                for _ in 0..<Int.random(in: 5...30, using: &rng) { log.append(Self.mutate(&scene, &rng)) }
                if Bool.random(using: &rng), let n = scene.all.randomElement(using: &rng) {
                    scene.tree.destroy(n.id)
                    Self.unlinkReference(n, &scene)
                    let gone = Self.subtree(n)
                    scene.all.removeAll { m in gone.contains { $0 === m } }
                    log.append("destroy \(gone.count)")
                }
                for _ in 0..<30 {
                    let p = Point(
                        Double(Int.random(in: -80...800, using: &rng)) + 0.5,
                        Double(Int.random(in: -80...800, using: &rng)))
                    guard Self.hitTest(scene, p, agreeing: "seed \(seed) round \(round) after \(log.suffix(6))") != nil
                    else { return }
                    checked += 1
                }
            }
        }
        #expect(checked == 12 * 10 * 30)
    }
}

/// One wide list (a child grid) whose children move again and again: more moves than the
/// grid's `moved` list holds, so it fills, the grid is rebuilt, and fills again. Surfaces
/// never overlap, so every point has exactly one right answer.
@Suite struct ChildGridMoveTests {
    @Test func everySurfaceIsFoundAfterEachOfManyMoves() {
        let tree = SurfaceTree()
        let output = tree.createNode(.output, frame: Rect(0, 0, 2000, 2000))
        var rng = SeededRandom(seed: 7)
        // 40 surfaces on a 20 x 20 board of 100-pixel cells, at most one per cell.
        var cellOf: [Int] = Array((0..<400).shuffled(using: &rng).prefix(40))
        let surfaces = cellOf.map { c in
            tree.createNode(
                .toplevel, client: ClientID(index: 1), parent: output,
                frame: Rect(Int32(c % 20 * 100), Int32(c / 20 * 100), 50, 50))
        }
        for step in 0..<300 {
            // Move one surface to a free cell (sometimes hide it instead, or show it again).
            let i = Int.random(in: 0..<surfaces.count, using: &rng)
            var free = Int.random(in: 0..<400, using: &rng)
            while cellOf.contains(free) { free = (free + 1) % 400 }
            cellOf[i] = free
            tree.move(surfaces[i], to: (Int32(free % 20 * 100), Int32(free / 20 * 100)))
            for (j, c) in cellOf.enumerated() {
                let p = Point(Double(c % 20 * 100) + 25, Double(c / 20 * 100) + 25)
                #expect(tree.walkedHitTest(p)?.node == surfaces[j], "step \(step): surface \(j) in cell \(c)")
                #expect(tree.hitTest(p)?.node == surfaces[j], "step \(step): surface \(j) in cell \(c), indexed")
                if tree.walkedHitTest(p)?.node != surfaces[j] || tree.hitTest(p)?.node != surfaces[j] { return }
            }
            // Beside the moved surface, in its new cell, only the output takes the point.
            #expect(
                tree.walkedHitTest(Point(Double(free % 20 * 100) + 75, Double(free / 20 * 100) + 75))?.node == output)
        }
    }
}

/// One wide list of overlapping windows (a grid) restacked again and again, as clicks that
/// raise windows do: raised and lowered children take new ranks without a rebuild, and a
/// child raised twice must move in the grid's `moved` list, not stay at its first rank.
/// Every step is checked against the naive reference on a lattice of points.
@Suite struct ChildGridRestackTests {
    @Test func raisingAndLoweringOverlappingWindowsAgreesWithTheReference() {
        let tree = SurfaceTree()
        let output = tree.createNode(.output, frame: Rect(0, 0, 1000, 800))
        var rng = SeededRandom(seed: 11)
        var windows: [NodeID] = []
        for t in 0..<24 {
            let x = Int32(t * 29 % 600)
            let y = Int32(t * 17 % 450)
            windows.append(
                tree.createNode(
                    .toplevel, client: ClientID(index: UInt32(t + 1)), parent: output,
                    frame: Rect(x, y, 300, 250)))
        }
        for step in 0..<100 {
            // Mostly the same few windows, so one already in the moved list is raised again.
            let w = windows[Int.random(in: 0..<(step % 3 == 0 ? windows.count : 4), using: &rng)]
            if Int.random(in: 0..<4, using: &rng) == 0 { tree.lowerToBottom(w) } else { tree.raiseToTop(w) }
            for y in stride(from: 5.0, to: 800, by: 47) {
                for x in stride(from: 5.0, to: 1000, by: 53) {
                    if !HitTestDifferentialTests.indexAndWalkAgree(tree, Point(x, y), "step \(step)") { return }
                }
            }
        }
    }
}

extension ChildGridRestackTests {
    /// Restacks among moves, resizes and changes inside the windows, sometimes several
    /// before one query: a raised child whose grid entries are current moves them to the
    /// front of its cells; one that moved first (entries stale, not yet noted), or one in
    /// the `moved` list, must take its new rank there instead.
    @Test func restacksMixedWithMovesAndResizesAgreeWithTheReference() {
        let tree = SurfaceTree()
        let output = tree.createNode(.output, frame: Rect(0, 0, 1000, 800))
        var rng = SeededRandom(seed: 12)
        var windows: [NodeID] = []
        var insides: [NodeID] = []
        for t in 0..<28 {
            let w = tree.createNode(
                .toplevel, client: ClientID(index: UInt32(t + 1)), parent: output,
                frame: Rect(Int32(t * 31 % 640), Int32(t * 19 % 480), 280, 230))
            windows.append(w)
            // A subsurface sticking out: resizing it changes the window's box, not its place.
            insides.append(
                tree.createNode(
                    .subsurface, client: ClientID(index: UInt32(t + 1)), parent: w,
                    frame: Rect(200, 180, 100, 80)))
        }
        for step in 0..<160 {
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let i = Int.random(in: 0..<(step % 2 == 0 ? windows.count : 5), using: &rng)
                switch Int.random(in: 0..<8, using: &rng) {
                case 0:
                    tree.move(
                        windows[i], to: (Int32.random(in: 0...700, using: &rng), Int32.random(in: 0...550, using: &rng))
                    )
                case 1:
                    tree.resize(
                        insides[i], width: Int32.random(in: 10...200, using: &rng),
                        height: Int32.random(in: 10...150, using: &rng))
                case 2: tree.lowerToBottom(windows[i])
                default: tree.raiseToTop(windows[i])
                }
            }
            for y in stride(from: 3.0, to: 800, by: 47) {
                for x in stride(from: 3.0, to: 1000, by: 53) {
                    if !HitTestDifferentialTests.indexAndWalkAgree(tree, Point(x, y), "step \(step)") { return }
                }
            }
        }
    }
}
