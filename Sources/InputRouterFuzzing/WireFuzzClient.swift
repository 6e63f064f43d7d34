// One client of the wire fuzzer: the client end of a socketpair, and what a client would
// know from the server's events (its live objects and their interfaces, the globals, the
// serials it was sent). Nothing here is libwayland-client: requests are written as bytes
// (WireClient), so the fuzzer can also send what libwayland-client would refuse to.
import CWaylandServer
import InputRouter
import InputRouterWireClient

final class WireFuzzClient {
    let number: Int
    let wire: WireConnection
    /// The router's id for this client (the server registers every wl_client with it).
    let id: ClientID
    /// Live objects: id → interface, plus the order they were made in (newest last).
    private(set) var objects: [UInt32: WireInterfaceSpec] = [1: WireProtocol.display]
    private(set) var versions: [UInt32: UInt32] = [1: 1]
    private(set) var created: [UInt32] = [1]
    /// Ids the server deleted (delete_id), reused newest first as libwayland-client does.
    private var freeIDs: [UInt32] = []
    /// Ids of objects this client sent a destructor for, until their delete_id comes.
    private var dying: Set<UInt32> = []
    /// One past the highest id ever used: the server refuses a new id beyond it.
    private var nextFresh: UInt32 = 2
    private(set) var globals: [(name: UInt32, interface: String, version: UInt32)] = []
    /// The latest serials the server sent (newest last), for requests that cite one.
    private(set) var serials: [UInt32] = []
    /// The latest configure serial of each xdg_surface.
    private(set) var configures: [UInt32: UInt32] = [:]
    /// Set when this client sent something the protocol forbids on the wire: it must be
    /// sent an error or disconnected.
    var broke: String?
    /// Set after raw bytes: the server may read the rest of this client's stream at any
    /// offset, so only containment is checked for it from then on.
    var desynced = false
    private(set) var eventsRead = 0

    init(number: Int, fd: Int32, id: ClientID) {
        self.number = number
        wire = WireConnection(fd: fd)
        self.id = id
    }

    /// Told an error, disconnected or unable to write: nothing more is sent.
    var isGone: Bool { wire.closed || wire.writeFailed || wire.error != nil }

    var description: String { "client \(number)" }

    // MARK: Ids

    /// The id a well-behaved client would use for its next object.
    func peekNewID() -> UInt32 { freeIDs.last ?? nextFresh }

    /// Ids that are not valid as a new object: one in use, one past the next, zero.
    func invalidNewID(_ choice: UInt8) -> UInt32 {
        switch choice % 3 {
        case 0: return created.last ?? 1
        case 1: return nextFresh + 1 + UInt32(choice)
        default: return 0
        }
    }

    /// An id never given out (a request on it names no object).
    var unusedID: UInt32 { nextFresh + 100 }

    func adopt(_ id: UInt32, _ spec: WireInterfaceSpec, version: UInt32) {
        if let i = freeIDs.lastIndex(of: id) { freeIDs.remove(at: i) }
        if id < 0xff00_0000 { nextFresh = max(nextFresh, id + 1) }
        objects[id] = spec
        versions[id] = version
        created.append(id)
    }

    /// A destructor request went out on `id`. libwayland destroys the object as it runs
    /// the request and takes the id as new again at once, but this client hears of it only
    /// from `delete_id`, which goes out with the next event the server posts (it is queued,
    /// not flushed). So the object is gone from the pools now, its id free from delete_id.
    func retire(_ id: UInt32) {
        guard id != 1, objects.removeValue(forKey: id) != nil else { return }
        versions[id] = nil
        created.removeAll { $0 == id }
        if id < 0xff00_0000 { dying.insert(id) }
    }

    func objects(of interface: String) -> [UInt32] { created.filter { objects[$0]?.name == interface } }

    func version(of id: UInt32) -> UInt32 { versions[id] ?? 1 }

    /// The interfaces this client has objects of, in the decoder's fixed order.
    func interfaceNames() -> [String] {
        let live = Set(created.compactMap { objects[$0]?.name })
        return WireProtocol.order.filter(live.contains) + live.subtracting(WireProtocol.order).sorted()
    }

    // MARK: Events

    /// Reads what the server sent and learns from it.
    func readEvents() {
        for e in wire.read(timeoutMS: 0) {
            eventsRead += 1
            learn(e)
        }
    }

    private func learn(_ e: WireEvent) {
        guard let spec = objects[e.object], Int(e.opcode) < spec.events.count else { return }
        if e.object == 1 && e.opcode == 1 { // wl_display.delete_id
            let gone = e.uint(at: 0)
            if objects.removeValue(forKey: gone) != nil {
                versions[gone] = nil
                created.removeAll { $0 == gone }
                if gone < 0xff00_0000 { freeIDs.append(gone) }
            } else if dying.remove(gone) != nil {
                freeIDs.append(gone)
            }
            return
        }
        if spec.name == "wl_registry" && e.opcode == 0 {
            let (interface, next) = e.string(at: 4)
            globals.append((e.uint(at: 0), interface, e.uint(at: next)))
            return
        }
        if spec.name == "wl_registry" && e.opcode == 1 {
            let name = e.uint(at: 0)
            globals.removeAll { $0.name == name }
            return
        }
        // Generic: uints may be serials; new ids are objects the server made for us.
        var offset = 0
        var firstUint: UInt32?
        for a in spec.events[Int(e.opcode)].arguments {
            switch a.kind {
            case .int, .fixed, .object: offset += 4
            case .uint:
                let v = e.uint(at: offset)
                if firstUint == nil { firstUint = v }
                offset += 4
            case .newID:
                let id = e.uint(at: offset)
                if let type = a.interface { adopt(id, WireProtocol.spec(type), version: version(of: e.object)) }
                offset += 4
            case .string, .array: offset += 4 + (Int(e.uint(at: offset)) + 3) & ~3
            case .fd: break
            }
        }
        if let serial = firstUint, serial != 0 {
            serials.append(serial)
            if serials.count > 8 { serials.removeFirst() }
            if spec.name == "xdg_surface" && e.opcode == 0 { configures[e.object] = serial }
        }
    }
}
