import Testing

@testable import InputRouter

/// The flat index kept across raises (HitIndex+Raises.swift) against the naive reference:
/// random scenes with the index built, then raises of any node (outputs, windows,
/// compositor nodes with custom tests, subsurfaces in either layer, popups, nested ones)
/// interleaved with queries, now and then a lower or another change that makes the index
/// stale. Fails when a query does not correct for a raise, when the correction ignores the
/// layer or the raised subtree's clipping ancestors, or when a nested raise is remembered
/// (checked by breaking each).
extension HitTestDifferentialTests {
    /// Raises `n` in the model as `raiseToTop` does in the tree (a detached node, in no
    /// list, stays out).
    static func raiseReference(_ n: RefNode, _ s: inout Scene) {
        if let p = n.parent {
            if p.below.contains(where: { $0 === n }) {
                p.below.removeAll { $0 === n }
                p.below.append(n)
            } else if p.above.contains(where: { $0 === n }) {
                p.above.removeAll { $0 === n }
                p.above.append(n)
            }
        } else if s.roots.contains(where: { $0 === n }) {
            s.roots.removeAll { $0 === n }
            s.roots.append(n)
        }
    }

    /// Whether the tree's index is current and corrects for at least one raise.
    static func indexFollowsRaises(_ tree: SurfaceTree) -> Bool {
        tree.hitIndex.generation == tree.generation && tree.hitIndex.raisedCount > 0
    }

