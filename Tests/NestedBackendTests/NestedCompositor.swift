// The smallest nested compositor: a WaylandServer on its own socket, shown in a window of
// the parent session through NestedBackend. It draws a background and every mapped
// toplevel's committed pixels (source-over, premultiplied), and only when the parent asks
// for a frame and something changed.
import Foundation
import InputRouter
import InputRouterKeyboard
import InputRouterNested
import InputRouterRendering
import Testing

@testable import InputRouterWayland

final class NestedCompositor {
    let parent: ParentSession
    let server: WaylandServer
    /// The pixels of every commit, for drawing (Rendering's pixel policy).
    let pixels: SurfacePixels
    /// Our server's socket (absolute path).
    let socket: String
    private(set) var backend: NestedBackend?
    private(set) var resizes: [String] = []
    private(set) var frameRequests = 0
    private(set) var presented = 0
    private(set) var closes = 0
    /// The last frame presented.
    private(set) var frame: [UInt32] = []
    var dirty = true
    /// While false, frames the parent asks for are not drawn (pacing tests).
    var drawing = true
    private var frameWanted = false
    private var clients: [Child] = []
    static let background: UInt32 = 0xff20_3040

    init(parent: ParentSession, connect: Bool = true) throws {
        self.parent = parent
        var config = WaylandServer.Configuration()
        config.outputWidth = Int32(parent.outputWidth)
        config.outputHeight = Int32(parent.outputHeight)
        config.keyboard = .init(keymap: .names(.init(rules: "evdev", model: "pc105", layout: "us")), compose: false)
        server = try WaylandServer(configuration: config)
        pixels = SurfacePixels(server: server)
        socket = privateDirectory + "/" + uniqueName("nested")
        try server.addSocket(socket)
        // Any commit may change what is shown.
        let previous = server.bufferCommitted
        server.bufferCommitted = { [unowned self] surface, buffer in
            previous?(surface, buffer)
            self.dirty = true
        }
        if connect { try connectBackend() }
    }

    deinit { for c in clients { c.stop() } }

    func connectBackend() throws {
        let b = try NestedBackend(server: server, display: parent.socket)
        b.onResize = { [unowned self] w, h in
            resizes.append("\(w)x\(h)")
            dirty = true
        }
        b.onFrame = { [unowned self] in
            frameRequests += 1
            frameWanted = true
            drawIfWanted()
        }
        b.onClose = { [unowned self] in closes += 1 }
        b.onWarning = { Issue.record("backend warning: \($0)") }
        backend = b
    }

    /// A client of our server.
    func spawn(_ executable: String, _ arguments: [String]) throws -> Child {
        let env = ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": privateDirectory, "WAYLAND_DISPLAY": socket]
        let c = try Child(executable, arguments, environment: env)
        clients.append(c)
        return c
    }

    func probe(_ arguments: [String]) throws -> Child {
        try spawn(productsDirectory + "/wl-probe", arguments)
    }

    /// Runs the server (and with it the parent connection) for a moment.
    func step() {
        server.dispatch(timeoutMS: 5)
        for c in clients { c.poll() }
        drawIfWanted()
    }

    /// Runs until `done()` or the timeout; false (and an issue with `what`) on timeout.
    @discardableResult
    func run(
        until done: () -> Bool, timeout: Double = 20, _ what: @autoclosure () -> String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if done() { return true }
            step()
        }
        if done() { return true }
        Issue.record(
            "timed out waiting for \(what())\nweston:\n\(parent.weston.output.suffix(3000))",
            sourceLocation: sourceLocation)
        return false
    }

    /// Runs until `client` printed `line` (after its mark).
    @discardableResult
    func wait(for client: Child, line: String, timeout: Double = 20, sourceLocation: SourceLocation = #_sourceLocation)
        -> Bool
    {
        run(
            until: { client.lines[client.mark...].contains(line) }, timeout: timeout,
            "\(client.name) to print \"\(line)\"; it printed:\n\(client.output)", sourceLocation: sourceLocation)
    }

    /// Runs until every client answered a ping sent now (the server's barrier,
    /// Server+Ping.swift), so each has handled all the server sent it, then returns the
    /// client's new lines. (Was: until it printed nothing for 300 ms, which a loaded
    /// machine outlasts in the middle of a burst.)
    func settle(_ client: Child, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        let barrier = server.barrier()
        run(until: { barrier.isPassed }, "the clients' pongs: \(barrier.waiting)", sourceLocation: sourceLocation)
        for c in clients { c.poll() }
        return client.take()
    }

    /// The backend's window is up: configured, drawn once and shown by the parent (the
    /// first frame's callback came back), with the parent's pointer and keyboard present.
    func waitUntilShown(sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        run(
            until: {
                guard let b = backend else { return false }
                return b.isConfigured && presented >= 1 && frameRequests >= 2 && b.adoptedKeymapCount >= 1
                    && server.seat.presentCapabilities.isSuperset(of: [.pointer, .keyboard])
            }, "the nested window to be shown", sourceLocation: sourceLocation)
    }

    // MARK: Drawing

    private func drawIfWanted() {
        guard let b = backend, frameWanted, dirty, drawing else { return }
        let w = Int(b.width)
        let h = Int(b.height)
        var pixels = [UInt32](repeating: Self.background, count: w * h)
        let tree = server.router.tree
        for node in tree.children(of: server.outputNode) where tree.kind(of: node) == .toplevel && tree.isMapped(node) {
            guard let f = tree.frame(of: node), let image = self.pixels.image(of: node) else { continue }
            for y in 0..<image.height {
                let ty = Int(f.y) + y
                guard ty >= 0 && ty < h else { continue }
                for x in 0..<image.width {
                    let tx = Int(f.x) + x
                    guard tx >= 0 && tx < w else { continue }
                    pixels[ty * w + tx] = Self.over(image.pixels[y * image.width + x], pixels[ty * w + tx])
                }
            }
        }
        if b.present(pixels: pixels, width: w, height: h) {
            frame = pixels
            presented += 1
            frameWanted = false
            dirty = false
        }
    }

    /// Porter-Duff source-over on premultiplied ARGB8888.
    static func over(_ s: UInt32, _ d: UInt32) -> UInt32 {
        let inverse = 255 - (s >> 24)
        var out: UInt32 = 0
        for shift in stride(from: 0, through: 24, by: 8) {
            let c = ((s >> UInt32(shift)) & 0xff) + (((d >> UInt32(shift)) & 0xff) * inverse + 127) / 255
            out |= min(c, 255) << UInt32(shift)
        }
        return out
    }

    /// The colour we presented at a window pixel, as the X screen should show it.
    func presentedPixel(x: Int, y: Int) -> UInt32 { frame[y * Int(backend!.width) + x] & 0x00ff_ffff }
}
