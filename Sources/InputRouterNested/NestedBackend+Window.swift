// The window on the parent: one xdg_toplevel whose configured size is the output's, and
// frames shown through two wl_shm buffers, paced by the parent's frame callbacks.
import CNestedShim
import CWaylandClient
import CWaylandProtocolsClient
import Foundation
import InputRouter

extension NestedBackend {
    func createWindow() {
        surface = wl_compositor_create_surface(compositor)
        xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface)
        xdg_surface_add_listener(xdgSurface, listeners.xdgSurface, selfPointer)
        toplevel = xdg_surface_get_toplevel(xdgSurface)
        xdg_toplevel_add_listener(toplevel, listeners.toplevel, selfPointer)
        xdg_toplevel_set_title(toplevel, configuration.title)
        xdg_toplevel_set_app_id(toplevel, configuration.appID)
        // The first commit has no buffer: it asks the parent for the first configure.
        wl_surface_commit(surface)
    }

    /// `xdg_toplevel.configure`: the size to use once the following `xdg_surface.configure`
    /// is acknowledged. 0 leaves that dimension to us.
    func toplevelConfigure(width w: Int32, height h: Int32) { pendingSize = (w, h) }

    /// `xdg_surface.configure`: acknowledge, adopt the size, and ask for a frame if none is
    /// on its way (the commit of that frame applies the acknowledged state).
    func surfaceConfigure(serial: UInt32) {
        xdg_surface_ack_configure(xdgSurface, serial)
        let w = pendingSize.0 > 0 ? pendingSize.0 : (isConfigured ? width : configuration.defaultWidth)
        let h = pendingSize.1 > 0 ? pendingSize.1 : (isConfigured ? height : configuration.defaultHeight)
        let first = !isConfigured
        isConfigured = true
        if first || w != width || h != height {
            width = w
            height = h
            // Pointer and touch positions arrive normalised to the window; the window shows
            // the layout's top-left width×height at scale 1.
            server.seat.absoluteMapping = Rect(0, 0, w, h)
            onResize?(w, h)
            if !isWaitingForFrame { onFrame?() }
        } else if hasPresented {
            // Same size (a state change: activated, fullscreen...): the shown buffer still
            // fits, and a commit applies what was acknowledged without waiting for a frame.
            wl_surface_commit(surface)
        }
    }

    func frameDone() {
        if let frameCallback { wl_callback_destroy(frameCallback) }
        frameCallback = nil
        isWaitingForFrame = false
        onFrame?()
    }

    /// Shows `pixels` (premultiplied ARGB8888, `width`×`height`, row by row, as
    /// `SurfaceImage` holds them) in the window. The copy goes into a free shm buffer (two
    /// are kept and reused once the parent releases them), a frame callback is requested
    /// (`onFrame` runs when it is done) and the surface is committed. Returns false and
    /// shows nothing before the first configure, after the connection ended, or when both
    /// buffers are still held by the parent (present again on the next `onFrame`).
    @discardableResult
    public func present(pixels: UnsafeBufferPointer<UInt32>, width w: Int, height h: Int) -> Bool {
        precondition(w > 0 && h > 0 && pixels.count >= w * h, "present: \(pixels.count) pixels for \(w)×\(h)")
        guard isConfigured, connectionError == nil, let surface, let buffer = freeBuffer(width: w, height: h) else {
            return false
        }
        buffer.pixels.update(from: pixels.baseAddress!, count: w * h)
        buffer.busy = true
        wl_surface_attach(surface, buffer.proxy, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, Int32(w), Int32(h))
        if frameCallback == nil {
            frameCallback = wl_surface_frame(surface)
            wl_callback_add_listener(frameCallback, listeners.frame, selfPointer)
            isWaitingForFrame = true
        }
        wl_surface_commit(surface)
        hasPresented = true
        flush()
        return true
    }

    /// `present(pixels:width:height:)` for an array (an `OutputRenderer` frame's pixels).
    @discardableResult
    public func present(pixels: [UInt32], width w: Int, height h: Int) -> Bool {
        pixels.withUnsafeBufferPointer { present(pixels: $0, width: w, height: h) }
    }

    /// A buffer of this size the parent does not hold; buffers of another size are
    /// dropped (at once when free, on release otherwise). At most two exist.
    private func freeBuffer(width w: Int, height h: Int) -> ShmBuffer? {
        buffers.removeAll { b in
            guard b.width != w || b.height != h else { return false }
            if b.busy {
                b.stale = true
                return false
            }
            b.destroy()
            return true
        }
        if let b = buffers.first(where: { !$0.busy && !$0.stale }) { return b }
        guard buffers.filter({ !$0.stale }).count < 2 else { return nil }
        do {
            let b = try ShmBuffer(shm: shm!, width: w, height: h)
            wl_buffer_add_listener(b.proxy, listeners.buffer, CallbackContext.unretained(b))
            b.backend = self
            buffers.append(b)
            return b
        } catch {
            onWarning("\(error)")
            return nil
        }
    }

    func bufferReleased(_ b: ShmBuffer) {
        b.busy = false
        if b.stale {
            buffers.removeAll { $0 === b }
            b.destroy()
        }
    }
}

/// One wl_shm buffer over its own memfd, mapped for writing.
final class ShmBuffer {
    let proxy: OpaquePointer
    let pixels: UnsafeMutablePointer<UInt32>
    let width: Int, height: Int
    var busy = false
    /// Of an old size: destroyed when the parent releases it.
    var stale = false
    weak var backend: NestedBackend?
    private var destroyed = false

    init(shm: OpaquePointer, width: Int, height: Int) throws {
        let size = width * height * 4
        let fd = nested_shm_file(size)
        guard fd >= 0 else {
            throw NestedBackendError(description: "shm buffer: memfd_create: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        guard let map = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), map != MAP_FAILED else {
            throw NestedBackendError(description: "shm buffer: mmap: \(String(cString: strerror(errno)))")
        }
        let pool = wl_shm_create_pool(shm, fd, Int32(size))
        guard
            let buffer = wl_shm_pool_create_buffer(
                pool, 0, Int32(width), Int32(height), Int32(width * 4),
                WL_SHM_FORMAT_ARGB8888.rawValue)
        else {
            wl_shm_pool_destroy(pool)
            munmap(map, size)
            throw NestedBackendError(description: "shm buffer: wl_shm_pool_create_buffer failed")
        }
        wl_shm_pool_destroy(pool)
        proxy = buffer
        pixels = map.bindMemory(to: UInt32.self, capacity: width * height)
        self.width = width
        self.height = height
    }

    func destroy() {
        guard !destroyed else { return }
        destroyed = true
        wl_buffer_destroy(proxy)
        munmap(pixels, width * height * 4)
    }

    deinit { destroy() }
}
