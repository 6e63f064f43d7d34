// What a surface shows, for a renderer: a copy of the pixels of its last committed shm
// buffer. The copy is taken at commit (SurfacePixels.swift) and the server releases the
// buffer at once, so a renderer never holds a client's memory and a client can reuse its
// buffer immediately.
import CWaylandServer

/// Premultiplied ARGB pixels (wl_shm ARGB8888; XRGB8888 is copied with alpha forced to
/// opaque), `width * height`, row by row.
public struct SurfaceImage: Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// `width * height` premultiplied `0xAARRGGBB` values, row by row.
    public var pixels: [UInt32]
    /// An image of these pixels (`pixels.count` must be `width * height`).
    public init(width: Int, height: Int, pixels: [UInt32]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}

extension SurfaceImage {
    /// A copy of `buffer` (a `wl_buffer` resource) when it is an shm buffer in a format we
    /// can show. Costs one pass over its pixels.
    public init?(shmBuffer buffer: UnsafeMutablePointer<wl_resource>) {
        guard let shm = wl_shm_buffer_get(buffer) else { return nil }
        let format = wl_shm_buffer_get_format(shm)
        let opaque: Bool
        switch format {
        case WL_SHM_FORMAT_ARGB8888.rawValue: opaque = false
        case WL_SHM_FORMAT_XRGB8888.rawValue: opaque = true
        default: return nil
        }
        let w = Int(wl_shm_buffer_get_width(shm))
        let h = Int(wl_shm_buffer_get_height(shm))
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
