// xdg-decoration with real wl-probe clients: a title bar only for the toplevels that ask
// for server-side decorations, the configures each client is sent, the mode changing on
// a mapped window, the protocol's errors, and the title bar's moves (issue 12, defects 5
// and 6).
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct XdgDecorationTests {
    static func decorated() throws -> ServerHarness {
        var config = WaylandServer.Configuration()
        config.policy.decorationStyle = DecorationStyle(titleHeight: 24)
        return try ServerHarness(configuration: config)
    }

    /// Every node of the output's subtree.
    static func nodes(_ h: ServerHarness) -> [NodeID] {
        let tree = h.server.router.tree
        var out: [NodeID] = []
        var stack = [h.server.outputNode]
        while let n = stack.popLast() {
            out.append(n)
            stack.append(contentsOf: tree.children(of: n))
        }
        return out
    }

    /// The compositor's nodes in the window layer: whatever decoration the server drew.
    static func compositorNodes(_ h: ServerHarness) -> [String] {
        let tree = h.server.router.tree
        return nodes(h).filter { $0 != h.server.outputNode && tree.kind(of: $0) == .compositor }
            .compactMap { tree.name(of: $0) }.sorted()
    }

    /// The configure lines among what a client printed.
    static func configures(_ lines: [String]) -> [String] {
        lines.filter { $0.hasPrefix("configure ") || $0.hasPrefix("decoration.") }
    }

    static func toplevel(_ h: ServerHarness) throws -> NodeID {
        let tree = h.server.router.tree
        return try #require(nodes(h).first { tree.kind(of: $0) == .toplevel })
    }

    // MARK: Who gets a title bar

    @Test func aClientThatDoesNotAskGetsNoTitleBar() throws {
        let h = try Self.decorated()
        let c = try h.probe(["--toplevel", "win", "100x100"])
        h.wait(for: c, line: "mapped win")
        let lines = h.settle(c)
        #expect(!lines.contains { $0.hasPrefix("decoration.") })
        #expect(Self.compositorNodes(h).isEmpty)
        #expect(Self.nodes(h).allSatisfy { h.server.decorationPart(of: $0) == nil })
        let tree = h.server.router.tree
        let top = try Self.toplevel(h)
        #expect(tree.parent(of: top) == h.server.outputNode)
        // Its top rows are its own: where a title bar would be, the client gets the pointer.
        h.warp(50, 45)
        #expect(h.settle(c) == ["pointer.enter win 10.00 5.00", "pointer.motion 10.00 5.00", "pointer.frame"])
    }

    @Test(arguments: ["--decoration-unset", "--csd"])
    func aClientThatDoesNotAskForServerSideIsConfiguredClientSide(flag: String) throws {
        let h = try Self.decorated()
        let c = try h.probe(["--toplevel", "win", "100x100", flag])
        h.wait(for: c, line: "mapped win")
        let lines = h.settle(c)
        // The decoration's configure comes with the initial one, before xdg_surface.configure
        // (which wl-probe answers by mapping).
        #expect(
            Array(Self.configures(lines).prefix(2)) == ["configure win 0x0 []", "decoration.configure win client_side"])
        #expect(lines.filter { $0.hasPrefix("decoration.") } == ["decoration.configure win client_side"])
        #expect(Self.compositorNodes(h).isEmpty)
        h.warp(50, 45)
        #expect(h.settle(c) == ["pointer.enter win 10.00 5.00", "pointer.motion 10.00 5.00", "pointer.frame"])
    }

    @Test func aClientThatAsksForServerSideGetsATitleBar() throws {
        let h = try Self.decorated()
        let c = try h.probe(["--toplevel", "win", "100x100", "--ssd"])
        h.wait(for: c, line: "mapped win")
        let lines = h.settle(c)
        #expect(
            Array(Self.configures(lines).prefix(2)) == ["configure win 0x0 []", "decoration.configure win server_side"])
        #expect(Self.compositorNodes(h) == ["close button", "title bar", "window"])
        let tree = h.server.router.tree
        let top = try Self.toplevel(h)
        let bar = try #require(Self.nodes(h).first { tree.name(of: $0) == "title bar" })
        #expect(h.server.decorationPart(of: bar) == .titleBar(title: "win", active: true))
        #expect(tree.layoutPosition(of: top) == Point(40, 64))
        // The title bar above the surface is the compositor's; the surface below is the client's.
        h.warp(50, 50)
        #expect(h.settle(c).isEmpty)
        h.warp(50, 70)
        #expect(h.settle(c) == ["pointer.enter win 10.00 6.00", "pointer.motion 10.00 6.00", "pointer.frame"])
    }

    /// Configuration.decorations == nil: no zxdg_decoration_manager_v1 to ask (weston and
    /// Mutter offer none either); a client that would ask draws its own frame.
    @Test func aServerThatDrawsNoDecorationsDoesNotOfferThem() throws {
        let h = try ServerHarness()
        let c = try h.probe(["--toplevel", "win", "100x100", "--ssd"])
        h.dispatch(until: "wl-probe to give up") { !c.process.isRunning }
        c.poll()
        #expect(c.lines.contains { $0.contains("the server lacks zxdg_decoration_manager_v1") }, "\(c.lines)")
        #expect(Self.compositorNodes(h).isEmpty)
    }

    @Test func twoClientsEachGetWhatTheyAskFor() throws {
        let h = try Self.decorated()
        let plain = try h.probe(["--toplevel", "plain", "100x100"])
        h.wait(for: plain, line: "mapped plain")
        let framed = try h.mappedProbe(["--toplevel", "framed", "100x100", "--ssd"])
        let tree = h.server.router.tree
        let bars = Self.nodes(h).filter { tree.name(of: $0) == "title bar" }
        #expect(bars.count == 1)
        #expect(bars.first.flatMap { h.server.decorationPart(of: $0) } == .titleBar(title: "framed", active: true))
    }

    // MARK: Changing the mode of a mapped window

    @Test func theModeChangesAtTheCommitThatAcknowledgesIt() throws {
        let h = try Self.decorated()
        let c = try h.mappedProbe(["--toplevel", "win", "100x100", "--decoration-unset"])
        let tree = h.server.router.tree
        let top = try Self.toplevel(h)
        #expect(tree.layoutPosition(of: top) == Point(40, 40))

        // Server-side: wl-probe acknowledges the configure and commits; the title bar
        // appears above the content, which stays where it was.
        h.command(c, "decoration win server")
        let on = h.settle(c)
        #expect(on.contains("decoration.configure win server_side"))
        #expect(Self.compositorNodes(h) == ["close button", "title bar", "window"])
        #expect(tree.layoutPosition(of: top) == Point(40, 40))
        let window = try #require(tree.parent(of: top))
        #expect(tree.frame(of: window) == Rect(40, 16, 100, 124))
        h.warp(50, 20) // the new title bar
        #expect(h.settle(c).isEmpty)
        h.warp(50, 45)
        #expect(h.settle(c) == ["pointer.enter win 10.00 5.00", "pointer.motion 10.00 5.00", "pointer.frame"])

        // Client-side again: the frame goes, the content stays.
        h.command(c, "decoration win client")
        #expect(h.settle(c).contains("decoration.configure win client_side"))
        #expect(Self.compositorNodes(h).isEmpty)
        #expect(tree.parent(of: top) == h.server.outputNode)
        #expect(tree.layoutPosition(of: top) == Point(40, 40))

        // Destroying the object: no server decoration from the next commit on, not before.
        h.command(c, "decoration win server")
        _ = h.settle(c)
        #expect(Self.compositorNodes(h) == ["close button", "title bar", "window"])
        h.command(c, "decoration win destroy")
        #expect(Self.compositorNodes(h) == ["close button", "title bar", "window"])
        h.command(c, "commit win")
        #expect(Self.compositorNodes(h).isEmpty)
        #expect(tree.layoutPosition(of: top) == Point(40, 40))
    }

    @Test func aMaximizedServerSideWindowLeavesRoomForItsTitleBar() throws {
        let h = try Self.decorated()
        let c = try h.probe(["--toplevel", "win", "100x100", "--ssd", "--maximized"])
        h.wait(for: c, line: "mapped win")
        let lines = h.settle(c)
        #expect(Self.configures(lines).first == "configure win 1280x696 [maximized]")
        let tree = h.server.router.tree
        let top = try Self.toplevel(h)
        #expect(tree.layoutPosition(of: top) == Point(0, 24))
        #expect(tree.parent(of: top).flatMap { tree.frame(of: $0) }.map { ($0.x, $0.y) } ?? (-1, -1) == (0, 0))
    }

    // MARK: Moves (defect 5)

    /// A maximized window of a client without wl_pointer: presses in its content bubble up
    /// to the title bar.
    static func maximizedWithoutPointer(_ h: ServerHarness) throws -> (ClientProcess, NodeID) {
        let c = try h.mappedProbe(["--toplevel", "win", "300x200", "--no-pointer", "--ssd", "--maximized"])
        let tree = h.server.router.tree
        let window = try #require(tree.parent(of: try toplevel(h)))
        #expect(tree.name(of: window) == "window")
        #expect(tree.frame(of: window).map { ($0.x, $0.y) } ?? (-1, -1) == (0, 0))
        return (c, window)
    }

    @Test func aDragInTheContentOfAMaximizedWindowDoesNotMoveIt() throws {
        let h = try Self.decorated()
        let (c, window) = try Self.maximizedWithoutPointer(h)
        h.warp(100, 100)
        h.button(.pressed)
        h.warp(400, 350)
        h.button(.released)
        let after = h.settle(c)
        let tree = h.server.router.tree
        #expect(tree.frame(of: window).map { ($0.x, $0.y) } ?? (-1, -1) == (0, 0))
        // Still maximized, and told nothing else.
        #expect(!after.contains { $0.hasPrefix("configure win") && !$0.contains("maximized") })
    }

    @Test func aDragOnTheTitleBarOfAMaximizedWindowIsRefused() throws {
        let h = try Self.decorated()
        let (c, window) = try Self.maximizedWithoutPointer(h)
        h.warp(100, 10) // the title bar
        h.button(.pressed)
        h.warp(400, 350)
        h.button(.released)
        _ = h.settle(c)
        #expect(h.server.router.tree.frame(of: window).map { ($0.x, $0.y) } ?? (-1, -1) == (0, 0))
    }

    @Test func xdgToplevelMoveOfAMaximizedWindowIsRefused() throws {
        let h = try Self.decorated()
        let c = try h.mappedProbe(["--toplevel", "win", "300x200", "--ssd", "--maximized", "--move-on-press", "win"])
        let tree = h.server.router.tree
        let window = try #require(tree.parent(of: try Self.toplevel(h)))
        h.warp(100, 100)
        h.button(.pressed)
        h.wait(for: c, line: "move requested")
        _ = h.settle(c)
        h.warp(400, 350)
        // No move grab: the client keeps the pointer (implicit grab).
        #expect(h.settle(c) == ["pointer.motion 400.00 326.00", "pointer.frame"])
        h.button(.released)
        _ = h.settle(c)
        #expect(tree.frame(of: window).map { ($0.x, $0.y) } ?? (-1, -1) == (0, 0))
    }

    @Test func aDragOnTheTitleBarMovesANormalWindow() throws {
        let h = try Self.decorated()
        let c = try h.mappedProbe(["--toplevel", "win", "100x100", "--no-pointer", "--ssd"])
        let tree = h.server.router.tree
        let window = try #require(tree.parent(of: try Self.toplevel(h)))
        // A content drag first (bubbles, does not move), then the title bar's (moves).
        h.warp(60, 100)
        h.button(.pressed)
        h.warp(70, 110)
        h.button(.released)
        #expect(tree.frame(of: window).map { ($0.x, $0.y) } ?? (-1, -1) == (40, 40))
        h.warp(50, 50)
        h.button(.pressed)
        h.warp(150, 250)
        h.button(.released)
        _ = h.settle(c)
        #expect(tree.frame(of: window).map { ($0.x, $0.y) } ?? (-1, -1) == (140, 240))
    }

    /// A click in a decorated window behind another raises its whole window, title bar and
    /// all (the container, `windowNode(of:)`), not only the surface inside it.
    @Test func aClickRaisesTheDecoratedWindowItLandsIn() throws {
        let h = try Self.decorated()
        let a = try h.probe(["--toplevel", "a", "100x100", "--no-pointer", "--ssd"])
        h.wait(for: a, line: "mapped a")
        let tree = h.server.router.tree
        let topA = try Self.toplevel(h)
        let b = try h.probe(["--toplevel", "b", "100x100", "--no-pointer", "--ssd"])
        h.wait(for: b, line: "mapped b")
        _ = h.settle(a)
        _ = h.settle(b)
        let topB = try #require(Self.nodes(h).first { tree.kind(of: $0) == .toplevel && $0 != topA })
        let windowA = try #require(tree.parent(of: topA))
        let windowB = try #require(tree.parent(of: topB))
        #expect(windowA != h.server.outputNode && windowB != h.server.outputNode)
        #expect(h.server.placeWindow(topB, x: 90, y: 40))
        #expect(tree.children(of: h.server.outputNode).last == windowB)
        h.warp(50, 100) // a's content, left of b
        h.button(.pressed)
        h.button(.released)
        _ = h.settle(a)
        #expect(tree.children(of: h.server.outputNode).last == windowA)
        #expect(tree.children(of: windowA).last == topA)
        #expect(h.server.activatedToplevel == topA)
    }

    // MARK: Protocol errors

    static let errors: [(mode: String, line: String)] = [
        ("decoration-twice", "zxdg_decoration_manager_v1@ code=1"), // already_constructed
        ("decoration-after-buffer", "zxdg_decoration_manager_v1@ code=0"), // unconfigured_buffer
        ("decoration-unacked-buffer", "zxdg_toplevel_decoration_v1@ code=0"), // unconfigured_buffer
        ("decoration-orphaned", "zxdg_toplevel_decoration_v1@ code=2"), // orphaned
        ("decoration-bad-mode", "zxdg_toplevel_decoration_v1@ code=1"), // wl_display.invalid_method
    ]

    @Test(arguments: errors.map(\.mode))
    func aBrokenRuleIsTheOffendersProtocolError(mode: String) throws {
        let h = try Self.decorated()
        let good = try h.probe(["--toplevel", "good", "100x100", "--ssd"])
        h.wait(for: good, line: "mapped good")
        let bad = try h.probe(["--hostile", mode])
        var errorLine = ""
        h.wait(for: bad) { line in
            if line.hasPrefix("protocol-error") || line.hasPrefix("disconnected") {
                errorLine = line
                return true
            }
            return false
        }
        // "protocol-error INTERFACE@ID code=N", the id left out.
        let words = errorLine.split(separator: " ")
        let shown =
            words.count == 3
            ? "\(words[1].prefix { $0 != "@" })@ \(words[2])" : errorLine
        #expect(shown == Self.errors.first { $0.mode == mode }!.line)
        // The well-behaved client still gets its input, below its own title bar.
        _ = h.settle(good)
        h.warp(50, 74)
        #expect(h.settle(good) == ["pointer.enter good 10.00 10.00", "pointer.motion 10.00 10.00", "pointer.frame"])
    }
}
