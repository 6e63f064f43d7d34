// swaylock 1.7.2 (Debian 12) against the server's ext_session_lock_v1, run as a test user
// with a known password, over a wev window that has the keyboard: typed keys reach
// swaylock and nothing reaches wev; `kill -9` of swaylock leaves the session locked and wev
// still gets nothing; a new swaylock takes over; the right password unlocks (swaylock exits
// 0) and wev has the keyboard again.
import Foundation
import Glibc
import InputRouter
import TestSupport
import Testing

@testable import InputRouterWayland

/// The test user swaylock runs as, and its password (lowercase letters and digits: typed as
/// evdev codes on the `us` keymap).
private let lockUser = "irlocktest"
private let lockPassword = "lockme42"
private let evdevCodes: [Character: UInt32] = [
    "l": 38, "o": 24, "c": 46, "k": 37, "m": 50, "e": 18, "4": 5, "2": 3, "x": 45,
]

/// Runs a command as root (the tests do: they serve clients as another user too).
@discardableResult
private func run(_ path: String, _ arguments: [String], input: String? = nil) throws -> Int32 {
    try ChildProcess.run(path, arguments, input: Array((input ?? "").utf8)).status
}

@Suite(.serialized) struct SwaylockRealClientTests {
    /// The test user exists with the known password, and may reach the server's socket:
    /// it owns the runtime directory (root still can use it) and the socket.
    func prepareUser(socket: String) throws {
        if getpwnam(lockUser) == nil {
            try #require(
                try run(
                    "/usr/sbin/useradd",
                    [
                        "--no-create-home", "--home-dir", "/nonexistent", "--shell",
                        "/usr/sbin/nologin", lockUser,
                    ]) == 0, "useradd \(lockUser)")
        }
        try #require(try run("/usr/sbin/chpasswd", [], input: "\(lockUser):\(lockPassword)\n") == 0, "chpasswd")
        let user = try #require(getpwnam(lockUser)).pointee
        try #require(chown(runtimeDirectory, user.pw_uid, user.pw_gid) == 0, "chown \(runtimeDirectory)")
        try #require(chown(runtimeDirectory + "/" + socket, user.pw_uid, user.pw_gid) == 0, "chown the socket")
    }

    /// swaylock as the test user (setpriv keeps the environment: the runtime directory and
    /// the socket), with its debug log, and no configuration file but /dev/null.
    func startSwaylock(_ h: ServerHarness) throws -> ClientProcess {
        try h.spawn(
            "/usr/bin/setpriv",
            [
                "--reuid=\(lockUser)", "--regid=\(lockUser)", "--init-groups", "--",
                "/usr/bin/swaylock", "--debug", "--config", "/dev/null",
            ],
            environment: ["HOME": "/nonexistent"])
    }

    /// Dispatches until a lock surface of a live locker is mapped and has the keyboard.
    func awaitLockSurfaceWithKeyboard(
        _ h: ServerHarness, _ swaylock: ClientProcess,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try #require(
            h.dispatch(
                until: "swaylock to lock and map a lock surface with the keyboard", timeout: 30,
                sourceLocation: sourceLocation
            ) {
                let tree = h.server.router.tree
                return h.server.sessionLock.locker != nil
                    && h.server.seat.keyboardFirstResponder.map { tree.kind(of: $0) == .lock && tree.isVisible($0) }
                        == true
            }, "swaylock said:\n\(swaylock.lines.joined(separator: "\n"))", sourceLocation: sourceLocation)
    }

    func type(_ h: ServerHarness, _ text: String) {
        for c in text {
            h.key(evdevCodes[c]!, .pressed)
            h.key(evdevCodes[c]!, .released)
        }
    }

    /// wev's lines about its keyboard (enter, leave, key, modifiers).
    func keyboardLines(_ lines: [String]) -> [String] { lines.filter { $0.contains("wl_keyboard]") } }

    @Test func swaylockTakesEveryKeyFromAWevWindowAndGivesItBackWhenUnlocked() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/swaylock"),
            "swaylock is not installed: make deps (APT_PACKAGES) installs it")
        let h = try ServerHarness()
        try prepareUser(socket: h.socket)
        // Which client each key went to: the lock surfaces' or another's.
        var keyTargets: [NodeKind] = []
        let tree = h.server.router.tree // not the harness: the observer would keep it alive
        h.server.deliveryObserver = { d, _ in
            if case .key(_, let node, _, _, .pressed, _) = d { keyTargets.append(tree.kind(of: node) ?? .root) }
        }

        let wev = try h.spawn("/usr/bin/stdbuf", ["-oL", "/usr/bin/wev"])
        let (_, frame) = try #require(
            h.mappedToplevel(), "wev never mapped a window:\n\(wev.lines.joined(separator: "\n"))")
        h.warp(Double(frame.x) + 10, Double(frame.y) + 10)
        h.key(45, .pressed)
        h.key(45, .released) // x: wev has the keyboard before the lock
        let before = h.settle(wev, until: "wev to print the key") { $0.contains("key: 53; state: 0 (released)") }
        #expect(keyboardLines(before).contains { $0.contains("key: 53; state: 1 (pressed)") })

        // Locked: wev loses the keyboard, and every key typed goes to swaylock.
        let first = try startSwaylock(h)
        try awaitLockSurfaceWithKeyboard(h, first)
        #expect(h.server.isSessionLocked)
        keyTargets = []
        type(h, "lock")
        var after = keyboardLines(h.settleForeign(wev))
        #expect(after.count == 1 && after.first?.contains("leave") == true, "wev's keyboard lines: \(after)")
        #expect(keyTargets == [.lock, .lock, .lock, .lock])

        // kill -9: the session stays locked; keys reach nobody, wev least of all.
        kill(first.process.processIdentifier, SIGKILL)
        first.process.waitUntilExit()
        try #require(
            h.dispatch(until: "the server to see swaylock gone", timeout: 10) { h.server.sessionLock.locker == nil })
        #expect(h.server.isSessionLocked)
        keyTargets = []
        type(h, "xx")
        h.button(.pressed)
        h.button(.released)
        after = h.settleForeign(wev)
        #expect(keyboardLines(after) == [])
        #expect(!after.contains { $0.contains("wl_pointer]") }, "wev got pointer events while locked: \(after)")
        #expect(keyTargets == [])

        // A new swaylock takes over (locked, not finished), and the right password unlocks.
        let second = try startSwaylock(h)
        try awaitLockSurfaceWithKeyboard(h, second)
        keyTargets = []
        type(h, lockPassword)
        h.key(28, .pressed)
        h.key(28, .released) // Return
        #expect(keyTargets == Array(repeating: NodeKind.lock, count: lockPassword.count + 1))
        try #require(
            h.dispatch(until: "swaylock to check the password and exit", timeout: 30) { !second.process.isRunning },
            "swaylock said:\n\(second.lines.joined(separator: "\n"))")
        #expect(second.process.terminationStatus == 0, "swaylock said:\n\(second.lines.joined(separator: "\n"))")
        #expect(!h.server.isSessionLocked)
        // The keyboard is wev's again: its enter, then its keys.
        // (Already read, maybe: waiting for swaylock to exit polled every client.)
        h.dispatch(until: "wev to get the keyboard back") {
            wev.lines[wev.mark...].contains { $0.contains("wl_keyboard] enter") }
        }
        let back = wev.take()
        #expect(keyboardLines(back).filter { $0.contains("key:") }.isEmpty, "wev got keys while locked: \(back)")
        h.key(45, .pressed)
        h.key(45, .released)
        let typed = h.settle(wev, until: "wev to print the key after unlocking") {
            $0.contains("key: 53; state: 0 (released)")
        }
        #expect(keyboardLines(typed).contains { $0.contains("key: 53; state: 1 (pressed)") })
    }

    /// A launcher opened while the session is locked (fuzzel: exclusive keyboard
    /// interactivity on the overlay layer) gets no keyboard and no key: the password goes to
    /// swaylock alone (the bug of sway PR #9172, swaylock#204). Once unlocked, it has the
    /// keyboard it asked for.
    @Test func aLauncherOpenedWhileLockedGetsNoKeyUntilUnlocked() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/swaylock"), "swaylock is not installed (make deps)")
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/fuzzel"), "fuzzel is not installed (make deps)")
        let h = try ServerHarness()
        try prepareUser(socket: h.socket)
        var keyTargets: [NodeKind] = []
        let tree = h.server.router.tree
        h.server.deliveryObserver = { d, _ in
            if case .key(_, let node, _, _, .pressed, _) = d { keyTargets.append(tree.kind(of: node) ?? .root) }
        }
        let swaylock = try startSwaylock(h)
        try awaitLockSurfaceWithKeyboard(h, swaylock)
        let fuzzel = try h.spawn("/usr/bin/fuzzel", ["--dmenu"])
        for entry in ["apple", "banana"] { fuzzel.send(entry) }
        fuzzel.closeInput()
        try #require(
            h.dispatch(until: "fuzzel's layer surface to map", timeout: 20) {
                tree.children(of: h.server.layerNode(.overlay)).contains { tree.isMapped($0) }
                    || tree.children(of: h.server.layerNode(.top)).contains { tree.isMapped($0) }
            }, "fuzzel said:\n\(fuzzel.lines.joined(separator: "\n"))")
        #expect(h.server.seat.keyboardFirstResponder.flatMap { tree.kind(of: $0) } == .lock)
        keyTargets = []
        type(h, lockPassword)
        h.key(28, .pressed)
        h.key(28, .released) // Return
        #expect(keyTargets == Array(repeating: NodeKind.lock, count: lockPassword.count + 1))
        try #require(
            h.dispatch(until: "swaylock to unlock and exit", timeout: 30) { !swaylock.process.isRunning },
            "swaylock said:\n\(swaylock.lines.joined(separator: "\n"))")
        #expect(swaylock.process.terminationStatus == 0)
        // Unlocked: the launcher that asked for the keyboard has it, and takes the next key.
        #expect(h.server.seat.keyboardFirstResponder.flatMap { tree.kind(of: $0) } == .layer)
        keyTargets = []
        h.key(30, .pressed)
        h.key(30, .released)
        #expect(keyTargets == [.layer])
    }
}
