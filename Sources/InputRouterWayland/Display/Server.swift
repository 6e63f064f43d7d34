// The Wayland layer: a libwayland display whose clients' requests build the router's
// surface tree, and whose seats' deliveries become protocol events on those clients.
//
// Input flows one way: a source calls `handle(_:seat:)`, the core routes it, and
// `sendDeliveries()` writes what it decided (Sender.swift). Client requests flow the other
// way into the tree (Surface.swift, XdgShell.swift...), and any re-pick they cause is sent
// before the next request is read.
//
// Unsafe idioms, and why: the state the sender and the per-event follow-ups read on every
// flush (the delivery tables, the scene generation last followed, the configuration) is
// `@exclusivity(unchecked)`: it is touched only on the server's thread and never while an
// access to it is open, and each dynamic check was a call per delivery (the counts stand
// beside each property; docs/performance.md). State read once per click or less keeps its
// checks. The
// client table holds clients `Unmanaged` for the sender to borrow (Sender.swift), and the
// serial source is libwayland's `wl_display_next_serial` retyped with `unsafeBitCast` (its
// pointer parameter as a raw pointer, the same C calling convention): a closure's context was
// retained and released per serial, seven per click. A `wl_listener`'s box holds the server
// `unowned(unsafe)`: its client-destroyed listeners fire during the server's deinit.
import CShim
import CWaylandServer
import Foundation
import InputRouter
import InputRouterKeyboard

/// Why the server could not start or do what was asked: the display, a socket, the keymap.
public struct ServerError: Error, CustomStringConvertible {
    /// What went wrong, for a person (it names the socket, the fd or the keymap error).
    public let description: String
}

/// The Wayland protocol layer on a `wl_display`: the globals clients bind, the surface tree
/// their requests build in `router`, and the deliveries of `seat` sent as protocol events.
/// Input in through `handle(_:)` (the hot path: no allocation, no dictionary lookup per
/// event), out as `wl_pointer`/`wl_keyboard`/`wl_touch` events. One thread: the
/// display's. docs/wayland.md; for embedding in a compositor, docs/embedding.md.
public final class WaylandServer {
    /// What the server serves and the policy it applies (`policy`): `Configuration()`
    /// has the one a standalone compositor wants, `Configuration.embedded` one that decides
    /// nothing, for an embedder who brings its own (docs/embedding.md).
    public struct Configuration {
        /// The output's size in logical pixels; it sits at (0, 0) of the layout. The
        /// one-output shorthand for `outputs`, and the size maximized windows get.
        public var outputWidth: Int32 = 1280
        /// (With `outputWidth`; `resizeOutput` changes both while running.)
        public var outputHeight: Int32 = 720
        /// Several outputs, side by side left to right unless they say where (Outputs.swift);
        /// empty: the one output above.
        public var outputs: [OutputConfiguration] = []
        /// The keymap, compose and repeat settings (docs/keyboard.md); the keymap is served to
        /// every `wl_keyboard`. `setKeyboard(_:)` replaces it while running.
        public var keyboard = KeyboardConfiguration()

        // MARK: Policies

        /// Every decision the server makes for a compositor: placement, what a press does,
        /// decorations, frame pacing, maximize and fullscreen geometry, the client's window
        /// requests, virtual devices (Policies/CompositorPolicy.swift). `Configuration()`
        /// starts from `.standalone()`, `.embedded` from `.minimal`.
        public var policy: CompositorPolicy = .standalone()
        // Keeping buffer pixels is not the server's: Rendering's `SurfacePixels` copies
        // committed buffers through `bufferCommitted` for the renderers that want them.

        // MARK: Protocol

        /// A client whose socket holds unread events and that reads none of them for this
        /// long is disconnected: libwayland 1.21 drops events for it once its buffer is full,
        /// so it could never catch up. 0 disables the check.
        public var unresponsiveTimeoutMS: Int32 = 5000
        /// Whether the server calls `wl_display_init_shm`. An embedder whose display already
        /// offers `wl_shm` turns this off (libwayland would offer a second global).
        public var offersShm = true
        /// Lets an xdg_surface or a layer surface commit a buffer before it acknowledged its
        /// first configure: it maps with that buffer, acknowledged or not (Mir's leniency).
        /// The protocols forbid it and the default posts `unconfigured_buffer` (xdg) or
        /// `invalid_surface_state` (layer shell); only the conformance run turns this on,
        /// because WLCS 1.5.0's window helper commits its buffer with the role and never
        /// acknowledges (fixed upstream in 1.8.1), and its layer-surface tests attach their
        /// buffer before the first commit (`LayerSurfaceLayerTest`'s `SurfaceOnLayer`).
        public var acceptsBufferBeforeFirstConfigure = false
        /// Lets `set_selection` take any serial (Mir's leniency): only the conformance run
        /// turns it on, because WLCS 1.5.0's copy-and-paste tests set the selection citing
        /// serial 0. By default a selection needs a recent input serial (Selection.swift).
        public var acceptsSelectionWithAnySerial = false

