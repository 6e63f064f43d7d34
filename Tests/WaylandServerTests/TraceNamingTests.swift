// The trace names whose surface each line is about: the client (its number and program)
// and the toplevel's app id or title, the same bytes on every run.
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct TraceNamingTests {
    @Test func twoClientsWithTheSameWindowNamesAreTellApart() throws {
        let h = try ServerHarness()
        var lines: [String] = []
        // Unowned: the server keeps the closure, and a strong harness kept both alive after the test.
        h.server.deliveryObserver = { [unowned h] d, q in
            let line = TraceSink.line(d, queue: q, router: h.server.router)
            if line.contains("pointer.") { lines.append(line) }
        }
        // Both windows are called "win"; the second sits 32 pixels lower and to the right.
        let a = try h.probe(["--toplevel", "win", "200x200", "--sub", "child", "win", "0,0", "50x50"])
        h.wait(for: a, line: "mapped win")
        let b = try h.probe(["--toplevel", "win", "200x200"])
        h.wait(for: b, line: "mapped win")
        h.warp(50, 50) // a's subsurface
        let child = try #require(h.server.seat.pointerFocusNode)
        h.warp(230, 230) // b's window, beyond a's
        #expect(
            lines == [
                "seat0 pointer.enter subsurface\(child) in \"client1 wl-probe: win\" at 10,10",
                "seat0 pointer.motion subsurface\(child) in \"client1 wl-probe: win\" at 10,10",
                "seat0 pointer.frame client1(\"wl-probe\")",
                "seat0 pointer.leave subsurface\(child) in \"client1 wl-probe: win\"",
                "seat0 pointer.enter \"client2 wl-probe: win\" at 158,158",
                "seat0 pointer.motion \"client2 wl-probe: win\" at 158,158",
                "seat0 pointer.frame client1(\"wl-probe\")",
                "seat0 pointer.frame client2(\"wl-probe\")",
            ])
    }
}
