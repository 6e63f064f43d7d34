// The valid-looking part of a session: the registry, binding globals by the names the
// server announced, round trips, shm buffers and a mapped toplevel, all on the raw wire.
import Foundation

/// Request opcodes, from wayland.xml and xdg-shell.xml.
public enum Op {
    public static let displaySync: UInt16 = 0, displayGetRegistry: UInt16 = 1
    public static let registryBind: UInt16 = 0
    public static let compositorCreateSurface: UInt16 = 0, compositorCreateRegion: UInt16 = 1
    public static let surfaceDestroy: UInt16 = 0, surfaceAttach: UInt16 = 1, surfaceFrame: UInt16 = 3
    public static let surfaceSetInputRegion: UInt16 = 5, surfaceCommit: UInt16 = 6
    public static let surfaceSetBufferTransform: UInt16 = 7, surfaceSetBufferScale: UInt16 = 8
    public static let regionDestroy: UInt16 = 0, regionAdd: UInt16 = 1, regionSubtract: UInt16 = 2
    public static let subcompositorGetSubsurface: UInt16 = 1
    public static let subsurfaceDestroy: UInt16 = 0, subsurfaceSetPosition: UInt16 = 1
    public static let subsurfacePlaceAbove: UInt16 = 2, subsurfacePlaceBelow: UInt16 = 3,
        subsurfaceSetDesync: UInt16 = 5
    public static let shmCreatePool: UInt16 = 0
    public static let poolCreateBuffer: UInt16 = 0, poolDestroy: UInt16 = 1, poolResize: UInt16 = 2
    public static let seatGetPointer: UInt16 = 0, seatGetKeyboard: UInt16 = 1
    public static let wmDestroy: UInt16 = 0, wmCreatePositioner: UInt16 = 1, wmGetXdgSurface: UInt16 = 2,
        wmPong: UInt16 = 3
    public static let positionerDestroy: UInt16 = 0, positionerSetSize: UInt16 = 1, positionerSetAnchorRect: UInt16 = 2
    public static let positionerSetAnchor: UInt16 = 3, positionerSetGravity: UInt16 = 4
    public static let positionerSetConstraintAdjustment: UInt16 = 5, positionerSetReactive: UInt16 = 7
    public static let xdgSurfaceDestroy: UInt16 = 0, xdgSurfaceGetToplevel: UInt16 = 1, xdgSurfaceGetPopup: UInt16 = 2
    public static let xdgSurfaceAckConfigure: UInt16 = 4
    public static let toplevelDestroy: UInt16 = 0, toplevelMove: UInt16 = 5, toplevelResize: UInt16 = 6
    public static let popupDestroy: UInt16 = 0, popupGrab: UInt16 = 1
}

public final class WireSession {
    public let wire: WireConnection
    public private(set) var registry: UInt32 = 0
    public private(set) var globals: [(name: UInt32, interface: String, version: UInt32)] = []
    /// Bound globals: interface name → object id.
    public private(set) var bound: [String: UInt32] = [:]
    /// Called while waiting for events: a server in the same process dispatches here.
    public var pump: (() -> Void)?
    /// Every event read, for reports (bounded: the oldest go first).
    public private(set) var eventCount = 0
    /// The latest wl_pointer.button press serial, and the latest enter serial.
    public private(set) var lastPressSerial: UInt32?
    public private(set) var lastEnterSerial: UInt32?

    public init(_ wire: WireConnection) { self.wire = wire }

    /// Reads events, answering pings, until `done` accepts one, the connection closes or
    /// `timeoutMS` passes. Returns the accepted event.
    @discardableResult
    public func waitFor(timeoutMS: Int = 5000, _ done: (WireEvent) -> Bool) -> WireEvent? {
        let deadline = Date().addingTimeInterval(Double(timeoutMS) / 1000)
        while !wire.closed, Date() < deadline {
            pump?()
            for e in wire.read(timeoutMS: pump == nil ? 50 : 1) {
                note(e)
                if done(e) { return e }
            }
        }
        return nil
    }

    /// Reads what is there now (answering pings).
    public func drain() {
        for e in wire.read(timeoutMS: 0) { note(e) }
    }

    private func note(_ e: WireEvent) {
        eventCount += 1
        let interface = wire.interfaces[e.object]
        if interface == "xdg_wm_base", e.opcode == 0 { wire.send(e.object, Op.wmPong, [.uint(e.uint(at: 0))]) }
        if interface == "wl_pointer", e.opcode == 3, e.uint(at: 12) == 1 { lastPressSerial = e.uint(at: 0) }
        if interface == "wl_pointer", e.opcode == 0 { lastEnterSerial = e.uint(at: 0) }
        if e.object == 1, e.opcode == 1 { wire.interfaces[e.uint(at: 0)] = nil } // delete_id
    }

