// The clients of the benchmark: WireClient sessions (the wire format, no libwayland-client)
// in this process, one socketpair each, handed to the server with wl_client_create.
import CWaylandServer
import Foundation
import InputRouter
import InputRouterWayland
import InputRouterWireClient

func now() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// The calling thread's CPU time (user and system), in nanoseconds.
func threadCPUTime() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// One client: its session, its wl_client, and the server-side resources the raw way posts on.
final class BenchClient {
    let session: WireSession
    let client: OpaquePointer
    /// The server's end of the socket, and the client's (its reader's).
    let serverFD: Int32, fd: Int32
    var pointer: UnsafeMutablePointer<wl_resource>?
    var keyboard: UnsafeMutablePointer<wl_resource>?
    var touch: UnsafeMutablePointer<wl_resource>?
    /// Per window: wl_surface, xdg_surface, xdg_toplevel.
    var windows:
        [(
            surface: UnsafeMutablePointer<wl_resource>, xdg: UnsafeMutablePointer<wl_resource>,
            toplevel: UnsafeMutablePointer<wl_resource>
        )] = []

    /// Connects, binds, gets the devices asked for and maps `windows` toplevels of that size.
    init(_ server: WaylandServer, devices: [UInt16], windows count: Int, width: Int32, height: Int32, bigBuffer: Bool)
        throws
    {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0,
            let client = wl_client_create(server.display, fds[0])
        else { throw WireError.connect("socketpair / wl_client_create failed") }
        self.client = client
        serverFD = fds[0]
        fd = fds[1]
        if bigBuffer {
            // A UNIX socket charges every small write its whole buffer overhead (~800 bytes),
            // so the default send buffer holds only ~270 unread events. Root may raise it.
            var big: Int32 = 16 << 20
            if setsockopt(fds[0], SOL_SOCKET, SO_SNDBUFFORCE, &big, socklen_t(MemoryLayout<Int32>.size)) != 0 {
                setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &big, socklen_t(MemoryLayout<Int32>.size))
            }
        }
        let wire = WireConnection(fd: fds[1])
        session = WireSession(wire)
        session.pump = { server.dispatch(timeoutMS: 0) }
        guard session.start() else { throw WireError.connect("no registry") }
        for (interface, version) in [("wl_compositor", 5), ("wl_shm", 1), ("wl_seat", 8), ("xdg_wm_base", 5)] {
            session.bind(interface, version: UInt32(version))
        }
        for opcode in devices {
            let id = wire.newID(["wl_pointer", "wl_keyboard", "wl_touch"][Int(opcode)])
            wire.send(session.bound["wl_seat"]!, opcode, [.uint(id)])
            session.roundtrip()
            let r = wl_client_get_object(client, id)
            switch opcode {
            case 0: pointer = r
            case 1: keyboard = r
            default: touch = r
            }
        }
        for _ in 0..<count {
            guard let w = session.mapToplevel(width: width, height: height),
                let s = wl_client_get_object(client, w.surface), let x = wl_client_get_object(client, w.xdgSurface),
                let t = wl_client_get_object(client, w.toplevel)
            else { throw WireError.connect("a toplevel did not map") }
            windows.append((s, x, t))
        }
        session.roundtrip()
        session.drain()
    }
}