        /// The standalone policy (`CompositorPolicy.standalone()`: decorations stay opt-in).
        public init() {}

        /// The minimal policy (`CompositorPolicy.minimal`): no placement, no decorations, no
        /// focus-on-click, no frame timer, no pixel copies (the server never makes any: see
        /// `SurfacePixels`). The protocol, the seat and the routing are all there.
        public static var embedded: Configuration {
            var c = Configuration()
            c.policy = .minimal
            return c
        }
    }

    /// The `wl_display` served: created by `init(configuration:)`, or the embedder's.
    public let display: OpaquePointer
    /// Whether `deinit` destroys the display (it created it) or only what it added to it.
    let ownsDisplay: Bool
    /// The routing core: the surface tree clients build, the seats, the delivery queue.
    public let router: Router
    /// The first seat, "seat0", made with the server: what the first `wl_seat` global
    /// serves, and the seat of every call that names none (`handle(_:)`, `activate(_:)`,
    /// `clientCursor`). `addSeat(name:)` adds more (Seats.swift).
    public let seat: Seat
    /// The node every toplevel (and decoration) is a child of: the window layer, a root
    /// child above every output's node, at the layout origin and spanning it without
    /// clipping; it takes no input itself (Outputs.swift). Its name is from when there was
    /// one output.
    public let outputNode: NodeID
    /// The outputs served (Outputs.swift) and how many were ever made (for their names).
    var servedOutputs: [ServedOutput] = []
    /// Removed outputs' globals, destroyed 5 s after their removal (or with the server).
    var retiredOutputGlobals: [OpaquePointer] = []
    var outputCount = 0
    /// The scene generation popups' places and surfaces' outputs were last brought up to
    /// (SceneChanges.swift).
    @exclusivity(unchecked) var sceneGenerationFollowed: UInt64 = .max
    /// The configuration it was made with (the output size follows `resizeOutput`).
    /// Unchecked: a press's capture phase reads `policy.pressed` on every button press.
    @exclusivity(unchecked) public internal(set) var configuration: Configuration
    var keyboardState: KeyboardState
    var keymapFile: KeymapFile

    // Clients: by wl_client (requests) and by ClientID (deliveries: an array index).
    // The state deliveries read is marked `@exclusivity(unchecked)`: it is touched only on
    // the server's thread and never while an access to it is open, and the dynamic checks
    // were a tenth of the Wayland layer's instructions per event (wayland-bench).
    var clientsByPointer: [OpaquePointer: ClientState] = [:]
    /// Clients that disconnected, while something still keeps their state (ObjectCensus.swift).
    var departedClients: [DepartedClient] = []
    @exclusivity(unchecked) private(set) var clientsByID: ContiguousArray<ClientState?> = [nil]
    /// Surfaces with a tree node, indexed by `NodeID.index`: deliveries find their
    /// resources without hashing.
    @exclusivity(unchecked) private(set) var surfacesByNode: ContiguousArray<Surface?> = []
    /// The same two without reference counting, for the sender (Sender.swift): each
    /// lookup's retain and release were a tenth of its instructions per event.
    @exclusivity(unchecked) private(set) var clientTargets = TargetTable<Unmanaged<ClientState>?>(empty: nil)
    @exclusivity(unchecked) private(set) var deliveryTargets = TargetTable<DeliveryTarget?>(empty: nil)

    func setClient(_ state: ClientState?, at i: Int) {
        while clientsByID.count <= i { clientsByID.append(nil) }
        clientsByID[i] = state
        clientTargets.set(state.map(Unmanaged.passUnretained), at: i)
    }

