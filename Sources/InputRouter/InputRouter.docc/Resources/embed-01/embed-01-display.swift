// Route input in your own compositor, step 1: the display is yours.
import InputRouter
import InputRouterWayland

// A wl_display and its event loop, owned by this program. It offers wl_shm itself and
// listens on a socket of its own name.
let socket = CommandLine.arguments.dropFirst().first ?? "wayland-tutorial"
let display = try WaylandDisplay()
display.offerShm()
try display.addSocket(socket)
print("listening on \(socket)")
