// The one seam between libwayland-server's resources and Swift objects.
//
// Every protocol object is a `WaylandObject` subclass. Its resource gets one shared C
// dispatcher (`wl_resource_set_dispatcher`) instead of a per-interface table of function
// pointers: libwayland has already checked the argument types and resolved object ids, so
// each class decodes the request once into its interface's generated enum
// (ProtocolRequests.swift, generated at build time from the XML by Plugins/WaylandProtocols)
// and switches over it. The resource's user data holds a retained reference to the object,
// released when libwayland destroys the resource (CallbackContext.swift).
//
// Unsafe idioms, and why: every object holds its server `unowned(unsafe)`. The server owns
// the display, and its deinit destroys the clients and with them every object, whose
// `resourceDestroyed` still reaches the server: a checked `unowned` reference traps once the
// server's deinit has begun, and a strong one would keep the server alive forever (a cycle
// through its client table). The server outlives every object otherwise.
import CShim
import CWaylandServer

typealias ResourcePointer = UnsafeMutablePointer<wl_resource>

class WaylandObject {
    let resource: ResourcePointer
    unowned(unsafe) let server: WaylandServer
    let owner: ClientState

    init(server: WaylandServer, owner: ClientState, resource: ResourcePointer) {
        self.server = server
        self.owner = owner
        self.resource = resource
        owner.liveObjects += 1
    }

    // Counted on the owner, which every object keeps alive: a count left on a disconnected
    // client is an object that outlived it (ObjectCensus.swift).
    deinit { owner.liveObjects -= 1 }

    /// One request from the client. `args` follow the request's signature in the XML;
    /// an override decodes them with `decode` into its interface's request enum.
    func request(_ opcode: UInt32, _ args: Arguments) {}

    /// The request as its interface's enum, or nil after posting `invalid_method` for an
    /// opcode the interface does not have (libwayland refuses those before they get here).
    func decode<Request: WaylandRequest>(_ opcode: UInt32, _ args: Arguments) -> Request? {
        if let request = Request(opcode: opcode, args) { return request }
        postDisplayError(WL_DISPLAY_ERROR_INVALID_METHOD.rawValue, "no request \(opcode) on this interface")
        return nil
    }

    /// libwayland destroyed the resource: a destructor request, the client's disconnect,
    /// or the compositor. Nothing may be sent to it afterwards.
    func resourceDestroyed() {}

    var version: Int32 { wl_resource_get_version(resource) }

    /// A protocol error: the client is disconnected; the compositor and others go on.
    func postError(_ code: UInt32, _ message: String) {
        ir_resource_post_error(resource, code, message)
    }

    /// A `wl_display` error (invalid_method, implementation) for a request on this object
    /// whose interface names no error of its own: posted on the client's display object,
    /// whose error codes these are.
    func postDisplayError(_ code: UInt32, _ message: String) {
        guard let display = wl_client_get_object(wl_resource_get_client(resource), 1) else {
            return postError(code, message)
        }
        ir_resource_post_error(display, code, message)
    }

    /// What a destructor request does.
    func destroyResource() { wl_resource_destroy(resource) }

    /// The object behind a resource this module created, or nil for a foreign one.
    static func from(_ resource: ResourcePointer?) -> WaylandObject? {
        // Only resources carrying our dispatcher tag have a WaylandObject as user data
        // (a wl_buffer from libwayland's wl_shm does not).
        guard let resource, resource.pointee.object.implementation == UnsafeRawPointer(dispatcherTag),
            let data = wl_resource_get_user_data(resource)
        else { return nil }
        return CallbackContext.borrowed(data, as: WaylandObject.self)
    }
}

/// A generated request enum (ProtocolRequests.swift, Plugins/WaylandProtocols): its decoder
/// is the only place that numbers the interface's opcodes.
protocol WaylandRequest {
    init?(opcode: UInt32, _ args: Arguments)
    /// The interface version the request appeared in.
    var since: Int32 { get }
}

/// A request's arguments (libwayland's `union wl_argument` array), read by position by
/// the generated decoders.
struct Arguments {
    let raw: UnsafeMutablePointer<wl_argument>
    func int(_ i: Int) -> Int32 { raw[i].i }
    func uint(_ i: Int) -> UInt32 { raw[i].u }
    func fixed(_ i: Int) -> Double { wl_fixed_to_double(raw[i].f) }
    func newID(_ i: Int) -> UInt32 { raw[i].n }
    func fd(_ i: Int) -> Int32 { raw[i].h }
    func string(_ i: Int) -> String? { raw[i].s.map { String(cString: $0) } }
    func array(_ i: Int) -> UnsafeMutablePointer<wl_array>? { raw[i].a }
    /// An object argument (nil when the protocol allows null and the client sent it).
    func resource(_ i: Int) -> ResourcePointer? {
        raw[i].o.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: wl_resource.self) }
    }
}

extension Optional where Wrapped == ResourcePointer {
    /// The object behind a decoded object argument, when it is one of ours of class `T`.
    func object<T: WaylandObject>(as: T.Type = T.self) -> T? {
        WaylandObject.from(self) as? T
    }
}

/// Non-nil marker for `wl_resource_set_dispatcher`'s implementation argument.
nonisolated(unsafe) private let dispatcherTag = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)

private let requestDispatcher: wl_dispatcher_func_t = { _, target, opcode, _, args in
    guard let target, let args else { return 0 }
    let resource = target.assumingMemoryBound(to: wl_resource.self)
    guard let object = WaylandObject.from(resource) else { return 0 }
    let server = object.server
    object.request(opcode, Arguments(raw: args))
    // A request can change the scene (commit, destroy, grab): send what the router
    // decided before the next request is read.
    server.sendDeliveries()
    // Maps and unmaps come from requests: whether an idle inhibitor holds (Idle.swift).
    if server.idle.hasInhibitors { server.idle.updateInhibition() }
    return 0
}

private let resourceDestroyed: wl_resource_destroy_func_t = { resource in
    guard let resource, let data = wl_resource_get_user_data(resource) else { return }
    wl_resource_set_user_data(resource, nil)
    CallbackContext.borrowed(data, as: WaylandObject.self).resourceDestroyed()
    CallbackContext.release(data, as: WaylandObject.self)
}

extension WaylandServer {
    /// Creates the resource for a new object of `interface` and binds `make`'s object to it.
    /// On allocation failure the client gets `no_memory` and nil is returned.
    @discardableResult
    func createObject<T: WaylandObject>(
        _ interface: UnsafePointer<wl_interface>, client: ClientState, version: Int32, id: UInt32,
        _ make: (ResourcePointer) -> T
    ) -> T? {
        guard let resource = wl_resource_create(client.client, interface, version, id) else {
            wl_client_post_no_memory(client.client)
            return nil
        }
        let object = make(resource)
        wl_resource_set_dispatcher(
            resource, requestDispatcher, dispatcherTag, CallbackContext.retained(object), resourceDestroyed)
        return object
    }
}
