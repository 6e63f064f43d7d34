// Two outputs, end to end with wl-probe: what each wl_output global says, wl_surface.enter
// and leave as a window moves onto, across and off an output, the pointer crossing from
// one output to the other, and outputs plugged in and out while a client watches.
import Foundation
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct OutputsTests {
    /// 800×600 at the origin, and 640×480 at scale 2 to its right.
    static func twoOutputs() -> WaylandServer.Configuration {
        var config = WaylandServer.Configuration()
        config.outputs = [
            OutputConfiguration(width: 800, height: 600), OutputConfiguration(width: 640, height: 480, scale: 2),
        ]
        return config
    }

    static func window(_ h: ServerHarness, _ title: String) throws -> NodeID {
        let tree = h.server.router.tree
        return try #require(
            tree.children(of: h.server.outputNode).first { h.server.toplevelTitle(of: $0)?.title == title })
    }

    static func state(_ o: String, x: Int, w: Int, h: Int, scale: Int, n: Int) -> [String] {
        [
            "output \(o) geometry \(x),0 make=InputRouter model=output",
            "output \(o) mode \(w)x\(h) 60000 current,preferred",
            "output \(o) scale \(scale)", "output \(o) name OUT-\(n)",
            "output \(o) description InputRouter output \(n)",
            "output \(o) done",
        ]
    }

    /// After a global was announced: the first barrier may be answered before the probe's
    /// bind reached the server (it read the barrier command first); once it is, the bind
    /// was sent, and a second barrier comes after everything the bind brought.
    static func settleBind(_ h: ServerHarness, _ c: ClientProcess) -> [String] { h.settle(c) + h.settle(c) }

    @Test func eachOutputIsAGlobalWithItsPlaceModeAndScale() throws {
        let h = try ServerHarness(configuration: Self.twoOutputs())
        #expect(h.server.outputs.map(\.frame) == [Rect(0, 0, 800, 600), Rect(800, 0, 640, 480)])
        #expect(h.server.globals.filter { $0.interface == "wl_output" }.count == 2)
        let c = try h.probe(["--outputs", "--toplevel", "win", "200x100"])
        h.wait(for: c, line: "mapped win")
        let lines = h.settle(c).filter { $0.hasPrefix("output ") || $0.hasPrefix("enter ") || $0.hasPrefix("leave ") }
        // The mode is in hardware pixels: the logical size times the scale.
        #expect(
            lines == Self.state("o1", x: 0, w: 800, h: 600, scale: 1, n: 1)
                + Self.state("o2", x: 800, w: 1280, h: 960, scale: 2, n: 2) + ["enter win o1"])
    }

    /// wayland.xml: `wl_output.name` "is only sent once per output object"; the description
    /// is sent after binding and whenever it changes (it never does here). A resize sends
    /// the new geometry, mode and scale, then done.
    @Test func aResizedOutputTellsItsNewModeButNotItsNameAgain() throws {
        let h = try ServerHarness(configuration: Self.twoOutputs())
        let c = try h.mappedProbe(["--outputs", "--toplevel", "win", "200x100"])
        h.server.resizeOutput(h.server.outputs[1].node, width: 1024, height: 768)
        #expect(
            h.settle(c) == [
                "output o2 geometry 800,0 make=InputRouter model=output",
                "output o2 mode 2048x1536 60000 current,preferred", "output o2 scale 2", "output o2 done",
            ])
    }

    @Test func enterAndLeaveFollowAWindowAcrossOutputs() throws {
        let h = try ServerHarness(configuration: Self.twoOutputs())
        let c = try h.probe(["--outputs", "--toplevel", "win", "200x100", "--sub", "child", "win", "150,0", "100x50"])
        h.wait(for: c, line: "mapped win")
        #expect(h.settle(c).filter { $0.hasPrefix("enter ") } == ["enter win o1", "enter child o1"])
        let tree = h.server.router.tree
        let win = try Self.window(h, "win")
        // The subsurface sticks out 50 pixels to the right: it reaches the second output first.
        tree.move(win, to: (560, 40))
        #expect(h.settle(c) == ["enter child o2"])
        tree.move(win, to: (700, 40))
        #expect(h.settle(c) == ["enter win o2", "leave child o1"]) // win spans both, child is on o2
        tree.move(win, to: (800, 40))
        #expect(h.settle(c) == ["leave win o1"])
        // Below the smaller output: on no output at all.
        tree.move(win, to: (900, 500))
        #expect(h.settle(c) == ["leave win o2", "leave child o2"])
        tree.move(win, to: (10, 10))
        #expect(h.settle(c) == ["enter win o1", "enter child o1"])
    }

    @Test func thePointerCrossesFromOneOutputToTheOther() throws {
        let h = try ServerHarness(configuration: Self.twoOutputs())
        let c = try h.probe(["--toplevel", "left", "200x100", "--toplevel", "right", "200x100"])
        h.wait(for: c, line: "mapped right")
        _ = h.settle(c)
        let tree = h.server.router.tree
        tree.move(try Self.window(h, "left"), to: (600, 40))
        tree.move(try Self.window(h, "right"), to: (800, 40))
        h.warp(790, 90)
        _ = h.settle(c)
        h.motion(20, 0)
        #expect(
            h.settle(c) == [
                "pointer.leave left", "pointer.enter right 10.00 50.00", "pointer.motion 10.00 50.00", "pointer.frame",
            ])
        // Far past the right output's edge: the pointer stops on it.
        h.motion(5000, 0)
        #expect(h.settle(c) == ["pointer.leave right", "pointer.frame"])
        #expect(h.server.seat.cursor == Point(1440 - 1.0 / 256, 90))
    }

    @Test func outputsPluggedInAndOutWhileAClientWatches() throws {
        let h = try ServerHarness() // one output, 1280×720
        let c = try h.probe(["--outputs", "--toplevel", "win", "200x100"])
        h.wait(for: c, line: "mapped win")
        #expect(
            h.settle(c).filter { $0.hasPrefix("output o1 name") || $0.hasPrefix("enter ") } == [
                "output o1 name OUT-1", "enter win o1",
            ])
        let second = try #require(h.server.addOutput(OutputConfiguration(width: 640, height: 480)))
        #expect(Self.settleBind(h, c) == Self.state("o2", x: 1280, w: 640, h: 480, scale: 1, n: 2))
        let tree = h.server.router.tree
        let win = try Self.window(h, "win")
        tree.move(win, to: (1300, 40))
        #expect(h.settle(c) == ["leave win o1", "enter win o2"])
        h.warp(1310, 50)
        #expect(h.settle(c) == ["pointer.enter win 10.00 10.00", "pointer.motion 10.00 10.00", "pointer.frame"])
        // Unplugged: the window moves onto the output left, at the same place relative to
        // its origin (20, 40); the cursor goes to the nearest point left, off the window.
        h.server.removeOutput(second)
        #expect(
            h.settle(c) == ["leave win o2", "output o2 removed", "enter win o1", "pointer.leave win", "pointer.frame"])
        #expect(tree.frame(of: win).map { ($0.x, $0.y) } ?? (0, 0) == (20, 40))
        #expect(h.server.seat.cursor == Point(1280 - 1.0 / 256, 50))
        #expect(h.server.outputs.map(\.name) == ["OUT-1"])
        // A client that connects now sees one output.
        let late = try h.probe(["--outputs", "--toplevel", "late", "100x100"])
        h.wait(for: late, line: "mapped late")
        #expect(
            h.settle(late).filter { $0.hasSuffix(" name OUT-1") || $0.contains("OUT-2") } == ["output o1 name OUT-1"])
        // Plugged in again: a new name, announced to both clients.
        _ = h.server.addOutput(OutputConfiguration(width: 320, height: 200))
        #expect(Self.settleBind(h, c).filter { $0.hasSuffix("name OUT-3") } == ["output o3 name OUT-3"])
        #expect(Self.settleBind(h, late).filter { $0.hasSuffix("name OUT-3") } == ["output o2 name OUT-3"])
    }
}