    func setSurface(_ surface: Surface?, at i: Int) {
        while surfacesByNode.count <= i { surfacesByNode.append(nil) }
        surfacesByNode[i] = surface
        deliveryTargets.set(surface.flatMap(DeliveryTarget.init), at: i)
    }
    /// Layer shell (LayerShell.swift): the four layers' nodes (made when first used), the
    /// layer surfaces in creation order, each output's usable area, and the exclusive layer
    /// surface holding the keyboard.
    var layerNodes: [NodeID?] = [nil, nil, nil, nil]
    var layerSurfaces: [LayerSurfaceObject] = []
    var usableAreas: [ObjectIdentifier: Rect] = [:]
    var exclusiveLayerNode: NodeID?

    var frameCallbacks: [ResourcePointer] = []
    var frameTimer: OpaquePointer?
    /// The frame timer's period (`CompositorPolicy.framePacing`), read when the server starts.
    var frameTimerInterval: Int32 = 16
    private var clientCreatedListener: ListenerBox?
    /// The check libwayland's wl_shm lacks (ShmStrideCheck.swift).
    private var shmStrideCheck: OpaquePointer?
    var globalBindings: [GlobalBinding] = []
    /// The `wl_global`s created, removed on `deinit` from a display the embedder owns.
    var createdGlobals: [OpaquePointer] = []
    var offeredGlobals: [GlobalDescription] = []
    /// Every seat by index, the first (`seat`) included, each with its own `wl_seat` global
    /// (Seats.swift).
    @exclusivity(unchecked) var servedSeats: [ServedSeat] = []
    /// Called on every commit that attaches a buffer, before it is released: a renderer
    /// copies the pixels here.
    /// The `wl_surface` and `wl_buffer` resources, valid only during the call (the buffer
    /// is released right after). Runs once per commit with a buffer: not on the input path.
    public var bufferCommitted:
        ((_ surface: UnsafeMutablePointer<wl_resource>, _ buffer: UnsafeMutablePointer<wl_resource>) -> Void)?
    /// Called when a surface's content goes: it committed no buffer (`attach(nil)`), or it
    /// was destroyed (the resource is still valid during the call). A renderer drops its
    /// copy here.
    public var surfaceCleared: ((_ surface: UnsafeMutablePointer<wl_resource>) -> Void)?
    /// Sees every delivery before it is sent: a trace writer, a test, the invariant checker.
    @exclusivity(unchecked) public var deliveryObserver: ((Delivery, DeliveryQueue) -> Void)?
    /// Work decided while deliveries were being routed (moves begun by decorations),
    /// done once they are sent.
    @exclusivity(unchecked) var afterDeliveries: [() -> Void] = []
    /// Live toplevels, for decorations and the compositor's window list.
    var toplevels: [XdgToplevel] { toplevelObjects.compactMap { $0.object } }
    var toplevelObjects: [WeakToplevel] = []
    /// What an embedder does when a button press on a client's surface is about to be
    /// delivered: the capture phase, before the press's serial is taken (Server+Activation.swift).
    /// The policy's press actions (`CompositorPolicy.pressed`) run first; an embedder who focuses by
    /// hand calls `activate(_:seat:)` here, so the keyboard's enter goes out before the
    /// press and the newest serial the client saw is the press's.
    public var beforePress: ((_ node: NodeID, _ seat: Seat) -> Void)?
    /// The last keymap tag given to a virtual keyboard's keymap (ClientKeymaps.swift).
    var lastKeymapTag: UInt32 = 0
    /// The tag of the keymap in use on the first seat (`SeatServices.keymapInUse`), which
    /// the sender compares with each key's client's (ClientKeymaps.swift).
    @exclusivity(unchecked) var keymapTags: ContiguousArray<UInt32> = []
    /// Set while a press's capture phase runs: `activate` then queues its focus change and
    /// leaves the sending to the flush that follows the event.
    var deciding = false
    /// Popups in the order they were made (so each comes after its parent), for placing
    /// them again when their parents move (XdgPositioner.swift).
    var popupObjects: [WeakPopup] = []
    /// Per seat: selections, drag, text input, activated toplevel (SeatServices.swift).
    @exclusivity(unchecked) var seatServices: [SeatServices] = []
    /// The first seat's clipboard and primary selection (Selection.swift); each seat has its
    /// own (`services(_:)`).
    var selections: Selections { seatServices[0].selections }
    /// The drag in progress on the first seat (DragGrab.swift).
    var drag: DragGrab? {
        get { seatServices[0].drag }
        set { seatServices[0].drag = newValue }
    }

