// wl_keyboard and wl_touch as a real client receives them.
import CWaylandServer
import Foundation
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct KeyboardProtocolTests {
    @Test func mappedWindowGetsKeymapEnterKeysAndModifiers() throws {
        let h = try ServerHarness()
        let c = try h.probe(["--toplevel", "win", "100x100"])
        h.wait(for: c, line: "mapped win")
        let start = h.settle(c)
        #expect(start.contains("keyboard.keymap format=1 size>0=true"))
        #expect(start.contains("keyboard.repeat_info 25 600"))
        #expect(start.contains("keyboard.enter win keys=[]"))
        #expect(start.contains("configure win 0x0 [activated]"))
        h.key(42, .pressed) // Shift
        h.key(30, .pressed) // a
        #expect(h.settle(c) == ["keyboard.key 42 pressed", "keyboard.modifiers 1 0 0 0", "keyboard.key 30 pressed"])
        h.key(30, .released)
        h.key(42, .released)
        #expect(h.settle(c) == ["keyboard.key 30 released", "keyboard.key 42 released", "keyboard.modifiers 0 0 0 0"])
    }

    @Test func clickToFocusMovesTheKeyboardWithHeldKeys() throws {
        let h = try ServerHarness()
        let a = try h.probe(["--toplevel", "a", "100x100"])
        h.wait(for: a, line: "mapped a")
        let b = try h.probe(["--toplevel", "b", "100x100"]) // maps at (72, 72), takes focus
        h.wait(for: b, line: "mapped b")
        _ = h.settle(a)
        _ = h.settle(b)
        h.key(29, .pressed) // Control, held while focus moves
        _ = h.settle(b)
        h.warp(45, 45) // only a is there
        h.button(.pressed)
        let toA = h.settle(a)
        // Control went to b: a is told it is down through modifiers, not as a pressed key
        // (the core forwards in `enter` only keys whose press that client received).
        #expect(toA.contains("keyboard.enter a keys=[]"))
        #expect(toA.contains("keyboard.modifiers 4 0 0 0"))
        #expect(toA.contains("configure a 0x0 [activated]"))
        let toB = h.settle(b)
        #expect(toB.contains("keyboard.leave b"))
        #expect(toB.contains("configure b 0x0 []"))
        // Keys go to the focused client only.
        h.key(30, .pressed)
        #expect(h.settle(a) == ["keyboard.key 30 pressed"])
        #expect(h.settle(b) == [])
    }
}

extension KeyboardProtocolTests {
    @Test func enterCarriesTheKeysThisClientSawPressed() throws {
        let h = try ServerHarness()
        // One client, two windows: a at (40, 40), b at (72, 72) with the focus.
        let c = try h.probe(["--toplevel", "a", "100x100", "--toplevel", "b", "100x100"])
        h.wait(for: c, line: "mapped b")
        _ = h.settle(c)
        h.key(29, .pressed) // Control, delivered to b
        _ = h.settle(c)
        h.warp(45, 45)
        h.button(.pressed)
        let lines = h.settle(c)
        #expect(lines.contains("keyboard.leave b"))
        #expect(lines.contains("keyboard.enter a keys=[29]"))
        #expect(lines.contains("keyboard.modifiers 4 0 0 0"))
        h.key(29, .released)
        #expect(h.settle(c).prefix(2) == ["keyboard.key 29 released", "keyboard.modifiers 0 0 0 0"])
    }
}

@Suite(.serialized) struct TouchProtocolTests {
    @Test func touchStaysWithItsOwnerOutsideTheSurface() throws {
        let h = try ServerHarness()
        let c = try h.mappedProbe(["--toplevel", "win", "100x100"])
        let (x, y) = h.touchPoint(60, 60)
        h.touch(.touchDown(slot: 0, x: x, y: y))
        #expect(h.settle(c) == ["touch.down win 0 20.00 20.00", "touch.frame"])
        let (x2, y2) = h.touchPoint(400, 300)
        h.touch(.touchMotion(slot: 0, x: x2, y: y2))
        #expect(h.settle(c) == ["touch.motion 0 360.00 260.00", "touch.frame"])
        h.touch(.touchUp(slot: 0))
        #expect(h.settle(c) == ["touch.up 0", "touch.frame"])
    }

