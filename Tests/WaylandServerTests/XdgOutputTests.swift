// xdg-output (xdg-output-unstable-v1.xml), end to end: wl-probe's zxdg_output_v1 for each
// wl_output at versions 1 to 3 (what each says when made and what ends it), what it hears
// when its output is resized or moved; a wire-level client keeping xdg outputs of an output
// that is removed; Debian's wayland-info printing two outputs' logical places.
import Foundation
import InputRouter
import InputRouterWireClient
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct XdgOutputTests {
    /// 800×600 at the origin, and 640×480 at scale 2 to its right, 120 pixels lower.
    static func twoOutputs() -> WaylandServer.Configuration {
        var config = WaylandServer.Configuration()
        config.outputs = [
            OutputConfiguration(width: 800, height: 600),
            OutputConfiguration(width: 640, height: 480, scale: 2, position: Point(800, 120)),
        ]
        return config
    }

    /// What a new xdg output is sent: logical position and size, name and description from
    /// version 2, then its own `done` before version 3 and its wl_output's `done` from 3.
    static func created(_ o: String, version: Int, x: Int, y: Int, w: Int, h: Int, n: Int) -> [String] {
        var lines = ["xdg-output \(o) logical_position \(x),\(y)", "xdg-output \(o) logical_size \(w)x\(h)"]
        if version >= 2 {
            lines += ["xdg-output \(o) name OUT-\(n)", "xdg-output \(o) description InputRouter output \(n)"]
        }
        lines.append(version >= 3 ? "output \(o) done" : "xdg-output \(o) done")
        return lines
    }

    /// wl_output's state after a change: geometry, mode (logical size × scale), scale, done.
    static func outputState(_ o: String, x: Int, y: Int, w: Int, h: Int, scale: Int) -> [String] {
        [
            "output \(o) geometry \(x),\(y) make=InputRouter model=output",
            "output \(o) mode \(w * scale)x\(h * scale) 60000 current,preferred",
            "output \(o) scale \(scale)", "output \(o) done",
        ]
    }

    @Test(arguments: [1, 2, 3]) func eachXdgOutputTellsItsOutputsLogicalPlace(version: Int) throws {
        let h = try ServerHarness(configuration: Self.twoOutputs())
        let c = try h.probe(["--xdg-output", "\(version)", "--toplevel", "win", "200x100"])
        h.wait(for: c, line: "mapped win")
        // The wl_outputs' own state comes first (bound before the manager, which follows
        // them in the registry); each xdg output follows, its get_xdg_output answered at once.
        let lines = h.settle(c).drop { !$0.hasPrefix("xdg-output ") }.filter {
            $0.hasPrefix("output ") || $0.hasPrefix("xdg-output ")
        }
        // The logical size is the layout's: 640×480 for the scale-2 output whose mode is 1280×960.
        #expect(
            lines == Self.created("o1", version: version, x: 0, y: 0, w: 800, h: 600, n: 1)
                + Self.created("o2", version: version, x: 800, y: 120, w: 640, h: 480, n: 2))
    }

    /// A resize sends the new logical size only (the position did not change), a version 2
    /// xdg output its own done; then the wl_output's new state, whose done (version 3) ends
    /// the xdg output's change too.
    @Test(arguments: [2, 3]) func aResizedOutputSendsItsNewLogicalSizeThenDone(version: Int) throws {
        let h = try ServerHarness(configuration: Self.twoOutputs())
        let c = try h.mappedProbe(["--xdg-output", "\(version)", "--toplevel", "win", "200x100"])
        h.server.resizeOutput(h.server.outputs[1].node, width: 1024, height: 768)
        #expect(
            h.settle(c) == ["xdg-output o2 logical_size 1024x768"] + (version >= 3 ? [] : ["xdg-output o2 done"])
                + Self.outputState("o2", x: 800, y: 120, w: 1024, h: 768, scale: 2))
        // The nested compositor's resize (Server+Loop.swift) is the first output's.
        h.server.resizeOutput(width: 1000, height: 700)
        #expect(
            h.settle(c) == ["xdg-output o1 logical_size 1000x700"] + (version >= 3 ? [] : ["xdg-output o1 done"])
                + Self.outputState("o1", x: 0, y: 0, w: 1000, h: 700, scale: 1))
    }

    /// An output's node moved in the tree (below the first): the new logical position only.
    @Test(arguments: [2, 3]) func aMovedOutputSendsItsNewLogicalPositionThenDone(version: Int) throws {
        let h = try ServerHarness(configuration: Self.twoOutputs())
        let c = try h.mappedProbe(["--xdg-output", "\(version)", "--toplevel", "win", "200x100"])
        h.server.router.tree.move(h.server.outputs[1].node, to: (0, 600))
        #expect(
            h.settle(c) == ["xdg-output o2 logical_position 0,600"] + (version >= 3 ? [] : ["xdg-output o2 done"])
                + Self.outputState("o2", x: 0, y: 600, w: 640, h: 480, scale: 2))
    }

    /// An output plugged in later gets its xdg output too; unplugged, the client hears only
    /// the global's removal (wl-probe then destroys both objects) and the other output
    /// goes on hearing of its own changes.
    @Test func anOutputPluggedInAndOutWhileAClientWatches() throws {
        let h = try ServerHarness(configuration: Self.twoOutputs())
        let c = try h.mappedProbe(["--xdg-output", "3", "--toplevel", "win", "200x100"])
        let third = try #require(
            h.server.addOutput(OutputConfiguration(width: 320, height: 200, position: Point(0, 600))))
        let lines = OutputsTests.settleBind(h, c)
        #expect(
            Array(lines.drop { !$0.hasPrefix("xdg-output ") })
                == Self.created("o3", version: 3, x: 0, y: 600, w: 320, h: 200, n: 3))
        h.server.removeOutput(third)
        #expect(h.settle(c) == ["output o3 removed"])
        h.server.resizeOutput(h.server.outputs[1].node, width: 700, height: 500)
        #expect(
            h.settle(c) == ["xdg-output o2 logical_size 700x500"]
                + Self.outputState("o2", x: 800, y: 120, w: 700, h: 500, scale: 2))
    }

    /// A client that keeps its xdg output and wl_output after the output is removed: nothing
    /// more is sent to either, and an xdg output it makes for that wl_output afterwards is
    /// inert (made, never sent anything, no error).
    @Test func xdgOutputsOfARemovedOutputAreInert() throws {
        let server = try WaylandServer(configuration: Self.twoOutputs())
        let (_, wire, session) = try server.connectWireClient(binding: [
            ("wl_output", 4), ("zxdg_output_manager_v1", 3),
        ])
        let output = try #require(session.bound["wl_output"])
        let manager = try #require(session.bound["zxdg_output_manager_v1"])
        #expect(session.roundtrip()) // the wl_output's state
        let getXdgOutput: UInt16 = 1 // zxdg_output_manager_v1.get_xdg_output
        let first = wire.newID("zxdg_output_v1")
        var names = [output: "wl_output", first: "first"]
        /// The events up to a round trip after `request`, as "object.opcode", the registry's left out.
        func events(after request: () -> Void) -> [String] {
            var seen: [String] = []
            request()
            let callback = wire.newID("wl_callback")
            wire.send(1, Op.displaySync, [.uint(callback)])
            session.waitFor { e in
                if e.object == callback { return true }
                if e.object != session.registry {
                    seen.append("\(names[e.object] ?? wire.interfaces[e.object] ?? "?").\(e.opcode)")
                }
                return false
            }
            return seen
        }
        // The first output (the one bound): logical_position (0), logical_size (1), name (3),
        // description (4), then wl_output.done (2).
        #expect(
            events { wire.send(manager, getXdgOutput, [.uint(first), .uint(output)]) }
                == ["first.0", "first.1", "first.3", "first.4", "wl_output.2"], "\(String(describing: wire.error))")
        server.removeOutput(server.outputs[0].node)
        #expect(events {} == []) // only wl_registry.global_remove
        let late = wire.newID("zxdg_output_v1") // ids in order: libwayland wants the next free one
        names[late] = "late"
        #expect(events { wire.send(manager, getXdgOutput, [.uint(late), .uint(output)]) } == [])
        // The output left changes: still nothing for this client (it bound the removed one).
        server.resizeOutput(server.outputs[0].node, width: 700, height: 500)
        #expect(events {} == [])
        #expect(!wire.closed, "\(String(describing: wire.error))")
    }
}

