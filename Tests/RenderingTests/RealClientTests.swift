// End to end: a real client (the project's wl-probe) draws into shm buffers on a real
// server; the renderer shows its committed pixels and the hit map names it by its title.
import CWaylandServer
import Foundation
import InputRouter
import InputRouterWayland
import TestSupport
import Testing

@testable import InputRouterRendering

/// Runs wl-probe with `arguments` against a fresh server, dispatching the server until
/// the probe printed `until`; returns the server, or nil after recording why not. The
/// client is connected through a socket pair (`WAYLAND_SOCKET`), so nothing here touches
/// the process's `XDG_RUNTIME_DIR`, which other tests running in parallel rely on.
func serverWithProbe(
    _ arguments: [String], until: String, decorations: DecorationStyle? = nil
) throws -> (WaylandServer, ChildProcess, SurfacePixels)? {
    var config = WaylandServer.Configuration()
    config.outputWidth = 320
    config.outputHeight = 200 // small: hit maps test every pixel
    config.policy.decorationStyle = decorations
    let server = try WaylandServer(configuration: config)
    let pixels = SurfacePixels(server: server)
    server.handle(InputEvent(time: 0, device: DeviceID(1), .deviceAdded(.pointer)))
    var fds: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
        Issue.record("socketpair: \(String(cString: strerror(errno)))")
        return nil
    }
    guard wl_client_create(server.display, fds[0]) != nil else {
        Issue.record("wl_client_create failed")
        return nil
    }

    // wl-probe sits next to the test bundle (or in .build/debug when run from elsewhere).
    var products = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    if !FileManager.default.fileExists(atPath: products.appendingPathComponent("wl-probe").path) {
        products =
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../.build/debug")
            .standardized
    }
    let process = try ChildProcess(
        products.appendingPathComponent("wl-probe").path, arguments,
        environment: [
            "WAYLAND_SOCKET": "0", // the client's end of the pair, as its stdin
            "XDG_RUNTIME_DIR": FileManager.default.temporaryDirectory.path, // where it makes its shm files
        ],
        input: .descriptor(fds[1]))
    close(fds[1])

    var output = Data()
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
        server.dispatch(timeoutMS: 5)
        output.append(contentsOf: process.readAvailable())
        if String(decoding: output, as: UTF8.self).split(separator: "\n").contains(where: { $0 == until }) {
            // Whatever it sends with the commit is in once it answered a ping sent now.
            let barrier = server.barrier()
            while !barrier.isPassed, Date() < deadline { server.dispatch(timeoutMS: 5) }
            guard barrier.isPassed else {
                Issue.record("wl-probe did not answer a ping: \(barrier.waiting)")
                break
            }
            return (server, process, pixels)
        }
    }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    Issue.record("wl-probe did not print '\(until)':\n\(String(decoding: output, as: UTF8.self))")
    return nil
}

@Suite(.serialized) struct RealClientTests {
    @Test func probeBuffersAreCompositedAndNamedInTheHitMap() throws {
        // A 200x100 toplevel (placed at 40,40) with a 100x60 subsurface below it at 150,20.
        guard
            let (server, process, pixels) = try serverWithProbe(
                ["--toplevel", "win", "200x100", "--sub", "child", "win", "150,20", "100x60", "--below"],
                until: "mapped win")
        else { return }
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        // wl-probe fills each surface with an opaque colour chosen by its name.
        let image = OutputRenderer(background: 0xff00_0000).render(server, pixels: pixels)
        #expect(image[50, 50] == 0xffed_c948, "\(hex(image[50, 50]))") // "win"
        #expect(image[250, 70] == 0xff59_a14f, "\(hex(image[250, 70]))") // "child", alone
        // Where both are, the parent is painted over its below-child.
        #expect(image[200, 70] == 0xffed_c948, "\(hex(image[200, 70]))")
        #expect(image[30, 30] == 0xff00_0000)

        let map = HitMap(server)
        let win = map.node(atX: 50, y: 50)
        let child = map.node(atX: 250, y: 70)
        #expect(win != nil && child != nil && win != child)
        #expect(map.node(atX: 200, y: 70) == win) // the parent is above its below child
        let label = map.entries.first { $0.node == win }?.label ?? ""
        // the program of the socket's peer
        #expect(label.hasPrefix("#\(win!.index) toplevel 'win' client 1 '"), "\(label)")
        #expect(map.entries.first { $0.node == child }?.label.contains("subsurface") == true)
        #expect(server.toplevelTitle(of: win!)?.title == "win")
        #expect(server.toplevelTitle(of: child!) == nil)
    }
}

/// The pixel-keeping policy lives here, not in the server: `SurfacePixels` copies each
/// commit through the server's public hooks and forgets a surface when it goes.
@Suite(.serialized) struct SurfacePixelsTests {
    @Test func keepsTheLastCommitAndForgetsADestroyedSurface() throws {
        guard let (server, process, pixels) = try serverWithProbe(["--toplevel", "win", "30x20"], until: "mapped win")
        else { return }
        let node = try #require(server.mappedToplevels.first?.node)
        let surface = try #require(server.surfaceResource(of: node))
        let image = try #require(pixels.image(of: node))
        #expect(image.width == 30 && image.height == 20)
        #expect(Set(image.pixels) == [0xffed_c948]) // wl-probe's colour for "win"
        #expect(pixels.image(ofSurface: surface)?.pixels == image.pixels)
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        // No client cursor set: the renderer's arrow.
        guard case .arrow = pixels.clientCursor else {
            Issue.record("not the arrow")
            return
        }

        // The client goes (the test holds the other end of its socket: disconnect it here).
        let client = try #require(server.router.tree.client(of: node).flatMap(server.waylandClient))
        wl_client_destroy(client)
        #expect(
            pixels.image(ofSurface: surface) == nil,
            "still \(pixels.image(ofSurface: surface).map { "\($0.width)x\($0.height)" } ?? "")")
        #expect(pixels.image(of: node) == nil)
    }
}
