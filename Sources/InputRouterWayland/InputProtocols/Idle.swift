// `ext_idle_notifier_v1` (idle notifications) and `zwp_idle_inhibit_manager_v1` (surfaces
// that keep the session awake: a video player).
//
// Every routed input event counts as activity on its seat (`WaylandServer.handle`): a
// notification made for one `wl_seat` goes idle and resumes with that seat's input only. On that path the
// server only stores the time, and sends `resumed` to notifications that were idle; the one
// event-loop timer is never touched there. When the timer fires it works out, from the last
// activity, which notifications' timeouts have passed (`idled`) and rearms itself for the
// nearest remaining one. While a mapped surface has an inhibitor no notification goes idle;
// when the last such surface unmaps or its inhibitor goes, the timeouts start again from then.
//
// Unsafe idioms, and why: the idle state holds its server `unowned(unsafe)`, as every protocol
// object does (Object.swift): the server's deinit destroys the clients, and their resources'
// destruction reaches here, where a checked `unowned` reference traps (WaylandServerTests
// crashed with "Attempted to read an unowned reference" when it was one) and a strong one
// would be a cycle through the server's tables.
import CWaylandProtocolsServer
import CWaylandServer
import Foundation
import InputRouter

/// Milliseconds of CLOCK_MONOTONIC, without wrapping.
func monotonicMilliseconds64() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1000 &+ UInt64(ts.tv_nsec / 1_000_000)
}

final class IdleState {
    unowned(unsafe) let server: WaylandServer
    /// The clock timeouts are measured on (milliseconds); tests may replace it.
    var clock: () -> UInt64 = monotonicMilliseconds64
    private(set) var notifications: [IdleNotificationObject] = []
    private(set) var inhibitors: [IdleInhibitorObject] = []
    /// Whether any notification exists: the input path checks this one flag.
    private(set) var watching = false { didSet { server.idleWatching = watching } }
    /// When each seat last saw input (or the timeouts last restarted), by seat index: one
    /// entry per seat a notification was made for.
    private(set) var lastActivity: [UInt64] = [0]
    private var idleCount = 0
    /// Whether a mapped surface inhibits idleness.
    private(set) var inhibited = false
    private var timer: OpaquePointer?
    private var timerArmed = false

    init(server: WaylandServer) { self.server = server }

    func stop() {
        if let timer { wl_event_source_remove(timer) }
        timer = nil
    }

    // MARK: Activity (the input path)

    /// An input event was routed on seat `index`. No allocation, no timer update: a store
    /// and a compare.
    @inline(__always) func inputArrived(seat index: Int) {
        guard index < lastActivity.count else { return } // no notification for this seat
        lastActivity[index] = clock()
        if idleCount > 0 { resume(seat: index) }
    }

    private func resume(seat index: Int) {
        for n in notifications where n.isIdle && n.seatIndex == index {
            n.send(idle: false)
            idleCount -= 1
        }
        arm()
    }

    // MARK: Notifications

    func add(_ notification: IdleNotificationObject) {
        while lastActivity.count <= notification.seatIndex { lastActivity.append(0) }
        notifications.append(notification)
        watching = true
        arm()
    }

    func remove(_ notification: IdleNotificationObject) {
        if notification.isIdle { idleCount -= 1 }
        notifications.removeAll { $0 === notification }
        watching = !notifications.isEmpty
    }

    /// The timer fired: every notification whose timeout passed since the last activity (and
    /// since it was created) becomes idle; the timer rearms for the nearest one still waiting.
    fileprivate func timerFired() {
        timerArmed = false
        arm()
    }

    /// Sends what is due and arms the timer for what is not.
    private func arm() {
        guard !inhibited, !server.shuttingDown else { return }
        let now = clock()
        var nearest: UInt64?
        for n in notifications where !n.isIdle {
            let deadline = max(lastActivity[n.seatIndex], n.createdMS) &+ n.timeoutMS
            if now >= deadline {
                n.send(idle: true)
                idleCount += 1
            } else {
                nearest = min(nearest ?? .max, deadline - now)
            }
        }
        guard let nearest else { return }
        if timer == nil {
            timer = wl_event_loop_add_timer(server.eventLoop, idleTimerFired, CallbackContext.unretained(self))
        }
        // Armed for the nearest deadline; input since only moves deadlines later, so an early
        // firing just rearms.
        wl_event_source_timer_update(timer, Int32(clamping: max(nearest, 1)))
        timerArmed = true
    }

