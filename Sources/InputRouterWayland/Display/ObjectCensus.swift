// What the server holds, counted for a long run (`make soak`): protocol objects of the
// connected clients, and any that outlived their client. Counting walks the clients, so it
// is for a once-a-second sample, never per event.

/// A disconnected client's state, held weakly: alive only while an object still holds it.
struct DepartedClient {
    weak var state: ClientState?
}

extension WaylandServer {
    /// Live protocol objects and clients at one moment.
    public struct ObjectCensus: Sendable, Equatable {
        /// Clients connected now.
        public var clients: Int
        /// Protocol objects (`WaylandObject`s) of the connected clients.
        public var objects: Int
        /// Disconnected clients whose state something still holds.
        public var departedClients: Int
        /// Protocol objects of disconnected clients: objects that outlived their client.
        public var departedObjects: Int
    }

    /// Counts the objects now; walks the clients (not for the per-event path).
    public func objectCensus() -> ObjectCensus {
        departedClients.removeAll { $0.state == nil }
        let departed = departedClients.compactMap(\.state)
        return ObjectCensus(
            clients: clientsByPointer.count,
            objects: clientsByPointer.values.reduce(0) { $0 + $1.liveObjects },
            departedClients: departed.count,
            departedObjects: departed.reduce(0) { $0 + $1.liveObjects })
    }
}
