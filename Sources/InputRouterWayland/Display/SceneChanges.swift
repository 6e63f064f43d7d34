// What follows a change of the scene, whatever made it: a move grab dragging a window, the
// embedder moving one (`placeWindow`, or the tree's own `move`), a maximize, a commit's
// new size, an output plugged in, out, moved or resized. Reactive popups are placed again
// against their parents' new places (XdgPositioner.swift), outputs whose frame changed are
// announced, then every surface's outputs are recomputed (Outputs.swift). The tree's scene
// generation says when: one comparison per `sendDeliveries` (each input event's,
// `placeWindow`'s, each dispatch's after its requests) and per `dispatch` before it waits,
// for what the embedder changed between two.
import InputRouter

extension WaylandServer {
    /// Brings popups' places, outputs' announced frames and surfaces' outputs up to the
    /// scene, if it changed since the last time. The test is inline (every `sendDeliveries`
    /// makes it); the work, rare, is not.
    @inline(__always) func followSceneChanges() {
        if router.tree.sceneGeneration != sceneGenerationFollowed { followSceneChange() }
    }

    @inline(never) private func followSceneChange() {
        if !popupObjects.isEmpty { placePopupsAgain() }
        // Read after the popups moved: where they went is part of what the outputs follow.
        sceneGenerationFollowed = router.tree.sceneGeneration
        // Outputs that moved or were resized are announced before the surfaces' enter and
        // leave that may follow from it.
        announceOutputFrames()
        updateSurfaceOutputs()
    }
}
