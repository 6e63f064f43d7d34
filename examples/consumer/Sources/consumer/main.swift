// A few lines against the public API of three products, printing what a user would check.
import InputRouter
import InputRouterKeyboard
import InputRouterWayland

// The core: a window of a client's on an output, a mouse, and a motion onto the window.
let router = Router()
let seat = router.addSeat(name: "seat0")
let output = router.tree.createNode(.output, name: "DP-1", frame: Rect(0, 0, 1920, 1080))
let foot = router.addClient(name: "foot")
seat.setBound([.pointer, .keyboard], for: foot, true)
_ = router.tree.createNode(.toplevel, name: "foot", client: foot, parent: output, frame: Rect(100, 100, 800, 600))
seat.handle(InputEvent(time: 1000, device: DeviceID(1), .deviceAdded([.pointer])))
seat.handle(
    InputEvent(
        time: 2000, device: DeviceID(1), .pointerMotion(dx: 150, dy: 120, unacceleratedDX: 150, unacceleratedDY: 120)))
for delivery in router.queue.deliveries {
    print(TraceSink.line(delivery, queue: router.queue, router: router))
}
router.queue.removeAll()

// The keyboard: the US layout's KEY_A (evdev code 30) types "a".
let keyboard = try KeyboardConfiguration(keymap: .names(RuleNames(layout: "us"))).makeState()
print("KEY_A types \"\(keyboard.process(key: 30, state: .pressed).text)\"")

// The Wayland layer on a display of our own, with the embedder's configuration.
let display = try WaylandDisplay()
let server = try WaylandServer(display: display, configuration: .embedded)
let offered = Set(server.globals.map(\.interface))
print("offers wl_seat: \(offered.contains("wl_seat")), xdg_wm_base: \(offered.contains("xdg_wm_base"))")
