import InputRouter
import Testing

@Suite struct ResponderChainTests {
    @Test func chainFromSubsurfaceThroughDecorationToClientAndSeat() {
        let h = Harness()
        let c = h.client("term")
        let deco = h.tree.createNode(
            .compositor, name: "deco", client: c, parent: h.output, frame: Rect(0, 0, 120, 120))
        let top = h.toplevel("top", c, Rect(10, 10, 100, 100), parent: deco)
        let sub = h.tree.createNode(.subsurface, name: "sub", client: c, parent: top, frame: Rect(0, 0, 10, 10))
        let popup = h.tree.createNode(.popup, name: "menu", client: c, parent: h.output, frame: Rect(300, 0, 50, 50))
        h.tree.setNextResponder(popup, top)
        let s = h.seat.id
        #expect(
            h.router.responderChain(from: .node(sub), seat: s) == [
                .node(sub), .node(top), .node(deco), .client(c), .seat(s),
            ])
        #expect(
            h.router.responderChain(from: .node(popup), seat: s) == [
                .node(popup), .node(top), .node(deco), .client(c), .seat(s),
            ])
        let panel = h.tree.createNode(.compositor, name: "panel", parent: h.output, frame: Rect(0, 900, 1000, 100))
        let clock = h.tree.createNode(.compositor, name: "clock", parent: panel, frame: Rect(0, 0, 50, 50))
        #expect(
            h.router.responderChain(from: .node(clock), seat: s) == [
                .node(clock), .node(panel), .node(h.output), .seat(s),
            ])
    }

    @Test func unboundClientBubblesToDecorationThenClientResponderThenSeat() {
        let h = Harness()
        let c = h.client("silent", []) // bound nothing
        let deco = h.tree.createNode(
            .compositor, name: "deco", client: c, parent: h.output, frame: Rect(0, 0, 120, 120))
        h.toplevel("top", c, Rect(10, 10, 100, 100), parent: deco)
        var decoTakes = true
        h.tree.setHandler(deco) { e in decoTakes && e.kind != .pointerMotion ? .handled : .notHandled }
        #expect(h.warp(50, 50) == ["seat0 handled pointer.enter by \"deco\"", "seat0 dropped pointer.motion"])
        #expect(h.button(.pressed) == ["seat0 handled pointer.button by \"deco\""])
        _ = h.button(.released)
        decoTakes = false
        h.router.setHandler(for: c) { e in e.kind == .pointerEnter || e.kind == .pointerButton ? .handled : .notHandled
        }
        h.tree.setMapped(deco, false)
        h.tree.setMapped(deco, true)
        _ = h.flush()
        #expect(h.button(.pressed) == ["seat0 handled pointer.button by client1(\"silent\")"])
        _ = h.button(.released)
        h.router.setHandler(for: c, nil)
        h.seat.handler = { e in e.kind == .pointerEnter ? .handled : .notHandled }
        h.tree.setMapped(deco, false)
        h.tree.setMapped(deco, true)
        #expect(h.flush().contains("seat0 handled pointer.enter by seat0"))
        #expect(h.button(.pressed) == ["seat0 dropped pointer.button"])
        #expect(h.seat.dropCount(.pointerButton) == 1)
        h.expectClean()
    }

    @Test func nilTargetActionsWalkFromTheKeyboardFocus() {
        let h = Harness()
        let c = h.client("editor")
        let top = h.toplevel("top", c, Rect(0, 0, 100, 100))
        let sub = h.tree.createNode(.popup, name: "dialog", client: c, parent: h.output, frame: Rect(0, 0, 10, 10))
        h.tree.setNextResponder(sub, top)
        h.seat.setKeyboardFocus(sub)
        var copied = 0
        h.tree.setHandler(top) { e in
            if case .action(let a) = e, h.router.name(of: a) == "copy" {
                copied += 1
                return .handled
            }
            return .notHandled
        }
        h.router.setHandler(for: c) { e in
            if case .action(let a) = e, h.router.name(of: a) == "close" { return .handled }
            return .notHandled
        }
        _ = h.flush()
        #expect(h.step { h.seat.sendAction("copy") } == ["seat0 action \"copy\" by \"top\""])
        #expect(h.step { h.seat.sendAction("close") } == ["seat0 action \"close\" by client1(\"editor\")"])
        #expect(h.step { h.seat.sendAction("paste") } == ["seat0 dropped action"])
        #expect(copied == 1)
    }

    @Test func overrideCyclesStopAtTheChainLimit() {
        let h = Harness()
        let c = h.client("a")
        let x = h.toplevel("x", c, Rect(0, 0, 10, 10))
        let y = h.toplevel("y", c, Rect(0, 0, 10, 10))
        h.tree.setNextResponder(x, y)
        h.tree.setNextResponder(y, x)
        _ = h.warp(500, 500)
        #expect(h.router.responderChain(from: .node(x), seat: h.seat.id).count == Router.maxChainLength)
        #expect(h.step { h.seat.sendAction("nothing") } == ["seat0 dropped action"])
    }

    @Test func switchesGoToObserversNeverThroughHitTesting() {
        let h = Harness()
        let c = h.client("a")
        h.toplevel("A", c, Rect(0, 0, 1000, 1000))
        _ = h.warp(5, 5)
        var seen: [String] = []
        h.router.addSwitchObserver { _, kind, on in seen.append("\(kind) \(on)") }
        #expect(
            h.step { h.seat.handle(InputEvent(time: 1, device: DeviceID(3), .switchToggle(.lid, on: true))) }
                == ["seat0 switch lid on"])
        #expect(seen == ["lid true"])
    }
}
