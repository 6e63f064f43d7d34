// A readable fd in the server's event loop that can be taken out again: a source whose
// connection can die (the nested backend's parent socket) must leave the loop, or a socket
// at EOF would wake it forever. (`addReadableFD` sources stay for the server's life.)
import CWaylandServer

/// One fd watched by the server's event loop until `remove()` or deinit. libwayland
/// watches its own duplicate of the fd, so closing the original does not end the watch.
public final class FDWatch {
    private var source: OpaquePointer?
    private let body: () -> Void
    /// The loop belongs to the server: keep it alive while the watch is registered.
    private let server: WaylandServer

    fileprivate init(server: WaylandServer, fd: Int32, _ body: @escaping () -> Void) {
        self.server = server
        self.body = body
        source = wl_event_loop_add_fd(
            server.eventLoop, fd, UInt32(WL_EVENT_READABLE),
            { _, _, data in
                let watch = CallbackContext.borrowed(data!, as: FDWatch.self)
                watch.body()
                // What the callback routed and left queued (a touch motion waiting for a frame
                // that did not come) goes out before the loop sleeps.
                if watch.server.router.hasDeliveries { watch.server.sendDeliveries() }
                return 0
            }, CallbackContext.unretained(self))
    }

    /// Whether the fd is (still) in the loop.
    public var isActive: Bool { source != nil }

    /// Takes the fd out of the loop; the callback is not called again.
    public func remove() {
        if let source { wl_event_source_remove(source) }
        source = nil
    }

    deinit { remove() }
}

extension WaylandServer {
    /// Adds `fd` to the event loop until the returned watch is removed or released;
    /// `onReadable` runs when it can be read (or has hung up). Store the watch:
    /// `_ = server.watchReadable(...)` releases it, and so unwatches the fd, at once.
    public func watchReadable(fd: Int32, _ onReadable: @escaping () -> Void) -> FDWatch {
        FDWatch(server: self, fd: fd, onReadable)
    }
}
