// Requests a client sends together are answered by one configure, on the raw wire
// (XdgSurfaceObject.scheduleConfigure), and what acknowledging a decoration's configure
// allows when two are on their way. SDL 2.26 creates its zxdg_toplevel_decoration_v1
// after its initial configure and asks for server-side in the same batch; a first answer
// of `client_side` makes it give its window to libdecor and never map it again. The
// xdg-decoration protocol answers `set_mode` with the mode and an `xdg_surface.configure`;
// xdg-shell makes the configure the end of one atomic set of state, so one configure may
// answer several requests (wlroots and weston schedule theirs on an idle source).
import Foundation
import InputRouter
import InputRouterWireClient
import Testing

@testable import InputRouterWayland

/// Request opcodes this suite sends beyond `Op` (xdg-decoration-unstable-v1.xml, xdg-shell.xml).
private enum DecorationOp {
    static let managerGetToplevelDecoration: UInt16 = 1
    static let decorationSetMode: UInt16 = 1
    static let toplevelSetMaximized: UInt16 = 9
    static let toplevelSetFullscreen: UInt16 = 11
}

/// zxdg_toplevel_decoration_v1.mode
private let clientSide: UInt32 = 1
private let serverSide: UInt32 = 2

@Suite struct ConfigureCoalescingTests {
    /// A wire client's toplevel that had its initial configure and acknowledged it, without a
    /// buffer: where SDL stands when it creates its decoration object.
    struct Window {
        let server: WaylandServer
        let client: ClientID
        let wire: WireConnection
        let session: WireSession
        let surface: UInt32, xdgSurface: UInt32, toplevel: UInt32
    }

    func configuredWindow(decorations: Bool) throws -> Window {
        var config = WaylandServer.Configuration()
        config.keyboard = usKeyboard
        config.unresponsiveTimeoutMS = 0
        if decorations { config.policy.decorationStyle = DecorationStyle(titleHeight: 24) }
        let server = try WaylandServer(configuration: config)
        let (client, wire, session) = try server.connectWireClient(
            binding: [("wl_compositor", 5), ("wl_shm", 1), ("xdg_wm_base", 5)]
                + (decorations ? [("zxdg_decoration_manager_v1", 1)] : []))
        let compositor = try #require(session.bound["wl_compositor"])
        let wm = try #require(session.bound["xdg_wm_base"])
        let surface = wire.newID("wl_surface")
        wire.send(compositor, Op.compositorCreateSurface, [.uint(surface)])
        let xdg = wire.newID("xdg_surface")
        wire.send(wm, Op.wmGetXdgSurface, [.uint(xdg), .uint(surface)])
        let toplevel = wire.newID("xdg_toplevel")
        wire.send(xdg, Op.xdgSurfaceGetToplevel, [.uint(toplevel)])
        wire.send(surface, Op.surfaceCommit)
        let initial = try #require(session.waitFor { $0.object == xdg && $0.opcode == 0 }, "the initial configure")
        wire.send(xdg, Op.xdgSurfaceAckConfigure, [.uint(initial.uint(at: 0))])
        try #require(session.roundtrip())
        return Window(
            server: server, client: client, wire: wire, session: session, surface: surface, xdgSurface: xdg,
            toplevel: toplevel)
    }

    /// The configure events `w`'s objects receive for what it sent last: read until an
    /// `xdg_surface.configure` came, then until the done of a sync sent after it (everything
    /// the server sent in answer precedes that done). Whole reads, so nothing after the
    /// first configure in the same read is missed.
    func configuresAnswering(_ w: Window, decoration: UInt32? = nil) -> [String] {
        answer(w, decoration: decoration).lines
    }

