import InputRouter
import Testing

@Suite struct HitTestTests {
    /// The seeds' example: A ⊃ {B, C}, C ⊃ {D, E}; a touch in E returns E.
    @Test func seedsExampleInAppleOrder() {
        let tree = SurfaceTree()
        let a = tree.createNode(.compositor, name: "A", frame: Rect(0, 0, 300, 400))
        let b = tree.createNode(.compositor, name: "B", parent: a, frame: Rect(0, 0, 300, 100))
        let c = tree.createNode(.compositor, name: "C", parent: a, frame: Rect(0, 150, 300, 250))
        let d = tree.createNode(.compositor, name: "D", parent: c, frame: Rect(0, 0, 300, 100))
        let e = tree.createNode(.compositor, name: "E", parent: c, frame: Rect(0, 150, 300, 100))
        var log = HitTestLog()
        let hit = tree.hitTest(Point(50, 350), observer: &log)
        #expect(hit?.node == e)
        #expect(hit?.local == Point(50, 50))
        // Children last to first: C and E are tested before (and instead of) B and D.
        #expect(log.steps.map { tree.name(of: $0.node)! } == ["A", "C", "E"])
        #expect(log.steps.allSatisfy { $0.inside })
        _ = (b, d)
    }

    /// The same tree with B above C and D above E: the rejected siblings are tested first,
    /// giving the order A, (B rejected) C, (D rejected) E.
    @Test func seedsExampleWithRejectedSiblings() {
        let tree = SurfaceTree()
        let a = tree.createNode(.compositor, name: "A", frame: Rect(0, 0, 300, 400))
        let c = tree.createNode(.compositor, name: "C", parent: a, frame: Rect(0, 150, 300, 250))
        tree.createNode(.compositor, name: "B", parent: a, frame: Rect(0, 0, 300, 100))
        let e = tree.createNode(.compositor, name: "E", parent: c, frame: Rect(0, 150, 300, 100))
        tree.createNode(.compositor, name: "D", parent: c, frame: Rect(0, 0, 300, 100))
        var log = HitTestLog()
        #expect(tree.hitTest(Point(50, 350), observer: &log)?.node == e)
        let steps = log.steps.map { "\(tree.name(of: $0.node)!)\($0.inside ? "" : " rejected")" }
        #expect(steps == ["A", "B rejected", "C", "D rejected", "E"])
    }

    @Test func floorRuleAtEdges() {
        let tree = SurfaceTree()
        let n = tree.createNode(.toplevel, client: ClientID(index: 1), frame: Rect(10, 10, 5, 5))
        for (x, inside) in [(9.999, false), (10.0, true), (14.999, true), (15.0, false), (14.5, true)] {
            #expect((tree.hitTest(Point(x, 12))?.node == n) == inside, "x = \(x)")
        }
        #expect(tree.hitTest(Point(10.25, 12.5))?.local == Point(0.25, 2.5))
    }

    @Test func inputRegionIsClippedToTheSurfaceAndHasHoles() {
        let tree = SurfaceTree()
        let n = tree.createNode(.toplevel, client: ClientID(index: 1), frame: Rect(0, 0, 100, 100))
        var region = Region(Rect(-50, -50, 300, 300)) // larger than the surface
        region.subtract(Rect(20, 20, 10, 10))
        tree.setInputRegion(n, region)
        #expect(tree.hitTest(Point(5, 5))?.node == n)
        #expect(tree.hitTest(Point(25, 25)) == nil) // the hole
        #expect(tree.hitTest(Point(150, 50)) == nil) // region outside the surface: clipped
        tree.setInputRegion(n, Region()) // empty: no input at all
        #expect(tree.hitTest(Point(5, 5)) == nil)
        tree.setInputRegion(n, nil) // infinite again
        #expect(tree.hitTest(Point(25, 25))?.node == n)
    }