    // Text input, activation and idle (TextInputMethod.swift, Activation.swift, Idle.swift).
    /// The first seat's text inputs (each seat has its own: `services(_:)`).
    var textInput: TextInputState { seatServices[0].textInput }
    let activationTokens = ActivationTokens()
    /// Whether the session is locked, by whom, and its node (SessionLock.swift).
    let sessionLock = SessionLockState()
    /// The last uses of activation tokens, newest last (bounded): what each one did.
    public internal(set) var activationLog: [ActivationRecord] = []
    private(set) lazy var idle = IdleState(server: self)

    // Virtual devices (VirtualDevicePolicy.swift, VirtualDeviceIDs.swift, VirtualPointer.swift):
    // who may make them is `policy.mayCreateVirtualDevice`.
    /// The ids of the virtual devices present.
    var virtualDeviceIDs = VirtualDeviceIDs()
    /// `idle.watching`, mirrored here: reading `idle` (a lazy class reference) on every
    /// event was a retain and a release.
    @exclusivity(unchecked) var idleWatching = false

    /// A server on a display of its own, which it destroys with itself. Listen with
    /// `addSocket(_:)` and run with `run()` or `dispatch(timeoutMS:)`.
    public convenience init(configuration: Configuration = Configuration()) throws {
        guard let display = wl_display_create() else { throw ServerError(description: "wl_display_create failed") }
        do { try self.init(display: display, configuration: configuration, ownsDisplay: true) } catch {
            wl_display_destroy(display)
            throw error
        }
    }

    /// A server on the embedder's `display` (and its event loop), which stays the
    /// embedder's: the server adds its globals, listeners and timers and, when it goes,
    /// removes those and disconnects the clients that bound any of its globals (their
    /// objects are the server's), and nothing else. Starts with no policy (`.embedded`).
    public convenience init(display: OpaquePointer, configuration: Configuration = .embedded) throws {
        try self.init(display: display, configuration: configuration, ownsDisplay: false)
    }

    private init(display: OpaquePointer, configuration: Configuration, ownsDisplay: Bool) throws {
        self.configuration = configuration
        self.display = display
        self.ownsDisplay = ownsDisplay
        do {
            keyboardState = try configuration.keyboard.makeState()
            keymapFile = try keyboardState.keymap.clientFile()
        } catch {
            throw ServerError(description: "keyboard: \(error)")
        }
        router = Router()
        seat = router.addSeat(name: "seat0")
        seat.keyTranslator = keyboardState
        outputNode = router.tree.createNode(.compositor, name: "windows", frame: Rect(0, 0, 0, 0))
        router.tree.setClipsChildren(outputNode, false)
        // Every serial comes from the display's sequence, the embedder's too: libwayland's
        // function itself, its pointer parameter retyped (the same C calling convention). A
        // closure's context was retained and released per serial (seven per click).
        let next = wl_display_next_serial as @convention(c) (OpaquePointer?) -> UInt32
        router.setSerialSource(
            context: UnsafeMutableRawPointer(display), unsafeBitCast(next, to: Router.SerialFunction.self))
        seat.beforePress = pressHook

        if configuration.offersShm {
            wl_display_init_shm(display)
            shmStrideCheck = installShmStrideCheck(on: display)
            offeredGlobals.append(GlobalDescription(interface: "wl_shm", version: 1))
        }
        clientCreatedListener = ListenerBox(owner: self) { server, data in
            server.adopt(OpaquePointer(data!))
        }
        wl_display_add_client_created_listener(display, clientCreatedListener!.listener)
        _ = services(0)
        servedSeats.append(ServedSeat(seat: seat, keyboardState: keyboardState))
        createGlobals()
        if let period = frameTimerPeriod {
            frameTimerInterval = period
            frameTimer = wl_event_loop_add_timer(eventLoop, frameTimerFired, CallbackContext.unretained(self))
        }
        if configuration.unresponsiveTimeoutMS > 0 {
            stallTimer = wl_event_loop_add_timer(eventLoop, stallTimerFired, CallbackContext.unretained(self))
            wl_event_source_timer_update(stallTimer, stallCheckInterval)
        }
    }

    var stallTimer: OpaquePointer?
    var stallCheckInterval: Int32 { max(configuration.unresponsiveTimeoutMS / 4, 10) }