    /// `configuresAnswering`, with the `xdg_surface.configure` serials.
    func answer(_ w: Window, decoration: UInt32? = nil) -> (lines: [String], serials: [UInt32]) {
        var lines: [String] = []
        var serials: [UInt32] = []
        var configured = false
        var synced = false
        var callback: UInt32?
        let deadline = Date().addingTimeInterval(5)
        while !synced, !w.wire.closed, Date() < deadline {
            w.session.pump?()
            for e in w.wire.read(timeoutMS: 1) {
                switch (e.object, e.opcode) {
                case (w.toplevel, 0):
                    let count = Int(e.uint(at: 8)) / 4
                    let states = (0..<count).map { String(e.uint(at: 12 + 4 * $0)) }.joined(separator: ",")
                    lines.append(
                        "xdg_toplevel.configure \(Int32(bitPattern: e.uint(at: 0)))x\(Int32(bitPattern: e.uint(at: 4))) [\(states)]"
                    )
                case (decoration, 0):
                    lines.append(
                        "zxdg_toplevel_decoration_v1.configure \(e.uint(at: 0) == serverSide ? "server_side" : "client_side")"
                    )
                case (w.xdgSurface, 0):
                    lines.append("xdg_surface.configure")
                    serials.append(e.uint(at: 0))
                    configured = true
                case (callback, 0):
                    synced = true
                default: break
                }
            }
            if configured, callback == nil {
                let id = w.wire.newID("wl_callback")
                w.wire.send(1, Op.displaySync, [.uint(id)])
                callback = id
            }
        }
        return (lines, serials)
    }

    /// SDL's order: the decoration object, then `set_mode(server_side)` in the same batch.
    func askForServerSide(_ w: Window) throws -> UInt32 {
        let manager = try #require(w.session.bound["zxdg_decoration_manager_v1"])
        let decoration = w.wire.newID("zxdg_toplevel_decoration_v1")
        w.wire.send(manager, DecorationOp.managerGetToplevelDecoration, [.uint(decoration), .uint(w.toplevel)])
        w.wire.send(decoration, DecorationOp.decorationSetMode, [.uint(serverSide)])
        return decoration
    }

