// The nested backend: the compositor runs as one window of the Wayland session it was
// started in. The parent's `wl_seat` is an input source like libinput (its events become
// the core's `InputEvent` values), the window is the output (`present` shows a frame in it),
// and the parent's keymap and modifiers are adopted as they are. See docs/nested.md.
//
// Everything runs on the server's thread: the parent connection's fd sits in the
// WaylandServer's event loop, and each time it is readable the backend reads, dispatches
// and flushes without blocking (`dispatch()`).
//
// Files: this one (connection, lifecycle), NestedBackend+Window.swift (the xdg_toplevel,
// frame pacing, shm buffers), NestedBackend+Input.swift (pointer, keyboard, touch),
// AdoptedKeyboard.swift (the parent's keymap and modifiers).
import CNestedShim
import CWaylandClient
import CWaylandInterfaces
import CWaylandProtocolsClient
import Foundation
import InputRouter
import InputRouterKeyboard
import InputRouterWayland

/// Why the backend could not connect to the parent or set up its window.
public struct NestedBackendError: Error, CustomStringConvertible {
    /// What went wrong, naming the display or the missing global.
    public let description: String
}

/// The compositor as a window of the Wayland session it runs in: the parent's `wl_seat` is
/// its input source, an `xdg_toplevel` its output, the parent's frame callbacks its pacing.
/// Its fd joins the server's loop; each parent event costs one translation into an
/// `InputEvent` and then the server's routing (docs/nested.md).
public final class NestedBackend {
    /// The window's title, default size, device ids and cursor.
    public struct Configuration {
        /// The parent's `xdg_toplevel` title and app id.
        public var title = "InputRouter"
        /// The app id the parent groups the window by (its `.desktop` name).
        public var appID = "inputrouter"
        /// The window size when the parent leaves it to us (a 0×0 configure).
        public var defaultWidth: Int32 = 1024
        /// The height for a 0×0 configure, with `defaultWidth`.
        public var defaultHeight: Int32 = 640
        /// The parent's seat devices become DeviceID(firstDeviceID) (pointer),
        /// firstDeviceID + 1 (keyboard) and firstDeviceID + 2 (touch). The core indexes
        /// devices by number: keep it small, and apart from other sources' devices.
        public var firstDeviceID: UInt32 = 1
        /// Hide the parent's cursor over the window (the compositor draws its own).
        public var hideParentCursor = true
        /// The defaults: "InputRouter", 1024×640, devices from 1, the parent's cursor hidden.
        public init() {}
    }

    /// The configuration it was made with.
    public let configuration: Configuration
    /// The compositor the input goes to; its keyboard is replaced by the parent's.
    public let server: WaylandServer

    /// Where input events go, each `deviceAdded` with its device's description (nil for
    /// every other event). By default `server.handle(_:description:)`; a compositor may
    /// look at them first. Nothing is delivered before the server's loop runs, so it can be set after init. Modifier changes are pushed into the server's seat directly (they are state,
    /// not events): a sink that delays events should deliver them before returning.
    public var sink: (_ event: InputEvent, _ deviceAdded: DeviceDescription?) -> Void

    /// The parent's configure gave the window a new size (also on the first configure): the
    /// output should become `width`×`height` logical pixels.
    public var onResize: ((_ width: Int32, _ height: Int32) -> Void)?
    /// The parent is ready for the next frame: draw, then call `present`. Called once
    /// after the first configure, then once per frame callback of a presented frame.
    public var onFrame: (() -> Void)?
    /// The parent asked the window to close (`xdg_toplevel.close`), or the connection to
    /// the parent was lost (`connectionError` is then set). Exit cleanly.
    public var onClose: (() -> Void)?
    /// A recoverable problem (a keymap the backend could not compile, a buffer it could
    /// not allocate). Defaults to printing on stderr.
    public var onWarning: (String) -> Void = { message in
        FileHandle.standardError.write(Data("NestedBackend: \(message)\n".utf8))
    }

