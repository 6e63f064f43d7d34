// ir-compositor as a user runs it nested: a window of a real weston (x11 backend on Xvfb),
// real clients started inside it, input typed and clicked into Xvfb with xdotool.
//
// Geometry: kiosk-shell makes the compositor's window fullscreen on weston's 1024×768
// output at the X screen's origin, so X coordinates are the nested layout's. The first
// window asks for server-side decorations: its container is at (40, 40), its surface 24
// pixels lower.
import Foundation
import Testing

extension WithParentSession {
    @Suite struct CompositorNestedTests {
        /// Starts ir-compositor nested in `parent` with `arguments`.
        func compositor(_ parent: ParentSession, _ arguments: [String]) throws -> Child {
            var env = parent.clientEnvironment
            env["PATH"] = "/usr/bin:/bin"
            return try Child(
                productsDirectory + "/ir-compositor",
                ["--backend", "nested", "--socket", uniqueName("nested")] + arguments, environment: env)
        }

        func wait(_ child: Child, timeout: Double = 20, until done: (String) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            var seen = 0
            while Date() < deadline {
                child.poll()
                while seen < child.lines.count {
                    if done(child.lines[seen]) { return true }
                    seen += 1
                }
                usleep(20_000)
            }
            Issue.record("timed out; ir-compositor said:\n\(child.output)")
            return false
        }

        @Test func probeInsideTheNestedCompositorGetsXInput() throws {
            let parent = try Test.parentSession()
            let comp = try compositor(
                parent, ["--client", productsDirectory + "/wl-probe --toplevel win 300x200 --ssd"])
            defer { comp.stop() }
            guard wait(comp, until: { $0 == "client 1 | keyboard.enter win keys=[]" }) else { return }
            // The pointer reaches the window once weston shows it: the probe's colour for "win"
            // below the title bar is on the X screen.
            guard parent.waitForPixel(x: 100, y: 150, 0xedc948) else { return }
            _ = try parent.xdotool(["mousemove", "90", "110"])
            guard wait(comp, until: { $0 == "client 1 | pointer.enter win 50.00 46.00" }) else { return }
            _ = try parent.xdotool(["click", "1"])
            guard wait(comp, until: { $0 == "client 1 | pointer.button 272 released" }) else { return }
            _ = try parent.xdotool(["type", "hi"])
            guard wait(comp, until: { $0 == "client 1 | keyboard.key 23 released" }) else { return }
            let lines = comp.lines
            #expect(lines.contains("client 1 | pointer.button 272 pressed"))
            #expect(lines.contains("client 1 | keyboard.key 35 pressed"))
            #expect(lines.contains("client 1 | keyboard.key 23 pressed"))
            // The window is still on the X screen.
            #expect(parent.screenPixel(x: 100, y: 150) == 0xedc948)
        }

        @Test
        func footTypesAWordInsideTheNestedCompositor() throws {
            let parent = try Test.parentSession()
            let file = privateDirectory + "/" + uniqueName("foot") + ".txt"
            let ready = file + ".ready"
            let comp = try compositor(
                parent,
                [
                    "--", "/usr/bin/foot", "--", "/bin/sh", "-c",
                    "touch \(ready); read line; echo \"$line\" > \(file)",
                ])
            defer { comp.stop() }
            // foot takes the typing once its shell waits in `read` and its window is on the X
            // screen: foot's background (111111 by default) where the keys will be typed.
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline, !FileManager.default.fileExists(atPath: ready) {
                comp.poll()
                usleep(20_000)
            }
            #expect(
                FileManager.default.fileExists(atPath: ready),
                "foot's shell never ran; ir-compositor said:\n\(comp.output)")
            guard parent.waitForPixel(x: 200, y: 200, 0x111111) else { return }
            _ = try parent.xdotool(["mousemove", "200", "200"])
            _ = try parent.xdotool(["type", "--delay", "50", "hello"])
            _ = try parent.xdotool(["key", "Return"])
            let end = Date().addingTimeInterval(15)
            while Date() < end, !FileManager.default.fileExists(atPath: file) { usleep(50_000) }
            let typed = try? String(contentsOfFile: file, encoding: .utf8)
            #expect(typed == "hello\n", "ir-compositor said:\n\(comp.output)")
        }
    }
}

extension ParentSession {
    /// Polls the X screen until the pixel at (x, y) is `color` (0xRRGGBB); false, with an
    /// issue naming what it was, after `timeout`.
    func waitForPixel(
        x: Int, y: Int, _ color: UInt32, timeout: Double = 20,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if screenPixel(x: x, y: y) == color { return true }
            usleep(20_000)
        }
        let seen = screenPixel(x: x, y: y).map { String($0, radix: 16) } ?? "unreadable"
        Issue.record(
            "the X screen at \(x),\(y) is \(seen), not \(String(color, radix: 16)), after \(timeout) s",
            sourceLocation: sourceLocation)
        return false
    }
}
