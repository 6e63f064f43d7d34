// The nested backend against a real parent: weston on Xvfb. Input is typed and clicked
// into Xvfb with xdotool; weston hands it to our window; the backend turns it into the
// core's events; wl-probe, a client of our nested server, prints what it received.
//
// Geometry: weston's output is 1024×768 at (0, 0) of the X screen, kiosk-shell makes our
// toplevel fullscreen on it, so X screen = parent window = nested layout coordinates. The
// nested server places its first toplevel at (40, 40).
import Foundation
import InputRouter
import NestedBackend
import Testing

@testable import WaylandServer

@Suite(.serialized) struct NestedInputTests {
    /// Pointer, buttons, wheel and keys, end to end; the window's size and pixels.
    @Test func parentInputReachesNestedClients() throws {
        let parent = try Test.parentSession()
        let nested = try NestedCompositor(parent: parent)
        guard nested.waitUntilShown() else { return }
        // kiosk-shell configured our window to its output's size.
        #expect(nested.resizes == ["1024x768"])
        #expect(nested.server.seat.absoluteMapping == Rect(0, 0, 1024, 768))

        let probe = try nested.probe(["--toplevel", "win", "300x200"])
        guard nested.wait(for: probe, line: "keyboard.enter win keys=[]") else { return }
        let start = nested.settle(probe)
        // The parent's seat has a pointer and a keyboard: both are devices of the nested seat.
        #expect(start.contains("seat.capabilities 3"))
        #expect(start.contains("mapped win"))

        // What we presented is on the X screen: the probe's grey over our background.
        nested.run(until: { parent.screenPixel(x: 100, y: 100) == nested.presentedPixel(x: 100, y: 100) },
                   "the probe's pixels on the X screen (have \(String(parent.screenPixel(x: 100, y: 100) ?? 0, radix: 16)), "
                       + "want \(String(nested.presentedPixel(x: 100, y: 100), radix: 16)))")
        #expect(nested.presentedPixel(x: 100, y: 100) == NestedCompositor.over(0x8080_8080, NestedCompositor.background) & 0xff_ffff)
        #expect(parent.screenPixel(x: 700, y: 600) == NestedCompositor.background & 0xff_ffff)

        _ = try parent.xdotool(["mousemove", "90", "70"])
        nested.wait(for: probe, line: "pointer.enter win 50.00 30.00")
        #expect(nested.settle(probe) == ["pointer.enter win 50.00 30.00", "pointer.motion 50.00 30.00", "pointer.frame"])

        _ = try parent.xdotool(["click", "1"])
        nested.wait(for: probe, line: "pointer.button 272 released")
        #expect(nested.settle(probe) == ["pointer.button 272 pressed", "pointer.frame",
                                         "pointer.button 272 released", "pointer.frame"])

        // X button 4: weston sends one wheel detent up (axis_discrete -1, value -10).
        _ = try parent.xdotool(["click", "4"])
        nested.wait(for: probe, line: "pointer.frame")
        #expect(nested.settle(probe) == ["pointer.axis_source 0", "pointer.axis_value120 0 -120", "pointer.axis 0 -10.00",
                                         "pointer.frame"])

        _ = try parent.xdotool(["mousemove", "300", "200"])
        nested.wait(for: probe, line: "pointer.motion 260.00 160.00")
        #expect(nested.settle(probe) == ["pointer.motion 260.00 160.00", "pointer.frame"])

        _ = try parent.xdotool(["type", "abc"])
        nested.wait(for: probe, line: "keyboard.key 46 released")
        #expect(nested.settle(probe) == ["keyboard.key 30 pressed", "keyboard.key 30 released",
                                         "keyboard.key 48 pressed", "keyboard.key 48 released",
                                         "keyboard.key 46 pressed", "keyboard.key 46 released"])

        // The parent's modifiers, in the parent's order (no re-derivation from the keys).
        _ = try parent.xdotool(["key", "shift+a"])
        nested.wait(for: probe, line: "keyboard.modifiers 0 0 0 0")
        let shifted = nested.settle(probe)
        print(shifted)
        #expect(shifted == ["keyboard.key 42 pressed", "keyboard.modifiers 1 0 0 0", "keyboard.key 30 pressed",
                            "keyboard.key 42 released", "keyboard.modifiers 0 0 0 0", "keyboard.key 30 released"])
    }
}
