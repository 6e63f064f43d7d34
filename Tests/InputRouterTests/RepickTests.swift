import InputRouter
import Testing

/// When the pointer is picked again under a still cursor, and when it is not: handler
/// changes re-pick, changes that change nothing do not, a declined enter is not offered
/// again on every motion, and a surface moving under the cursor gets a motion.
@Suite struct RepickTests {
    /// A compositor node whose handler records what it is offered and declines it all.
    final class Recorder {
        var events: [NodeEvent] = []
        var enters: Int { events.filter { if case .pointerEnter = $0 { true } else { false } }.count }
        func handler(_ e: NodeEvent) -> Disposition {
            events.append(e)
            return .notHandled
        }
    }

    @Test func settingANodeHandlerRepicksAtOnce() {
        let h = Harness()
        let panel = h.tree.createNode(.compositor, name: "panel", parent: h.output, frame: Rect(0, 0, 100, 100))
        #expect(h.warp(10, 10) == ["seat0 dropped pointer.motion"])
        let taken = h.step {
            h.tree.setHandler(panel) { e in
                if case .pointerEnter = e { return .handled }
                return .notHandled
            }
        }
        #expect(taken == ["seat0 handled pointer.enter by \"panel\""])
        #expect(h.step { h.tree.setHandler(panel, nil) } == ["seat0 handled pointer.leave by \"panel\""])
        h.expectClean()
    }

    @Test func settingAClientHandlerRepicksAtOnce() {
        let h = Harness()
        let a = h.client("a", [.keyboard]) // no wl_pointer: its surface cannot take the pointer
        h.toplevel("A", a, Rect(0, 0, 100, 100))
        #expect(h.warp(10, 10) == ["seat0 dropped pointer.motion"])
        let taken = h.step {
            h.router.setHandler(for: a) { e in
                if case .pointerEnter = e { return .handled }
                return .notHandled
            }
        }
        #expect(taken == ["seat0 handled pointer.enter by client1(\"a\")"])
        h.expectClean()
    }

    @Test func aDeclinedEnterIsOfferedOncePerPickNotPerMotion() {
        let h = Harness()
        let r = Recorder()
        let panel = h.tree.createNode(.compositor, name: "panel", parent: h.output, frame: Rect(0, 0, 100, 100))
        h.tree.setHandler(panel, r.handler)
        for x in stride(from: 10.0, through: 50, by: 10) { _ = h.warp(x, 10) }
        #expect(r.enters == 1)
        // A real scene change may change the answer: offered again, once.
        h.tree.createNode(.compositor, name: "other", parent: h.output, frame: Rect(500, 500, 10, 10))
        _ = h.warp(60, 10)
        #expect(r.enters == 2)
        h.expectClean()
    }

    /// Setting what is already set (a commit that changes nothing) is no scene change.
    @Test(arguments: ["buffer", "mapped", "region", "position", "size", "opacity", "input"])
    func unchangedStateDoesNotRepick(change: String) {
        let h = Harness()
        let r = Recorder()
        let a = h.client("a")
        let panel = h.tree.createNode(.compositor, name: "panel", parent: h.output, frame: Rect(0, 0, 100, 100))
        h.tree.setHandler(panel, r.handler)
        let win = h.toplevel("A", a, Rect(300, 300, 100, 100))
        h.tree.setBuffer(win, width: 200, height: 200, scale: 2)
        h.tree.setInputRegion(win, Region(Rect(0, 0, 50, 50)))
        _ = h.warp(10, 10)
        #expect(r.enters == 1)
        let lines = h.step {
            switch change {
            case "buffer": h.tree.setBuffer(win, width: 200, height: 200, scale: 2)
            case "mapped": h.tree.setMapped(win, true)
            case "region": h.tree.setInputRegion(win, Region(Rect(0, 0, 50, 50))) // equal, not the same value
            case "position": h.tree.move(win, to: (300, 300))
            case "size": h.tree.resize(win, width: 100, height: 100)
            case "opacity": h.tree.setOpacity(win, 1)
            default: h.tree.setAcceptsInput(win, true)
            }
        }
        #expect(lines == [])
        #expect(r.enters == 1, "re-picked for a change that changed nothing")
        h.expectClean()
    }

    @Test func aSurfaceMovingUnderAStillPointerGetsAMotion() {
        let h = Harness()
        let a = h.client("a")
        let win = h.toplevel("A", a, Rect(0, 0, 100, 100))
        _ = h.warp(10, 10)
        #expect(
            h.step { h.tree.move(win, to: (5, 2)) } == [
                "seat0 pointer.motion \"A\" at 5,8", "seat0 pointer.frame client1(\"a\")",
            ])
        // A change that leaves the surface-local position alone sends nothing.
        #expect(h.step { h.tree.resize(win, width: 120, height: 100) } == [])
        // A parent moving moves it too.
        let b = h.client("b")
        let frame = h.tree.createNode(.compositor, name: "frame", parent: h.output, frame: Rect(200, 200, 300, 300))
        let inner = h.toplevel("B", b, Rect(10, 10, 100, 100), parent: frame)
        _ = h.warp(250, 250)
        #expect(
            h.step { h.tree.move(frame, to: (220, 210)) } == [
                "seat0 pointer.motion \"B\" at 20,30", "seat0 pointer.frame client2(\"b\")",
            ])
        _ = inner
        h.expectClean()
    }
}
