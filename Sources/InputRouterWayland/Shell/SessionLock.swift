// `ext_session_lock_manager_v1`, `ext_session_lock_v1` and `ext_session_lock_surface_v1`
// (wayland-protocols 1.31, staging): a lock screen (swaylock) locks the session, shows a
// surface on each output, and unlocks it once the user authenticated.
//
// The scene: one compositor node, "lock", a child of the root kept above everything
// (`Router.lockInput(to:)` keeps it on top) and spanning the outputs' bounding box; it takes
// every event that reaches it and does nothing with it, so a press where there is no lock
// surface goes nowhere. The lock surfaces are its children, each at its output's place, and
// their chains end at it too. Made at the first lock, unmapped while unlocked.
//
// The input rules (docs/wayland.md): while locked, input is locked to that node (InputLock.swift
// in the core): keys, pointer, touch, tablets and gestures reach only lock surfaces; the
// compositor's bindings are off but those added `whileLocked`; selection offers and text input
// follow the keyboard, so only the locker gets them; activation tokens move nothing; a new
// window does not take the keyboard; a popup grab is refused (`popup_done`). The keyboard goes
// to the first lock surface that maps, to the one on the output under the pointer when it
// maps, and to the one clicked; a click decides until the lock ends. A lock surface that goes
// hands the keyboard to another lock surface, never to a window.
//
// Who unlocks: only `unlock_and_destroy` from the client that got `locked`. A locker that
// dies (or is disconnected for a protocol error) leaves the session locked and blank: the
// node still takes all input. A new client may then lock it (it gets `locked`); while a live
// locker holds it, a second lock gets `finished`. Unlocking gives each seat's keyboard back
// to the surface that had it when the session locked (raised and activated, as a click would).
import CShim
import CWaylandProtocolsServer
import CWaylandServer
import InputRouter

/// The session lock as the server keeps it.
final class SessionLockState {
    /// The compositor node "lock" (see the top of SessionLock.swift); nil before the first lock.
    var node: NodeID?
    /// Whether the session is locked: input is locked to `node`. Read on every press (the
    /// capture phase, `pressHook`): no dynamic exclusivity check (one thread, no access open).
    var isLocked = false
    /// The lock object that was sent `locked` while its client lives; nil while unlocked
    /// and once that client is gone (the session then stays locked).
    weak var locker: SessionLockObject?
    /// Each seat's keyboard focus when the session locked (by seat index), given back at unlock.
    var focusBeforeLock: [NodeID?] = []
    /// The seats (by index) whose keyboard went to a lock surface the user clicked: a lock
    /// surface mapping later does not take it from there.
    var clicked: Set<Int> = []
}

/// `ext_session_lock_manager_v1`: asks for the session to be locked.
final class SessionLockManagerObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ExtSessionLockManagerV1Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource() // locks made with it live on
        case .lock(let id): // lock(id)
            guard
                let lock = server.createObject(
                    .extSessionLockV1, client: owner, version: version, id: id,
                    {
                        SessionLockObject(server: server, owner: owner, resource: $0)
                    })
            else { return }
            server.lockSession(lock)
        }
    }
}

