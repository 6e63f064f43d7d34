// Debian's own Wayland clients (wev, weston-eventdemo, weston-simple-touch) on the server:
// the input the router sends them is read back from their output or their pixels.
import CWaylandServer
import Foundation
import InputRouter
import Testing

@testable import InputRouterWayland

extension ServerHarness {
    /// Dispatches until a client toplevel is mapped, and returns its node and layout frame.
    func mappedToplevel(timeout: Double = 15) -> (NodeID, Rect)? {
        let tree = server.router.tree
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            server.dispatch(timeoutMS: 10)
            for c in clients { c.poll() }
            if let n = tree.children(of: server.outputNode).first(where: {
                tree.kind(of: $0) == .toplevel && tree.isMapped($0)
            }),
                let f = tree.frame(of: n), f.width > 0
            {
                return (n, f)
            }
        }
        return nil
    }
}

@Suite(.serialized) struct RealClientTests {
    @Test
    func wevReceivesPointerAndKeys() throws {
        let h = try ServerHarness()
        let wev = try h.spawn("/usr/bin/stdbuf", ["-oL", "/usr/bin/wev"])
        let (_, frame) = try #require(
            h.mappedToplevel(), "wev never mapped a window:\n\(wev.lines.joined(separator: "\n"))")
        _ = wev.take()
        h.warp(Double(frame.x) + 10, Double(frame.y) + 20)
        h.button(.pressed)
        h.button(.released)
        h.key(30, .pressed)
        h.key(30, .released)
        let out = h.settle(wev, until: "wev to print the key release") { $0.contains("key: 38; state: 0 (released)") }
            .joined(separator: "\n")
        // wev prints xkb keycodes (evdev + 8) and the keysym its own xkb state derived
        // from the keymap we sent.
        #expect(out.contains("wl_pointer] enter: serial: "))
        #expect(out.contains("x, y: 10.000000, 20.000000"))
        #expect(out.contains("button: 272 (left), state: 1 (pressed)"))
        #expect(out.contains("button: 272 (left), state: 0 (released)"))
        #expect(out.contains("key: 38; state: 1 (pressed)\n                      sym: a            (97), utf8: 'a'"))
        #expect(out.contains("key: 38; state: 0 (released)"))
    }

    @Test
    func westonEventdemoLogsFocusButtonsAndKeys() throws {
        let h = try ServerHarness()
        let demo = try h.spawn(
            "/usr/bin/stdbuf",
            [
                "-oL", "/usr/bin/weston-eventdemo", "--log-focus", "--log-button",
                "--log-key", "--log-motion",
            ])
        let (_, frame) = try #require(
            h.mappedToplevel(), "eventdemo never mapped:\n\(demo.lines.joined(separator: "\n"))")
        _ = demo.take()
        h.warp(Double(frame.x) + Double(frame.width) / 2, Double(frame.y) + Double(frame.height) / 2)
        h.button(.pressed)
        h.button(.released)
        h.key(30, .pressed)
        h.key(30, .released)
        let out = h.settle(demo, until: "eventdemo to log the key release") {
            $0.contains("key key: 30, unicode: 97, state: released")
        }.joined(separator: "\n")
        let (cx, cy) = (frame.width / 2, frame.height / 2)
        #expect(out.contains("motion time: 1001, x: \(cx).000000, y: \(cy).000000"))
        #expect(out.contains("button time: 1002, button: 272, state: pressed, x: \(cx), y: \(cy)"))
        #expect(out.contains("button time: 1003, button: 272, state: released, x: \(cx), y: \(cy)"))
        #expect(out.contains("key key: 30, unicode: 97, state: pressed, modifiers: 0x0"))
        #expect(out.contains("key key: 30, unicode: 97, state: released, modifiers: 0x0"))
    }

    @Test
    func westonSimpleTouchDrawsWhereItWasTouched() throws {
        let h = try ServerHarness()
        // Keep a copy of each committed buffer's pixels: what the client drew.
        var pixels: [UInt32] = []
        var width = 0
        h.server.bufferCommitted = { _, buffer in
            guard let shm = wl_shm_buffer_get(buffer) else { return }
            wl_shm_buffer_begin_access(shm)
            let w = Int(wl_shm_buffer_get_width(shm))
            let hgt = Int(wl_shm_buffer_get_height(shm))
            let stride = Int(wl_shm_buffer_get_stride(shm)) / 4
            let data = wl_shm_buffer_get_data(shm)!.assumingMemoryBound(to: UInt32.self)
            pixels = (0..<hgt).flatMap { y in (0..<w).map { x in data[y * stride + x] } }
            width = w
            wl_shm_buffer_end_access(shm)
        }
        let client = try h.spawn("/usr/bin/weston-simple-touch")
        let (_, frame) = try #require(
            h.mappedToplevel(), "simple-touch never mapped:\n\(client.lines.joined(separator: "\n"))")
        h.dispatch(until: "simple-touch to commit a buffer") { width > 0 }
        let before = pixels
        let (lx, ly) = (frame.x + 100, frame.y + 80)
        let (x, y) = h.touchPoint(Double(lx), Double(ly))
        h.touch(.touchDown(slot: 0, x: x, y: y))
        h.touch(.touchUp(slot: 0))
        let at = 80 * width + 100
        h.dispatch(until: "simple-touch to draw at the touched pixel") {
            at < pixels.count && at < before.count && pixels[at] != before[at]
        }
        #expect(width > 0)
        #expect(at < pixels.count && at < before.count)
        if at < pixels.count && at < before.count {
            #expect(pixels[at] != before[at], "no change at the touched pixel: \(String(pixels[at], radix: 16))")
            #expect(pixels[at + 30] == before[at + 30], "a pixel far from the touch changed too")
        }
    }
}

