// ir-embed: InputRouter inside a compositor that is not ours. The tinywl counterpart.
//
// `examples/compositor` lets the library run everything. This program is what a compositor
// author with their own display, loop and renderer writes: it creates the `wl_display`,
// hands it to a `WaylandServer` that only adds the protocol to it, starts from the library's
// minimal policy (which decides nothing), and does by hand, visibly, what a policy would hide:
//
//   input event in → hit-test (what is under the cursor) → responder chain (who may take
//   it: the surface, its parents, its client, the seat) → deliveries out (protocol events
//   written by the server's protocol pieces) → our own focus, placement and pixman drawing.
//
// Read it top to bottom: options, the display, the server, the scene, input, drawing, the
// loop, teardown. Run headless:
//
//   ir-embed --socket wayland-embed --input debug-events:FILE --windows 1 --exit-after-input
//   WAYLAND_DISPLAY=wayland-embed wl-probe --toplevel win 200x100
import CPixman
import CWaylandServer
import Foundation
import InputRouter
import InputRouterRecording
import InputRouterWayland

// MARK: Options

struct Options {
    var socket = "wayland-embed"
    var width: Int32 = 640, height: Int32 = 480
    var input: String?
    var windows = 0
    var exitAfterInput = false
    var screenshot: String?
}

/// One line of output, written at once (also into a pipe: a test reads it as it comes).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("ir-embed: \(message)\n".utf8))
    exit(2)
}

let usage = """
    usage: ir-embed [--socket NAME] [--size WxH] [--input replay:FILE.yml | debug-events:FILE]
                    [--windows N] [--exit-after-input] [--screenshot FILE.ppm]
      --input      a `libinput record` file or `libinput debug-events` output, played as fast
                   as the clients read it, once --windows N toplevels have mapped
      --screenshot on exit, what the output shows, drawn with pixman (binary PPM)
    """

var options = Options()
var arguments = CommandLine.arguments.dropFirst()
@MainActor func value(_ flag: String) -> String {
    guard let v = arguments.popFirst() else { fail("\(flag) needs a value") }
    return v
}
while let a = arguments.popFirst() {
    switch a {
    case "--socket": options.socket = value(a)
    case "--size":
        let p = value(a).split(separator: "x").compactMap { Int32($0) }
        guard p.count == 2, p[0] > 0, p[1] > 0 else { fail("--size wants WxH") }
        (options.width, options.height) = (p[0], p[1])
    case "--input": options.input = value(a)
    case "--windows":
        guard let n = Int(value(a)), n >= 0 else { fail("--windows wants a number") }
        options.windows = n
    case "--exit-after-input": options.exitAfterInput = true
    case "--screenshot": options.screenshot = value(a)
    case "--help", "-h":
        say(usage)
        exit(0)
    default: fail("unknown option \(a)\n\(usage)")
    }
}

/// The input to play: every event of the file, in order, and what the file says of each
/// device (handed to the seat with its `deviceAdded`). Devices come first (see below).
func loadInput(_ spec: String) -> (events: [InputEvent], descriptions: [DeviceID: DeviceDescription]) {
    do {
        if spec.hasPrefix("replay:") {
            let recording = try RecordingReader.read(path: String(spec.dropFirst(7)))
            return (recording.events, recording.descriptions)
        }
        if spec.hasPrefix("debug-events:") {
            let log = try DebugEventsReader.read(path: String(spec.dropFirst(13)))
            return (log.events, log.descriptions)
        }
    } catch { fail("\(error)") }
    fail("unknown input \(spec) (replay:FILE, debug-events:FILE)")
}

// MARK: The compositor

/// Everything the compositor holds, like tinywl's `struct tinywl_server`.
final class EmbedCompositor {
    let display: WaylandDisplay
    let server: WaylandServer
    let width: Int32, height: Int32
    var tree: SurfaceTree { server.router.tree }
    var seat: Seat { server.seat }
    /// What each client surface shows: our own copy of its last buffer, as a pixman image.
    var images: [NodeID: OpaquePointer] = [:]
    var pending: [InputEvent]
    /// What the input file says of its devices, by id.
    let descriptions: [DeviceID: DeviceDescription]
    var running = true

