// What a click that raises and focuses a window tells both clients, in order: the keyboard's
// move first (decided in the press's capture phase, `Seat.beforePress`, as weston and sway
// do), then the press, then the activated states. A toolkit that cites its newest serial
// in a grab or a copy thus cites the press.
import Foundation
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct ClickFocusOrderTests {
    /// Watched, every delivery goes through the sender's `deliverAny`; unwatched, the click's
    /// enters, leaves, buttons and modifiers take the flush loop's own calls. Both must send
    /// the same.
    @Test(arguments: [false, true])
    func aClickIntoAnUnfocusedWindowSendsTheFocusThenThePressThenTheStates(watched: Bool) throws {
        let h = try ServerHarness()
        var observed = 0
        if watched { h.server.deliveryObserver = { _, _ in observed += 1 } }
        let a = try h.probe(["--toplevel", "a", "100x100"])
        h.wait(for: a, line: "mapped a")
        let b = try h.probe(["--toplevel", "b", "100x100"]) // maps at (72, 72), takes focus
        h.wait(for: b, line: "mapped b")
        _ = h.settle(a)
        _ = h.settle(b)
        h.warp(45, 45) // only a is there
        _ = h.settle(a)
        h.button(.pressed)
        #expect(
            h.settle(a) == [
                "keyboard.enter a keys=[]", "keyboard.modifiers 0 0 0 0",
                "pointer.button 272 pressed", "pointer.frame", "configure a 0x0 [activated]",
            ])
        #expect(h.settle(b) == ["keyboard.leave b", "configure b 0x0 []"])
        h.button(.released)
        #expect(h.settle(a) == ["pointer.button 272 released", "pointer.frame"])
        #expect(h.settle(b) == [])
        // Raised: where the two overlap, a is on top now.
        h.warp(100, 100)
        #expect(h.settle(a).first?.hasPrefix("pointer.motion") == true)
        #expect(h.settle(b) == [])
        #expect((observed > 0) == watched)
    }
}