    /// Whether every client has read all the server sent it (after a flush): no bytes wait
    /// in any client's socket. Tests of clients that cannot answer a barrier wait for it.
    func clientsHaveReadEverything() -> Bool {
        wl_display_flush_clients(display)
        return clientsByPointer.values.allSatisfy { ir_socket_unsent_bytes(wl_client_get_fd($0.client)) == 0 }
    }

    /// Disconnects clients that stopped reading (see `unresponsiveTimeoutMS`).
    func checkStalledClients() {
        let now = monotonicMilliseconds()
        for state in Array(clientsByPointer.values) {
            let unsent = ir_socket_unsent_bytes(wl_client_get_fd(state.client))
            if unsent > 0 && unsent >= state.lastUnsent {
                let since = state.stalledSince ?? now
                state.stalledSince = since
                if Int64(now) - Int64(since) >= Int64(configuration.unresponsiveTimeoutMS) {
                    wl_client_destroy(state.client)
                    continue
                }
            } else {
                state.stalledSince = nil
            }
            state.lastUnsent = unsent
        }
        wl_event_source_timer_update(stallTimer, stallCheckInterval)
    }

    // Objects reach the server through unowned(unsafe) references, which stay usable
    // while the display (and every client with it) is torn down here.
    deinit {
        shuttingDown = true
        if ownsDisplay {
            wl_display_destroy_clients(display)
        } else {
            // The embedder's display lives on: only the clients holding our objects go,
            // then our globals (wl_shm cannot be removed apart from its display).
            for state in Array(clientsByPointer.values) where state.boundServerGlobal {
                wl_client_destroy(state.client)
            }
            for global in createdGlobals { wl_global_destroy(global) }
            for global in servedOutputs.compactMap(\.global) + retiredOutputGlobals { wl_global_destroy(global) }
        }
        // wl_event_loop_destroy frees only the sources already removed.
        if let frameTimer { wl_event_source_remove(frameTimer) }
        if let stallTimer { wl_event_source_remove(stallTimer) }
        for case let timer as LoopTimer in keepAlive { timer.cancel() }
        idle.stop()
        if let shmStrideCheck { wl_protocol_logger_destroy(shmStrideCheck) }
        if ownsDisplay { wl_display_destroy(display) }
        // Last: destroying the clients above cleared their entries.
        clientTargets.deallocate()
        deliveryTargets.deallocate()
    }
    var shuttingDown = false

    var eventLoop: OpaquePointer { wl_display_get_event_loop(display) }

    // MARK: Running

    /// Listens on `$XDG_RUNTIME_DIR/name`, or the first free `wayland-N`. Returns the name.
    @discardableResult
    public func addSocket(_ name: String? = nil) throws -> String {
        if let name {
            guard wl_display_add_socket(display, name) == 0 else {
                throw ServerError(description: "cannot listen on \(name): \(String(cString: strerror(errno)))")
            }
            return name
        }
        guard let auto = wl_display_add_socket_auto(display) else {
            throw ServerError(description: "no free wayland-N socket in XDG_RUNTIME_DIR")
        }
        return String(cString: auto)
    }

    /// The event loop's fd, for embedding it in another loop (readable: call `dispatch(0)`).
    /// Other fds join this loop through `watchReadable(fd:_:)`.
    public var eventLoopFD: Int32 { wl_event_loop_get_fd(eventLoop) }

    /// Waits up to `timeoutMS` (-1: forever) for client requests and timers, handles them,
    /// and writes everything queued to the clients' sockets without blocking.
    public func dispatch(timeoutMS: Int32) {
        // What the embedder changed in the tree since (a window it moved) goes out before
        // the wait: reactive popups' configures, outputs' enter and leave.
        followSceneChanges()
        wl_display_flush_clients(display)
        wl_event_loop_dispatch(eventLoop, timeoutMS)
        sendDeliveries()
        wl_display_flush_clients(display)
    }

    /// Runs until `terminate()`.
    public func run() { wl_display_run(display) }
    /// Makes `run()` return after the current dispatch.
    public func terminate() { wl_display_terminate(display) }

    var keepAlive: [AnyObject] = []

    // MARK: Input

