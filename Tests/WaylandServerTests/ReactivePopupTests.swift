// xdg_positioner.set_reactive, on the raw wire: "the surface is reconstrained if the
// conditions used for constraining changed, e.g. the parent window moved. If the conditions
// changed and the popup was reconstrained, an xdg_popup.configure event is sent with updated
// geometry, followed by an xdg_surface.configure event." Whatever moves the parent: an
// interactive move (WLCS 1.8.1's XdgPopupTest.when_parent_surface_is_moved_a_reactive_popup_is_moved
// drags it with xdg_toplevel.move), or the compositor through the public API. A popup that
// is not reactive keeps its place relative to the parent and is told nothing.
import InputRouter
import InputRouterWireClient
import Testing

@testable import InputRouterWayland

@Suite struct ReactivePopupTests {
    /// A server with one pointer and a wire client holding a 100×80 toplevel whose window
    /// is at (100, 100) of the 1280×720 output, with a `wl_pointer`.
    final class Scene {
        let server: WaylandServer
        let client: ClientID
        let wire: WireConnection
        let session: WireSession
        let top: WireSession.Toplevel
        let window: NodeID
        var time: UInt64 = 0

        init() throws {
            var config = WaylandServer.Configuration()
            config.keyboard = usKeyboard
            config.unresponsiveTimeoutMS = 0
            let server = try WaylandServer(configuration: config)
            server.handle(InputEvent(time: 0, device: DeviceID(1), .deviceAdded(.pointer)))
            let (client, wire, session) = try server.connectWireClient(
                binding: [("wl_compositor", 5), ("wl_shm", 1), ("wl_seat", 8), ("xdg_wm_base", 5)])
            wire.send(session.bound["wl_seat"]!, Op.seatGetPointer, [.uint(wire.newID("wl_pointer"))])
            let top = try #require(session.mapToplevel(width: 100, height: 80))
            let window = try #require(server.node(ofSurface: top.surface, client: client))
            try #require(server.placeWindow(window, x: 100, y: 100))
            try #require(session.roundtrip())
            (self.server, self.client, self.wire, self.session, self.top, self.window) = (
                server, client, wire, session, top, window
            )
        }

        struct Popup {
            var surface: UInt32, xdgSurface: UInt32, popup: UInt32
            var node: NodeID
        }

        /// A popup of the xdg_surface `parent`, `width`×`height`, at `anchor` of the anchor
        /// rect (x, y, 10×10) growing toward `gravity` (xdg_positioner's enums), mapped once
        /// its first configure is acknowledged.
        func mapPopup(
            parent: UInt32, width: Int32, height: Int32, anchorRect: (x: Int32, y: Int32), anchor: UInt32,
            gravity: UInt32, adjustment: UInt32, reactive: Bool
        ) throws -> Popup {
            let wm = session.bound["xdg_wm_base"]!
            let positioner = wire.newID("xdg_positioner")
            wire.send(wm, Op.wmCreatePositioner, [.uint(positioner)])
            wire.send(positioner, Op.positionerSetSize, [.int(width), .int(height)])
            wire.send(
                positioner, Op.positionerSetAnchorRect, [.int(anchorRect.x), .int(anchorRect.y), .int(10), .int(10)])
            wire.send(positioner, Op.positionerSetAnchor, [.uint(anchor)])
            wire.send(positioner, Op.positionerSetGravity, [.uint(gravity)])
            wire.send(positioner, Op.positionerSetConstraintAdjustment, [.uint(adjustment)])
            if reactive { wire.send(positioner, Op.positionerSetReactive) } // since xdg_wm_base 3; bound at 5
            let surface = wire.newID("wl_surface")
            wire.send(session.bound["wl_compositor"]!, Op.compositorCreateSurface, [.uint(surface)])
            let xdg = wire.newID("xdg_surface")
            wire.send(wm, Op.wmGetXdgSurface, [.uint(xdg), .uint(surface)])
            let popup = wire.newID("xdg_popup")
            wire.send(xdg, Op.xdgSurfaceGetPopup, [.uint(popup), .uint(parent), .uint(positioner)])
            wire.send(positioner, Op.positionerDestroy)
            wire.send(surface, Op.surfaceCommit)
            let configure = try #require(session.waitFor { $0.object == xdg && $0.opcode == 0 })
            wire.send(xdg, Op.xdgSurfaceAckConfigure, [.uint(configure.uint(at: 0))])
            let buffer = try #require(session.buffer(width: width, height: height))
            wire.send(surface, Op.surfaceAttach, [.uint(buffer), .int(0), .int(0)])
            wire.send(surface, Op.surfaceCommit)
            try #require(session.roundtrip())
            let node = try #require(server.node(ofSurface: surface, client: client))
            try #require(server.router.tree.isMapped(node))
            return Popup(surface: surface, xdgSurface: xdg, popup: popup, node: node)
        }

