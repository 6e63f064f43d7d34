// A real server on a private socket and real client processes (wl-probe, wev...), driven
// from one thread: the test dispatches the server while it waits for a client's output.
import Foundation
import InputRouter
import InputRouterKeyboard
import TestSupport
import Testing

@testable import InputRouterWayland

/// One private XDG_RUNTIME_DIR (0700) for the whole test process; sockets get unique names.
let runtimeDirectory: String = {
    var template = Array("/tmp/ir-wayland-XXXXXX".utf8CString)
    let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    chmod(dir, 0o700)
    setenv("XDG_RUNTIME_DIR", dir, 1)
    return dir
}()

nonisolated(unsafe) private var socketCounter = 0
private let socketLock = NSLock()

/// The directory of the test binary, where SwiftPM also put wl-probe.
let productsDirectory: String = {
    let argv0 = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var dir = argv0.deletingLastPathComponent()
    // Swift Testing on Linux runs `…/InputRouterPackageTests.xctest`.
    if !FileManager.default.fileExists(atPath: dir.appendingPathComponent("wl-probe").path) {
        dir =
            URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../.build/debug").standardized
    }
    return dir.path
}()

/// A client process whose output is read without blocking.
final class ClientProcess {
    let process: ChildProcess
    private var buffer: [UInt8] = []
    var lines: [String] = []
    /// How many lines earlier checks consumed.
    var mark = 0
    /// wl-probe, which answers `roundtrip N` (the barrier `settle` uses).
    var isProbe = false

    init(_ executable: String, _ arguments: [String], socket: String, environment: [String: String] = [:]) throws {
        var env: [String: String?] = ["XDG_RUNTIME_DIR": runtimeDirectory, "WAYLAND_DISPLAY": socket, "DISPLAY": nil]
        for (k, v) in environment { env[k] = v }
        process = try ChildProcess(executable, arguments, environment: env, input: .pipe, output: .merged)
    }

    /// Writes one command line to the client's stdin (wl-probe's Commands.swift). A client
    /// that already exited fails the test that wrote to it: SIGPIPE ignored, the write's
    /// error recorded. Delivered, SIGPIPE ended the whole test process and every suite's
    /// results with it.
    func send(_ line: String) {
        do {
            try process.write(line + "\n")
        } catch {
            Issue.record("\(process.arguments) took no command '\(line)' (exited?): \(error)")
        }
    }

    /// Closes the client's stdin: a program that reads its input to the end (fuzzel's
    /// `--dmenu`) goes on.
    func closeInput() { process.closeInput() }

    /// Reads whatever the client wrote since the last call.
    func poll() {
        buffer.append(contentsOf: process.readAvailable())
        while let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: buffer[buffer.startIndex..<nl], as: UTF8.self))
            buffer.removeSubrange(buffer.startIndex...nl)
        }
    }

    /// Lines since the mark, which moves to the end.
    func take() -> [String] {
        let new = Array(lines[mark...])
        mark = lines.count
        return new
    }
}

/// A server on its own socket, with the seat's devices present.
final class ServerHarness {
    let server: WaylandServer
    let socket: String
    var time: UInt64 = 1_000_000
    var clients: [ClientProcess] = []
    private var barrierCounter = 0

    /// `keyboard`: the seat's keymap and compose; by default plain `us` without compose.
    /// `display`: a `wl_display` the test owns (the embedder's case), else the server's own.
    init(
        configuration: WaylandServer.Configuration = WaylandServer.Configuration(),
        keyboard: KeyboardConfiguration? = nil,
        display: OpaquePointer? = nil
    ) throws {
        _ = runtimeDirectory
        socketLock.lock()
        socketCounter += 1
        let n = socketCounter
        socketLock.unlock()
        var config = configuration
        config.keyboard =
            keyboard ?? .init(keymap: .names(.init(rules: "evdev", model: "pc105", layout: "us")), compose: false)
        server =
            try display.map { try WaylandServer(display: $0, configuration: config) }
            ?? WaylandServer(configuration: config)
        socket = try server.addSocket("ir-test-\(getpid())-\(n)")
        for (i, caps) in [DeviceCapabilities.pointer, .keyboard, .touch].enumerated() {
            server.handle(InputEvent(time: 0, device: DeviceID(UInt32(i + 1)), .deviceAdded(caps)))
        }
    }

    func probe(_ arguments: [String], environment: [String: String] = [:]) throws -> ClientProcess {
        let c = try ClientProcess(productsDirectory + "/wl-probe", arguments, socket: socket, environment: environment)
        c.isProbe = true
        clients.append(c)
        return c
    }

    /// A wl-probe with `arguments`, once it printed that its first toplevel (the name after
    /// `--toplevel`) is mapped and everything it was sent so far is read: most tests' opening.
    func mappedProbe(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> ClientProcess {
        let window = try #require(
            arguments.firstIndex(of: "--toplevel").map { arguments[$0 + 1] }, sourceLocation: sourceLocation)
        let c = try probe(arguments)
        wait(for: c, line: "mapped \(window)", sourceLocation: sourceLocation)
        _ = settle(c, sourceLocation: sourceLocation)
        return c
    }

    func spawn(_ executable: String, _ arguments: [String] = [], environment: [String: String] = [:]) throws
        -> ClientProcess
    {
        let c = try ClientProcess(executable, arguments, socket: socket, environment: environment)
        clients.append(c)
        return c
    }

