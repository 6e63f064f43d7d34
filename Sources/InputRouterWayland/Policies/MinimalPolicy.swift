// An embedder's starting point: the library decides nothing it would have to undo. Windows
// map where they are (the layout origin, or where `placeWindow` put them), presses change
// no focus, no title bars (xdg-decoration is not offered) and frame callbacks wait for
// `sendFrameCallbacks()`, after the embedder presented. Maximize and fullscreen fill the
// output's usable area or the output, and client requests are carried out, as in every
// policy unless it says otherwise.
extension CompositorPolicy {
    /// Nothing decided for the compositor (`Configuration.embedded`).
    public static var minimal: CompositorPolicy { CompositorPolicy(framePacing: .onPresent) }
}