        /// The events the client read for `popups` up to a wl_display.sync's done, each
        /// named by its key: `name xdg_popup.configure x y w h`, `name xdg_surface.configure`...
        func popupEvents(_ popups: [String: Popup]) -> [String] {
            var names: [UInt32: String] = [:]
            for (name, p) in popups {
                names[p.popup] = name
                names[p.xdgSurface] = name
            }
            var seen: [String] = []
            let callback = wire.newID("wl_callback")
            wire.send(1, Op.displaySync, [.uint(callback)])
            _ = session.waitFor { e in
                if let name = names[e.object] {
                    let args = (0..<4).map { String(Int32(bitPattern: e.uint(at: 4 * $0))) }.joined(separator: " ")
                    switch (wire.interfaces[e.object], e.opcode) {
                    case ("xdg_popup", 0): seen.append("\(name) xdg_popup.configure \(args)")
                    case ("xdg_popup", 1): seen.append("\(name) xdg_popup.popup_done")
                    case ("xdg_popup", 2): seen.append("\(name) xdg_popup.repositioned")
                    case ("xdg_surface", 0): seen.append("\(name) xdg_surface.configure")
                    default: seen.append("\(name) event \(e.opcode)")
                    }
                }
                return e.object == callback && e.opcode == 0
            }
            return seen
        }

        /// Where `node` is: relative to its parent, and in layout space.
        func place(of node: NodeID) -> String {
            let tree = server.router.tree
            let f = tree.frame(of: node)
            let p = tree.layoutPosition(of: node)
            return "\(f.map { "\($0.x),\($0.y)" } ?? "-") at \(p.map { "\(Int($0.x)),\(Int($0.y))" } ?? "-")"
        }

        func warp(_ x: Double, _ y: Double) {
            time += 1000
            server.seat.notifyPointerWarp(time: time, to: Point(x, y))
            server.sendDeliveries()
        }

        func button(_ state: ButtonState) {
            time += 1000
            server.handle(InputEvent(time: time, device: DeviceID(1), .pointerButton(button: 0x110, state: state)))
        }

        /// What WLCS's `move_parent_using_pointer` does: a press on the window at (110, 110),
        /// `xdg_toplevel.move` citing it, then the pointer to (x, y) in `steps` motions.
        func dragWindow(to x: Double, _ y: Double, steps: Int) throws {
            warp(110, 110)
            button(.pressed)
            try #require(session.roundtrip())
            let press = try #require(session.lastPressSerial)
            wire.send(top.toplevel, Op.toplevelMove, [.uint(session.bound["wl_seat"]!), .uint(press)])
            try #require(session.roundtrip())
            for step in 1...steps {
                let t = Double(step) / Double(steps)
                warp(110 + (x - 110) * t, 110 + (y - 110) * t)
            }
        }
    }

    // xdg_positioner's enums.
    static let bottomRight: UInt32 = 8, topRight: UInt32 = 7, topLeft: UInt32 = 5
    static let flipX: UInt32 = 4