/// `ext_session_lock_v1`: one attempt to lock; the locker's handle while it holds the lock.
final class SessionLockObject: WaylandObject {
    /// `locked` was sent: only `unlock_and_destroy` may end this object now.
    var lockedSent = false
    /// Its lock surfaces, one per output at most (`duplicate_output`).
    var surfaces: [WeakLockSurface] = []

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ExtSessionLockV1Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: // destroy
            guard !lockedSent else {
                return postError(
                    EXT_SESSION_LOCK_V1_ERROR_INVALID_DESTROY.rawValue,
                    "ext_session_lock_v1 destroyed while the session is locked: unlock_and_destroy ends a lock")
            }
            destroyResource()
        case .getLockSurface(let id, let surface, let output): // get_lock_surface(id, surface, output)
            guard let surface = surface.object(as: Surface.self),
                let output = output.object(as: OutputObject.self)?.output
            else {
                return
            }
            guard case .none = surface.role else {
                return postError(
                    EXT_SESSION_LOCK_V1_ERROR_ROLE.rawValue,
                    "wl_surface@\(wl_resource_get_id(surface.resource)) already has the role \(surface.roleName)")
            }
            guard !surface.hasBuffer, !surface.pending.bufferAttached || surface.pending.buffer == nil else {
                return postError(
                    EXT_SESSION_LOCK_V1_ERROR_ALREADY_CONSTRUCTED.rawValue,
                    "wl_surface@\(wl_resource_get_id(surface.resource)) already has a buffer attached or committed")
            }
            surfaces.removeAll { $0.object == nil }
            guard !surfaces.contains(where: { $0.object?.output === output }) else {
                return postError(
                    EXT_SESSION_LOCK_V1_ERROR_DUPLICATE_OUTPUT.rawValue,
                    "output \(output.name) already has a lock surface from this lock")
            }
            guard
                let lockSurface = server.createObject(
                    .extSessionLockSurfaceV1, client: owner, version: version,
                    id: id,
                    {
                        LockSurfaceObject(
                            server: server, owner: owner, resource: $0, lock: self, surface: surface, output: output)
                    })
            else { return }
            surface.role = .lock(lockSurface)
            surfaces.append(WeakLockSurface(object: lockSurface))
            if isLocker { lockSurface.placeInScene() }
            lockSurface.sendConfigure()
        case .unlockAndDestroy: // unlock_and_destroy
            guard lockedSent else {
                return postError(
                    EXT_SESSION_LOCK_V1_ERROR_INVALID_UNLOCK.rawValue,
                    "unlock_and_destroy on an ext_session_lock_v1 that was never sent locked: destroy it instead")
            }
            server.unlockSession(by: self)
            destroyResource()
        }
    }

    /// Whether this is the lock the session is locked by.
    var isLocker: Bool { server.sessionLock.locker === self }

    func sendLocked() {
        lockedSent = true
        ext_session_lock_v1_send_locked(resource)
    }

    func sendFinished() { ext_session_lock_v1_send_finished(resource) }

    override func resourceDestroyed() {
        // Gone without unlocking (its client died, or was disconnected for an error): the
        // session stays locked, with no locker, until a new one locks it.
        if isLocker { server.sessionLock.locker = nil }
    }
}

struct WeakLockSurface { weak var object: LockSurfaceObject? }

/// `ext_session_lock_surface_v1`: the locker's surface on one output, sized to it.
final class LockSurfaceObject: WaylandObject {
    let surface: Surface
    weak var lock: SessionLockObject?
    let output: ServedOutput
    /// Configures sent and not yet acknowledged, oldest first: serial and size.
    private var sentConfigures: [(serial: UInt32, width: Int32, height: Int32)] = []
    /// The size of the configure acknowledged last; nil before the first ack.
    private(set) var acknowledgedSize: (width: Int32, height: Int32)?
    /// The size last configured, sent again only when the output's changes.
    private var configuredSize: (width: Int32, height: Int32)?

