// The one wl_shm rule libwayland 1.21 does not enforce: a buffer's stride must hold a row
// of `width` pixels of its format, in bytes. libwayland's `shm_pool_create_buffer` only
// checks `stride >= width`, so an ARGB8888 buffer 200 pixels wide with a stride of 200
// bytes (a quarter of a row) is accepted, and the pool-size check that follows it is
// computed from that short stride. wl_shm names the error: `invalid_stride`, on the
// `wl_shm_pool`, at `create_buffer` (where WLCS's BadBufferTest expects it).
//
// Why a check beside libwayland's wl_shm rather than a wl_shm of our own: libwayland
// exposes no hook inside its wl_shm, and replacing it means redoing the mapping, pool
// resize and the SIGBUS-guarded access to truncated files (wl_shm_buffer_begin_access,
// which WLCS's test_truncated_shm_file checks) for one missing comparison. wlroots went
// that way later (its own wlr_shm); weston keeps libwayland's. A check at attach or
// commit would come too late: the request that lied is create_buffer, and a client may
// create buffers it never attaches. A protocol logger is the public seam libwayland
// calls with every request's arguments just before it dispatches it; posting the error
// there marks the client, libwayland finishes that one request (its buffer is never
// used) and disconnects the client.
//
// With a stride of at least width × bytes per pixel, libwayland's own check that
// `offset + stride × height` fits in the pool is the right one and stays in force.
import CShim
import CWaylandServer

/// Installs the check on `display`; returns the logger, to destroy before the display.
func installShmStrideCheck(on display: OpaquePointer) -> OpaquePointer? {
    let pool: UnsafePointer<wl_interface> = .wlShmPool
    guard let createBuffer = pool.pointee.methods else { return nil }
    return wl_display_add_protocol_logger(display, shmStrideCheck, UnsafeMutableRawPointer(mutating: createBuffer))
}

/// Bytes per pixel of the formats the server accepts (`wl_display_init_shm`: the two
/// every compositor must support); libwayland rejects any other with `invalid_format`.
func shmBytesPerPixel(_ format: UInt32) -> Int64? {
    switch format {
    case WL_SHM_FORMAT_ARGB8888.rawValue, WL_SHM_FORMAT_XRGB8888.rawValue: 4
    default: nil
    }
}

/// Called for every request and event: it returns at once unless the message is
/// `wl_shm_pool.create_buffer` (`userData` is that request's `wl_message`).
private func shmStrideCheck(
    userData: UnsafeMutableRawPointer?, direction: wl_protocol_logger_type,
    message: UnsafePointer<wl_protocol_logger_message>?
) {
    guard direction == WL_PROTOCOL_LOGGER_REQUEST, let message,
        UnsafeRawPointer(message.pointee.message) == UnsafeRawPointer(userData),
        message.pointee.arguments_count == 6, let args = message.pointee.arguments
    else { return }
    // create_buffer(id, offset, width, height, stride, format)
    let width = Int64(args[2].i)
    let stride = Int64(args[4].i)
    let format = args[5].u
    guard width > 0, let bpp = shmBytesPerPixel(format), stride < width * bpp else { return }
    ir_resource_post_error(
        message.pointee.resource, UInt32(WL_SHM_ERROR_INVALID_STRIDE.rawValue),
        "stride \(stride) is less than width \(width) × \(bpp) bytes per pixel")
}
