// A barrier across clients: proof that each has handled what the server sent it.
//
// Time proves nothing here: a client on a loaded machine may take seconds to read its
// socket. xdg_wm_base.ping is the one event core Wayland and xdg-shell give the server to
// ask for an answer. A client answers it (pong) from its event loop, so the pong comes only
// after it has handled every event that was sent before the ping: whatever those events
// made it do (print a line, commit a redrawn buffer, ask for a move) has happened, and its
// requests reached the server ahead of the pong. A client that bound no xdg_wm_base cannot
// be asked; for it the barrier waits until its socket holds no unread bytes, which shows
// it read everything, though not that it handled it yet.
import CShim
import CWaylandProtocolsServer
import CWaylandServer

/// The clients connected when `WaylandServer.barrier()` was called, and whether each has
/// shown that it handled everything sent to it before. Read `isPassed` after dispatching.
public final class ClientBarrier {
    /// A client the barrier still waits for.
    public struct Waiting: Sendable, CustomStringConvertible {
        /// Its process id (from the socket's credentials).
        public var pid: Int32
        /// Its program's name.
        public var program: String
        /// What is missing: the pong to a ping, or bytes it has not read.
        public var missing: String
        public var description: String { "\(program) (pid \(pid)): \(missing)" }
    }

    fileprivate struct Member {
        let state: ClientState
        let pid: Int32
        /// Each xdg_wm_base pinged, with the ping's serial; gone once its resource is.
        var pinged: [(base: Weak, serial: UInt32)]
    }
    fileprivate struct Weak { weak var base: XdgWmBase? }

    private let members: [Member]

    fileprivate init(members: [Member]) { self.members = members }

    /// The clients that have not yet answered (or, without xdg_wm_base, read everything),
    /// and are still connected.
    public var waiting: [Waiting] {
        members.compactMap { m in
            missing(m).map { Waiting(pid: m.pid, program: WaylandServer.programName(pid: m.pid), missing: $0) }
        }
    }

    /// Whether every client has answered, read everything, or disconnected.
    public var isPassed: Bool { members.allSatisfy { missing($0) == nil } }

    private func missing(_ m: Member) -> String? {
        guard m.state.alive else { return nil }
        if m.pinged.isEmpty {
            let unread = ir_socket_unsent_bytes(wl_client_get_fd(m.state.client))
            return unread == 0 ? nil : "\(unread) bytes unread (no xdg_wm_base to ping)"
        }
        // A base destroyed since has nothing left to answer.
        let unanswered = m.pinged.first { p in p.base.base.map { !$0.hasAnswered(p.serial) } ?? false }
        return unanswered.map { "no pong to xdg_wm_base.ping \($0.serial)" }
    }
}

extension WaylandServer {
    /// Pings every xdg_wm_base of every client connected now (after what is queued for it)
    /// and returns the barrier that passes once all have answered. Dispatch to let the
    /// answers in.
    public func barrier() -> ClientBarrier {
        sendDeliveries()
        let members = clientsByPointer.values.filter(\.alive).map { state in
            var pid: pid_t = 0
            wl_client_get_credentials(state.client, &pid, nil, nil)
            return ClientBarrier.Member(
                state: state, pid: pid,
                pinged: wmBases(of: state).map { base in
                    let serial = nextSerial()
                    xdg_wm_base_send_ping(base.resource, serial)
                    return (ClientBarrier.Weak(base: base), serial)
                })
        }
        wl_display_flush_clients(display)
        return ClientBarrier(members: members)
    }

    /// The client's xdg_wm_base objects, found through libwayland's resource list: a
    /// barrier is rare, so nothing keeps a list of them.
    private func wmBases(of state: ClientState) -> [XdgWmBase] {
        var found: [XdgWmBase] = []
        withUnsafeMutablePointer(to: &found) { list in
            wl_client_for_each_resource(
                state.client,
                { resource, data in
                    if let base = WaylandObject.from(resource) as? XdgWmBase {
                        data!.assumingMemoryBound(to: [XdgWmBase].self).pointee.append(base)
                    }
                    return WL_ITERATOR_CONTINUE
                }, list)
        }
        return found
    }
}
