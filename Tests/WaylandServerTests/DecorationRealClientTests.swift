// Debian's clients and xdg-decoration: foot asks for server-side decorations and draws
// none of its own; weston-terminal never binds the manager and draws its own frame, so
// the server must draw nothing around it (issue 12, defect 6: two title bars); an SDL2
// game (pygame) asks for server-side right after creating its decoration object and must
// be answered with that mode alone, or it never maps.
import Foundation
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct DecorationRealClientTests {
    static func decorated() throws -> ServerHarness {
        var config = WaylandServer.Configuration()
        config.policy.decorationStyle = DecorationStyle(titleHeight: 24)
        return try ServerHarness(configuration: config)
    }

    /// Dispatches until a toplevel anywhere in the output's subtree is mapped with a size.
    static func mappedToplevel(_ h: ServerHarness, timeout: Double = 20) -> NodeID? {
        let tree = h.server.router.tree
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            h.server.dispatch(timeoutMS: 10)
            for c in h.clients { c.poll() }
            if let n = XdgDecorationTests.nodes(h).first(where: {
                tree.kind(of: $0) == .toplevel && tree.isMapped($0) && (tree.frame(of: $0)?.width ?? 0) > 0
            }) {
                return n
            }
        }
        return nil
    }

    @Test func footAsksForServerSideAndGetsOneTitleBar() throws {
        let h = try Self.decorated()
        var trace: [String] = []
        h.server.deliveryObserver = { [unowned h] d, q in
            trace.append(TraceSink.line(d, queue: q, router: h.server.router))
        }
        let foot = try h.spawn("/usr/bin/foot", ["--", "/bin/sh", "-c", "sleep 60"])
        let top = try #require(Self.mappedToplevel(h), "foot never mapped:\n\(foot.lines.joined(separator: "\n"))")
        _ = h.settleForeign(foot)
        // foot's own log: what it was configured with.
        #expect(
            foot.lines.contains { $0.hasSuffix("using SSD decorations") },
            "foot said:\n\(foot.lines.joined(separator: "\n"))")
        #expect(!foot.lines.contains { $0.hasSuffix("using CSD decorations") })
        let tree = h.server.router.tree
        let window = try #require(tree.parent(of: top))
        #expect(tree.name(of: window) == "window")
        #expect(XdgDecorationTests.compositorNodes(h) == ["close button", "title bar", "window"])
        let at = try #require(tree.layoutPosition(of: top))
        #expect(at == Point(40, 64))
        // A press in foot's content is foot's (it binds wl_pointer); one on the bar moves it.
        trace.removeAll()
        h.warp(at.x + 50, at.y + 50)
        h.button(.pressed)
        h.button(.released)
        _ = h.settleForeign(foot)
        #expect(trace.contains { $0.hasPrefix("seat0 pointer.button ") && $0.hasSuffix("BTN_LEFT pressed") })
        #expect(!trace.contains { $0.contains("handled pointer.button") })
        h.warp(at.x + 20, at.y - 10)
        h.button(.pressed)
        h.warp(at.x + 120, at.y + 90)
        h.button(.released)
        _ = h.settleForeign(foot)
        #expect(tree.layoutPosition(of: top) == Point(140, 164))
    }

    /// An SDL2 game as users run it, SDL's default environment (libdecor allowed, its cairo
    /// plugin installed by the Makefile): mapped, clicked in its content, it prints the click.
    /// Returns the compositor's nodes around it (the title bar, when the server drew one).
    func playClickGame(_ h: ServerHarness) throws -> [String] {
        let script = runtimeDirectory + "/click-game-\(getpid()).py"
        try clickGame.write(toFile: script, atomically: true, encoding: .utf8)
        let game = try h.spawn("/usr/bin/python3", [script], environment: ["SDL_VIDEODRIVER": "wayland"])
        // pygame's import alone takes seconds.
        let top = try #require(
            Self.mappedToplevel(h, timeout: 30), "the pygame game never mapped:\n\(game.lines.joined(separator: "\n"))")
        h.wait(for: game, line: "ready")
        let tree = h.server.router.tree
        #expect(tree.frame(of: top).map { ($0.width, $0.height) } ?? (0, 0) == (320, 240))
        let at = try #require(tree.layoutPosition(of: top))
        _ = game.take()
        h.warp(at.x + 100, at.y + 50)
        h.button(.pressed)
        h.button(.released)
        let lines = h.settle(game, until: "the game's MOUSEBUTTONDOWN") { $0.hasPrefix("button.down") }
        #expect(lines.filter { $0.hasPrefix("button.down") } == ["button.down 100,50 button=1"])
        return XdgDecorationTests.compositorNodes(h)
    }

    /// On a server that draws title bars, SDL asks for one and gets exactly one.
    @Test func anSDL2GameMapsBelowOneTitleBarAndSeesAClick() throws {
        #expect(try playClickGame(Self.decorated()) == ["close button", "title bar", "window"])
    }

    /// On a server that draws no title bars (the library's default and `.embedded`) no
    /// xdg-decoration is offered, so SDL draws its frame through libdecor from the start, as
    /// under weston. Offered and answered `client_side`, SDL 2.26 unmapped its window and
    /// never mapped it again.
    @Test func anSDL2GameOnAServerWithoutTitleBarsDrawsItsOwnAndSeesAClick() throws {
        #expect(try playClickGame(ServerHarness()) == [])
    }

    @Test func westonTerminalDrawsItsOwnFrameAndGetsNoTitleBar() throws {
        let h = try Self.decorated()
        let terminal = try h.spawn("/usr/bin/weston-terminal", ["--shell=/bin/sh"])
        let top = try #require(
            Self.mappedToplevel(h), "weston-terminal never mapped:\n\(terminal.lines.joined(separator: "\n"))")
        _ = h.settleForeign(terminal)
        let tree = h.server.router.tree
        #expect(tree.parent(of: top) == h.server.outputNode)
        #expect(XdgDecorationTests.compositorNodes(h).isEmpty)
        // The top rows of its window geometry, where it draws its own title bar, are its
        // own surface.
        let at = try #require(tree.layoutPosition(of: top))
        guard let s = h.server.surface(for: top), case .xdg(let xdg) = s.role else {
            Issue.record("not an xdg surface")
            return
        }
        let g = try #require(xdg.geometry, "weston-terminal sets its window geometry")
        #expect(tree.hitTest(Point(at.x + Double(g.x) + 60, at.y + Double(g.y) + 5))?.node == top)
    }
}

/// A pygame window that prints each mouse button press SDL hands the game, at the window
/// coordinates SDL gives it.
let clickGame = """
    import sys, pygame
    pygame.init()
    pygame.display.set_mode((320, 240))
    pygame.display.flip()
    print("ready", flush=True)
    while True:
        for e in pygame.event.get():
            if e.type == pygame.MOUSEBUTTONDOWN:
                print("button.down %d,%d button=%d" % (e.pos[0], e.pos[1], e.button), flush=True)
            elif e.type == pygame.QUIT:
                sys.exit(0)
        pygame.display.flip()
        pygame.time.wait(10)
    """
