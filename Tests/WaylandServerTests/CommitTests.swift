// Double-buffered state, as a real client changes it: nothing moves input until commit,
// and a synchronized subsurface's position waits for its parent's commit.
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct CommitTests {
    @Test func inputRegionTakesEffectOnCommitAndRepicks() throws {
        let h = try ServerHarness()
        let c = try h.mappedProbe(["--toplevel", "win", "200x200"])
        h.warp(50, 50)
        #expect(h.settle(c) == ["pointer.enter win 10.00 10.00", "pointer.motion 10.00 10.00", "pointer.frame"])
        h.command(c, "region win 100,100,50,50")
        #expect(h.settle(c) == ["done region win 100,100,50,50"]) // pending: nothing changed
        h.command(c, "commit win")
        // The committed region no longer holds the cursor: the server re-picks at once.
        #expect(h.settle(c) == ["pointer.leave win", "pointer.frame", "done commit win"])
    }

    @Test func synchronizedSubsurfaceMovesWithItsParentsCommit() throws {
        let h = try ServerHarness()
        let c = try h.mappedProbe(["--toplevel", "win", "200x200", "--sub", "child", "win", "0,0", "50x50"])
        h.warp(50, 50)
        #expect(h.settle(c).first == "pointer.enter child 10.00 10.00")
        h.command(c, "position child 100,100")
        h.command(c, "commit child")
        // Synchronized: held for the parent, no pointer event.
        #expect(h.settle(c) == ["done position child 100,100", "done commit child"])
        h.command(c, "commit win")
        // A re-pick after a scene change: enter without motion.
        #expect(
            h.settle(c) == ["pointer.leave child", "pointer.enter win 10.00 10.00", "pointer.frame", "done commit win"])
        h.warp(150, 150)
        #expect(h.settle(c).prefix(2) == ["pointer.leave win", "pointer.enter child 10.00 10.00"])
    }

    @Test func frameCallbacksAreAnsweredAndBuffersReleased() throws {
        let h = try ServerHarness()
        let c = try h.mappedProbe(["--toplevel", "win", "100x100"])
        c.send("frame win")
        var seen: Set<String> = []
        h.wait(for: c) { line in
            if line.hasPrefix("frame.done") || line.hasPrefix("buffer.release") || line.hasPrefix("done") {
                seen.insert(line)
            }
            return seen.count == 3
        }
        #expect(seen == ["done frame win", "frame.done win", "buffer.release win"])
    }
}
