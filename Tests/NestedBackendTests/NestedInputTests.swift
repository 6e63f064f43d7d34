// The nested backend against a real parent: weston on Xvfb. Input is typed and clicked
// into Xvfb with xdotool; weston hands it to our window; the backend turns it into the
// core's events; wl-probe, a client of our nested server, prints what it received.
//
// Geometry: weston's output is 1024×768 at (0, 0) of the X screen, kiosk-shell makes our
// toplevel fullscreen on it, so X screen = parent window = nested layout coordinates. The
// nested server places its first toplevel at (40, 40).
import Foundation
import InputRouter
import InputRouterNested
import Testing

@testable import InputRouterWayland

extension WithParentSession {
    @Suite struct NestedInputTests {
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

            // What we presented is on the X screen: the probe's colour over our background.
            nested.run(
                until: { parent.screenPixel(x: 100, y: 100) == nested.presentedPixel(x: 100, y: 100) },
                "the probe's pixels on the X screen (have \(String(parent.screenPixel(x: 100, y: 100) ?? 0, radix: 16)), "
                    + "want \(String(nested.presentedPixel(x: 100, y: 100), radix: 16)))")
            #expect(nested.presentedPixel(x: 100, y: 100) == 0xed_c948) // wl-probe's opaque colour for "win"
            #expect(parent.screenPixel(x: 700, y: 600) == NestedCompositor.background & 0xff_ffff)

            _ = try parent.xdotool(["mousemove", "90", "70"])
            nested.wait(for: probe, line: "pointer.enter win 50.00 30.00")
            #expect(
                nested.settle(probe) == [
                    "pointer.enter win 50.00 30.00", "pointer.motion 50.00 30.00", "pointer.frame",
                ])

