// A wire-level client handed to a server as one end of a socket pair (the embedder's
// `connectClient(fd:)`), with no process and no listening socket: what the serial,
// configure, embedding and barrier tests start from.
import Glibc
import InputRouter
import InputRouterKeyboard
import InputRouterWayland
import InputRouterWireClient
import Testing

/// The keymap most tests use: plain `us`, without compose.
let usKeyboard = KeyboardConfiguration(
    keymap: .names(.init(rules: "evdev", model: "pc105", layout: "us")), compose: false)

extension WaylandServer {
    /// A client on a socket pair: its id here, its wire and its session, which has read the
    /// registry and bound each of `globals` (interface, version) that the server offers.
    /// The session's pump dispatches this server.
    func connectWireClient(binding globals: [(String, UInt32)], sourceLocation: SourceLocation = #_sourceLocation)
        throws
        -> (ClientID, WireConnection, WireSession)
    {
        var fds: [Int32] = [0, 0]
        try #require(
            socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0,
            sourceLocation: sourceLocation)
        let id = try connectClient(fd: fds[0])
        let wire = WireConnection(fd: fds[1])
        let session = WireSession(wire)
        session.pump = { self.dispatch(timeoutMS: 0) }
        try #require(session.start(), sourceLocation: sourceLocation)
        for (interface, version) in globals {
            try #require(
                session.bind(interface, version: version) != nil, "\(interface) is offered",
                sourceLocation: sourceLocation)
        }
        return (id, wire, session)
    }
}
