// Debian's own clients that lock, confine and read relative motion: weston-clickdot and
// weston-confine (weston's toytoolkit), and an SDL2 game in relative mouse mode (pygame).
// What they are sent is read from the server's deliveries and their output; where the
// cursor went is the seat's.
import Foundation
import InputRouter
import Testing

@testable import InputRouterWayland

/// Records the constraint and relative-motion deliveries the server sends.
final class ConstraintLog {
    var changes: [(kind: PointerConstraintKind, active: Bool)] = []
    var relative: [RelativeMotion] = []
    var absolute = 0
    init(_ h: ServerHarness) {
        h.server.deliveryObserver = { [unowned self] d, _ in
            switch d {
            case .pointerConstraint(_, _, let kind, let active): changes.append((kind, active))
            case .relativeMotion(_, _, _, let m): relative.append(m)
            case .pointerMotion: absolute += 1
            default: break
            }
        }
    }
}

extension ServerHarness {
    func relativeMove(_ dx: Double, _ dy: Double, raw: (Double, Double)? = nil) {
        time += 1000
        let (udx, udy) = raw ?? (dx, dy)
        server.handle(
            InputEvent(
                time: time, device: DeviceID(1),
                .pointerMotion(dx: dx, dy: dy, unacceleratedDX: udx, unacceleratedDY: udy)))
    }
    func click(_ button: UInt32) {
        self.button(.pressed, button)
        self.button(.released, button)
    }
}

/// An SDL2 game in relative mouse mode, in a few lines of pygame: a hidden cursor and a
/// grab put SDL into relative mode, which on Wayland is a persistent lock plus a relative
/// pointer. It prints the deltas SDL hands the game.
let relativeMouseGame = """
    import sys, pygame
    pygame.init()
    pygame.display.set_mode((320, 240), pygame.OPENGL | pygame.DOUBLEBUF)
    pygame.display.flip()
    pygame.mouse.set_visible(False)
    pygame.event.set_grab(True)
    print("ready", flush=True)
    while True:
        for e in pygame.event.get():
            if e.type == pygame.MOUSEMOTION:
                print("motion rel=%d,%d" % e.rel, flush=True)
            elif e.type == pygame.QUIT:
                sys.exit(0)
        pygame.display.flip()
        pygame.time.wait(10)
    """

@Suite(.serialized) struct ConstraintRealClientTests {
    static func inside(_ p: Point, _ f: Rect) -> Bool {
        p.x >= Double(f.x) && p.y >= Double(f.y) && p.x < Double(f.x + f.width) && p.y < Double(f.y + f.height)
    }

