// Route input in your own compositor, step 4: a node of your own in the scene.
import InputRouter
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

// The desktop: a compositor node under every window. It hit-tests and takes part in the
// responder chain like a client surface; a press on no window ends here.
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
    default: return .notHandled // passes to the next responder
    }
}
// The cursor starts at the layout's origin: put it in the middle of the output.
server.warpPointer(to: Point(x: 640, y: 360))

while true {
    display.flushClients()
    display.dispatch(timeoutMS: 10)
    if server.hasWaitingFrameCallbacks { server.sendFrameCallbacks() }
}