    @Test func raisesBetweenIndexedQueriesAgreeWithTheNaiveReference() {
        var checked = 0
        var followed = 0
        var changedByRaise = 0
        for seed in 0..<200 as Range<UInt64> {
            var rng = SeededRandom(seed: 40_000 + seed)
            var scene = Self.randomScene(&rng, wide: seed % 3 == 0)
            scene.tree.hitIndexDelay = seed % 2 == 0 ? 0 : 4
            // Popups over some windows: raised like any node.
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                guard let w = scene.all.filter({ scene.tree.kind(of: $0.id) == .toplevel }).randomElement(using: &rng)
                else { break }
                let frame = Rect(
                    Int32.random(in: -40...200, using: &rng), Int32.random(in: -40...200, using: &rng),
                    Int32.random(in: 1...150, using: &rng), Int32.random(in: 1...150, using: &rng))
                let id = scene.tree.createNode(.popup, client: ClientID(index: 1), parent: w.id, frame: frame)
                let popup = RefNode(id: id, frame: frame, clips: false)
                popup.parent = w
                w.above.append(popup)
                scene.all.append(popup)
            }
            var log: [String] = []
            for round in 0..<40 {
                // Mostly raises (several in a row, often of the same few nodes, as clicks
                // between windows do), sometimes a lower or another change.
                let pool = Array(scene.all.prefix(6)) + scene.all
                switch Int.random(in: 0..<10, using: &rng) {
                case 0:
                    log.append(Self.mutate(&scene, &rng))
                case 1:
                    guard let n = scene.all.randomElement(using: &rng), let p = n.parent else { break }
                    if p.below.contains(where: { $0 === n }) {
                        p.below.removeAll { $0 === n }
                        p.below.insert(n, at: 0)
                    } else if p.above.contains(where: { $0 === n }) {
                        p.above.removeAll { $0 === n }
                        p.above.insert(n, at: 0)
                    }
                    scene.tree.lowerToBottom(n.id)
                    log.append("lower \(n.id)")
                default:
                    for _ in 0..<Int.random(in: 1...3, using: &rng) {
                        guard let n = pool.randomElement(using: &rng) else { break }
                        Self.raiseReference(n, &scene)
                        scene.tree.raiseToTop(n.id)
                        log.append("raise \(n.id)")
                    }
                }
                for q in 0..<12 {
                    // Half inside some node's frame (most hit, and raises change them), the
                    // rest anywhere; every third point again, as a release after a press.
                    let p: Point
                    if q % 2 == 0, let t = scene.all.randomElement(using: &rng) {
                        let (ox, oy) = t.origin
                        p = Point(
                            ox + Double(Int.random(in: -2...Int(max(t.w, 1)), using: &rng)) + 0.5,
                            oy + Double(Int.random(in: -2...Int(max(t.h, 1)), using: &rng)) + 0.25)
                    } else {
                        p = Point(
                            Double(Int.random(in: -80...800, using: &rng)) + [0, 0.5, -0.00390625].randomElement(
                                using: &rng)!,
                            Double(Int.random(in: -80...800, using: &rng)))
                    }
                    let following = Self.indexFollowsRaises(scene.tree)
                    let before = scene.reference(p)
                    guard
                        let got = Self.hitTest(scene, p, agreeing: "seed \(seed) round \(round) after \(log.suffix(6))")
                    else { return }
                    // Raise something over the point and ask again at once (the click's
                    // press raises, the release re-picks at the same point).
                    if q % 3 == 0,
                        let n = scene.all.filter({
                            $0.letsThrough(p, threshold: scene.tree.opacityThreshold) && $0.containsSelf(p)
                        }).randomElement(using: &rng)
                    {
                        var top = n
                        while let up = top.parent, Bool.random(using: &rng) { top = up }
                        Self.raiseReference(top, &scene)
                        scene.tree.raiseToTop(top.id)
                        log.append("raise \(top.id) at the point")
                        guard
                            let again = Self.hitTest(
                                scene, p, agreeing: "seed \(seed) round \(round) after \(log.suffix(6))")
                        else { return }
                        if again != before { changedByRaise += 1 }
                    }
                    checked += 1
                    if following && got != nil { followed += 1 }
                }
            }
        }
        #expect(checked == 200 * 40 * 12)
        // The index really followed raises for many hits, and raises really changed hits.
        #expect(followed > 5_000, "\(followed)")
        #expect(changedByRaise > 40, "\(changedByRaise)")
    }

    /// A desktop of cascaded windows with subsurfaces (one in the below layer), two of them
    /// raised in turn as clicks do: the index stays current with at most two remembered
    /// raises, and every answer is the reference's. Then distinct raises overflow the list
    /// (the index goes stale and is built again after its delay), and a window's
    /// subsurface raised after the window is a nested raise (stale at once).
    @Test func clickRaisesOnADesktopKeepTheIndex() {
        let tree = SurfaceTree()
        tree.hitIndexDelay = 2
        let output = tree.createNode(.output, frame: Rect(0, 0, 1920, 1080))
        var windows: [NodeID] = []
        var subsurfaces: [NodeID] = []
        for i in 0..<30 {
            let w = tree.createNode(
                .toplevel, client: ClientID(index: UInt32(i)), parent: output,
                frame: Rect(Int32(i % 7) * 200, Int32(i / 7) * 150, 400, 300))
            windows.append(w)
            subsurfaces.append(
                tree.createNode(
                    .subsurface, client: ClientID(index: UInt32(i)), parent: w, frame: Rect(-10, 20, 60, 40)))
            tree.createNode(
                .subsurface, client: ClientID(index: UInt32(i)), parent: w, frame: Rect(350, 250, 80, 80), layer: .below
            )
        }
        func agree(_ p: Point, _ context: String) -> Bool { Self.indexAndWalkAgree(tree, p, context) }
        let points = [
            Point(250, 170), Point(395, 290), Point(430, 330), Point(200.5, 170.5), Point(1000, 600), Point(195, 175),
        ]
        for p in points + points + points { guard agree(p, "before") else { return } }
        #expect(tree.hitIndex.generation == tree.generation)
        for round in 0..<200 {
            let w = windows[round % 2 == 0 ? 8 : 9]
            tree.raiseToTop(w)
            for p in points { guard agree(p, "round \(round)") else { return } }
            #expect(tree.hitIndex.generation == tree.generation && tree.hitIndex.raisedCount <= 2)
        }
        for (k, w) in windows.prefix(9).enumerated() {
            tree.raiseToTop(w)
            // Two remembered before, two more fill the list; the third new one overflows.
            if k <= 2 { #expect((tree.hitIndex.generation == tree.generation) == (k < 2), "raise \(k)") }
            for p in points { guard agree(p, "distinct raise \(k)") else { return } }
        }
        for p in points + points { guard agree(p, "rebuilt") else { return } }
        #expect(tree.hitIndex.generation == tree.generation)
        tree.raiseToTop(windows[3])
        #expect(Self.indexFollowsRaises(tree))
        tree.raiseToTop(subsurfaces[3])
        #expect(tree.hitIndex.generation != tree.generation)
        for p in points { guard agree(p, "nested") else { return } }
    }

    /// A raised window under a clipping output, with another output above it: the raised
    /// window's part outside its output stays unhit, and the output above still wins.
    @Test func aRaiseUnderAClippingOutputKeepsTheClipAndTheOutputAbove() {
        let tree = SurfaceTree()
        tree.hitIndexDelay = 0
        let left = tree.createNode(.output, frame: Rect(0, 0, 500, 500))
        let right = tree.createNode(.output, frame: Rect(400, 0, 500, 500))
        let back = tree.createNode(.toplevel, client: ClientID(index: 1), parent: left, frame: Rect(0, 0, 500, 500))
        let front = tree.createNode(
            .toplevel, client: ClientID(index: 2), parent: left, frame: Rect(100, 100, 700, 300))
        let p = Point(200, 200)
        let shared = Point(450, 200)
        let outside = Point(200, 450)
        #expect(tree.hitTest(p)?.node == front)
        tree.raiseToTop(back)
        #expect(Self.indexFollowsRaises(tree))
        #expect(tree.hitTest(p)?.node == back)
        #expect(tree.hitTest(shared)?.node == right)
        tree.raiseToTop(front)
        #expect(tree.hitTest(p)?.node == front)
        #expect(tree.hitTest(shared)?.node == right)
        #expect(tree.hitTest(outside)?.node == back)
        tree.raiseToTop(left)
        #expect(tree.hitTest(shared)?.node == front)
        #expect(tree.hitTest(Point(850, 200))?.node == right) // clipped: front ends at 500
        for q in [p, shared, outside, Point(850, 200)] {
            guard Self.indexAndWalkAgree(tree, q, "outputs") else { return }
        }
    }

    /// A wide list's grid (ChildGrid.swift) takes raised children into its `moved` list
    /// while there is room, then moves their cell entries instead; walked queries (the
    /// index kept off) against the reference, with raises of a few windows and of many,
    /// moves between them (a move with the list full rebuilds the grid), and lowers.
    @Test func raisesInAWideListAgreeWithTheReferenceThroughTheGrid() {
        let tree = SurfaceTree()
        tree.hitIndexDelay = Int.max
        let output = tree.createNode(.output, frame: Rect(0, 0, 1200, 900))
        var windows: [NodeID] = []
        for i in 0..<24 {
            windows.append(
                tree.createNode(
                    .toplevel, client: ClientID(index: UInt32(i)), parent: output,
                    frame: Rect(Int32(i % 6) * 150, Int32(i / 6) * 160, 300, 260)))
        }
        var rng = SeededRandom(seed: 77)
        for round in 0..<600 {
            let few = round % 200 < 100
            let w = few ? windows[round % 3] : windows.randomElement(using: &rng)!
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: tree.move(w, to: (Int32.random(in: 0...900, using: &rng), Int32.random(in: 0...700, using: &rng)))
            case 1: tree.lowerToBottom(w)
            default: tree.raiseToTop(w)
            }
            for _ in 0..<6 {
                let p = Point(
                    Double(Int.random(in: 0..<1200, using: &rng)) + 0.5, Double(Int.random(in: 0..<900, using: &rng)))
                guard Self.indexAndWalkAgree(tree, p, "round \(round)") else { return }
            }
        }
    }

    /// Windows already in the grid's moved list, raised and lowered again (each a shift to
    /// one end of the list): where they all overlap, the topmost is the one restacked last
    /// to the top, and a lowered one only shows where the others do not cover it.
    @Test func restacksWithinTheGridsMovedListKeepItsOrder() {
        let tree = SurfaceTree()
        tree.hitIndexDelay = Int.max
        let output = tree.createNode(.output, frame: Rect(0, 0, 1200, 900))
        var windows: [NodeID] = []
        for i in 0..<20 {
            windows.append(
                tree.createNode(
                    .toplevel, client: ClientID(index: UInt32(i)), parent: output,
                    frame: Rect(Int32(i % 5) * 200, Int32(i / 5) * 200, 400, 300)))
        }
        let (a, b, c) = (windows[0], windows[1], windows[5]) // all three cover (250, 250)
        let shared = Point(250.5, 250.5)
        for w in [a, b, c] { tree.raiseToTop(w) }
        #expect(tree.hitTest(shared)?.node == c)
        tree.raiseToTop(a) // from the middle of the moved list to its top
        #expect(tree.hitTest(shared)?.node == a)
        tree.raiseToTop(a) // already at the top
        #expect(tree.hitTest(shared)?.node == a)
        tree.lowerToBottom(a) // from the top of the moved list to its bottom
        #expect(tree.hitTest(shared)?.node == c)
        tree.lowerToBottom(c)
        #expect(tree.hitTest(shared)?.node == b)
        tree.raiseToTop(c) // from the bottom to the top
        #expect(tree.hitTest(shared)?.node == c)
        for x in stride(from: 0.5, to: 1200, by: 50) {
            for y in stride(from: 0.5, to: 900, by: 50) {
                guard Self.indexAndWalkAgree(tree, Point(x, y), "(\(x), \(y))") else { return }
            }
        }
    }
}
