// Unsafe idioms, and why: the seats, the delivery queue and its spare, the client table, the
// serial source and the reshape generation are read or written by every routed event, so
// they are `@exclusivity(unchecked)` (one thread; no access is left open across a call that
// could reach it again). Each dynamic check is a runtime call per access, which
// measured with Router.swift's, SurfaceTree.swift's and Delivery.swift's `@exclusivity(unchecked)`
// all removed (wayland-bench `--only KIND routed`, callgrind, instructions per event without
// libc's allocator): motion 4,142 -> 5,899, click 26,468 -> 36,311, key 3,643 -> 4,808,
// touch 24,233 -> 31,320, against raw Wayland's 3,559, 21,830, 3,235 and 20,655: every kind
// far over the 1.15x budget.
// The tree's scene observer is this router, kept `Unmanaged` by the tree and borrowed
// (`_withUnsafeGuaranteedRef`) as the router borrows each seat when the scene changes: a
// counted reference retained and released them on every click's raise (Router.init).

/// The façade a compositor embeds: one surface tree, its clients, its seats, and the queue
/// of deliveries the last routed events produced.
///
/// Input goes in through a seat (`seat.handle(event)` or its `notify*` methods); what each
/// client is told comes out in `queue`, which the caller drains after each event
/// (`flush(into:)`). Scene changes (map, unmap, move, restack, input region) re-pick the
/// pointer focus of every seat at once, without waiting for motion.
public final class Router {
    /// The scene: outputs, windows, surfaces and compositor nodes, which the seats hit-test.
    public let tree: SurfaceTree
    // Read or written by every event: no dynamic exclusivity checks (see Seat's state).
    /// The seats added with `addSeat(name:)`, indexed by `SeatID.index`.
    @exclusivity(unchecked) public private(set) var seats: [Seat] = []
    /// What the last routed events produced, for the caller to drain with `flush(into:)` after
    /// each event; appending to it does not allocate once its capacity is reached.
    @exclusivity(unchecked) public var queue = DeliveryQueue()
    /// Whether anything is queued. For a layer in another module, which pays a dynamic
    /// exclusivity check per read of `queue` itself (`@exclusivity(unchecked)` does not
    /// carry across modules): here the read is unchecked, behind one call.
    public var hasDeliveries: Bool { !queue.isEmpty }

    /// The subtree input is locked to (`lockInput(to:)`, InputLock.swift), nil when input is
    /// not locked: while set, the keyboard focus of every seat stays inside it and only the
    /// key bindings added `whileLocked` run. Read on focus changes and by the bindings, never
    /// by a routed motion, key or touch.
    @exclusivity(unchecked) public internal(set) var inputLockScope: NodeID?
    /// Set while the lock's scope is raised back to the top from a scene change: the raise's
    /// own report is not followed (the change that caused it is).
    var raisingInputLockScope = false

    struct ClientRecord {
        var name: String
        var alive: Bool
        var handler: NodeHandler?
        /// What a scene snapshot calls `handler`.
        var handlerName = ""
    }
    @exclusivity(unchecked) var clients: [ClientRecord] = [ClientRecord(name: "compositor", alive: true, handler: nil)]

    private var actionNames: [String] = []
    private var actionIDs: [String: ActionID] = [:]
    var switchObservers: [(SeatID, SwitchKind, Bool) -> Void] = []

    /// Serials for enter, button, key and touch events. The Wayland layer may replace it
    /// with `wl_display_next_serial`, so all serials of a display share one sequence.
    @exclusivity(unchecked) public var serialSource: (() -> UInt32)? {
        didSet { serialFunction = nil }
    }
    /// A serial source that counts nothing per serial: a C function and the context it is
    /// passed. Calling `serialSource` retained and released the closure's context for each
    /// serial (~25 instructions, on every key, button and enter). Replaces `serialSource`.
    public func setSerialSource(context: UnsafeMutableRawPointer, _ next: @escaping SerialFunction) {
        serialSource = nil
        serialFunction = (next, context)
    }
    /// What `setSerialSource(context:_:)` takes: called with its context, returns the next serial.
    public typealias SerialFunction = @convention(c) (UnsafeMutableRawPointer) -> UInt32
    @exclusivity(unchecked) private var serialFunction: (call: SerialFunction, context: UnsafeMutableRawPointer)?
    @exclusivity(unchecked) private var serialCounter: UInt32 = 0
    /// The serial counter, for scene snapshots (Snapshot/).
    var capturedSerialCounter: UInt32 { serialCounter }
    func restoreSerialCounter(_ value: UInt32) { serialCounter = value }

