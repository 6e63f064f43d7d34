// A `wl_display` an embedder creates without importing libwayland: its own display, which
// it listens on, dispatches and flushes in its own loop, and hands to a `WaylandServer`
// (`init(display:configuration:)`). The server keeps the display alive as long as it
// needs it; the display is destroyed when the last reference goes.
import CWaylandServer
import Foundation

/// A Wayland display of the embedder's (docs/embedding.md, "The display").
public final class WaylandDisplay {
    /// The `wl_display *`, for libwayland calls of the embedder's own (a renderer's
    /// `wl_shm_buffer_get`, a protocol of its own).
    public let pointer: OpaquePointer

    /// A new display with its event loop.
    public init() throws {
        guard let display = wl_display_create() else { throw ServerError(description: "wl_display_create failed") }
        pointer = display
    }

    deinit { wl_display_destroy(pointer) }

    /// Offers `wl_shm` (libwayland's): then the server must not (`Configuration.offersShm`).
    public func offerShm() { wl_display_init_shm(pointer) }

    /// Listens on `$XDG_RUNTIME_DIR/name`.
    public func addSocket(_ name: String) throws {
        guard wl_display_add_socket(pointer, name) == 0 else {
            throw ServerError(description: "cannot listen on \(name): \(String(cString: strerror(errno)))")
        }
    }

    /// The event loop's fd, for polling it from another loop (readable: call `dispatch`).
    public var eventLoopFD: Int32 { wl_event_loop_get_fd(wl_display_get_event_loop(pointer)) }

    /// Waits up to `timeoutMS` (-1: forever, 0: not at all) for client requests and timers
    /// and handles them.
    public func dispatch(timeoutMS: Int32) { wl_event_loop_dispatch(wl_display_get_event_loop(pointer), timeoutMS) }

    /// Writes what is queued for every client to its socket, without blocking.
    public func flushClients() { wl_display_flush_clients(pointer) }
}

extension WaylandServer {
    /// A server on the embedder's `display` (see `init(display: OpaquePointer, ...)`),
    /// which it keeps alive while it lives.
    public convenience init(display: WaylandDisplay, configuration: Configuration = .embedded) throws {
        try self.init(display: display.pointer, configuration: configuration)
        keepAlive.append(display)
    }
}