    /// Dispatches the server until `client` printed a line satisfying `done`, or fails.
    @discardableResult
    func wait(
        for client: ClientProcess, timeout: Double = 10, awaiting: String = "a line",
        sourceLocation: SourceLocation = #_sourceLocation, until done: (String) -> Bool
    ) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var seen = client.lines.count
        while Date() < deadline {
            server.dispatch(timeoutMS: 5)
            client.poll()
            while seen < client.lines.count {
                if done(client.lines[seen]) { return true }
                seen += 1
            }
        }
        Issue.record(
            "timed out after \(timeout) s awaiting \(awaiting); client said:\n\(client.lines.joined(separator: "\n"))",
            sourceLocation: sourceLocation)
        return false
    }

    func wait(for client: ClientProcess, line: String, sourceLocation: SourceLocation = #_sourceLocation) {
        wait(for: client, awaiting: "'\(line)'", sourceLocation: sourceLocation) { $0 == line }
    }

    /// Sends a command to wl-probe and waits until the server has processed it.
    func command(_ client: ClientProcess, _ line: String, sourceLocation: SourceLocation = #_sourceLocation) {
        client.send(line)
        wait(for: client, line: "done \(line)", sourceLocation: sourceLocation)
    }

    /// For a client that cannot answer wl-probe's barrier (weston's demos, foot, a game):
    /// pings every client (the server's barrier, Server+Ping.swift) and dispatches until
    /// each answered, which it does from its event loop once it handled every event sent
    /// before; what it requested in answer reached the server first. Then returns its new
    /// lines. (A toolkit that queues events for the program, as SDL does, has dispatched
    /// them by its pong; the program may still print later: wait for that line.) Fails,
    /// naming who did not answer, after `timeout`.
    func settleForeign(
        _ client: ClientProcess, timeout: Double = 20,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> [String] {
        let barrier = server.barrier()
        let deadline = Date().addingTimeInterval(timeout)
        while !barrier.isPassed, Date() < deadline { server.dispatch(timeoutMS: 5) }
        if !barrier.isPassed {
            Issue.record(
                "timed out after \(timeout) s awaiting the clients' pongs: \(barrier.waiting)",
                sourceLocation: sourceLocation)
        }
        for c in clients { c.poll() }
        return client.take()
    }

    /// Returns the lines wl-probe printed for everything the server sent it by now. A
    /// barrier, not a quiet period: the probe is asked for a roundtrip (`roundtrip N`), and
    /// it answers only after reading every event the server sent before that request, so a
    /// slow machine cannot cut the lines short. If the answer never comes, the test fails
    /// saying what it awaited.
    func settle(_ client: ClientProcess, timeout: Double = 10, sourceLocation: SourceLocation = #_sourceLocation)
        -> [String]
    {
        precondition(client.isProbe, "settle(_:) needs wl-probe's roundtrip; use settle(_:until:) for other clients")
        barrierCounter += 1
        let answer = "done roundtrip \(barrierCounter)"
        client.send("roundtrip \(barrierCounter)")
        let start = client.lines.count
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            server.dispatch(timeoutMS: 5)
            client.poll()
            if let i = client.lines[start...].firstIndex(of: answer) {
                client.lines.remove(at: i)
                return client.take()
            }
        }
        Issue.record(
            "timed out after \(timeout) s awaiting '\(answer)' from wl-probe; it said:\n\(client.lines[client.mark...].joined(separator: "\n"))",
            sourceLocation: sourceLocation)
        return client.take()
    }

    /// For clients without a barrier (wev, foot, weston's demos): dispatches until one of
    /// the client's new lines satisfies `done`, then returns every new line. Fails with
    /// `awaiting` on timeout.
    func settle(
        _ client: ClientProcess, until awaiting: String, timeout: Double = 10,
        sourceLocation: SourceLocation = #_sourceLocation, _ done: (String) -> Bool
    ) -> [String] {
        wait(for: client, timeout: timeout, awaiting: awaiting, sourceLocation: sourceLocation, until: done)
        return client.take()
    }

    /// Dispatches until `condition` holds; fails with `awaiting` on timeout.
    @discardableResult
    func dispatch(
        until awaiting: String, timeout: Double = 10, sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: () -> Bool
    ) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            server.dispatch(timeoutMS: 5)
            for c in clients { c.poll() }
        }
        if condition() { return true }
        Issue.record("timed out after \(timeout) s awaiting \(awaiting)", sourceLocation: sourceLocation)
        return false
    }

    // Input, as a source would feed it.
    func warp(_ x: Double, _ y: Double) {
        time += 1000
        server.seat.notifyPointerWarp(time: time, to: Point(x, y))
        server.sendDeliveries()
    }
    func button(_ state: ButtonState, _ button: UInt32 = 0x110) {
        time += 1000
        server.handle(InputEvent(time: time, device: DeviceID(1), .pointerButton(button: button, state: state)))
    }
    func key(_ key: UInt32, _ state: KeyState) {
        time += 1000
        server.handle(InputEvent(time: time, device: DeviceID(2), .keyboardKey(key: key, state: state)))
    }
    func touch(_ kind: InputEvent.Kind) {
        time += 1000
        server.handle(InputEvent(time: time, device: DeviceID(3), kind))
        server.handle(InputEvent(time: time, device: DeviceID(3), .touchFrame))
    }
    /// Normalised touch coordinates for a layout point on the 1280×720 output.
    func touchPoint(_ x: Double, _ y: Double) -> (Double, Double) { (x / 1280, y / 720) }
}
