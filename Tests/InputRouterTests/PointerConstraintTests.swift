// The seat's relative motion and pointer constraints, as traces checked by the invariant
// checker: who gets relative deltas, when a lock or confinement is active, where a
// confined cursor may go, and every way a constraint ends.
import InputRouter
import Testing

@Suite struct PointerConstraintCoreTests {
    func motion(_ h: Harness, _ dx: Double, _ dy: Double, raw: (Double, Double)? = nil) -> [String] {
        h.step {
            h.seat.notifyPointerMotion(time: h.tick(), dx: dx, dy: dy, unacceleratedDX: raw?.0, unacceleratedDY: raw?.1)
        }
    }

    @Test func relativeMotionGoesOnlyToAClientThatAskedAndBeforeTheAbsoluteMotion() {
        let h = Harness()
        let a = h.client("a", [.pointer, .relativePointer])
        let b = h.client("b")
        h.toplevel("A", a, Rect(0, 0, 100, 100))
        h.toplevel("B", b, Rect(200, 0, 100, 100))
        _ = h.warp(10, 10)
        #expect(
            motion(h, 5, 0, raw: (2.5, 0)) == [
                "seat0 pointer.relative_motion \"A\" d 5,0 raw 2.5,0", "seat0 pointer.motion \"A\" at 15,10",
                "seat0 pointer.frame client1(\"a\")",
            ])
        // The motion that leaves A is still A's: relative motion goes where the pointer was.
        #expect(
            motion(h, 200, 0) == [
                "seat0 pointer.relative_motion \"A\" d 200,0 raw 200,0", "seat0 pointer.leave \"A\"",
                "seat0 pointer.enter \"B\" at 15,10", "seat0 pointer.motion \"B\" at 15,10",
                "seat0 pointer.frame client1(\"a\")", "seat0 pointer.frame client2(\"b\")",
            ])
        #expect(motion(h, 1, 0) == ["seat0 pointer.motion \"B\" at 16,10", "seat0 pointer.frame client2(\"b\")"])
        h.expectClean()
    }

    @Test func aLockHoldsTheCursorAndLetsOnlyRelativeMotionThrough() {
        let h = Harness()
        let a = h.client("a", [.pointer, .relativePointer])
        let n = h.toplevel("A", a, Rect(0, 0, 100, 100))
        _ = h.step { h.seat.setKeyboardFocus(n) } // the selected window
        _ = h.warp(10, 10)
        #expect(
            h.step { h.seat.addPointerConstraint(.lock, on: n, region: nil, lifetime: .persistent) } == [
                "seat0 pointer.locked \"A\""
            ])
        #expect(
            motion(h, 500, 500) == [
                "seat0 pointer.relative_motion \"A\" d 500,500 raw 500,500", "seat0 pointer.frame client1(\"a\")",
            ])
        #expect(h.seat.cursor == Point(10, 10))
        // A second constraint on the same surface is refused (already_constrained).
        #expect(h.seat.addPointerConstraint(.confine, on: n, region: nil, lifetime: .oneshot) == false)
        h.expectClean()
    }

    @Test func aConfinedCursorGoesToTheNearestPointOfTheRegion() {
        let h = Harness()
        let a = h.client("a")
        let n = h.toplevel("A", a, Rect(100, 100, 200, 200))
        _ = h.step { h.seat.setKeyboardFocus(n) } // the selected window
        _ = h.warp(110, 110)
        // Two separate squares: the cursor never lands between them.
        let region = Region([Rect(0, 0, 50, 50), Rect(100, 0, 50, 50)])
        #expect(
            h.step { h.seat.addPointerConstraint(.confine, on: n, region: region, lifetime: .oneshot) } == [
                "seat0 pointer.confined \"A\""
            ])
        _ = motion(h, 60, 0) // local 70,10: between the squares, nearer the first
        #expect(h.seat.cursor == Point(149, 110))
        _ = motion(h, 40, 0) // local ~90,10: nearer the second
        #expect(h.seat.cursor == Point(200, 110))
        _ = motion(h, 0, 500)
        #expect(h.seat.cursor == Point(200, 149))
        h.expectClean()
    }

    enum Ending: CaseIterable { case leave, unmap, destroySurface, removeConstraint, escape }

    /// Every kind × lifetime × way of ending: the checker stays clean, the surface is told
    /// unless it is gone, and only a persistent constraint comes back (after the escape,
    /// only once the pointer left and came back).
    @Test(arguments: [PointerConstraintKind.lock, .confine], [ConstraintLifetime.oneshot, .persistent])
    func everyWayAConstraintEnds(kind: PointerConstraintKind, lifetime: ConstraintLifetime) {
        for ending in Ending.allCases {
            let h = Harness()
            let a = h.client("a", [.pointer, .relativePointer])
            let b = h.client("b")
            let n = h.toplevel("A", a, Rect(0, 0, 100, 100))
            h.toplevel("B", b, Rect(300, 0, 100, 100))
            _ = h.step { h.seat.setKeyboardFocus(n) } // the selected window
            _ = h.warp(10, 10)
            let active = kind == .lock ? "seat0 pointer.locked \"A\"" : "seat0 pointer.confined \"A\""
            let inactive = kind == .lock ? "seat0 pointer.unlocked \"A\"" : "seat0 pointer.unconfined \"A\""
            #expect(h.step { h.seat.addPointerConstraint(kind, on: n, region: nil, lifetime: lifetime) } == [active])
            var lines: [String]
            switch ending {
            case .leave:
                // The window moves away from the still cursor: re-pick, the constraint ends first.
                lines = h.step { h.tree.move(n, to: (500, 500)) }
                #expect(Array(lines.prefix(2)) == [inactive, "seat0 pointer.leave \"A\""], "\(ending)")
                _ = h.step { h.tree.move(n, to: (0, 0)) }
            case .unmap:
                lines = h.step { h.tree.setMapped(n, false) }
                #expect(lines.first == inactive, "\(ending)")
                _ = h.step { h.tree.setMapped(n, true) }
                _ = h.step { h.seat.setKeyboardFocus(n) } // unmapped, it lost the keyboard too: selected again
            case .destroySurface:
                lines = h.step { h.tree.destroy(n) }
                #expect(!lines.contains(inactive), "\(ending)")
                #expect(h.seat.activePointerConstraint == nil)
                h.expectClean()
                continue
            case .removeConstraint:
                lines = h.step { h.seat.removePointerConstraint(on: n) }
                #expect(lines == [inactive], "\(ending)")
                #expect(h.seat.activePointerConstraint == nil)
                h.expectClean()
                continue
            case .escape:
                lines = h.step { h.seat.breakPointerConstraint() }
                #expect(lines == [inactive], "\(ending)")
                // Still on the surface: a broken persistent constraint stays off…
                _ = motion(h, 1, 1)
                #expect(h.seat.activePointerConstraint == nil, "\(ending)")
                // …until the pointer leaves and comes back.
                _ = h.warp(350, 10)
                _ = h.warp(10, 10)
            }
            let back = h.seat.activePointerConstraint
            #expect((back != nil) == (lifetime == .persistent), "\(kind) \(lifetime) \(ending)")
            h.expectClean()
        }
    }

    /// WLCS's reselection: the pointer stays on the surface while another window takes the
    /// keyboard (it is selected) and gives it back. A persistent constraint ends and comes
    /// back with the selection; a oneshot one ends for good. No pointer event is sent.
    @Test(arguments: [PointerConstraintKind.lock, .confine], [ConstraintLifetime.oneshot, .persistent])
    func aConstraintFollowsTheSelectedWindow(kind: PointerConstraintKind, lifetime: ConstraintLifetime) {
        let h = Harness()
        let a = h.client("a", [.pointer, .keyboard, .relativePointer])
        let n = h.toplevel("A", a, Rect(0, 0, 100, 100))
        let other = h.toplevel("B", a, Rect(300, 0, 100, 100)) // the same client, elsewhere
        let popup = h.tree.createNode(.popup, name: "menu", client: a, parent: n, frame: Rect(50, 50, 40, 40))
        _ = h.warp(10, 10)
        let active = kind == .lock ? "seat0 pointer.locked \"A\"" : "seat0 pointer.confined \"A\""
        let inactive = kind == .lock ? "seat0 pointer.unlocked \"A\"" : "seat0 pointer.unconfined \"A\""
        // Pointer focus without the keyboard: not yet.
        #expect(h.step { h.seat.addPointerConstraint(kind, on: n, region: nil, lifetime: lifetime) } == [])
        #expect(
            h.step { h.seat.setKeyboardFocus(n) } == [
                "seat0 keyboard.enter \"A\" keys []", "seat0 keyboard.modifiers \"A\" 0,0,0,0", active,
            ])
        // A popup of the same window taking the keyboard keeps it selected.
        #expect(!h.step { h.seat.setKeyboardFocus(popup) }.contains(inactive))
        #expect(
            h.step { h.seat.setKeyboardFocus(other) } == [
                "seat0 keyboard.leave \"menu\"", "seat0 keyboard.enter \"B\" keys []",
                "seat0 keyboard.modifiers \"B\" 0,0,0,0", inactive,
            ])
        let back = h.step { h.seat.setKeyboardFocus(n) }
        #expect(
            back == [
                "seat0 keyboard.leave \"B\"", "seat0 keyboard.enter \"A\" keys []",
                "seat0 keyboard.modifiers \"A\" 0,0,0,0",
            ]
                + (lifetime == .persistent ? [active] : []))
        // Off, the pointer focus alone decides.
        h.seat.constraintsNeedKeyboardFocus = false
        _ = h.step { h.seat.setKeyboardFocus(other) }
        #expect((h.seat.activePointerConstraint != nil) == (lifetime == .persistent))
        h.expectClean()
    }

    /// Random streams with constraints coming and going under motion, buttons, scene
    /// changes, grabs, recognizer claims and the escape: the checker stays clean, a locked
    /// cursor never moves, and a confined one never leaves its surface.
    @Test(arguments: 0..<40 as Range<UInt64>)
    func invariantsHoldWithConstraintsInRandomStreams(seed: UInt64) {
        var rng = SeededRandom(seed: seed &* 104_729)
        let h = Harness(outputSize: Rect(0, 0, 400, 300))
        h.seat.keyTranslator = CodeTranslator()
        h.seat.addRecognizer(SuperDrag())
        let clients = (0..<3).map { h.client("c\($0)", [.pointer, .keyboard, .relativePointer]) }
        var surfaces: [NodeID] = []
        func addSurface() {
            let c = clients.randomElement(using: &rng)!
            let frame = Rect(
                Int32.random(in: 0...300, using: &rng), Int32.random(in: 0...200, using: &rng),
                Int32.random(in: 20...150, using: &rng), Int32.random(in: 20...150, using: &rng))
            surfaces.append(h.tree.createNode(.toplevel, client: c, parent: h.output, frame: frame))
        }
        for _ in 0..<4 { addSurface() }
        _ = h.flush()
        var activeSteps = 0
        var buttonDown = false
        for step in 0..<2000 {
            let t = h.tick()
            let before = h.seat.cursor
            let constraint = h.seat.activePointerConstraint
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<45:
                h.seat.notifyPointerMotion(
                    time: t, dx: Double.random(in: -25...25, using: &rng), dy: Double.random(in: -25...25, using: &rng))
                if let c = constraint, c.kind == .lock, h.seat.activePointerConstraint?.node == c.node {
                    #expect(h.seat.cursor == before, "seed \(seed) step \(step): a locked cursor moved")
                }
                if let c = constraint, c.kind == .confine, h.seat.activePointerConstraint?.node == c.node,
                    let o = h.tree.layoutPosition(of: c.node), let f = h.tree.frame(of: c.node)
                {
                    let p = h.seat.cursor
                    #expect(
                        p.x >= o.x && p.y >= o.y && p.x < o.x + Double(f.width) && p.y < o.y + Double(f.height),
                        "seed \(seed) step \(step): a confined cursor left its surface")
                }
            case 45..<52:
                // Onto a surface, where constraints can take hold.
                if let n = surfaces.randomElement(using: &rng), let o = h.tree.layoutPosition(of: n) {
                    h.seat.notifyPointerWarp(time: t, to: Point(o.x + 8, o.y + 8))
                    // Mostly selected too (a constraint also needs the keyboard focus).
                    if Int.random(in: 0..<4, using: &rng) != 0 { h.seat.setKeyboardFocus(n) }
                }
            case 52..<60:
                // Press and release in turn: a count that climbs would keep a recognizer's claim forever.
                buttonDown.toggle()
                h.seat.notifyPointerButton(time: t, button: 0x110, state: buttonDown ? .pressed : .released)
            case 60..<64:
                h.seat.notifyKey(time: t, key: 125, state: Bool.random(using: &rng) ? .pressed : .released)
            case 64..<72:
                if let n = surfaces.randomElement(using: &rng) {
                    let region: Region? =
                        Bool.random(using: &rng) ? nil : Region([Rect(0, 0, 15, 15), Rect(30, 5, 20, 40)])
                    h.seat.addPointerConstraint(
                        Bool.random(using: &rng) ? .lock : .confine, on: n, region: region,
                        lifetime: Bool.random(using: &rng) ? .oneshot : .persistent)
                }
            case 72..<76:
                if let n = surfaces.randomElement(using: &rng) { h.seat.removePointerConstraint(on: n) }
            case 76..<79:
                if let n = surfaces.randomElement(using: &rng) {
                    h.seat.setPointerConstraintRegion(
                        on: n, Bool.random(using: &rng) ? nil : Region(Rect(5, 5, 10, 10)))
                }
            case 79..<81:
                if let n = surfaces.randomElement(using: &rng) { h.seat.setPointerConstraintHint(on: n, Point(3, 4)) }
            case 81..<82:
                h.seat.breakPointerConstraint()
            case 82..<88:
                if let n = surfaces.randomElement(using: &rng) {
                    h.tree.move(n, to: (Int32.random(in: 0...300, using: &rng), 50))
                }
            case 88..<91:
                if let n = surfaces.randomElement(using: &rng) { h.tree.setMapped(n, !h.tree.isMapped(n)) }
            case 91..<93:
                if let n = surfaces.randomElement(using: &rng) { h.tree.raiseToTop(n) }
            case 93..<95:
                if let n = surfaces.randomElement(using: &rng) { h.tree.destroy(n) }
                surfaces.removeAll { !h.tree.isAlive($0) }
                if surfaces.count < 2 { addSurface() }
            case 95..<97:
                // Rarely: a move grab holds until the buttons are let go, and blocks constraints.
                if Int.random(in: 0..<8, using: &rng) == 0, let n = surfaces.randomElement(using: &rng) {
                    h.seat.beginMove(n)
                }
            default:
                if let n = surfaces.randomElement(using: &rng) {
                    h.tree.setInputRegion(n, Bool.random(using: &rng) ? nil : Region(Rect(0, 0, 12, 60)))
                }
            }
            _ = h.flush()
            if h.seat.activePointerConstraint != nil { activeSteps += 1 }
            if !h.sink.violations.isEmpty { break }
        }
        #expect(h.sink.violations == [], "seed \(seed)")
        #expect(activeSteps > 20, "seed \(seed): constraints were active for only \(activeSteps) steps")
    }
}