    init(
        display: WaylandDisplay, options: Options,
        input: (events: [InputEvent], descriptions: [DeviceID: DeviceDescription])
    ) throws {
        self.display = display
        (width, height) = (options.width, options.height)
        pending = input.events
        descriptions = input.descriptions

        // The server on our display. `.embedded` starts from `CompositorPolicy.minimal`:
        // no placement, no decorations, no focus-on-click, no frame timer, no pixel copies.
        // We offer wl_shm ourselves (below), so the server must not add a second one.
        var configuration = WaylandServer.Configuration.embedded
        configuration.outputWidth = options.width
        configuration.outputHeight = options.height
        configuration.offersShm = false
        // The one policy decision we take, written here: windows tile in a grid of
        // 320x240 cells, each in the first free cell; a cell frees when its window closes.
        let grid = GridPlacement()
        configuration.policy.placeToplevel = { _, toplevel, usable in grid.place(toplevel, in: usable) }
        configuration.policy.toplevelClosed = { _, toplevel in grid.free(toplevel) }
        server = try WaylandServer(display: display, configuration: configuration)

        buildScene()
        focusOnClick()
        watchDeliveries()
        keepPixels()
        // Devices first, as a real seat has them before any client connects: a client
        // binds wl_pointer and wl_keyboard when it sees the seat's capabilities, and
        // events sent before it bound them would reach nobody.
        while let first = pending.first, case .deviceAdded = first.kind {
            server.handle(pending.removeFirst(), description: descriptions[first.device])
        }
    }

    // MARK: Placement

    /// Two columns of 320x240 cells from the usable area's corner (20 pixels in). The
    /// policy sees each toplevel's node, so a closed window's cell is found again.
    final class GridPlacement {
        var cells: [NodeID?] = []

        func place(_ toplevel: ToplevelInfo, in usable: Rect) -> (x: Int32, y: Int32) {
            let cell = cells.firstIndex(of: nil) ?? cells.count
            if cell == cells.count { cells.append(toplevel.node) } else { cells[cell] = toplevel.node }
            return (usable.x + Int32(cell % 2) * 320 + 20, usable.y + Int32(cell / 2) * 240 + 20)
        }

        func free(_ toplevel: ToplevelInfo) {
            if let cell = cells.firstIndex(of: toplevel.node) { cells[cell] = nil }
        }
    }

    // MARK: The scene

    /// A compositor node of our own under every window: the desktop. It is where the
    /// responder chain ends for a press on no window. Client toplevels become children of
    /// the server's window layer (`outputNode`) as they map, above it.
    func buildScene() {
        let desktop = tree.createNode(
            .compositor, name: "desktop", parent: server.outputNode,
            frame: Rect(0, 0, width, height))
        tree.lowerToBottom(desktop)
        // A press nothing above took: clear the keyboard focus, the way clicking the
        // desktop does in most compositors. Handling the enter makes the desktop the
        // pointer focus, so its buttons come here.
        tree.setHandler(desktop) { [unowned self] event in
            switch event {
            case .pointerEnter, .pointerMotion: return .handled
            case .pointerButton(let button, .pressed, let at):
                say("embed: desktop took button \(button) at \(Int(at.x)),\(Int(at.y)); no window has the keyboard")
                _ = self.seat.setKeyboardFocus(nil)
                return .handled
            case .pointerButton(_, .released, _): return .handled
            default: return .notHandled
            }
        }
    }

    // MARK: Deliveries out

    /// The router decides, the server's protocol pieces send. The observer sees each
    /// delivery just before it becomes wl_pointer/wl_keyboard/wl_touch events; we print it
    /// in the trace format (docs/trace.md) so a reader sees the decisions next to the input.
    func watchDeliveries() {
        server.deliveryObserver = { [unowned self] delivery, queue in
            say("deliver: " + TraceSink.line(delivery, queue: queue, router: self.server.router))
        }
    }