    /// A 200×50 popup at the bottom-right corner of the anchor rect (90, 10, 10×10) of the
    /// 100×80 window, growing right and down, flipped when it does not fit: at (100, 20)
    /// while the window is at (100, 100). The drag carries the window to (1040, 140), where
    /// 1040 + 100 + 200 > 1280: flipped, it grows left from the rect's left edge, 90 - 200.
    @Test(arguments: [true, false])
    func aDraggedParentTakesItsPopupToTheOutputEdge(reactive: Bool) throws {
        let s = try Scene()
        let p = try s.mapPopup(
            parent: s.top.xdgSurface, width: 200, height: 50, anchorRect: (90, 10),
            anchor: Self.bottomRight, gravity: Self.bottomRight, adjustment: Self.flipX, reactive: reactive)
        #expect(s.place(of: p.node) == "100,20 at 200,120")
        _ = s.popupEvents(["popup": p])
        // Ten motions of 94 pixels: only the last takes the window past 980, where the
        // popup no longer fits unflipped.
        try s.dragWindow(to: 1050, 150, steps: 10)
        #expect(s.place(of: s.window) == "1040,140 at 1040,140")
        if reactive {
            #expect(
                s.popupEvents(["popup": p]) == [
                    "popup xdg_popup.configure -110 20 200 50", "popup xdg_surface.configure",
                ])
            #expect(s.place(of: p.node) == "-110,20 at 930,160")
        } else {
            // Not reactive: it keeps its place on the parent, past the output's edge.
            #expect(s.popupEvents(["popup": p]) == [])
            #expect(s.place(of: p.node) == "100,20 at 1140,160")
        }
        s.button(.released)
        #expect(s.popupEvents(["popup": p]) == [])
    }

    /// Popups of a reactive popup: a reactive one is placed again against its parent's new
    /// place (after the parent's own), one that is not reactive follows its parent there.
    @Test func popupsOfAReactivePopupFollowItsNewPlace() throws {
        let s = try Scene()
        // The same 200×50 menu as above, flipped at the drag's end.
        let menu = try s.mapPopup(
            parent: s.top.xdgSurface, width: 200, height: 50, anchorRect: (90, 10),
            anchor: Self.bottomRight, gravity: Self.bottomRight, adjustment: Self.flipX, reactive: true)
        // A 200×30 submenu below the menu's top-right corner (the rect at 190, 0), growing
        // right: at (200, 0) of the menu. At the end the menu is at 930..1130 and the
        // submenu would reach 1330: flipped, it grows left from the rect's left edge,
        // 190 - 200 = -10.
        let submenu = try s.mapPopup(
            parent: menu.xdgSurface, width: 200, height: 30, anchorRect: (190, 0),
            anchor: Self.topRight, gravity: Self.bottomRight, adjustment: Self.flipX, reactive: true)
        // A 40×40 tooltip at the menu's top-left corner, not reactive.
        let tooltip = try s.mapPopup(
            parent: menu.xdgSurface, width: 40, height: 40, anchorRect: (0, 0),
            anchor: Self.topLeft, gravity: Self.bottomRight, adjustment: 0, reactive: false)
        #expect(s.place(of: menu.node) == "100,20 at 200,120")
        #expect(s.place(of: submenu.node) == "200,0 at 400,120")
        #expect(s.place(of: tooltip.node) == "0,0 at 200,120")
        let popups = ["menu": menu, "submenu": submenu, "tooltip": tooltip]
        _ = s.popupEvents(popups)
        try s.dragWindow(to: 1050, 150, steps: 1)
        #expect(
            s.popupEvents(popups) == [
                "menu xdg_popup.configure -110 20 200 50", "menu xdg_surface.configure",
                "submenu xdg_popup.configure -10 0 200 30", "submenu xdg_surface.configure",
            ])
        #expect(s.place(of: menu.node) == "-110,20 at 930,160")
        #expect(s.place(of: submenu.node) == "-10,0 at 920,160")
        #expect(s.place(of: tooltip.node) == "0,0 at 930,160")
    }

    /// The compositor moves the window itself (the tree's public `move`, as a window
    /// manager's own placement does) between two dispatches: the reactive popup is placed
    /// again, and told so, before the next dispatch reads requests (the sync's done comes
    /// after the configure), there and back.
    @Test func aWindowMovedByTheCompositorReplacesItsReactivePopup() throws {
        let s = try Scene()
        let p = try s.mapPopup(
            parent: s.top.xdgSurface, width: 200, height: 50, anchorRect: (90, 10),
            anchor: Self.bottomRight, gravity: Self.bottomRight, adjustment: Self.flipX, reactive: true)
        _ = s.popupEvents(["popup": p])
        s.server.router.tree.move(s.window, to: (1040, 140))
        #expect(
            s.popupEvents(["popup": p]) == ["popup xdg_popup.configure -110 20 200 50", "popup xdg_surface.configure"])
        #expect(s.place(of: p.node) == "-110,20 at 930,160")
        s.server.router.tree.move(s.window, to: (500, 140))
        #expect(
            s.popupEvents(["popup": p]) == ["popup xdg_popup.configure 100 20 200 50", "popup xdg_surface.configure"])
        #expect(s.place(of: p.node) == "100,20 at 600,160")
        // A move that leaves its place on the parent unchanged: nothing to tell.
        s.server.router.tree.move(s.window, to: (300, 300))
        #expect(s.popupEvents(["popup": p]) == [])
        #expect(s.place(of: p.node) == "100,20 at 400,320")
    }
}