    /// Routes one input event and sends what it produced. Touch motion is sent with the
    /// touch frame that follows it, in one flush per frame (libinput, recordings and the
    /// nested backend end every batch of motions with a frame; a flush per motion was ten of
    /// a 10-finger frame's eleven). A motion posted alone is sent by whatever comes next: any
    /// other event, `dispatch`, the end of a `watchReadable` callback, or `sendDeliveries()`.
    public func handle(_ event: InputEvent) { handle(event, seat: seat) }

    /// Routes one input event on `seat` and sends what it produced; a device added or
    /// removed there updates that seat's `wl_seat` capabilities. Every seat alike.
    public func handle(_ event: InputEvent, seat: Seat) {
        // The commonest kind first, behind one tag test: the switch loads every case's
        // payload before its jump, and its frame is the larger.
        if case .pointerMotion = event.kind {
            seat.handle(event)
            sendDeliveries()
        } else {
            route(event, on: seat)
        }
        // Input is activity: idle notifications restart (Idle.swift).
        if idleWatching { idle.inputArrived(seat: Int(seat.id.index)) }
    }

    /// `description`: what the source said of the device a `deviceAdded` adds.
    @inline(never) func route(_ event: InputEvent, description: DeviceDescription? = nil, on seat: Seat) {
        switch event.kind {
        case .deviceAdded, .deviceRemoved:
            // Only these change the capabilities; other events skip the check (hot path).
            routeDeviceChange(event, description, on: seat) // Tablet+Announce.swift
            updateCapabilities(of: seat)
        case .tabletPadAdded:
            routeDeviceChange(event, nil, on: seat)
        case .touchMotion:
            // Held for the frame that follows (touchFrameMotionsGoOutWithTheirFrame).
            seat.handle(event)
        default:
            seat.handle(event)
            sendDeliveries()
        }
    }

    // MARK: Clients

    /// Starts tracking `client`: when it connects, or at its first bind when it connected
    /// to the embedder's display before the server existed.
    @discardableResult
    func adopt(_ client: OpaquePointer) -> ClientState {
        if let known = clientsByPointer[client] { return known }
        var pid: pid_t = 0
        wl_client_get_credentials(client, &pid, nil, nil)
        let id = router.addClient(name: Self.programName(pid: pid))
        let state = ClientState(client: client, id: id)
        clientsByPointer[client] = state
        setClient(state, at: Int(id.index))
        state.destroyListener = ListenerBox(owner: self) { server, data in
            server.clientDestroyed(OpaquePointer(data!))
        }
        wl_client_add_destroy_listener(client, state.destroyListener!.listener)
        return state
    }

    private func clientDestroyed(_ client: OpaquePointer) {
        guard !shuttingDown, let state = clientsByPointer.removeValue(forKey: client) else { return }
        state.alive = false
        departedClients.removeAll { $0.state == nil }
        departedClients.append(DepartedClient(state: state))
        setClient(nil, at: Int(state.id.index))
        router.removeClient(state.id)
        sendDeliveries()
    }

    func clientState(_ client: OpaquePointer?) -> ClientState? { client.flatMap { clientsByPointer[$0] } }

    // MARK: Serials

    /// A serial of the display's sequence, for what the server sends itself (configures,
    /// pings, drag and gesture events). The serials a request may cite are the seat's
    /// (`Seat.serialEntry(_:client:for:)`, SerialRecord.swift in the core).
    @inline(__always) func nextSerial() -> UInt32 { wl_display_next_serial(display) }

    // MARK: Frame callbacks

    /// Frame callbacks are answered on the policy's timer while any are waiting, so clients
    /// keep drawing at the pace a real output would set (`FramePacing.timer`).
    func queueFrameCallbacks(_ callbacks: [ResourcePointer]) {
        if let frameTimer, frameCallbacks.isEmpty, !callbacks.isEmpty {
            wl_event_source_timer_update(frameTimer, frameTimerInterval)
        }
        frameCallbacks.append(contentsOf: callbacks)
    }

    /// Whether frame callbacks wait for `sendFrameCallbacks()`: an embedder without the
    /// frame timer draws a frame when this is true (and something changed).
    public var hasWaitingFrameCallbacks: Bool { !frameCallbacks.isEmpty }

    /// Sends `done` to every waiting frame callback now: after the embedder presented a
    /// frame. Costs one event per callback.
    public func sendFrameCallbacks() {
        let callbacks = frameCallbacks
        frameCallbacks.removeAll()
        let ms = monotonicMilliseconds()
        for c in callbacks {
            wl_callback_send_done(c, ms)
            wl_resource_destroy(c)
        }
    }