    /// The window's size in logical pixels, as the parent last configured it.
    public internal(set) var width: Int32
    /// The window's height, with `width`.
    public internal(set) var height: Int32
    /// Whether the first configure was acknowledged (a frame may be presented).
    public internal(set) var isConfigured = false
    /// A frame callback is pending: the parent has not yet asked for the next frame.
    public internal(set) var isWaitingForFrame = false
    /// Why the parent connection ended, once it did (nil while it works).
    public internal(set) var connectionError: String?
    /// How many keymaps the parent sent and were adopted.
    public internal(set) var adoptedKeymapCount = 0

    // The parent connection and its globals.
    let display: OpaquePointer
    var registry: OpaquePointer?
    var compositor: OpaquePointer?
    var shm: OpaquePointer?
    var wmBase: OpaquePointer?
    var seat: OpaquePointer?
    var seatGlobal: (name: UInt32, version: UInt32)?

    // The window.
    var surface: OpaquePointer?
    var xdgSurface: OpaquePointer?
    var toplevel: OpaquePointer?
    var pendingSize: (Int32, Int32) = (0, 0)
    var frameCallback: OpaquePointer?
    var hasPresented = false
    var buffers: [ShmBuffer] = []

    // Input devices of the parent's seat and what they hold.
    var pointer: OpaquePointer?
    var keyboard: OpaquePointer?
    var touch: OpaquePointer?
    var pointerVersion: UInt32 = 0
    var heldButtons: [UInt32] = []
    var heldKeys: [UInt32] = []
    var activeTouches: [Int32] = []
    var pendingAxis = PendingAxis()
    var lastTime: UInt64 = 0
    var adoptedKeyboard: AdoptedKeyboard?
    var composeTable: ComposeTable?

    /// Listener tables on the C heap: libwayland keeps their addresses for the proxies' lives.
    let listeners = Listeners()
    /// The parent connection in the server's event loop.
    private var watch: FDWatch?