    // MARK: Inhibitors

    func add(_ inhibitor: IdleInhibitorObject) {
        inhibitors.append(inhibitor)
        updateInhibition()
    }

    func remove(_ inhibitor: IdleInhibitorObject) {
        inhibitors.removeAll { $0 === inhibitor }
        updateInhibition()
    }

    /// Whether an inhibitor's surface is mapped; called after each client request while
    /// inhibitors exist (maps and unmaps come from requests) and when one goes away.
    func updateInhibition() {
        let tree = server.router.tree
        let now = inhibitors.contains { $0.surface?.node.map(tree.isVisible) ?? false }
        guard now != inhibited else { return }
        inhibited = now
        if now {
            if timerArmed { wl_event_source_timer_update(timer, 0) }
            timerArmed = false
        } else {
            // Released: the timeouts count from now.
            let now = clock()
            for i in lastActivity.indices { lastActivity[i] = now }
            arm()
        }
    }

    var hasInhibitors: Bool { !inhibitors.isEmpty }
}

private let idleTimerFired: wl_event_loop_timer_func_t = { data in
    CallbackContext.borrowed(data!, as: IdleState.self).timerFired()
    return 0
}

final class IdleNotifierObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ExtIdleNotifierV1Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource()
        case .getIdleNotification(let id, let timeout, let seat): // get_idle_notification(id, timeout, seat)
            let timeout = UInt64(timeout)
            let seatIndex = server.seatIndex(from: seat.object(as: SeatObject.self))
            guard
                let n = server.createObject(
                    .extIdleNotificationV1, client: owner, version: version, id: id,
                    {
                        IdleNotificationObject(
                            server: server, owner: owner, resource: $0, timeoutMS: timeout,
                            createdMS: server.idle.clock(), seatIndex: seatIndex)
                    })
            else { return }
            server.idle.add(n)
        }
    }
}

final class IdleNotificationObject: WaylandObject {
    let timeoutMS: UInt64
    let createdMS: UInt64
    /// The seat whose input it watches.
    let seatIndex: Int
    private(set) var isIdle = false

    init(
        server: WaylandServer, owner: ClientState, resource: ResourcePointer, timeoutMS: UInt64, createdMS: UInt64,
        seatIndex: Int
    ) {
        self.timeoutMS = timeoutMS
        self.createdMS = createdMS
        self.seatIndex = seatIndex
        super.init(server: server, owner: owner, resource: resource)
    }

    func send(idle: Bool) {
        isIdle = idle
        if idle {
            ext_idle_notification_v1_send_idled(resource)
        } else {
            ext_idle_notification_v1_send_resumed(resource)
        }
    }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ExtIdleNotificationV1Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource()
        }
    }

    override func resourceDestroyed() { server.idle.remove(self) }
}

final class IdleInhibitManagerObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpIdleInhibitManagerV1Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource() // inhibitors made with it live on
        case .createInhibitor(let id, let surface): // create_inhibitor(id, surface)
            guard let surface = surface.object(as: Surface.self),
                let inhibitor = server.createObject(
                    .zwpIdleInhibitorV1, client: owner, version: version, id: id,
                    {
                        IdleInhibitorObject(server: server, owner: owner, resource: $0, surface: surface)
                    })
            else { return }
            server.idle.add(inhibitor)
        }
    }
}

final class IdleInhibitorObject: WaylandObject {
    /// Weak: a destroyed surface inhibits nothing, and its inhibitor lingers inert.
    weak var surface: Surface?

    init(server: WaylandServer, owner: ClientState, resource: ResourcePointer, surface: Surface) {
        self.surface = surface
        super.init(server: server, owner: owner, resource: resource)
    }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpIdleInhibitorV1Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource()
        }
    }

    override func resourceDestroyed() { server.idle.remove(self) }
}
