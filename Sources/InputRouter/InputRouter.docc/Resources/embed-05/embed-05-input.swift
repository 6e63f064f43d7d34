// Route input in your own compositor, step 5: input in, deliveries out.
import InputRouter
import InputRouterRecording
import InputRouterWayland

let socket = CommandLine.arguments.dropFirst().first ?? "wayland-tutorial"
let display = try WaylandDisplay()
display.offerShm()
try display.addSocket(socket)

var configuration = WaylandServer.Configuration.embedded
configuration.outputWidth = 1280
configuration.outputHeight = 720
configuration.offersShm = false
let server = try WaylandServer(display: display, configuration: configuration)
let tree = server.router.tree
print("listening on \(socket)")

let desktop = tree.createNode(
    .compositor, name: "desktop", parent: server.outputNode,
    frame: Rect(0, 0, 1280, 720))
tree.lowerToBottom(desktop)
tree.setHandler(desktop) { event in
    switch event {
    case .pointerEnter, .pointerMotion: return .handled
    case .pointerButton(let button, .pressed, let at):
        print("desktop took button \(button) at \(Int(at.x)),\(Int(at.y))")
        return .handled
    case .pointerButton(_, .released, _): return .handled
    default: return .notHandled
    }
}
server.warpPointer(to: Point(x: 640, y: 360))

// Every delivery, just before it becomes wl_pointer, wl_keyboard or wl_touch events, in
// the trace format: the router's decisions next to the input.
server.deliveryObserver = { delivery, queue in
    print("deliver: " + TraceSink.line(delivery, queue: queue, router: server.router))
}

// The input: `libinput debug-events` output (your source could be libinput itself).
// Devices go in first, with what the file says of them, so clients see the seat's
// capabilities and bind wl_pointer and wl_keyboard before any motion.
let input = try CommandLine.arguments.dropFirst(2).first.map { try DebugEventsReader.read(path: $0) }
var pending = input?.events ?? []
while let first = pending.first, case .deviceAdded = first.kind {
    server.handle(pending.removeFirst(), description: input?.descriptions[first.device])
}

while true {
    display.flushClients()
    display.dispatch(timeoutMS: 10)
    // One event per turn, once a window has mapped: the seat updates its cursor, hit-tests,
    // walks the responder chain and the server writes the deliveries to the clients.
    if !server.mappedToplevels.isEmpty, !pending.isEmpty {
        server.handle(pending.removeFirst())
    }
    if server.hasWaitingFrameCallbacks { server.sendFrameCallbacks() }
}
