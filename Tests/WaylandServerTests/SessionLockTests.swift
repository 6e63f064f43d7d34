// ext_session_lock_v1 on the raw wire (SessionLock.swift): the events a window and a locker
// see while the session locks and unlocks, and the protocol error the XML names for each
// misuse, after which the compositor goes on serving the others and the session stays as
// the protocol says (locked, unless the locker unlocked it).
import Foundation
import InputRouter
import InputRouterWireClient
import Testing

@testable import InputRouterWayland

/// A wire client on `server` with the seat's pointer and keyboard, reading everything it is
/// sent into `log`, named ("wl_keyboard.key 30 pressed").
final class LockWireClient {
    let server: WaylandServer
    let id: ClientID
    let wire: WireConnection
    let session: WireSession
    let keyboard: UInt32
    let pointer: UInt32
    /// Every event read, in order.
    private(set) var log: [WireEvent] = []

    init(
        _ server: WaylandServer, binding extra: [(String, UInt32)] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        self.server = server
        (id, wire, session) = try server.connectWireClient(
            binding: [("wl_compositor", 5), ("wl_shm", 1), ("wl_seat", 8)] + extra, sourceLocation: sourceLocation)
        pointer = wire.newID("wl_pointer")
        keyboard = wire.newID("wl_keyboard")
        wire.send(session.bound["wl_seat"]!, Op.seatGetPointer, [.uint(pointer)])
        wire.send(session.bound["wl_seat"]!, Op.seatGetKeyboard, [.uint(keyboard)])
        sync()
    }

    /// A sync's round trip: the events sent before its done, named, also kept in `log`.
    @discardableResult
    func sync() -> [String] {
        let callback = wire.newID("wl_callback")
        var new: [WireEvent] = []
        wire.send(1, Op.displaySync, [.uint(callback)])
        session.waitFor { e in
            if e.object != callback { new.append(e) }
            return e.object == callback && e.opcode == 0
        }
        log += new
        return new.compactMap(name)
    }

    /// The input and lock events, by interface and event name (others: nil).
    func name(_ e: WireEvent) -> String? {
        let interface = wire.interfaces[e.object] ?? "?"
        let names: [String: [String]] = [
            "wl_keyboard": ["keymap", "enter", "leave", "key", "modifiers", "repeat_info"],
            "wl_pointer": ["enter", "leave", "motion", "button", "axis", "frame"],
            "ext_session_lock_v1": ["locked", "finished"],
            "ext_session_lock_surface_v1": ["configure"],
            "xdg_popup": ["configure", "popup_done"],
        ]
        guard let list = names[interface], Int(e.opcode) < list.count else { return nil }
        let event = "\(interface).\(list[Int(e.opcode)])"
        if event == "wl_keyboard.key" {
            return event + " \(e.uint(at: 8)) \(e.uint(at: 12) == 1 ? "pressed" : "released")"
        }
        if event == "wl_keyboard.keymap" || event == "wl_keyboard.repeat_info" || event == "wl_keyboard.modifiers" {
            return nil
        }
        if event == "wl_pointer.frame" { return nil }
        return event
    }

    // MARK: Locking

    /// `ext_session_lock_manager_v1.lock`: the new lock's id.
    func lock() -> UInt32 {
        let id = wire.newID("ext_session_lock_v1")
        wire.send(session.bound["ext_session_lock_manager_v1"]!, 1, [.uint(id)])
        return id
    }

    /// A new wl_surface and its `get_lock_surface` on the first output.
    func lockSurface(_ lock: UInt32) -> (surface: UInt32, lockSurface: UInt32) {
        let surface = wire.newID("wl_surface")
        wire.send(session.bound["wl_compositor"]!, Op.compositorCreateSurface, [.uint(surface)])
        let lockSurface = wire.newID("ext_session_lock_surface_v1")
        wire.send(lock, 1, [.uint(lockSurface), .uint(surface), .uint(session.bound["wl_output"]!)])
        return (surface, lockSurface)
    }

