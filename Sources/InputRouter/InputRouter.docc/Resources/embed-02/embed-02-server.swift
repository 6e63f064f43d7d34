// Route input in your own compositor, step 2: the server on your display.
import InputRouter
import InputRouterWayland

let socket = CommandLine.arguments.dropFirst().first ?? "wayland-tutorial"
let display = try WaylandDisplay()
display.offerShm()
try display.addSocket(socket)

// `.embedded` starts from `CompositorPolicy.minimal`, which decides nothing: no placement,
// no focus-on-click, no frame timer. The display already offers wl_shm, so the server
// must not add a second one.
var configuration = WaylandServer.Configuration.embedded
configuration.outputWidth = 1280
configuration.outputHeight = 720
configuration.offersShm = false
let server = try WaylandServer(display: display, configuration: configuration)
print("listening on \(socket); globals: \(server.globals.count)")