    /// An empty scene with no seats and only the compositor client; set up once at startup.
    public init() {
        tree = SurfaceTree()
        // Unretained (the safe `unowned` cost a strong retain and a release per scene change,
        // every click's raise): the tree may outlive the router, so `deinit` unhooks it.
        tree.sceneObserver = Unmanaged.passUnretained(self)
        tree.onHandlerChange = { [unowned self] r in for s in self.seats { s.handlerWillChange(r) } }
    }

    deinit {
        // A seat the embedder still holds must not reach this router any more (Seat.router).
        for s in seats { s.routerGone = true }
        tree.sceneObserver = nil
    }

    // MARK: Seats and clients

    /// Adds a seat (one cursor, keyboard focus and touch set). Allocates: call at setup.
    @discardableResult
    public func addSeat(name: String = "seat0") -> Seat {
        let seat = Seat(id: SeatID(index: UInt32(seats.count)), name: name, router: self)
        seats.append(seat)
        return seat
    }

    /// The seat with `id`; an array read, no allocation. Traps for an id this router never made.
    public func seat(_ id: SeatID) -> Seat { seats[Int(id.index)] }

    /// Registers a connected client; its surfaces are then tagged with the returned id.
    /// Allocates (grows every seat's per-client table): call on connect, not per event.
    @discardableResult
    public func addClient(name: String) -> ClientID {
        tree.journalNote(.addClient, NodeID(index: 0, generation: 0)) { $0.name = name }
        clients.append(ClientRecord(name: name, alive: true, handler: nil))
        for s in seats { s.clientAdded() }
        return ClientID(index: UInt32(clients.count - 1))
    }

    /// A client disconnected: its surfaces are destroyed, its bindings forgotten, and no
    /// seat sends it anything again.
    public func removeClient(_ client: ClientID) {
        guard isAlive(client), !client.isCompositor else { return }
        tree.journaled(.removeClient, { $0.client = client.index }, { removeClientNow(client) })
    }

    private func removeClientNow(_ client: ClientID) {
        for s in seats { s.clientRemoved(client) }
        clients[Int(client.index)].alive = false
        clients[Int(client.index)].handler = nil
        tree.batchUpdates {
            // Another client's node below one of this client's (an input method's candidate
            // popup sits on the focused window) leaves the scene but is not this client's to
            // destroy: its own client still holds it, and places it again later. First all
            // of them, since destroying a node takes its whole subtree.
            for i in 1..<tree.nodes.count where tree.nodes[i].alive && tree.nodes[i].client == client {
                for child in tree.children(of: tree.id(ofSlot: UInt32(i))) {
                    if let owner = tree.client(of: child), owner != client, !owner.isCompositor { tree.detach(child) }
                }
            }
            for i in 1..<tree.nodes.count where tree.nodes[i].alive && tree.nodes[i].client == client {
                tree.destroy(tree.id(ofSlot: UInt32(i)))
            }
        }
    }

    /// Whether `client` was registered and has not been removed; an array read.
    public func isAlive(_ client: ClientID) -> Bool {
        Int(client.index) < clients.count && clients[Int(client.index)].alive
    }

    /// The name given at `addClient(name:)`, for traces and logs; "?" for an unknown id.
    public func name(of client: ClientID) -> String {
        Int(client.index) < clients.count ? clients[Int(client.index)].name : "?"
    }

    /// The client responder's handler: what a client does with events its surfaces did
    /// not take (and with actions, e.g. "close" → `xdg_toplevel.close`).
    /// `name` is what a scene snapshot calls it (`SceneHandlers` maps it back).
    public func setHandler(for client: ClientID, name: String = "", _ handler: NodeHandler?) {
        guard isAlive(client) else { return }
        tree.journalNote(.setClientHandler, NodeID(index: 0, generation: 0)) {
            $0.client = client.index
            $0.name = name
            $0.flag = handler != nil
        }
        clients[Int(client.index)].handlerName = name
        for s in seats { s.handlerWillChange(.client(client)) }
        clients[Int(client.index)].handler = handler
        // The client responder may now take (or refuse) the pointer: re-pick every seat.
        sceneDidChange()
    }

    // MARK: Actions and switches

    /// Interns an action name ("close", "copy"...).
    public func action(_ name: String) -> ActionID {
        if let id = actionIDs[name] { return id }
        let id = ActionID(index: UInt32(actionNames.count))
        actionNames.append(name)
        actionIDs[name] = id
        return id
    }

    /// The name `action(_:)` interned; "?" for an unknown id.
    public func name(of action: ActionID) -> String {
        Int(action.index) < actionNames.count ? actionNames[Int(action.index)] : "?"
    }