    @Test func subsurfaceBelowParentAndStickingOut() {
        let tree = SurfaceTree()
        let c = ClientID(index: 1)
        let top = tree.createNode(.toplevel, client: c, frame: Rect(100, 100, 100, 100))
        let below = tree.createNode(.subsurface, client: c, parent: top, frame: Rect(-20, 50, 60, 20), layer: .below)
        let above = tree.createNode(.subsurface, client: c, parent: top, frame: Rect(90, 0, 30, 30))
        #expect(tree.hitTest(Point(85, 155))?.node == below) // sticks out to the left
        #expect(tree.hitTest(Point(110, 155))?.node == top) // the parent covers it
        #expect(tree.hitTest(Point(195, 110))?.node == above)
        #expect(tree.hitTest(Point(215, 110))?.node == above) // sticks out, no clipping
        tree.place(below, above: top) // now directly above the parent's content
        #expect(tree.hitTest(Point(110, 155))?.node == below)
        tree.place(above, below: top)
        #expect(tree.hitTest(Point(195, 110))?.node == top)
        #expect(tree.children(of: top) == [above, below])
    }

    @Test func skipsUnmappedInputlessTransparentAndClippedSubtrees() {
        let tree = SurfaceTree()
        let c = ClientID(index: 1)
        let back = tree.createNode(.toplevel, client: c, frame: Rect(0, 0, 100, 100))
        let front = tree.createNode(.toplevel, client: c, frame: Rect(0, 0, 100, 100))
        let child = tree.createNode(.subsurface, client: c, parent: front, frame: Rect(50, 50, 100, 100))
        let p = Point(10, 10)
        #expect(tree.hitTest(p)?.node == front)
        for hide in [
            { tree.setMapped(front, false) }, { tree.setAcceptsInput(front, false) }, { tree.setOpacity(front, 0.009) },
        ] {
            hide()
            #expect(tree.hitTest(p)?.node == back)
            #expect(tree.hitTest(Point(120, 120)) == nil) // the child went with its parent
            tree.setMapped(front, true)
            tree.setAcceptsInput(front, true)
            tree.setOpacity(front, 1)
        }
        tree.setOpacity(front, 0.01) // at the threshold: still hit
        #expect(tree.hitTest(p)?.node == front)
        #expect(tree.hitTest(Point(120, 120))?.node == child)
        tree.setClipsChildren(front, true)
        #expect(tree.hitTest(Point(120, 120)) == nil)
        #expect(tree.hitTest(Point(60, 60))?.node == child)
    }

    @Test func customContainmentAndBufferScale() {
        let tree = SurfaceTree()
        let round = tree.createNode(.compositor, name: "button", frame: Rect(0, 0, 100, 100))
        tree.setContainmentTest(round) { p in (p.x - 50) * (p.x - 50) + (p.y - 50) * (p.y - 50) <= 2500 }
        #expect(tree.hitTest(Point(50, 50))?.node == round)
        #expect(tree.hitTest(Point(2, 2)) == nil)
        let s = tree.createNode(.toplevel, client: ClientID(index: 1), frame: Rect(200, 0, 0, 0))
        tree.setBuffer(s, width: 200, height: 100, scale: 2)
        #expect(tree.frame(of: s) == Rect(200, 0, 100, 50))
        #expect(tree.hitTest(Point(299, 49))?.node == s)
        #expect(tree.hitTest(Point(300, 49)) == nil)
    }

    @Test func destroyedHandlesNeverResolve() {
        let tree = SurfaceTree()
        let a = tree.createNode(.toplevel, client: ClientID(index: 1), frame: Rect(0, 0, 10, 10))
        tree.destroy(a)
        let b = tree.createNode(.toplevel, client: ClientID(index: 1), frame: Rect(0, 0, 10, 10))
        #expect(a.index == b.index) // the slot is reused...
        #expect(!tree.isAlive(a)) // ...but the old handle stays dead
        #expect(tree.frame(of: a) == nil)
        #expect(tree.hitTest(Point(1, 1))?.node == b)
    }

    @Test func parentCyclesAreRefused() {
        let tree = SurfaceTree()
        let a = tree.createNode(.toplevel, client: ClientID(index: 1))
        let b = tree.createNode(.subsurface, client: ClientID(index: 1), parent: a)
        #expect(!tree.setParent(a, b))
        #expect(!tree.setParent(a, a))
        #expect(tree.parent(of: b) == a)
    }
}
