// Route input in your own compositor, step 3: your loop, not the server's.
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
print("listening on \(socket)")

// The server has no loop of its own: dispatch the display's (client requests, the
// server's timers), answer frame callbacks after presenting, and flush.
while true {
    display.flushClients()
    display.dispatch(timeoutMS: 10)
    if server.hasWaitingFrameCallbacks { server.sendFrameCallbacks() }
}