    // MARK: Input in

    /// One event from our source. The seat does the routing; we print where a press goes
    /// (the hit-test and the responder chain it will walk), then hand the event over.
    func route(_ event: InputEvent) {
        if case .pointerButton(_, .pressed) = event.kind, let hit = tree.hitTest(seat.cursor) {
            let chain = server.router.responderChain(from: .node(hit.node), seat: seat.id)
            say(
                "embed: press on \(describe(hit.node)) at \(Int(hit.local.x)),\(Int(hit.local.y)); chain: "
                    + chain.map { if case .node(let n) = $0 { describe(n) } else { "\($0)" } }.joined(separator: " → "))
        }
        // seat → hit-test / focus owner → responder chain → deliveries sent; a device added
        // later comes with what the file says of it.
        if case .deviceAdded = event.kind { return server.handle(event, description: descriptions[event.device]) }
        server.handle(event)
    }

    /// The focus policy we chose (focus follows click), tinywl's way: a press on a window
    /// gives its toplevel the keyboard and raises it. Asked in the press's capture phase,
    /// before the press is delivered, so the client gets its keyboard enter first and the
    /// press is the newest serial it saw: GTK cites it to start a drag or open a menu.
    func focusOnClick() {
        server.beforePress = { [unowned self] node, seat in
            guard let top = toplevel(of: node), seat.keyboardFirstResponder.flatMap(toplevel(of:)) != top else {
                return
            }
            server.activate(top, seat: seat) // wl_keyboard.leave/enter and raise now; configure(activated) after
        }
    }

    /// The toplevel a node belongs to: up through subsurfaces and popups (the responder
    /// chain in miniature, as tinywl's desktop_toplevel_at walks to its scene tree).
    func toplevel(of node: NodeID) -> NodeID? {
        var n: NodeID? = node
        while let c = n, tree.kind(of: c) != .toplevel { n = tree.parent(of: c) }
        return n
    }

    func describe(_ node: NodeID) -> String {
        let name = server.toplevelTitle(of: node)?.title ?? tree.name(of: node) ?? "?"
        return "\(tree.kind(of: node).map { "\($0)" } ?? "node") \"\(name)\""
    }

    // MARK: Drawing with pixman

    /// The server releases each buffer right after its commit; before it does, we copy the
    /// pixels into an image we own, keyed by the surface's node.
    func keepPixels() {
        server.bufferCommitted = { [unowned self] surface, buffer in
            guard let node = self.server.node(ofSurfaceResource: surface), let shm = wl_shm_buffer_get(buffer) else {
                return
            }
            let w = wl_shm_buffer_get_width(shm)
            let h = wl_shm_buffer_get_height(shm)
            let format =
                wl_shm_buffer_get_format(shm) == WL_SHM_FORMAT_XRGB8888.rawValue ? PIXMAN_x8r8g8b8 : PIXMAN_a8r8g8b8
            wl_shm_buffer_begin_access(shm)
            defer { wl_shm_buffer_end_access(shm) }
            guard let data = wl_shm_buffer_get_data(shm),
                let source = pixman_image_create_bits(
                    format, w, h, data.assumingMemoryBound(to: UInt32.self),
                    wl_shm_buffer_get_stride(shm)),
                let copy = pixman_image_create_bits(PIXMAN_a8r8g8b8, w, h, nil, 0)
            else { return }
            pixman_image_composite32(PIXMAN_OP_SRC, source, nil, copy, 0, 0, 0, 0, 0, 0, w, h)
            pixman_image_unref(source)
            if let old = self.images[node] { pixman_image_unref(old) }
            self.images[node] = copy
        }
    }