    func forgetFrameCallback(_ c: ResourcePointer) { frameCallbacks.removeAll { $0 == c } }
}

private let stallTimerFired: wl_event_loop_timer_func_t = { data in
    CallbackContext.borrowed(data!, as: WaylandServer.self).checkStalledClients()
    return 0
}

private let frameTimerFired: wl_event_loop_timer_func_t = { data in
    CallbackContext.borrowed(data!, as: WaylandServer.self).sendFrameCallbacks()
    return 0
}

func monotonicMilliseconds() -> UInt32 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt32(truncatingIfNeeded: ts.tv_sec &* 1000 &+ ts.tv_nsec / 1_000_000)
}

struct WeakToplevel { weak var object: XdgToplevel? }
struct WeakPopup { weak var object: XdgPopup? }

/// What the server knows of one connected client.
final class ClientState {
    let client: OpaquePointer
    let id: ClientID
    @exclusivity(unchecked) var alive = true
    /// Whether it bound one of the server's globals (and so holds objects the server
    /// implements): such clients are disconnected when the server goes.
    var boundServerGlobal = false
    var destroyListener: ListenerBox?
    /// Its `wl_pointer`s, `wl_keyboard`s and `wl_touch`es on each seat, by seat index
    /// (Seats.swift): every seat's alike.
    @exclusivity(unchecked) var seatDevices: ContiguousArray<SeatDevices> = []
    /// Its objects per seat, by seat index (SeatServices.swift).
    var seatStates: ContiguousArray<ClientSeatState> = []
    /// The seat whose selections it is offered after the modifiers that follow its keyboard
    /// enter (Sender.swift); -1: none waiting.
    var offerSelectionsAfterModifiers: Int32 = -1
    /// Whether this pointer frame already carried `axis_source` (once per frame), to its
    /// `wl_pointer`s of version 8 and to older ones (which may have been sent nothing yet).
    @exclusivity(unchecked) var axisSourceSent = false
    @exclusivity(unchecked) var legacyAxisSourceSent = false
    /// Partial wheel clicks not yet sent to its `wl_pointer`s older than version 8.
    @exclusivity(unchecked) var wheelClicks = WheelClicks()
    /// Unread bytes in its socket at the last check, and since when they did not shrink.
    var lastUnsent: Int32 = 0
    var stalledSince: UInt32?
    /// Its protocol objects still alive (Object.swift counts them).
    var liveObjects = 0

    init(client: OpaquePointer, id: ClientID) {
        self.client = client
        self.id = id
    }
}

/// A `wl_listener` on the C heap with a way back to its Swift owner: libwayland keeps the
/// pointer in its signal lists for as long as the listener is registered.
final class ListenerBox {
    let listener: UnsafeMutablePointer<wl_listener>
    private let storage: UnsafeMutableRawPointer
    let body: (WaylandServer, UnsafeMutableRawPointer?) -> Void
    /// Unsafe: libwayland fires client listeners while the server's deinit destroys the
    /// clients, where a checked `unowned` reference traps (as Object.swift's `server`).
    unowned(unsafe) let owner: WaylandServer

    init(owner: WaylandServer, _ body: @escaping (WaylandServer, UnsafeMutableRawPointer?) -> Void) {
        self.owner = owner
        self.body = body
        let size = MemoryLayout<wl_listener>.stride + MemoryLayout<UnsafeRawPointer>.stride
        storage = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        listener = storage.bindMemory(to: wl_listener.self, capacity: 1)
        listener.initialize(to: wl_listener())
        listener.pointee.notify = { listener, data in
            let back = UnsafeMutableRawPointer(listener!) + MemoryLayout<wl_listener>.stride
            let box = CallbackContext.borrowed(back.load(as: UnsafeRawPointer.self), as: ListenerBox.self)
            box.body(box.owner, data)
        }
        (storage + MemoryLayout<wl_listener>.stride).storeBytes(
            of: UnsafeRawPointer(CallbackContext.unretained(self)), as: UnsafeRawPointer.self)
    }

    deinit {
        // Unlink in case the signal outlives us (the display's client-created signal).
        if listener.pointee.link.next != nil { wl_list_remove(&listener.pointee.link) }
        storage.deallocate()
    }
}
