// What a surface shows: a copy of the pixels of its last committed shm buffer. The copy is
// taken at commit and the buffer released at once, so a renderer never holds a client's
// memory and a client can reuse its buffer immediately.
import CWaylandServer
import InputRouter

/// Premultiplied ARGB pixels (wl_shm ARGB8888; XRGB8888 is copied with alpha forced to
/// opaque), `width * height`, row by row.
public struct SurfaceImage: Sendable {
    public var width: Int
    public var height: Int
    public var pixels: [UInt32]
    public init(width: Int, height: Int, pixels: [UInt32]) {
        self.width = width; self.height = height; self.pixels = pixels
    }
}

extension SurfaceImage {
    /// A copy of `buffer` when it is an shm buffer in a format we can show.
    init?(shmBuffer buffer: ResourcePointer) {
        guard let shm = wl_shm_buffer_get(buffer) else { return nil }
        let format = wl_shm_buffer_get_format(shm)
        let opaque: Bool
        switch format {
        case WL_SHM_FORMAT_ARGB8888.rawValue: opaque = false
        case WL_SHM_FORMAT_XRGB8888.rawValue: opaque = true
        default: return nil
        }
        let w = Int(wl_shm_buffer_get_width(shm)), h = Int(wl_shm_buffer_get_height(shm))
        let stride = Int(wl_shm_buffer_get_stride(shm))
        guard w > 0, h > 0, stride >= w * 4 else { return nil }
        wl_shm_buffer_begin_access(shm)
        defer { wl_shm_buffer_end_access(shm) }
        guard let base = wl_shm_buffer_get_data(shm) else { return nil }
        var pixels = [UInt32](repeating: 0, count: w * h)
        pixels.withUnsafeMutableBufferPointer { out in
            for y in 0..<h {
                let row = (base + y * stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<w { out[y * w + x] = opaque ? row[x] | 0xff00_0000 : row[x] }
            }
        }
        self.init(width: w, height: h, pixels: pixels)
    }
}

extension WaylandServer {
    /// The pixels the surface of `node` last committed, if it is a client surface with an
    /// shm buffer. Its logical size is the node's frame (buffer size / scale).
    public func image(of node: NodeID) -> SurfaceImage? { surface(for: node)?.image }

    /// The cursor image the client with the pointer focus set, and its hotspot; nil when
    /// that client set none (the compositor draws its own) or hid it (`hidden` true).
    public var clientCursor: (image: SurfaceImage?, hotspotX: Int32, hotspotY: Int32, hidden: Bool)? {
        guard let focus = seat.pointerFocusNode, let s = surface(for: focus), let cursor = s.owner.cursor else { return nil }
        guard let surface = cursor.surface else { return (nil, 0, 0, true) }
        return (surface.image, cursor.hotspotX, cursor.hotspotY, false)
    }
}