/// Debian's wayland-info (wayland-utils 1.1) against two outputs of different sizes,
/// places and scales: each xdg_output's name, description, logical position and size.
@Suite struct XdgOutputWaylandInfoTests {
    @Test func waylandInfoPrintsEachOutputsLogicalPlace() throws {
        let waylandInfo = "/usr/bin/wayland-info"
        try #require(
            FileManager.default.isExecutableFile(atPath: waylandInfo),
            "wayland-info is missing: make deps (wayland-utils)")
        var config = WaylandServer.Configuration()
        config.outputs = [
            OutputConfiguration(width: 1024, height: 768, name: "DP-1"),
            OutputConfiguration(width: 640, height: 480, scale: 2, position: Point(1024, 200)),
        ]
        let h = try ServerHarness(configuration: config)
        let c = try h.spawn(waylandInfo)
        h.dispatch(until: "wayland-info to exit") { !c.process.isRunning }
        c.poll()
        #expect(c.process.terminationStatus == 0)
        // Each global's block: from its interface line to the next one.
        var blocks: [[String]] = []
        for line in c.lines {
            if line.hasPrefix("interface: ") {
                blocks.append([line])
            } else if !blocks.isEmpty {
                blocks[blocks.count - 1].append(line)
            }
        }
        // wayland-info names the wl_output an xdg output is for by the wl_output's registry name.
        let registryName = try Regex(#"name:\s+(\d+)$"#)
        let outputNames = try blocks.filter { $0[0].hasPrefix("interface: 'wl_output',") }.map { block in
            try #require(try registryName.firstMatch(in: block[0])?.output[1].substring.map(String.init))
        }
        try #require(outputNames.count == 2, "\(c.lines.joined(separator: "\n"))")
        let manager = try #require(
            blocks.first { $0[0].hasPrefix("interface: 'zxdg_output_manager_v1',") },
            "\(c.lines.joined(separator: "\n"))")
        #expect(manager[0].contains("version:  3,"), "\(manager[0])")
        #expect(
            Array(manager.dropFirst()) == [
                "\txdg_output_v1", "\t\toutput: \(outputNames[0])", "\t\tname: 'DP-1'",
                "\t\tdescription: 'InputRouter output 1'",
                "\t\tlogical_x: 0, logical_y: 0", "\t\tlogical_width: 1024, logical_height: 768",
                "\txdg_output_v1", "\t\toutput: \(outputNames[1])", "\t\tname: 'OUT-2'",
                "\t\tdescription: 'InputRouter output 2'",
                "\t\tlogical_x: 1024, logical_y: 200", "\t\tlogical_width: 640, logical_height: 480",
            ], "\(c.lines.joined(separator: "\n"))")
    }
}