    @Test func clientWithoutTouchBubblesToTheCompositorNode() throws {
        let h = try ServerHarness()
        let c = try h.probe(
            ["--toplevel", "win", "100x100", "--sub", "child", "win", "10,10", "50,50", "--no-touch"]
                .map { $0 == "50,50" ? "50x50" : $0 })
        h.wait(for: c, line: "mapped win")
        _ = h.settle(c)
        // A decoration: the toplevel's next responder, as a compositor draws one.
        let tree = h.server.router.tree
        // Around the window, away from the cursor (at the origin): it is asked for touch only.
        let decoration = tree.createNode(
            .compositor, name: "decoration", parent: h.server.outputNode,
            frame: Rect(30, 30, 200, 200), layer: .below)
        var taken: [NodeEvent] = []
        tree.setHandler(decoration) { event in
            taken.append(event)
            return .handled
        }
        let window = try #require(tree.children(of: h.server.outputNode).first { tree.kind(of: $0) == .toplevel })
        tree.setNextResponder(window, decoration)
        let (x, y) = h.touchPoint(40 + 20, 40 + 20) // on the subsurface
        h.touch(.touchDown(slot: 3, x: x, y: y))
        #expect(h.settle(c) == [])
        #expect(taken.first == .touchDown(slot: 3, at: Point(30, 30))) // decoration-local
    }

    @Test func touchDeviceRemovedMidSequenceCancels() throws {
        let (h, c) = try Self.fingerDownOnAWindow()
        h.server.handle(InputEvent(time: h.time + 1000, device: DeviceID(3), .deviceRemoved))
        let lines = h.settle(c)
        #expect(lines.contains("touch.cancel"))
        // The seat lost its only touch device: clients are told.
        #expect(lines.contains("seat.capabilities 3"))
    }
}

extension TouchProtocolTests {
    /// A wl-probe's 100×100 window with finger 0 down on it at (60, 60), everything read.
    static func fingerDownOnAWindow() throws -> (ServerHarness, ClientProcess) {
        let h = try ServerHarness()
        let c = try h.mappedProbe(["--toplevel", "win", "100x100"])
        let (x, y) = h.touchPoint(60, 60)
        h.touch(.touchDown(slot: 0, x: x, y: y))
        _ = h.settle(c)
        return (h, c)
    }

    /// A frame's motions are sent together with the frame (one flush per frame, issue 17):
    /// nothing is sent while only motions have come, then every motion, in order, then the frame.
    @Test func touchFrameMotionsGoOutWithTheirFrame() throws {
        let h = try ServerHarness()
        let c = try h.mappedProbe(["--toplevel", "win", "100x100"])
        for slot: Int32 in 0..<2 {
            let (x, y) = h.touchPoint(50 + 20 * Double(slot), 60)
            h.server.handle(InputEvent(time: h.time, device: DeviceID(3), .touchDown(slot: slot, x: x, y: y)))
        }
        h.server.handle(InputEvent(time: h.time, device: DeviceID(3), .touchFrame))
        _ = h.settle(c)
        var sent: [String] = []
        h.server.deliveryObserver = { d, _ in
            switch d {
            case .touchMotion(_, _, _, let slot, _): sent.append("motion \(slot)")
            case .touchFrame: sent.append("frame")
            default: break
            }
        }
        for slot: Int32 in 0..<2 {
            let (x, y) = h.touchPoint(55 + 20 * Double(slot), 70)
            h.server.handle(InputEvent(time: h.time + 1000, device: DeviceID(3), .touchMotion(slot: slot, x: x, y: y)))
        }
        #expect(sent == [])
        h.server.handle(InputEvent(time: h.time + 1000, device: DeviceID(3), .touchFrame))
        #expect(sent == ["motion 0", "motion 1", "frame"])
        #expect(h.settle(c) == ["touch.motion 0 15.00 30.00", "touch.motion 1 35.00 30.00", "touch.frame"])
    }

    /// A motion posted with no frame after it (as an embedder may) still reaches the client:
    /// the next dispatch sends it.
    @Test func touchMotionWithoutAFrameIsStillSent() throws {
        let (h, c) = try Self.fingerDownOnAWindow()
        let (x2, y2) = h.touchPoint(70, 65)
        h.server.handle(InputEvent(time: h.time + 1000, device: DeviceID(3), .touchMotion(slot: 0, x: x2, y: y2)))
        #expect(h.settle(c) == ["touch.motion 0 30.00 25.00"])
    }

    /// An embedder's fd callback that routes a motion and no frame: the motion goes out when
    /// the callback returns, before the loop would sleep.
    @Test func aWatchedFDCallbackSendsTheMotionItLeftQueued() throws {
        let (h, c) = try Self.fingerDownOnAWindow()
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let (x2, y2) = h.touchPoint(70, 65)
        let time = h.time + 1000
        let watch = h.server.watchReadable(fd: fds[0]) { [server = h.server] in
            var byte: UInt8 = 0
            _ = read(fds[0], &byte, 1)
            server.handle(InputEvent(time: time, device: DeviceID(3), .touchMotion(slot: 0, x: x2, y: y2)))
        }
        var byte: UInt8 = 1
        #expect(write(fds[1], &byte, 1) == 1)
        wl_event_loop_dispatch(h.server.eventLoop, 1000) // the callback alone, no sendDeliveries after it
        #expect(!h.server.router.hasDeliveries)
        watch.remove()
        #expect(h.settle(c) == ["touch.motion 0 30.00 25.00"])
    }
}