@Suite(.serialized) struct FootTests {
    /// foot runs a shell reading one line; the keys the router sends become that line, typed
    /// once, the moment foot can take them.
    @Test
    func footTypesAWordIntoItsShell() throws {
        let h = try ServerHarness()
        let outFile = runtimeDirectory + "/foot-\(getpid()).txt"
        let readyFile = outFile + ".ready"
        unlink(outFile)
        unlink(readyFile)
        // The shell says when it reads; the line is written aside and renamed, so the file
        // appears whole (a plain `>` makes it empty first, and a reader may come in between).
        let script = "touch \(readyFile); read line; echo \"$line\" > \(outFile).tmp; mv \(outFile).tmp \(outFile)"
        // Its protocol log goes with a failure: what foot was sent, and what it answered.
        let foot = try h.spawn("/usr/bin/foot", ["--", "/bin/sh", "-c", script], environment: ["WAYLAND_DEBUG": "1"])
        let log = { () -> String in
            foot.poll()
            return foot.lines.suffix(200).joined(separator: "\n")
        }
        _ = try #require(h.mappedToplevel(timeout: 30), "foot never mapped:\n\(log())")
        // Ready for keys: foot enabled its text input after our zwp_text_input_v3.enter. It
        // handles events in order, and the wl_keyboard.enter and modifiers went out before
        // that enter, so foot has its keyboard focus and keymap state when the keys come.
        try #require(
            h.dispatch(until: "foot to enable its text input and its shell to run", timeout: 20) {
                let focus = h.server.seat.keyboardFirstResponder.flatMap { h.server.surface(for: $0) }
                return focus != nil && FileManager.default.fileExists(atPath: readyFile)
                    && h.server.textInput.inputs.contains { $0.focus === focus && $0.current.enabled }
            }, "\(log())")
        for key: UInt32 in [35, 18, 38, 38, 24, 28] { // h e l l o Return
            h.key(key, .pressed)
            h.key(key, .released)
        }
        try #require(
            h.dispatch(until: "foot's shell to write \(outFile)", timeout: 20) {
                FileManager.default.fileExists(atPath: outFile)
            }, "\(log())")
        let typed = try String(contentsOfFile: outFile, encoding: .utf8)
        #expect(typed == "hello\n", "\(log())")
    }
}