            _ = try parent.xdotool(["click", "1"])
            nested.wait(for: probe, line: "pointer.button 272 released")
            #expect(
                nested.settle(probe) == [
                    "pointer.button 272 pressed", "pointer.frame",
                    "pointer.button 272 released", "pointer.frame",
                ])

            // X button 4: weston sends one wheel detent up (axis_discrete -1, value -10).
            _ = try parent.xdotool(["click", "4"])
            nested.wait(for: probe, line: "pointer.frame")
            #expect(
                nested.settle(probe) == [
                    "pointer.axis_source 0", "pointer.axis_value120 0 -120", "pointer.axis 0 -10.00",
                    "pointer.frame",
                ])

            _ = try parent.xdotool(["mousemove", "300", "200"])
            nested.wait(for: probe, line: "pointer.motion 260.00 160.00")
            #expect(nested.settle(probe) == ["pointer.motion 260.00 160.00", "pointer.frame"])

            _ = try parent.xdotool(["type", "abc"])
            nested.wait(for: probe, line: "keyboard.key 46 released")
            #expect(
                nested.settle(probe) == [
                    "keyboard.key 30 pressed", "keyboard.key 30 released",
                    "keyboard.key 48 pressed", "keyboard.key 48 released",
                    "keyboard.key 46 pressed", "keyboard.key 46 released",
                ])

            // The parent's modifiers, in the parent's order (no re-derivation from the keys).
            _ = try parent.xdotool(["key", "shift+a"])
            nested.wait(for: probe, line: "keyboard.modifiers 0 0 0 0")
            let shifted = nested.settle(probe)
            #expect(
                shifted == [
                    "keyboard.key 42 pressed", "keyboard.modifiers 1 0 0 0", "keyboard.key 30 pressed",
                    "keyboard.key 42 released", "keyboard.modifiers 0 0 0 0", "keyboard.key 30 released",
                ])
        }

        /// Keys held when the parent takes the keyboard away are released in the nested
        /// client; when the keyboard comes back with the key still down, it is pressed again.
        @Test func keysAreReleasedOnParentKeyboardLeaveAndPressedOnEnter() throws {
            let parent = try Test.parentSession()
            let nested = try NestedCompositor(parent: parent)
            guard nested.waitUntilShown() else { return }
            let probe = try nested.probe(["--toplevel", "win", "300x200"])
            guard nested.wait(for: probe, line: "keyboard.enter win keys=[]") else { return }
            _ = nested.settle(probe)

            _ = try parent.xdotool(["keydown", "a"])
            nested.wait(for: probe, line: "keyboard.key 30 pressed")
            #expect(nested.settle(probe) == ["keyboard.key 30 pressed"])

            // Another client of weston: kiosk-shell shows it and gives it the keyboard, so our
            // window gets wl_keyboard.leave while 'a' is still down.
            let other = try parent.spawnClient("/usr/bin/wev")
            nested.wait(for: probe, line: "keyboard.key 30 released")
            #expect(nested.settle(probe) == ["keyboard.key 30 released"])

            // It goes away: our window gets the keyboard back, entering with 'a' held.
            other.stop()
            nested.wait(for: probe, line: "keyboard.key 30 pressed")
            #expect(nested.settle(probe) == ["keyboard.key 30 pressed"])
            _ = try parent.xdotool(["keyup", "a"])
            nested.wait(for: probe, line: "keyboard.key 30 released")
            #expect(nested.settle(probe) == ["keyboard.key 30 released"])
            #expect(nested.server.seat.modifiers == .none)
        }

        /// Frames are drawn only when the parent asks: no frame request comes while nothing is
        /// presented, and each presented frame brings exactly one.
        @Test func framesArePacedByTheParent() throws {
            let parent = try Test.parentSession()
            let nested = try NestedCompositor(parent: parent)
            guard nested.waitUntilShown(), let backend = nested.backend else { return }
            // Keep drawing: the parent keeps asking, one frame at a time.
            var before = nested.frameRequests
            for _ in 0..<5 {
                nested.dirty = true
                nested.run(until: { nested.frameRequests > before }, "a frame request")
                #expect(nested.frameRequests == before + 1)
                before = nested.frameRequests
            }
            // Nothing presented: nothing asked, however long the server runs.
            nested.drawing = false
            nested.dirty = true
            nested.run(until: { !backend.isWaitingForFrame }, "the last frame callback")
            let idle = nested.frameRequests
            let until = Date().addingTimeInterval(0.5)
            while Date() < until { nested.step() }
            #expect(nested.frameRequests == idle)
            // One present: one frame request.
            #expect(backend.present(pixels: nested.frame, width: Int(backend.width), height: Int(backend.height)))
            #expect(backend.isWaitingForFrame)
            nested.run(until: { nested.frameRequests > idle }, "the frame request after one present")
            let after = Date().addingTimeInterval(0.3)
            while Date() < after { nested.step() }
            #expect(nested.frameRequests == idle + 1)
        }

        /// The parent going away: onClose once, the devices gone (nothing held in nested
        /// clients), and the dead connection no longer wakes the server's loop.
        @Test func parentGoneClosesCleanly() throws {
            let parent = try Test.parentSession()
            let nested = try NestedCompositor(parent: parent)
            guard nested.waitUntilShown(), let backend = nested.backend else { return }
            let probe = try nested.probe(["--toplevel", "win", "300x200"])
            guard nested.wait(for: probe, line: "keyboard.enter win keys=[]") else { return }
            _ = try parent.xdotool(["keydown", "b"])
            nested.wait(for: probe, line: "keyboard.key 48 pressed")
            _ = nested.settle(probe)

            parent.weston.stop()
            nested.run(until: { nested.closes > 0 }, "onClose")
            #expect(nested.closes == 1)
            #expect(backend.connectionError != nil)
            #expect(nested.server.seat.presentCapabilities.isEmpty)
            let lines = nested.settle(probe)
            #expect(lines.contains("keyboard.key 48 released"))
            #expect(lines.last == "seat.capabilities 0")
            // The server sleeps again: ten 50 ms waits take about half a second, not zero.
            let t0 = Date()
            for _ in 0..<10 { nested.server.dispatch(timeoutMS: 50) }
            #expect(Date().timeIntervalSince(t0) > 0.4)
            #expect(!backend.present(pixels: nested.frame, width: Int(backend.width), height: Int(backend.height)))
            #expect(nested.closes == 1)
        }
    }
}