    @Test func aDecorationCreatedAndSetToServerSideTogetherIsAnsweredOnceServerSide() throws {
        let w = try configuredWindow(decorations: true)
        let decoration = try askForServerSide(w)
        #expect(
            configuresAnswering(w, decoration: decoration) == [
                "xdg_toplevel.configure 0x0 []",
                "zxdg_toplevel_decoration_v1.configure server_side",
                "xdg_surface.configure",
            ])
        #expect(w.wire.error == nil)
        // One serial waits for its ack: the initial one was acknowledged, no other was sent.
        #expect(w.waitingSerials.count == 1)
    }

    /// The one configure is acknowledged like any other: the buffer committed with its ack
    /// maps the window under the server's title bar.
    @Test func theAcknowledgedConfigureMapsTheWindowUnderATitleBar() throws {
        let w = try configuredWindow(decorations: true)
        _ = try askForServerSide(w)
        var serial: UInt32?
        _ = w.session.waitFor { e in
            if e.object == w.xdgSurface, e.opcode == 0 { serial = e.uint(at: 0) }
            return serial != nil
        }
        let node = try acknowledgeAndCommitABuffer(w, try #require(serial))
        let tree = w.server.router.tree
        #expect(tree.parent(of: node).flatMap { tree.name(of: $0) } == "window")
    }

    /// Acknowledges `serial`, commits a 100×80 buffer, and returns the window's node, mapped
    /// by that commit without a protocol error.
    func acknowledgeAndCommitABuffer(_ w: Window, _ serial: UInt32, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> NodeID
    {
        w.wire.send(w.xdgSurface, Op.xdgSurfaceAckConfigure, [.uint(serial)])
        let buffer = try #require(w.session.buffer(width: 100, height: 80), sourceLocation: sourceLocation)
        w.wire.send(w.surface, Op.surfaceAttach, [.uint(buffer), .int(0), .int(0)])
        w.wire.send(w.surface, Op.surfaceCommit)
        #expect(w.session.roundtrip(), sourceLocation: sourceLocation)
        #expect(w.wire.error == nil, sourceLocation: sourceLocation)
        let node = try #require(w.server.node(ofSurface: w.surface, client: w.client), sourceLocation: sourceLocation)
        #expect(w.server.router.tree.isMapped(node), sourceLocation: sourceLocation)
        return node
    }

    /// A request in a later batch gets its own answer: every `set_mode` is answered.
    @Test func aSetModeSentAloneLaterIsAnsweredWithItsOwnConfigure() throws {
        let w = try configuredWindow(decorations: true)
        let decoration = try askForServerSide(w)
        _ = configuresAnswering(w, decoration: decoration)
        w.wire.send(decoration, DecorationOp.decorationSetMode, [.uint(clientSide)])
        #expect(
            configuresAnswering(w, decoration: decoration) == [
                "xdg_toplevel.configure 0x0 []",
                "zxdg_toplevel_decoration_v1.configure client_side",
                "xdg_surface.configure",
            ])
    }

    /// Two modes on their way: acknowledging the first configure that carried one lets a
    /// buffer in (xdg-decoration forbids one only "prior to the first
    /// xdg_toplevel_decoration.configure event"), and that commit applies the mode that
    /// configure carried; the later one's ack brings the title bar.
    @Test func acknowledgingTheFirstModeLetsABufferInWhileALaterOneWaits() throws {
        let w = try configuredWindow(decorations: true)
        let manager = try #require(w.session.bound["zxdg_decoration_manager_v1"])
        let decoration = w.wire.newID("zxdg_toplevel_decoration_v1")
        w.wire.send(manager, DecorationOp.managerGetToplevelDecoration, [.uint(decoration), .uint(w.toplevel)])
        let first = answer(w, decoration: decoration)
        #expect(first.lines.contains("zxdg_toplevel_decoration_v1.configure client_side"))
        w.wire.send(decoration, DecorationOp.decorationSetMode, [.uint(serverSide)])
        let second = answer(w, decoration: decoration)
        #expect(second.lines.contains("zxdg_toplevel_decoration_v1.configure server_side"))
        let firstSerial = try #require(first.serials.first)
        let secondSerial = try #require(second.serials.first)

        let node = try acknowledgeAndCommitABuffer(w, firstSerial)
        let tree = w.server.router.tree
        #expect(tree.parent(of: node) == w.server.outputNode) // client_side: no title bar

        w.wire.send(w.xdgSurface, Op.xdgSurfaceAckConfigure, [.uint(secondSerial)])
        w.wire.send(w.surface, Op.surfaceCommit)
        #expect(w.session.roundtrip())
        #expect(w.wire.error == nil)
        #expect(tree.parent(of: node).flatMap { tree.name(of: $0) } == "window")
    }

    /// A server that draws no decorations does not offer xdg-decoration at all (as weston
    /// and Mutter): it could only ever answer `client_side`, which SDL 2.26 takes for
    /// "forced" and never maps its window after. Clients then draw their own.
    @Test func aServerThatDrawsNoneDoesNotOfferTheProtocol() throws {
        let plain = try WaylandServer(configuration: .embedded)
        #expect(!plain.offeredGlobals.contains { $0.interface == "zxdg_decoration_manager_v1" })
        var config = WaylandServer.Configuration.embedded
        config.policy.decorationStyle = DecorationStyle(titleHeight: 24)
        let decorated = try WaylandServer(configuration: config)
        #expect(decorated.offeredGlobals.contains { $0.interface == "zxdg_decoration_manager_v1" })
    }

    /// `set_maximized` and `set_fullscreen` sent together: one configure with both states,
    /// not a maximized one first (xdg_toplevel.state: maximized 1, fullscreen 2).
    @Test func maximizeAndFullscreenSentTogetherAreAnsweredWithOneConfigure() throws {
        let w = try configuredWindow(decorations: false)
        w.wire.send(w.toplevel, DecorationOp.toplevelSetMaximized)
        w.wire.send(w.toplevel, DecorationOp.toplevelSetFullscreen, [.uint(0)])
        #expect(configuresAnswering(w) == ["xdg_toplevel.configure 1280x720 [1,2]", "xdg_surface.configure"])
    }
}

extension ConfigureCoalescingTests.Window {
    /// The configure serials its xdg_surface sent and that wait for an ack.
    var waitingSerials: [UInt32] {
        guard let node = server.node(ofSurface: surface, client: client), let s = server.surface(for: node),
            case .xdg(let xdg) = s.role
        else { return [] }
        return xdg.sentConfigures.serials
    }
}