    /// Switch events (lid, tablet mode, keypad slide) never go through hit-testing: they
    /// reach these observers, as Core Motion events bypass UIKit's responder chain.
    public func addSwitchObserver(_ observer: @escaping (SeatID, SwitchKind, Bool) -> Void) {
        switchObservers.append(observer)
    }

    // MARK: Serials and output

    /// Inline in every seat's serial (nine per click): the function's call is all it costs
    /// the seat; the closure and the counter, which no Wayland server uses, are out of line.
    @inline(__always) func nextSerial() -> UInt32 {
        if let f = serialFunction { return f.call(f.context) }
        return nextSerialWithoutFunction()
    }

    @inline(never) private func nextSerialWithoutFunction() -> UInt32 {
        if let source = serialSource { return source() }
        serialCounter &+= 1
        return serialCounter
    }

    /// Hands every queued delivery to `sink` in order, then empties the queue.
    /// Inlinable (it uses only public API) so that it is specialised for the caller's
    /// sink instead of reaching it through a witness table per delivery, and inline in it
    /// (the call and its frame were ~15 instructions per flush). The queue's
    /// storage is swapped with a spare emptied by the last flush (one reference each way,
    /// none counted): what a sink queues meanwhile waits for the next flush, and the slots
    /// handed over are never appended to while the sink reads them.
    @inlinable @inline(__always) public func flush<S: DeliverySink>(into sink: inout S) {
        let q = takeDeliveries()
        deliverEach(of: q, to: &sink)
        returnDeliveries(q)
    }

    /// Every slot of `q` to `sink`, in order: the loop both flushes share.
    @inlinable @inline(__always) func deliverEach<S: DeliverySink>(of q: DeliveryQueue, to sink: inout S) {
        let slots = q.storage.base
        let n = q.storage.used
        var i = 0
        while i < n {
            let delivered = sink.deliver(UnsafeBufferPointer(start: slots + i, count: n &- i), from: q)
            precondition(
                delivered > 0 && delivered <= n &- i, "a sink must deliver at least one of the slots it is given")
            i &+= delivered
        }
    }

    /// The emptied queue of the last flush, kept for the next (nil during a flush).
    @exclusivity(unchecked) @usableFromInline var spareQueue: DeliveryQueue? = DeliveryQueue()

    /// The queued deliveries, moved out; `queue` is then the spare, empty with its capacity.
    @inlinable @inline(__always) func takeDeliveries() -> DeliveryQueue {
        // A flush from inside a flush (no sink does that) finds no spare: a new one.
        guard var q = spareQueue.take() else { return takeDeliveriesIntoANewQueue() }
        swap(&q, &queue)
        return q
    }

    @usableFromInline @inline(never) func takeDeliveriesIntoANewQueue() -> DeliveryQueue {
        var q = DeliveryQueue()
        swap(&q, &queue)
        return q
    }

    /// Empties `q` (keeping its capacity) and keeps it as the spare for the next flush.
    @inlinable @inline(__always) func returnDeliveries(_ q: consuming DeliveryQueue) {
        q.removeAll()
        // Tested first: known nil (what `takeDeliveries` left), the old value is not released
        // (assigning blindly was a `swift_release` call per flush).
        if case .none = spareQueue { spareQueue = q } else { spareQueue = q }
    }

    /// The tree's generation when the last scene change that was more than a restack was
    /// reported. Every change the tree makes is reported (at once, or at its batch's end,
    /// with the batch's other changes), so the changes since this generation are restacks:
    /// whatever was resolved at or after it about which nodes are alive and whose they are
    /// still holds (`Seat.sceneDidChange(stackingOnly:)` keeps its pointer focus surface).
    @exclusivity(unchecked) var reshapedGeneration: UInt64 = 0

    /// `stackingOnly`: the tree's changes only restacked siblings (`SurfaceTree.sceneObserver`).
    func sceneDidChange(stackingOnly: Bool = false) {
        if raisingInputLockScope { return }
        // Recorded before any seat reacts (a reaction may change the tree again, and the
        // seats after it then see that change's report before this one's).
        if !stackingOnly { reshapedGeneration = tree.generation }
        // A node added or raised at the root while input is locked went above the scope:
        // the scope goes back on top before any seat picks (InputLock.swift).
        if inputLockScope != nil { keepInputLockScopeOnTop() }
        // By index, each seat borrowed: `for s in seats` retained and released the array's
        // buffer and each seat (every click's raise). A seat is never removed.
        var i = 0
        while i < seats.count {
            Unmanaged.passUnretained(seats[i])._withUnsafeGuaranteedRef {
                $0.sceneDidChange(stackingOnly: stackingOnly)
            }
            i += 1
        }
    }
}