    /// The newest configure `lockSurface` was sent: serial, width, height.
    func configure(of lockSurface: UInt32) -> (serial: UInt32, width: Int32, height: Int32)? {
        guard let e = log.last(where: { $0.object == lockSurface && $0.opcode == 0 }) else { return nil }
        return (e.uint(at: 0), Int32(bitPattern: e.uint(at: 4)), Int32(bitPattern: e.uint(at: 8)))
    }

    /// Acks the newest configure and commits a buffer of its size; what the map brought,
    /// after a sync (the server has then mapped it).
    @discardableResult
    func map(_ s: (surface: UInt32, lockSurface: UInt32)) -> [String] {
        sync()
        guard let c = configure(of: s.lockSurface) else { return ["no configure"] }
        wire.send(s.lockSurface, 1, [.uint(c.serial)])
        commitBuffer(s.surface, width: c.width, height: c.height)
        return sync()
    }

    func commitBuffer(_ surface: UInt32, width: Int32, height: Int32) {
        guard let buffer = session.buffer(width: width, height: height) else { return }
        wire.send(surface, Op.surfaceAttach, [.uint(buffer), .int(0), .int(0)])
        wire.send(surface, Op.surfaceCommit)
    }

    /// The protocol error this client got, as "interface code: message".
    var error: String? {
        wire.error.map { "\(wire.interfaces[$0.object] ?? "?") \($0.code): \($0.message)" }
    }
}

@Suite(.serialized) struct SessionLockTests {
    /// A server with a pointer and a keyboard, and a window client whose toplevel (200×200
    /// at 40,40) has the keyboard and the pointer.
    func setUp() throws -> (WaylandServer, LockWireClient, WireSession.Toplevel) {
        var config = WaylandServer.Configuration()
        config.keyboard = usKeyboard
        config.unresponsiveTimeoutMS = 0
        let server = try WaylandServer(configuration: config)
        server.handle(InputEvent(time: 0, device: DeviceID(1), .deviceAdded(.pointer)))
        server.handle(InputEvent(time: 0, device: DeviceID(2), .deviceAdded(.keyboard)))
        let window = try LockWireClient(server, binding: [("xdg_wm_base", 5)])
        let top = try #require(window.session.mapToplevel(width: 200, height: 200))
        server.seat.notifyPointerWarp(time: 100, to: Point(100, 100))
        server.sendDeliveries()
        window.sync()
        return (server, window, top)
    }

    func locker(_ server: WaylandServer, sourceLocation: SourceLocation = #_sourceLocation) throws -> LockWireClient {
        try LockWireClient(
            server, binding: [("wl_output", 4), ("ext_session_lock_manager_v1", 1), ("xdg_wm_base", 5)],
            sourceLocation: sourceLocation)
    }

    var time: UInt64 { UInt64(monotonicMilliseconds()) * 1000 }

    func key(_ server: WaylandServer, _ code: UInt32) {
        server.handle(InputEvent(time: time, device: DeviceID(2), .keyboardKey(key: code, state: .pressed)))
        server.handle(InputEvent(time: time, device: DeviceID(2), .keyboardKey(key: code, state: .released)))
    }

    func click(_ server: WaylandServer, at p: Point) {
        server.seat.notifyPointerWarp(time: time, to: p)
        server.sendDeliveries()
        server.handle(InputEvent(time: time, device: DeviceID(1), .pointerButton(button: 0x110, state: .pressed)))
        server.handle(InputEvent(time: time, device: DeviceID(1), .pointerButton(button: 0x110, state: .released)))
    }

    // MARK: Input while locked