    init(
        server: WaylandServer, owner: ClientState, resource: ResourcePointer, lock: SessionLockObject, surface: Surface,
        output: ServedOutput
    ) {
        self.surface = surface
        self.lock = lock
        self.output = output
        super.init(server: server, owner: owner, resource: resource)
    }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ExtSessionLockSurfaceV1Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource()
        case .ackConfigure(let serial): // ack_configure(serial)
            guard let i = sentConfigures.firstIndex(where: { $0.serial == serial }) else {
                return postError(
                    EXT_SESSION_LOCK_SURFACE_V1_ERROR_INVALID_SERIAL.rawValue,
                    "serial \(serial) was not sent in a configure, or was acknowledged already")
            }
            acknowledgedSize = (sentConfigures[i].width, sentConfigures[i].height)
            sentConfigures.removeFirst(i + 1) // it and every older one
        }
    }

    /// A configure with the output's size, if it is not the size last sent. A removed
    /// output has none: its surface waits, inert, for the client to destroy it.
    func sendConfigure() {
        guard !output.removed, let f = server.router.tree.frame(of: output.node) else { return }
        if let c = configuredSize, c == (f.width, f.height) { return }
        configuredSize = (f.width, f.height)
        let serial = server.nextSerial()
        if sentConfigures.count == ConfigureSerials.capacity { sentConfigures.removeFirst() }
        sentConfigures.append((serial, f.width, f.height))
        ext_session_lock_surface_v1_send_configure(resource, serial, UInt32(f.width), UInt32(f.height))
    }

    /// Gives the surface its node under the lock node, at its output's place (unmapped until
    /// a commit with a buffer after the first ack).
    func placeInScene() {
        let tree = server.router.tree
        guard surface.node == nil, !output.removed, let lockNode = server.sessionLock.node,
            let place = server.lockSurfacePlace(of: output)
        else { return }
        let node = tree.createNode(
            .lock, name: "lock surface \(output.name)", client: owner.id, parent: lockNode,
            frame: Rect(place.x, place.y, 0, 0))
        // Whatever the locker does not take ends at the lock node (which takes it), not at
        // the client responder and the seat's handler.
        tree.setNextResponder(node, lockNode)
        surface.attachNode(node)
    }

    /// Called before a commit is applied; false when it was a protocol error.
    func checkCommit(_ state: SurfaceState) -> Bool {
        // An inert lock surface (its lock ended, or it never held the session) is not shown:
        // what it commits matters to nobody.
        guard lock?.isLocker == true else { return true }
        guard let size = acknowledgedSize else {
            postError(
                EXT_SESSION_LOCK_SURFACE_V1_ERROR_COMMIT_BEFORE_FIRST_ACK.rawValue,
                "wl_surface@\(wl_resource_get_id(surface.resource)) committed before acknowledging the first configure")
            return false
        }
        let buffer = state.bufferAttached ? state.buffer : nil
        guard state.bufferAttached ? buffer != nil : surface.hasBuffer else {
            postError(
                EXT_SESSION_LOCK_SURFACE_V1_ERROR_NULL_BUFFER.rawValue,
                "wl_surface@\(wl_resource_get_id(surface.resource)) committed with no buffer")
            return false
        }
        // The surface's size is its buffer's over its scale (shm buffers: the only kind served).
        var pixels = (width: surface.bufferWidth, height: surface.bufferHeight)
        if let b = buffer {
            guard let shm = wl_shm_buffer_get(b) else { return true }
            pixels = (wl_shm_buffer_get_width(shm), wl_shm_buffer_get_height(shm))
        }
        let scale = max(state.scale, 1)
        if (pixels.width / scale, pixels.height / scale) != size {
            postError(
                EXT_SESSION_LOCK_SURFACE_V1_ERROR_DIMENSIONS_MISMATCH.rawValue,
                "a \(pixels.width)x\(pixels.height) buffer at scale \(scale) is not the \(size.width)x\(size.height) the acknowledged configure asked for"
            )
            return false
        }
        return true
    }

    /// After a commit: mapped once it has a buffer and acknowledged a configure, while its
    /// lock holds the session.
    func updateMapping() {
        guard let node = surface.node else { return }
        let tree = server.router.tree
        let mapped = surface.hasBuffer && acknowledgedSize != nil && lock?.isLocker == true
        let wasMapped = tree.isMapped(node)
        tree.setMapped(node, mapped)
        if mapped && !wasMapped { server.lockSurfaceMapped(node, on: output) }
    }

    /// Leaves the scene (the lock ended, its output went, or the client let it go); the
    /// keyboard it had goes to another lock surface.
    func leaveScene() {
        guard surface.node != nil else { return }
        surface.destroyNode()
        server.giveKeyboardsToALockSurface()
    }

    override func resourceDestroyed() {
        if case .lock(let l) = surface.role, l === self { surface.role = .none }
        leaveScene()
    }
}

extension WaylandServer {
    /// Whether the session is locked (`ext_session_lock_v1`): input reaches only lock surfaces.
    public var isSessionLocked: Bool { sessionLock.isLocked }

    /// The compositor node the session lock puts over everything (nil before the first
    /// lock); a renderer fills it with an opaque colour while it is mapped: the blank screen
    /// under the lock surfaces.
    public var sessionLockNode: NodeID? { sessionLock.node }

    /// `ext_session_lock_manager_v1.lock`: `finished` while a live locker holds the session,
    /// else the session locks (or stays locked, under this new locker) and `lock` gets `locked`.
    func lockSession(_ lock: SessionLockObject) {
        if let locker = sessionLock.locker, locker.owner.alive { return lock.sendFinished() }
        sessionLock.locker = lock
        if !sessionLock.isLocked {
            sessionLock.focusBeforeLock = router.seats.map(\.keyboardFirstResponder)
            sessionLock.clicked = []
            let tree = router.tree
            let node = sessionLock.node ?? makeLockNode()
            tree.batchUpdates {
                fitLockNodeToOutputs()
                tree.setMapped(node, true)
                tree.raiseToTop(node)
            }
            sessionLock.isLocked = true
            router.lockInput(to: node)
            sendDeliveries()
        }
        lock.sendLocked()
    }

