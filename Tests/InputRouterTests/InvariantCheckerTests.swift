import InputRouter
import Testing

/// The invariant checker judges pointer targets with its own oracle (the naive reference
/// walk and chain), so deliveries the router never makes are caught, including ones that
/// the router's own chain would call fine.
@Suite struct InvariantCheckerTests {
    /// A subsurface over its toplevel; the cursor on the subsurface.
    static func scene() -> (Harness, parent: NodeID, child: NodeID) {
        let h = Harness()
        let a = h.client("a")
        let parent = h.toplevel("win", a, Rect(0, 0, 200, 200))
        let child = h.tree.createNode(.subsurface, name: "child", client: a, parent: parent, frame: Rect(0, 0, 50, 50))
        _ = h.warp(10, 10)
        return (h, parent, child)
    }

    @Test func anEnterToTheSurfaceUnderTheCursorIsClean() {
        let (h, _, child) = Self.scene()
        #expect(h.seat.pointerFocusNode == child)
        h.expectClean()
    }

    /// The parent is in the chain under the cursor, but the subsurface above it, whose
    /// client has the pointer, takes the event first: delivering it to the parent passes
    /// the subsurface over.
    @Test func anEventThatPassesOverASurfaceAboveItIsCaught() {
        let (h, parent, _) = Self.scene()
        h.sink.deliver(.pointerLeave(h.seat.id, h.seat.pointerFocusNode!, serial: 90), from: h.router.queue)
        h.sink.deliver(.pointerEnter(h.seat.id, parent, Point(10, 10), serial: 91), from: h.router.queue)
        #expect(h.sink.violations.count == 1)
        #expect(h.sink.violations.first?.hasPrefix("pointer event passed over") == true, "\(h.sink.violations)")
    }

    @Test func anEventToASurfaceNotUnderTheCursorIsCaught() {
        let (h, _, _) = Self.scene()
        let b = h.client("b")
        let other = h.toplevel("other", b, Rect(500, 500, 100, 100))
        h.sink.deliver(.pointerLeave(h.seat.id, h.seat.pointerFocusNode!, serial: 90), from: h.router.queue)
        h.sink.deliver(.pointerEnter(h.seat.id, other, Point(1, 1), serial: 91), from: h.router.queue)
        #expect(
            h.sink.violations.first?.hasPrefix("pointer event to a surface not under the cursor") == true,
            "\(h.sink.violations)")
    }

    /// The reference chain follows the design's rules from public state: override, same
    /// client's parent, client responder, seat.
    @Test func theReferenceChainMatchesTheRouters() {
        let (h, parent, child) = Self.scene()
        let panel = h.tree.createNode(.compositor, name: "panel", parent: h.output, frame: Rect(0, 0, 10, 10))
        h.tree.setNextResponder(parent, panel)
        for first: Responder in [.node(child), .node(parent), .node(panel), .seat(h.seat.id)] {
            #expect(
                h.router.referenceResponderChain(from: first, seat: h.seat.id)
                    == h.router.responderChain(from: first, seat: h.seat.id))
        }
        #expect(
            h.router.referenceResponderChain(from: .node(child), seat: h.seat.id)
                == [.node(child), .node(parent), .node(panel), .node(h.output), .seat(h.seat.id)])
    }
}
