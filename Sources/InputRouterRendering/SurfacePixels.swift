// The pixel-keeping policy, outside the server: a store of each surface's last committed
// pixels, filled through the server's public `bufferCommitted` hook and emptied through
// `surfaceCleared`. A compositor that draws with `OutputRenderer` or `HitMap` creates one;
// an embedder with its own renderer copies buffers itself and needs none.
import CWaylandServer
import InputRouter
import InputRouterWayland

/// The pixels of every client surface of one server, by `wl_surface` resource.
public final class SurfacePixels {
    private unowned let server: WaylandServer
    private var images: [UnsafeMutablePointer<wl_resource>: SurfaceImage] = [:]

    /// Starts keeping the pixels of `server`'s surfaces, from their next commit on. It must
    /// not outlive the server. Chains
    /// to the hooks already set (a test's, a backend's), which still run first. Costs a copy
    /// of each committed buffer (a pass over its pixels) and nothing on the input path.
    public init(server: WaylandServer) {
        self.server = server
        let previousCommit = server.bufferCommitted
        // Weak: the store may go before the server, whose teardown still clears surfaces.
        server.bufferCommitted = { [weak self] surface, buffer in
            previousCommit?(surface, buffer)
            self?.images[surface] = SurfaceImage(shmBuffer: buffer)
        }
        let previousClear = server.surfaceCleared
        server.surfaceCleared = { [weak self] surface in
            previousClear?(surface)
            self?.images[surface] = nil
        }
    }

    /// The pixels the surface of `node` last committed, if it is a client surface with an
    /// shm buffer. Its logical size is the node's frame (buffer size / scale). An array
    /// index and a hash lookup.
    public func image(of node: NodeID) -> SurfaceImage? {
        server.surfaceResource(of: node).flatMap { images[$0] }
    }

    /// The pixels of a `wl_surface` resource (a cursor surface has no node).
    public func image(ofSurface surface: UnsafeMutablePointer<wl_resource>) -> SurfaceImage? { images[surface] }

    /// The cursor the client with the pointer focus set, as `OutputRenderer` draws it.
    public var clientCursor: OutputRenderer.Cursor.Shape { clientCursor(on: server.seat) }

    /// The cursor the client with `seat`'s pointer focus chose on that seat's pointer: its
    /// cursor surface's pixels, hidden, a named shape, or (none chosen) the built-in arrow.
    public func clientCursor(on seat: Seat) -> OutputRenderer.Cursor.Shape {
        switch server.clientCursor(on: seat) {
        case nil: .arrow
        case .hidden: .hidden
        case .surface(let surface, let x, let y): .init(clientCursor: (images[surface], x, y, false))
        case .shape(let shape): .named(shape)
        }
    }
}