    /// `unlock_and_destroy` from the locker: input is free again, the lock surfaces leave the
    /// scene, and each seat's keyboard goes back to the surface it had before the lock.
    func unlockSession(by lock: SessionLockObject) {
        guard sessionLock.locker === lock, sessionLock.isLocked else { return }
        sessionLock.locker = nil
        sessionLock.isLocked = false
        router.unlockInput()
        // The lock node first, with every lock surface in it: the keyboard and the pointer
        // leave them at once for the windows (one by one, the keyboard would visit each).
        if let node = sessionLock.node { router.tree.setMapped(node, false) }
        sendDeliveries()
        for s in lock.surfaces { s.object?.leaveScene() }
        let tree = router.tree
        for (i, seat) in router.seats.enumerated() where i < sessionLock.focusBeforeLock.count {
            guard let f = sessionLock.focusBeforeLock[i], tree.isVisible(f) else { continue }
            // Through the activation path: raised, and its toplevel's `activated` configure.
            if toplevelNode(of: f) != nil { activate(f, seat: seat) } else { seat.setKeyboardFocus(f) }
        }
        sessionLock.focusBeforeLock = []
        // A launcher or prompt that opened with exclusive keyboard interactivity while the
        // session was locked got no keyboard then (LayerShell.swift): it takes it now.
        layerKeyboardChanged()
        sendDeliveries()
    }

    /// A lock surface mapped: it takes the keyboard of each seat whose keyboard is on no lock
    /// surface (the first to map) and of each seat whose pointer is on its output, unless
    /// the user clicked a lock surface of that seat.
    func lockSurfaceMapped(_ node: NodeID, on output: ServedOutput) {
        let tree = router.tree
        let frame = outputFrame(output)
        for (i, seat) in router.seats.enumerated() {
            let onLockSurface = seat.keyboardFirstResponder.map { tree.kind(of: $0) == .lock } ?? false
            let c = seat.cursor
            let underPointer =
                c.x >= Double(frame.x) && c.y >= Double(frame.y)
                && c.x < Double(frame.x) + Double(frame.width) && c.y < Double(frame.y) + Double(frame.height)
            if !onLockSurface || (underPointer && !sessionLock.clicked.contains(i)) { seat.setKeyboardFocus(node) }
        }
    }

    /// A press on a lock surface (or one of its subsurfaces): that seat's keyboard goes there
    /// (the press's capture phase, `pressHook`).
    func lockSurfacePressed(_ node: NodeID, seat: Seat) {
        let tree = router.tree
        var n: NodeID? = node
        while let c = n, tree.kind(of: c) != .lock { n = tree.parent(of: c) }
        guard let surface = n else { return }
        sessionLock.clicked.insert(Int(seat.id.index))
        seat.setKeyboardFocus(surface)
    }

    /// Seats whose keyboard is with nobody while locked (their lock surface went) get the
    /// first mapped lock surface, if there is one.
    func giveKeyboardsToALockSurface() {
        guard sessionLock.isLocked, let lockNode = sessionLock.node else { return }
        let tree = router.tree
        guard let first = tree.children(of: lockNode).first(where: { tree.kind(of: $0) == .lock && tree.isVisible($0) })
        else {
            return
        }
        for seat in router.seats where seat.keyboardFirstResponder == nil { seat.setKeyboardFocus(first) }
    }

    /// Where a lock surface on `output` goes, relative to the lock node.
    func lockSurfacePlace(of output: ServedOutput) -> (x: Int32, y: Int32)? {
        guard let lockNode = sessionLock.node, let l = router.tree.frame(of: lockNode),
            let o = router.tree.frame(of: output.node)
        else { return nil }
        return (o.x &- l.x, o.y &- l.y)
    }

    /// The lock node, made at the first lock: it takes every event that reaches it and does
    /// nothing with it.
    private func makeLockNode() -> NodeID {
        let node = router.tree.createNode(.compositor, name: "lock")
        router.tree.setHandler(node, name: "session lock") { _ in .handled }
        sessionLock.node = node
        return node
    }

    /// The lock node spans the bounding box of the outputs.
    private func fitLockNodeToOutputs() {
        guard let node = sessionLock.node else { return }
        let box = OutputLayout(servedOutputs.map(outputFrame)).boundingBox
        router.tree.move(node, to: (box.x, box.y))
        router.tree.resize(node, width: box.width, height: box.height)
    }

    /// An output was added, removed or resized while locked: the lock node spans the outputs
    /// again, each lock surface moves to its output's place (and is told a new size), and
    /// the lock surfaces of a removed output leave the scene.
    func sessionLockFollowOutputs() {
        guard sessionLock.isLocked else { return }
        let tree = router.tree
        let surfaces = sessionLock.locker?.surfaces.compactMap(\.object) ?? []
        tree.batchUpdates {
            fitLockNodeToOutputs()
            for l in surfaces where !l.output.removed {
                if let node = l.surface.node, let p = lockSurfacePlace(of: l.output) { tree.move(node, to: p) }
            }
        }
        for l in surfaces {
            if l.output.removed { l.leaveScene() } else { l.sendConfigure() }
        }
    }
}