    @Test func keysReachOnlyTheLockSurfaceAndGoBackToTheWindowAtUnlock() throws {
        let (server, window, _) = try setUp()
        key(server, 30)
        #expect(window.sync() == ["wl_keyboard.key 30 pressed", "wl_keyboard.key 30 released"])
        let l = try locker(server)
        let lock = l.lock()
        #expect(l.sync() == ["ext_session_lock_v1.locked"])
        #expect(server.isSessionLocked)
        // The window loses the pointer (the lock node maps over it) and the keyboard at once,
        // before any lock surface.
        #expect(window.sync() == ["wl_pointer.leave", "wl_keyboard.leave"])
        key(server, 31)
        #expect(window.sync() == [])
        let s = l.lockSurface(lock)
        #expect(l.sync() == ["ext_session_lock_surface_v1.configure"])
        #expect(l.configure(of: s.lockSurface).map { [$0.width, $0.height] } == [1280, 720])
        // The first lock surface to map takes the keyboard; the pointer is over it.
        #expect(l.map(s) == ["wl_keyboard.enter", "wl_pointer.enter"])
        key(server, 32)
        #expect(l.sync() == ["wl_keyboard.key 32 pressed", "wl_keyboard.key 32 released"])
        #expect(window.sync() == [])
        // A new toplevel that maps while locked does not take the keyboard.
        let late = try LockWireClient(server, binding: [("xdg_wm_base", 5)])
        _ = try #require(late.session.mapToplevel(width: 100, height: 100))
        key(server, 33)
        #expect(late.sync() == [])
        #expect(l.sync() == ["wl_keyboard.key 33 pressed", "wl_keyboard.key 33 released"])
        // A click anywhere reaches the lock surface, never a window.
        click(server, at: Point(60, 60))
        #expect(window.sync() == [])
        #expect(late.sync() == [])
        #expect(l.sync() == ["wl_pointer.motion", "wl_pointer.button", "wl_pointer.button"])
        // Unlocked: the window that had the keyboard gets it back, and the pointer.
        l.wire.send(lock, 2)
        #expect(l.sync() == ["wl_keyboard.leave", "wl_pointer.leave"])
        #expect(!server.isSessionLocked)
        #expect(window.sync() == ["wl_keyboard.enter", "wl_pointer.enter"])
        key(server, 34)
        #expect(window.sync() == ["wl_keyboard.key 34 pressed", "wl_keyboard.key 34 released"])
        #expect(l.error == nil)
    }

