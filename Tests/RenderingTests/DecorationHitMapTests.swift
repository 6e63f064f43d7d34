// The hit map of a server that draws decorations: a title bar only for the client that
// asks for one through xdg-decoration (issue 12, defect 6).
import Foundation
import InputRouter
import InputRouterWayland
import Testing

@testable import InputRouterRendering

@Suite(.serialized) struct DecorationHitMapTests {
    static let style = DecorationStyle(titleHeight: 24)

    @Test func aClientThatDoesNotAskHasNoDecorationInTheHitMap() throws {
        guard
            let (server, process, _) = try serverWithProbe(
                ["--toplevel", "win", "100x60"], until: "mapped win", decorations: Self.style)
        else { return }
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let map = HitMap(server)
        let tree = server.router.tree
        #expect(map.entries.filter { tree.kind(of: $0.node) == .compositor }.isEmpty, "\(map.entries.map(\.label))")
        // Its top row is its own: the window is at (40, 40).
        let top = try #require(map.node(atX: 45, y: 40))
        #expect(tree.kind(of: top) == .toplevel)
        #expect(map.entries.first { $0.node == top }?.pixels == 100 * 60)
    }

    @Test func aClientThatAsksForServerSideHasATitleBarInTheHitMap() throws {
        guard
            let (server, process, _) = try serverWithProbe(
                ["--toplevel", "win", "100x60", "--ssd"], until: "mapped win", decorations: Self.style)
        else { return }
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let map = HitMap(server)
        let tree = server.router.tree
        let names = map.entries.filter { tree.kind(of: $0.node) == .compositor }.compactMap { tree.name(of: $0.node) }
        #expect(names.sorted() == ["close button", "title bar", "window"])
        let pixels = Dictionary(
            uniqueKeysWithValues: map.entries.compactMap { e in tree.name(of: e.node).map { ($0, e.pixels) } })
        #expect(pixels["title bar"] == 100 * 24 - 24 * 24)
        #expect(pixels["close button"] == 24 * 24)
        // A newly mapped window has the keyboard focus: its title bar is drawn active.
        #expect(
            map.node(atX: 45, y: 40).flatMap { server.decorationPart(of: $0) } == .titleBar(title: "win", active: true))
        #expect(map.node(atX: 45, y: 64).flatMap { tree.kind(of: $0) } == .toplevel)
    }
}