    @Test(arguments: [[], ["--complex-confine-region"]])
    func westonConfineKeepsTheCursorInItsWindowUntilClickedAgain(arguments: [String]) throws {
        let h = try ServerHarness()
        let log = ConstraintLog(h)
        let client = try h.spawn("/usr/bin/weston-confine", arguments)
        let (_, frame) = try #require(
            h.mappedToplevel(), "weston-confine never mapped:\n\(client.lines.joined(separator: "\n"))")
        _ = h.settleForeign(client)
        let centre = Point(Double(frame.x + frame.width / 2), Double(frame.y + frame.height / 2))
        h.warp(centre.x, centre.y)
        h.click(0x110) // BTN_LEFT toggles the confinement
        _ = h.settleForeign(client)
        // The complex region has holes (the centre may be in one): the confinement starts
        // when the pointer enters the region, so sweep the window until it does.
        sweep: for y in stride(from: frame.y, to: frame.y + frame.height, by: 8) {
            for x in stride(from: frame.x, to: frame.x + frame.width, by: 8) where log.changes.isEmpty {
                h.warp(Double(x), Double(y))
            }
            if !log.changes.isEmpty { break sweep }
        }
        _ = h.settleForeign(client)
        #expect(log.changes.map { "\($0.kind) \($0.active)" } == ["confine true"])
        // Far to the bottom right, then far to the top left: the cursor stays on the window.
        for _ in 0..<10 { h.relativeMove(150, 90) }
        _ = h.settleForeign(client)
        #expect(Self.inside(h.server.seat.cursor, frame), "cursor at \(h.server.seat.cursor), window \(frame)")
        for _ in 0..<10 { h.relativeMove(-150, -90) }
        _ = h.settleForeign(client)
        #expect(Self.inside(h.server.seat.cursor, frame), "cursor at \(h.server.seat.cursor), window \(frame)")
        // Clicked again, weston-confine lets go: the cursor reaches the output's corner.
        h.click(0x110)
        _ = h.settleForeign(client)
        #expect(log.changes.map { "\($0.kind) \($0.active)" } == ["confine true", "confine false"])
        for _ in 0..<10 { h.relativeMove(-150, -90) }
        #expect(h.server.seat.cursor == Point(0, 0))
    }

    /// Debian 12's weston-clickdot (weston 10) binds both globals through its toolkit but
    /// neither locks nor reads relative motion: it must get neither, and its cursor moves.
    @Test func westonClickdotIsNeverConstrainedAndItsCursorMovesFreely() throws {
        let h = try ServerHarness()
        let log = ConstraintLog(h)
        let client = try h.spawn("/usr/bin/weston-clickdot")
        let (_, frame) = try #require(
            h.mappedToplevel(), "weston-clickdot never mapped:\n\(client.lines.joined(separator: "\n"))")
        _ = h.settleForeign(client)
        h.warp(Double(frame.x + frame.width / 2), Double(frame.y + frame.height / 2))
        h.click(0x110)
        h.click(0x111)
        _ = h.settleForeign(client)
        for _ in 0..<10 { h.relativeMove(150, 90) }
        _ = h.settleForeign(client)
        #expect(log.changes.isEmpty)
        #expect(log.relative.isEmpty)
        #expect(h.server.seat.cursor == Point(1280 - 1.0 / 256, 720 - 1.0 / 256))
    }

    /// On a server that draws title bars (as the example compositor does), in SDL's default
    /// environment: libdecor allowed, its cairo plugin installed (Makefile), as users have
    /// it. SDL 2.26 asks for server-side decorations; a `client_side` answer while it shows
    /// its window makes it hand the window to libdecor and never map it again.
    @Test func anSDL2GameInRelativeMouseModeGetsRelativeMotionWhileTheCursorStaysStill() throws {
        let h = try DecorationRealClientTests.decorated()
        let log = ConstraintLog(h)
        let script = runtimeDirectory + "/relative-mouse-\(getpid()).py"
        try relativeMouseGame.write(toFile: script, atomically: true, encoding: .utf8)
        let client = try h.spawn("/usr/bin/python3", [script], environment: ["SDL_VIDEODRIVER": "wayland"])
        // pygame's import alone takes seconds; under load, more than the default 20 s.
        let top = try #require(
            DecorationRealClientTests.mappedToplevel(h, timeout: 30),
            "the pygame game never mapped:\n\(client.lines.joined(separator: "\n"))")
        h.wait(for: client, line: "ready")
        // Below the server's title bar, which it asked for.
        #expect(XdgDecorationTests.compositorNodes(h) == ["close button", "title bar", "window"])
        let tree = h.server.router.tree
        let at = try #require(tree.layoutPosition(of: top))
        let size = try #require(tree.frame(of: top))
        let frame = Rect(Int32(at.x), Int32(at.y), size.width, size.height)
        let centre = Point(Double(frame.x + frame.width / 2), Double(frame.y + frame.height / 2))
        h.warp(centre.x, centre.y)
        // A game redraws all the time, so it is never quiet: wait for what it must do.
        // SDL may confine first (its grab) and then lock (relative mode): the lock is what counts.
        h.dispatch(until: "the game's pointer lock to activate") {
            log.changes.last.map { $0.kind == .lock && $0.active } ?? false
        }
        #expect(log.changes.last.map { "\($0.kind) \($0.active)" } == "lock true")
        let absoluteBefore = log.absolute
        _ = client.take()
        for _ in 0..<5 { h.relativeMove(7, -3, raw: (5, -2)) }
        h.dispatch(until: "five relative motions printed by the game") {
            client.lines[client.mark...].filter { $0.hasPrefix("motion") && $0 != "motion rel=0,0" }.count >= 5
        }
        // SDL reports a zero motion of its own when relative mode starts.
        let lines = client.take().filter { $0.hasPrefix("motion") && $0 != "motion rel=0,0" }
        // SDL's relative mode hands the game the unaccelerated deltas.
        #expect(lines == Array(repeating: "motion rel=5,-2", count: 5))
        #expect(log.relative.count == 5)
        #expect(log.absolute == absoluteBefore)
        #expect(h.server.seat.cursor == centre)
    }
}
