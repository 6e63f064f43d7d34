// A hostile client gets the protocol error the specification names and is disconnected;
// the server and every other client go on.
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct ProtocolErrorTests {
    /// mode → the error line wl-probe prints (interface@id code).
    static let cases: [(String, String)] = [
        ("subsurface-self", "protocol-error wl_subcompositor@"),
        ("subsurface-cycle", "protocol-error wl_subcompositor@"),
        ("two-roles", "protocol-error wl_subcompositor@"),
        // wl_region names no errors: wl_display.invalid_method, on the display object.
        ("region-negative", "protocol-error wl_display@1 "),
        ("region-overflow", "protocol-error wl_display@1 "),
        ("unconfigured-buffer", "protocol-error xdg_surface@"), // at the attach, before any configure
        ("unacked-buffer", "protocol-error xdg_surface@"), // at the commit, configure not acknowledged
        ("parent-loop", "protocol-error xdg_toplevel@"),
        ("defunct-role", "protocol-error xdg_surface@"),
        ("bad-ack", "protocol-error xdg_surface@"),
        // wl_shm.invalid_stride on the pool: the server's own check (ShmStrideCheck.swift)
        // and libwayland's (the buffer runs past the pool's end).
        ("shm-short-stride", "protocol-error wl_shm_pool@"),
        ("shm-pool-overrun", "protocol-error wl_shm_pool@"),
    ]
    static let codes: [String: String] = [
        "subsurface-self": "code=0", "subsurface-cycle": "code=0", "two-roles": "code=0",
        "region-negative": "code=1", "region-overflow": "code=1", "unconfigured-buffer": "code=3",
        "unacked-buffer": "code=3", "parent-loop": "code=1",
        "defunct-role": "code=6", "bad-ack": "code=4", "shm-short-stride": "code=1", "shm-pool-overrun": "code=1",
    ]

    @Test(arguments: cases.map(\.0))
    func offenderIsDisconnectedOthersGoOn(mode: String) throws {
        let h = try ServerHarness()
        let good = try h.probe(["--toplevel", "good", "100x100"])
        h.wait(for: good, line: "mapped good")
        let bad = try h.probe(["--hostile", mode])
        let prefix = Self.cases.first { $0.0 == mode }!.1
        var errorLine = ""
        h.wait(for: bad) { line in
            if line.hasPrefix("protocol-error") || line.hasPrefix("[destroyed object]") {
                errorLine = line
                return true
            }
            return false
        }
        if mode == "defunct-role" {
            // The client already destroyed the proxy, so libwayland-client prints the error itself.
            #expect(errorLine == "[destroyed object]: error 6: xdg_surface destroyed before its role object")
        } else {
            #expect(errorLine.hasPrefix(prefix))
            #expect(errorLine.hasSuffix(Self.codes[mode]!))
        }
        // The well-behaved client still gets its input.
        _ = h.settle(good)
        h.warp(50, 50)
        #expect(h.settle(good) == ["pointer.enter good 10.00 10.00", "pointer.motion 10.00 10.00", "pointer.frame"])
    }

    @Test func roleObjectsOutlivingTheirSurfaceAreInert() throws {
        let h = try ServerHarness()
        let good = try h.probe(["--toplevel", "good", "100x100"])
        h.wait(for: good, line: "mapped good")
        let orphan = try h.probe(["--hostile", "orphaned-role"])
        h.wait(for: orphan, line: "survived")
        _ = h.settle(good)
        h.warp(50, 50)
        #expect(h.settle(good) == ["pointer.enter good 10.00 10.00", "pointer.motion 10.00 10.00", "pointer.frame"])
    }

    @Test func clientThatNeverReadsIsDroppedWithoutStallingOthers() throws {
        var config = WaylandServer.Configuration()
        config.unresponsiveTimeoutMS = 300
        let h = try ServerHarness(configuration: config)
        let mute = try h.probe(["--hostile", "no-read"])
        h.wait(for: mute, line: "ready")
        let good = try h.probe(["--toplevel", "good", "100x100"]) // at (72, 72), above mute
        h.wait(for: good, line: "mapped good")
        _ = h.settle(good)
        // Flood the mute client (its window is at (40, 40), 400×300) with motion.
        h.warp(300, 300)
        for i in 0..<200_000 {
            h.time += 10
            h.server.seat.notifyPointerWarp(time: h.time, to: Point(300 + Double(i % 50), 300))
            h.server.sendDeliveries()
            if i % 1000 == 0 { h.server.dispatch(timeoutMS: 0) }
        }
        // libwayland's buffer for it is full and bounded; it read nothing for 300 ms.
        h.dispatch(until: "the server to drop the client that reads nothing") { h.server.clientsByPointer.count == 1 }
        #expect(h.server.clientsByPointer.count == 1)
        h.warp(80, 80)
        #expect(h.settle(good).contains("pointer.enter good 8.00 8.00"))
    }
}