    /// wl_display.sync and wait for its done.
    @discardableResult
    public func roundtrip(timeoutMS: Int = 5000) -> Bool {
        let callback = wire.newID("wl_callback")
        guard wire.send(1, Op.displaySync, [.uint(callback)]) else { return false }
        return waitFor(timeoutMS: timeoutMS) { $0.object == callback && $0.opcode == 0 } != nil
    }

    /// get_registry, then a round trip to collect the globals.
    public func start() -> Bool {
        registry = wire.newID("wl_registry")
        wire.send(1, Op.displayGetRegistry, [.uint(registry)])
        let callback = wire.newID("wl_callback")
        wire.send(1, Op.displaySync, [.uint(callback)])
        return waitFor { e in
            if e.object == registry, e.opcode == 0 {
                let (interface, next) = e.string(at: 4)
                globals.append((e.uint(at: 0), interface, e.uint(at: next)))
            }
            return e.object == callback && e.opcode == 0
        } != nil
    }

    /// Binds the global announced as `interface` at `version` (capped at what it offers).
    @discardableResult
    public func bind(_ interface: String, version: UInt32) -> UInt32? {
        guard let g = globals.first(where: { $0.interface == interface }) else { return nil }
        let id = wire.newID(interface)
        let v = min(version, g.version)
        wire.send(registry, Op.registryBind, [.uint(g.name), .string(interface), .uint(v), .uint(id)])
        bound[interface] = id
        return id
    }

    /// An fd of `size` bytes of shared memory: an unlinked file in XDG_RUNTIME_DIR (Glibc's
    /// Swift module does not expose memfd_create).
    public static func memfd(size: Int) -> Int32 {
        let dir = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"] ?? "/tmp"
        var template = Array("\(dir)/wire-client-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return -1 }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        ftruncate(fd, off_t(size))
        return fd
    }

    /// A wl_buffer from a new pool over `fd` (a fresh memfd of the right size by default).
    public func buffer(
        width: Int32, height: Int32, poolSize: Int32? = nil, offset: Int32 = 0, fd: Int32? = nil,
        format: UInt32 = 0
    ) -> UInt32? {
        guard let shm = bound["wl_shm"] else { return nil }
        let size = poolSize ?? width * height * 4
        let file = fd ?? Self.memfd(size: Int(max(size, 0)))
        let pool = wire.newID("wl_shm_pool")
        wire.send(shm, Op.shmCreatePool, [.uint(pool), .fd(file), .int(size)])
        if fd == nil { close(file) }
        let buffer = wire.newID("wl_buffer")
        wire.send(
            pool, Op.poolCreateBuffer,
            [.uint(buffer), .int(offset), .int(width), .int(height), .int(width * 4), .uint(format)])
        wire.send(pool, Op.poolDestroy)
        return buffer
    }

    public struct Toplevel {
        public var surface: UInt32, xdgSurface: UInt32, toplevel: UInt32
    }

    /// A toplevel with a buffer, mapped once the server acknowledges it (false on failure).
    public func mapToplevel(width: Int32, height: Int32) -> Toplevel? {
        guard let compositor = bound["wl_compositor"], let wm = bound["xdg_wm_base"] else { return nil }
        let surface = wire.newID("wl_surface")
        wire.send(compositor, Op.compositorCreateSurface, [.uint(surface)])
        let xdg = wire.newID("xdg_surface")
        wire.send(wm, Op.wmGetXdgSurface, [.uint(xdg), .uint(surface)])
        let top = wire.newID("xdg_toplevel")
        wire.send(xdg, Op.xdgSurfaceGetToplevel, [.uint(top)])
        wire.send(surface, Op.surfaceCommit)
        guard let configure = waitFor({ $0.object == xdg && $0.opcode == 0 }) else { return nil }
        wire.send(xdg, Op.xdgSurfaceAckConfigure, [.uint(configure.uint(at: 0))])
        guard let buffer = buffer(width: width, height: height) else { return nil }
        wire.send(surface, Op.surfaceAttach, [.uint(buffer), .int(0), .int(0)])
        wire.send(surface, Op.surfaceCommit)
        guard roundtrip() else { return nil }
        return Toplevel(surface: surface, xdgSurface: xdg, toplevel: top)
    }
}