    /// Connects to the parent (`display`: a socket name or path; nil means `WAYLAND_DISPLAY`),
    /// creates the window and puts the connection into `server`'s event loop. Nothing is
    /// dispatched yet: set the callbacks, then run the server; the first configure, the
    /// seat's devices and the keymap arrive from there.
    public init(server: WaylandServer, display name: String? = nil, configuration: Configuration = Configuration())
        throws
    {
        self.server = server
        self.configuration = configuration
        width = configuration.defaultWidth
        height = configuration.defaultHeight
        sink = { [unowned server] event, description in server.handle(event, description: description) }
        guard let display = wl_display_connect(name) else {
            let shown = name ?? ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] ?? "wayland-0"
            throw NestedBackendError(
                description: "cannot connect to the parent compositor at \(shown): \(String(cString: strerror(errno)))")
        }
        self.display = display
        // From here on a throw runs deinit, which disconnects.

        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, listeners.registry, selfPointer)
        guard wl_display_roundtrip(display) >= 0 else {
            throw NestedBackendError(description: "the parent compositor closed the connection")
        }
        var missing: [String] = []
        if compositor == nil { missing.append("wl_compositor v4") }
        if shm == nil { missing.append("wl_shm") }
        if wmBase == nil { missing.append("xdg_wm_base") }
        guard missing.isEmpty else {
            throw NestedBackendError(description: "the parent compositor lacks \(missing.joined(separator: ", "))")
        }
        bindSeat()
        createWindow()
        _ = wl_display_flush(display)
        watch = server.watchReadable(fd: wl_display_get_fd(display)) { [weak self] in self?.dispatch() }
    }

    deinit {
        watch?.remove()
        destroyProxies()
        wl_display_disconnect(display)
    }

    var selfPointer: UnsafeMutableRawPointer { CallbackContext.unretained(self) }

    /// The parent connection's fd (it is already in the server's event loop).
    public var fd: Int32 { wl_display_get_fd(display) }

    // MARK: Dispatching

    /// Reads what the parent sent, handles it and flushes our requests, without blocking:
    /// libwayland's prepare_read / read_events / dispatch_pending sequence (reading uses
    /// MSG_DONTWAIT, so a spurious wakeup reads nothing). The server's event loop calls it
    /// when the fd is readable; calling it at other times is harmless.
    public func dispatch() {
        guard connectionError == nil else { return }
        while wl_display_prepare_read(display) != 0 {
            // Events already queued (read by an earlier roundtrip) go first.
            guard wl_display_dispatch_pending(display) >= 0 else { return connectionLost() }
        }
        _ = wl_display_flush(display)
        guard wl_display_read_events(display) >= 0 else { return connectionLost() }
        guard wl_display_dispatch_pending(display) >= 0 else { return connectionLost() }
        flush()
    }

    /// Sends our queued requests. A full socket (EAGAIN) keeps them queued for the next call.
    func flush() {
        guard connectionError == nil else { return }
        if wl_display_flush(display) < 0, errno != EAGAIN { connectionLost() }
    }

    /// The parent went away or sent a protocol error: whatever the nested clients hold is
    /// released (the devices are removed), the fd leaves the event loop (a socket at EOF
    /// would wake it forever), `onClose` runs.
    func connectionLost() {
        guard connectionError == nil else { return }
        var interface: UnsafePointer<wl_interface>?
        var id: UInt32 = 0
        let code = wl_display_get_protocol_error(display, &interface, &id)
        if let interface {
            connectionError = "protocol error \(code) on \(String(cString: interface.pointee.name))@\(id)"
        } else {
            let e = wl_display_get_error(display)
            connectionError = e == 0 ? "connection closed" : String(cString: strerror(e))
        }
        for device in [Device.pointer, .keyboard, .touch] where has(device) { removeDevice(device) }
        watch?.remove()
        onClose?()
    }

    // MARK: Globals

    func global(name: UInt32, interface: String, version: UInt32) {
        func bind(_ i: UnsafePointer<wl_interface>, _ v: UInt32) -> OpaquePointer? {
            OpaquePointer(nested_bind(registry, name, i, v))
        }
        switch interface {
        case "wl_compositor" where version >= 4 && compositor == nil: compositor = bind(ir_wl_compositor_interface(), 4)
        case "wl_shm" where shm == nil: shm = bind(ir_wl_shm_interface(), 1)
        case "xdg_wm_base" where wmBase == nil:
            wmBase = bind(ir_xdg_wm_base_interface(), 1)
            xdg_wm_base_add_listener(wmBase, listeners.wmBase, selfPointer)
        case "wl_seat" where seatGlobal == nil:
            // Bound after the roundtrip (bindSeat), so its devices arrive through the
            // server's loop, once the caller has set the sink.
            seatGlobal = (name, version)
        default: break
        }
    }

    func bindSeat() {
        guard let (name, version) = seatGlobal else { return }
        // v5 brings pointer frames and axis sources; v8 axis_value120 (libwayland 1.21).
        seat = OpaquePointer(nested_bind(registry, name, ir_wl_seat_interface(), min(version, 8)))
        wl_seat_add_listener(seat, listeners.seat, selfPointer)
    }

    private func destroyProxies() {
        if let pointer { releasePointerProxy(pointer) }
        if let keyboard { releaseKeyboardProxy(keyboard) }
        if let touch { releaseTouchProxy(touch) }
        pointer = nil
        keyboard = nil
        touch = nil
        if let frameCallback { wl_callback_destroy(frameCallback) }
        frameCallback = nil
        for b in buffers { b.destroy() }
        buffers.removeAll()
        if let toplevel { xdg_toplevel_destroy(toplevel) }
        if let xdgSurface { xdg_surface_destroy(xdgSurface) }
        if let surface { wl_surface_destroy(surface) }
        toplevel = nil
        xdgSurface = nil
        surface = nil
        if let seat { wl_seat_get_version(seat) >= 5 ? wl_seat_release(seat) : wl_seat_destroy(seat) }
        if let wmBase { xdg_wm_base_destroy(wmBase) }
        if let shm { wl_shm_destroy(shm) }
        if let compositor { wl_compositor_destroy(compositor) }
        if let registry { wl_registry_destroy(registry) }
        seat = nil
        wmBase = nil
        shm = nil
        compositor = nil
        registry = nil
        if connectionError == nil { _ = wl_display_flush(display) }
    }
}