    @Test func aSecondLockWhileLockedIsFinishedAndCannotUnlock() throws {
        let (server, window, _) = try setUp()
        let first = try locker(server)
        let held = first.lock()
        #expect(first.sync() == ["ext_session_lock_v1.locked"])
        let second = try locker(server)
        let refused = second.lock()
        #expect(second.sync() == ["ext_session_lock_v1.finished"])
        // A finished lock may be destroyed; unlock_and_destroy on it is invalid_unlock.
        let again = second.lock()
        #expect(second.sync() == ["ext_session_lock_v1.finished"])
        second.wire.send(refused, 0)
        #expect(second.sync() == [])
        second.wire.send(again, 2)
        second.sync()
        #expect(
            second.error
                == "ext_session_lock_v1 1: unlock_and_destroy on an ext_session_lock_v1 that was never sent locked: destroy it instead"
        )
        // The session is still locked by the first, which is served and unlocks it.
        #expect(server.isSessionLocked)
        key(server, 30)
        #expect(window.sync() == ["wl_pointer.leave", "wl_keyboard.leave"])
        first.wire.send(held, 2)
        first.sync()
        #expect(!server.isSessionLocked)
        #expect(window.sync() == ["wl_keyboard.enter", "wl_pointer.enter"])
        #expect(first.error == nil)
    }

    @Test func aLockerThatDiesLeavesTheSessionLockedUntilANewOneLocks() throws {
        let (server, window, _) = try setUp()
        var dying: LockWireClient? = try locker(server)
        let s = dying!.lockSurface(dying!.lock())
        dying!.map(s)
        #expect(window.sync() == ["wl_pointer.leave", "wl_keyboard.leave"])
        dying = nil // its socket closes: the client is gone
        server.dispatch(timeoutMS: 0)
        #expect(server.isSessionLocked)
        // Blank and locked: nothing reaches the window, a click or a key.
        key(server, 30)
        click(server, at: Point(100, 100))
        #expect(window.sync() == [])
        #expect(server.seat.keyboardFirstResponder == nil)
        // A new locker takes over and can unlock.
        let next = try locker(server)
        let lock = next.lock()
        #expect(next.sync() == ["ext_session_lock_v1.locked"])
        let t = next.lockSurface(lock)
        #expect(next.map(t) == ["wl_keyboard.enter", "wl_pointer.enter"])
        next.wire.send(lock, 2)
        next.sync()
        #expect(window.sync() == ["wl_keyboard.enter", "wl_pointer.enter"])
    }

    @Test func activationAndPopupGrabsDoNothingWhileLocked() throws {
        let (server, window, top) = try setUp()
        let activation = try #require(window.session.bind("xdg_activation_v1", version: 1))
        // A press on the window before the lock: a serial a popup grab may cite.
        click(server, at: Point(100, 100))
        window.sync()
        let pressSerial = try #require(window.session.lastPressSerial)
        let l = try locker(server)
        l.map(l.lockSurface(l.lock()))
        window.sync()
        // A granted token moves nothing while locked.
        let token = server.activationTokens.issue(validSerial: true)
        window.wire.send(activation, 2, [.string(token), .uint(top.surface)])
        window.sync()
        #expect(server.activationLog.last?.outcome == .sessionLocked)
        #expect(server.seat.keyboardFirstResponder.flatMap { server.router.tree.kind(of: $0) } == .lock)
        // A popup grab citing the press is refused: popup_done.
        let wire = window.wire
        let positioner = wire.newID("xdg_positioner")
        wire.send(window.session.bound["xdg_wm_base"]!, Op.wmCreatePositioner, [.uint(positioner)])
        wire.send(positioner, Op.positionerSetSize, [.int(50), .int(50)])
        wire.send(positioner, Op.positionerSetAnchorRect, [.int(0), .int(0), .int(10), .int(10)])
        let surface = wire.newID("wl_surface")
        wire.send(window.session.bound["wl_compositor"]!, Op.compositorCreateSurface, [.uint(surface)])
        let xdg = wire.newID("xdg_surface")
        wire.send(window.session.bound["xdg_wm_base"]!, Op.wmGetXdgSurface, [.uint(xdg), .uint(surface)])
        let popup = wire.newID("xdg_popup")
        wire.send(xdg, Op.xdgSurfaceGetPopup, [.uint(popup), .uint(top.xdgSurface), .uint(positioner)])
        wire.send(popup, Op.popupGrab, [.uint(window.session.bound["wl_seat"]!), .uint(pressSerial)])
        wire.send(surface, Op.surfaceCommit)
        window.sync()
        let configure = try #require(window.log.last { $0.object == xdg && $0.opcode == 0 })
        wire.send(xdg, Op.xdgSurfaceAckConfigure, [.uint(configure.uint(at: 0))])
        window.commitBuffer(surface, width: 50, height: 50)
        #expect(window.sync() == ["xdg_popup.popup_done"])
        #expect(window.error == nil)
    }

    @Test func anOutputAddedWhileLockedIsCoveredAndItsLockSurfaceConfigured() throws {
        let (server, window, _) = try setUp()
        let l = try locker(server)
        let lock = l.lock()
        l.map(l.lockSurface(lock))
        #expect(window.sync() == ["wl_pointer.leave", "wl_keyboard.leave"])
        let added = try #require(server.addOutput(OutputConfiguration(width: 800, height: 600)))
        let frame = try #require(server.router.tree.frame(of: added))
        #expect(frame.x == 1280)
        // The lock node spans both outputs: a click on the new one reaches no window.
        click(server, at: Point(1500, 300))
        #expect(window.sync() == [])
        let node = try #require(server.sessionLockNode)
        #expect(server.router.tree.frame(of: node) == Rect(0, 0, 2080, 720))
        #expect(server.router.tree.hitTest(Point(1500, 300))?.node == node)
        // The locker's surface for it, on that output's wl_output (announced in the registry
        // meanwhile), is sized to it.
        l.sync()
        let announced = try #require(l.log.last { $0.object == l.session.registry && $0.opcode == 0 })
        #expect(announced.string(at: 4).0 == "wl_output")
        let id = l.wire.newID("wl_output")
        l.wire.send(
            l.session.registry, Op.registryBind,
            [.uint(announced.uint(at: 0)), .string("wl_output"), .uint(4), .uint(id)])
        let surface = l.wire.newID("wl_surface")
        l.wire.send(l.session.bound["wl_compositor"]!, Op.compositorCreateSurface, [.uint(surface)])
        let ls = l.wire.newID("ext_session_lock_surface_v1")
        l.wire.send(lock, 1, [.uint(ls), .uint(surface), .uint(id)])
        l.sync()
        #expect(l.configure(of: ls).map { [$0.width, $0.height] } == [800, 600])
        // Mapped under the pointer: it takes the keyboard from the first one, and the pointer.
        #expect(l.map((surface, ls)) == ["wl_keyboard.leave", "wl_keyboard.enter", "wl_pointer.enter"])
        click(server, at: Point(1600, 300))
        #expect(l.sync() == ["wl_pointer.motion", "wl_pointer.button", "wl_pointer.button"])
        #expect(window.sync() == [])
        // A click on the first output's lock surface takes the keyboard there (before the
        // press, as focus on click does for windows).
        click(server, at: Point(100, 100))
        #expect(
            l.sync() == [
                "wl_pointer.leave", "wl_pointer.enter", "wl_pointer.motion",
                "wl_keyboard.leave", "wl_keyboard.enter", "wl_pointer.button", "wl_pointer.button",
            ])
        #expect(window.sync() == [])
        #expect(l.error == nil)
    }

    // MARK: Protocol errors

    /// A locker that did `body` (given its lock) got the error `body` returned (the XML's
    /// error code and the server's message); the session is then as `stillLocked` says,
    /// and the window and a new locker are still served.
    func misuse(
        stillLocked: Bool, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: (LockWireClient, UInt32) -> String
    ) throws {
        let (server, window, _) = try setUp()
        let bad = try locker(server)
        let lock = bad.lock()
        let expected = body(bad, lock)
        bad.sync()
        #expect(bad.error == expected, sourceLocation: sourceLocation)
        server.dispatch(timeoutMS: 0)
        #expect(server.isSessionLocked == stillLocked, sourceLocation: sourceLocation)
        // The others are served: a new locker locks (or takes over) and unlocks, and the
        // window has its keyboard back.
        let good = try locker(server)
        let next = good.lock()
        #expect(good.sync() == ["ext_session_lock_v1.locked"], sourceLocation: sourceLocation)
        good.map(good.lockSurface(next))
        good.wire.send(next, 2)
        good.sync()
        #expect(good.error == nil, sourceLocation: sourceLocation)
        window.sync()
        key(server, 30)
        #expect(
            window.sync() == ["wl_keyboard.key 30 pressed", "wl_keyboard.key 30 released"],
            sourceLocation: sourceLocation)
    }

    @Test func destroyingTheLockWhileLockedIsInvalidDestroyAndTheSessionStaysLocked() throws {
        try misuse(stillLocked: true) { c, lock in
            #expect(c.sync() == ["ext_session_lock_v1.locked"])
            c.wire.send(lock, 0)
            return
                "ext_session_lock_v1 0: ext_session_lock_v1 destroyed while the session is locked: unlock_and_destroy ends a lock"
        }
    }

    @Test func aSurfaceWithAnotherRoleIsRole() throws {
        try misuse(stillLocked: true) { c, lock in
            let surface = c.wire.newID("wl_surface")
            c.wire.send(c.session.bound["wl_compositor"]!, Op.compositorCreateSurface, [.uint(surface)])
            c.wire.send(
                c.session.bound["xdg_wm_base"]!, Op.wmGetXdgSurface,
                [.uint(c.wire.newID("xdg_surface")), .uint(surface)])
            c.wire.send(
                lock, 1,
                [
                    .uint(c.wire.newID("ext_session_lock_surface_v1")), .uint(surface),
                    .uint(c.session.bound["wl_output"]!),
                ])
            return "ext_session_lock_v1 2: wl_surface@\(surface) already has the role xdg_surface"
        }
    }

    @Test func aSurfaceWithABufferIsAlreadyConstructed() throws {
        try misuse(stillLocked: true) { c, lock in
            let surface = c.wire.newID("wl_surface")
            c.wire.send(c.session.bound["wl_compositor"]!, Op.compositorCreateSurface, [.uint(surface)])
            c.commitBuffer(surface, width: 10, height: 10)
            c.wire.send(
                lock, 1,
                [
                    .uint(c.wire.newID("ext_session_lock_surface_v1")), .uint(surface),
                    .uint(c.session.bound["wl_output"]!),
                ])
            return "ext_session_lock_v1 4: wl_surface@\(surface) already has a buffer attached or committed"
        }
    }

    @Test func twoLockSurfacesForOneOutputIsDuplicateOutput() throws {
        try misuse(stillLocked: true) { c, lock in
            _ = c.lockSurface(lock)
            _ = c.lockSurface(lock)
            return "ext_session_lock_v1 3: output OUT-1 already has a lock surface from this lock"
        }
    }

    @Test func aBufferBeforeTheFirstAckIsCommitBeforeFirstAck() throws {
        try misuse(stillLocked: true) { c, lock in
            let s = c.lockSurface(lock)
            #expect(c.sync() == ["ext_session_lock_v1.locked", "ext_session_lock_surface_v1.configure"])
            c.commitBuffer(s.surface, width: 1280, height: 720)
            return
                "ext_session_lock_surface_v1 0: wl_surface@\(s.surface) committed before acknowledging the first configure"
        }
    }

    @Test func aBufferOfAnotherSizeIsDimensionsMismatch() throws {
        try misuse(stillLocked: true) { c, lock in
            let s = c.lockSurface(lock)
            c.sync()
            c.wire.send(s.lockSurface, 1, [.uint(c.configure(of: s.lockSurface)!.serial)])
            c.commitBuffer(s.surface, width: 640, height: 720)
            return
                "ext_session_lock_surface_v1 2: a 640x720 buffer at scale 1 is not the 1280x720 the acknowledged configure asked for"
        }
    }

    @Test func aCommitWithNoBufferIsNullBuffer() throws {
        try misuse(stillLocked: true) { c, lock in
            let s = c.lockSurface(lock)
            c.sync()
            c.wire.send(s.lockSurface, 1, [.uint(c.configure(of: s.lockSurface)!.serial)])
            c.wire.send(s.surface, Op.surfaceCommit)
            return "ext_session_lock_surface_v1 1: wl_surface@\(s.surface) committed with no buffer"
        }
    }

    @Test func anAckOfASerialNeverSentIsInvalidSerial() throws {
        try misuse(stillLocked: true) { c, lock in
            let s = c.lockSurface(lock)
            c.sync()
            let bogus = c.configure(of: s.lockSurface)!.serial &+ 1000
            c.wire.send(s.lockSurface, 1, [.uint(bogus)])
            return
                "ext_session_lock_surface_v1 3: serial \(bogus) was not sent in a configure, or was acknowledged already"
        }
    }

    @Test func unlockAndDestroyBeforeLockedIsInvalidUnlock() throws {
        // The first lock of a session is sent `locked` at once, so the lock never locked is a
        // second one, refused while a live locker holds the session.
        let (server, _, _) = try setUp()
        let holder = try locker(server)
        _ = holder.lock()
        #expect(holder.sync() == ["ext_session_lock_v1.locked"])
        let bad = try locker(server)
        let refused = bad.lock()
        #expect(bad.sync() == ["ext_session_lock_v1.finished"])
        bad.wire.send(refused, 2)
        bad.sync()
        #expect(
            bad.error
                == "ext_session_lock_v1 1: unlock_and_destroy on an ext_session_lock_v1 that was never sent locked: destroy it instead"
        )
        #expect(server.isSessionLocked)
        #expect(holder.sync() == [])
        #expect(holder.error == nil)
    }
}