extension ServerHarness {
    /// Relative pointer motion from the first device, as a mouse sends it.
    func motion(_ dx: Double, _ dy: Double) {
        time += 1000
        server.handle(
            InputEvent(
                time: time, device: DeviceID(1),
                .pointerMotion(dx: dx, dy: dy, unacceleratedDX: dx, unacceleratedDY: dy)))
    }
}

/// `ir-compositor --output 800x600 --output 640x480@2` with Debian's wayland-info: both
/// outputs in the registry, each with its place, scale and mode.
@Suite struct OutputsWaylandInfoTests {
    @Test func waylandInfoListsBothOutputs() throws {
        let waylandInfo = "/usr/bin/wayland-info"
        try #require(
            FileManager.default.isExecutableFile(atPath: waylandInfo),
            "wayland-info is missing: make deps (wayland-utils)")
        let compositor = try CompositorProcess([
            "--socket", "ir-outputs-\(getpid())", "--speed", "0", "--exit-after-replay",
            "--output", "800x600", "--output", "640x480@2",
            "--input", "replay:\(recordingFixtures)/keyboard.yml", "--", waylandInfo,
        ])
        let process = compositor.process
        // The outputs come before wl_seat in the registry: once wayland-info printed that,
        // the compositor is stopped instead of waiting 8 s for its replay to start.
        var text = ""
        while !text.contains("interface: 'wl_seat'") {
            let data = compositor.nextOutput()
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        // SIGKILL: the test runner's children inherit a mask that blocks SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(
            text.contains(
                "listening on ir-outputs-\(getpid()), outputs OUT-1 800x600@1 at 0,0, OUT-2 640x480@2 at 800,0"),
            "\(text)")
        // Each output's block: from its interface line to the next interface.
        let lines = text.split(separator: "\n").map { $0.replacingOccurrences(of: "client 1 | ", with: "") }
        var blocks: [[String]] = []
        for line in lines {
            if line.hasPrefix("interface: ") {
                blocks.append([line])
            } else if !blocks.isEmpty {
                blocks[blocks.count - 1].append(line)
            }
        }
        let outputs = blocks.filter { $0[0].hasPrefix("interface: 'wl_output',") }.map { Array($0.dropFirst()) }
        func block(_ n: Int, _ x: Int, _ scale: Int, _ w: Int, _ h: Int) -> [String] {
            [
                "\tname: OUT-\(n)", "\tdescription: InputRouter output \(n)", "\tx: \(x), y: 0, scale: \(scale),",
                "\tphysical_width: 0 mm, physical_height: 0 mm,", "\tmake: 'InputRouter', model: 'output',",
                "\tsubpixel_orientation: unknown, output_transform: normal,", "\tmode:",
                "\t\twidth: \(w) px, height: \(h) px, refresh: 60.000 Hz,", "\t\tflags: current preferred",
            ]
        }
        #expect(outputs == [block(1, 0, 1, 800, 600), block(2, 800, 2, 1280, 960)], "\(text)")
    }
}