    /// The output, bottom to top: background, then every visible client surface OVER what
    /// is below, at its layout position. Children below a surface come before it.
    func render() -> OpaquePointer {
        let output = pixman_image_create_bits(PIXMAN_a8r8g8b8, width, height, nil, 0)!
        var background = pixman_color_t(red: 0x2020, green: 0x2828, blue: 0x3030, alpha: 0xffff)
        var all = pixman_rectangle16_t(x: 0, y: 0, width: UInt16(width), height: UInt16(height))
        pixman_image_fill_rectangles(PIXMAN_OP_SRC, output, &background, 1, &all)
        func paint(_ node: NodeID) {
            guard tree.isVisible(node) else { return }
            for child in tree.childrenBelow(of: node) { paint(child) }
            if let image = images[node], let at = tree.layoutPosition(of: node) {
                pixman_image_composite32(
                    PIXMAN_OP_OVER, image, nil, output, 0, 0, 0, 0, Int32(at.x), Int32(at.y),
                    pixman_image_get_width(image), pixman_image_get_height(image))
            }
            for child in tree.childrenAbove(of: node) { paint(child) }
        }
        paint(server.outputNode)
        return output
    }

    func writeScreenshot(_ path: String) {
        let image = render()
        defer { pixman_image_unref(image) }
        let w = Int(width)
        let h = Int(height)
        let pixels = pixman_image_get_data(image)!
        var bytes = Array("P6\n\(w) \(h)\n255\n".utf8)
        for i in 0..<(w * h) {
            let p = pixels[i]
            bytes += [
                UInt8(truncatingIfNeeded: p >> 16), UInt8(truncatingIfNeeded: p >> 8), UInt8(truncatingIfNeeded: p),
            ]
        }
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { fail("cannot write \(path)") }
        say("embed: wrote \(path)")
    }

    // MARK: The loop

    /// Our loop, not the server's: we dispatch the display's event loop (client requests,
    /// the server's timers), feed input, answer frame callbacks, flush. The server needs
    /// nothing else from us.
    func run(windows: Int, exitAfterInput: Bool) {
        var finishedAt: Date?
        while running {
            display.flushClients()
            // Client requests: the server handles each, and sends what it changed (a
            // window mapped under the cursor gets its enter) before the next is read.
            display.dispatch(timeoutMS: 10)
            // Input waits until the scene the input was recorded for is there.
            if server.mappedToplevels.count >= windows {
                // One event per turn: clients read and answer between events, as they would
                // at a person's pace.
                if !pending.isEmpty { route(pending.removeFirst()) }
                if pending.isEmpty, exitAfterInput {
                    finishedAt = finishedAt ?? Date()
                    // Let the clients read what was sent, then stop.
                    if Date().timeIntervalSince(finishedAt!) > 0.3 { running = false }
                }
            }
            // Frame callbacks: no timer of the library's; we "present" every turn.
            if server.hasWaitingFrameCallbacks { server.sendFrameCallbacks() }
        }
        display.flushClients()
    }

    func releaseImages() {
        for image in images.values { pixman_image_unref(image) }
        images.removeAll()
    }
}

// MARK: main

let input = options.input.map(loadInput) ?? ([], [:])

do {
    // The display is ours: we create it, listen on it and offer wl_shm on it. The server
    // holds it while it lives; it is destroyed when both of us let it go.
    let display: WaylandDisplay
    do {
        display = try WaylandDisplay()
        display.offerShm()
        try display.addSocket(options.socket)
    } catch { fail("\(error)") }
    let compositor: EmbedCompositor
    do { compositor = try EmbedCompositor(display: display, options: options, input: input) } catch { fail("\(error)") }
    say("embed: listening on \(options.socket), output \(options.width)x\(options.height)")
    signal(SIGTERM) { _ in exit(0) }
    compositor.run(windows: options.windows, exitAfterInput: options.exitAfterInput)
    if let path = options.screenshot { compositor.writeScreenshot(path) }
    compositor.releaseImages()
}
// The server went with the compositor (its globals gone, its clients disconnected), and
// the display with the last reference to it.
say("embed: done")
