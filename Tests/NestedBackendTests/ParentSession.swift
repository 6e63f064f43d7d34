// A real parent session for the nested backend: Xvfb, and weston on it with its x11 backend
// and kiosk-shell (every toplevel fullscreen on the one output at (0, 0), so our window's
// position on the X screen is known). Input is injected into Xvfb with xdotool, as a user
// would type and click; weston turns it into wl_seat events for our window.
//
// Nothing here touches this process's environment: sockets are absolute paths in a
// private 0700 directory, so other test suites' XDG_RUNTIME_DIR is left alone.
import Foundation
import TestSupport
import Testing

/// A private 0700 directory for this test process's sockets and logs.
let privateDirectory: String = {
    var template = Array("/tmp/ir-nested-XXXXXX".utf8CString)
    let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    chmod(dir, 0o700)
    return dir
}()

nonisolated(unsafe) private var counter = 0
private let counterLock = NSLock()
func uniqueName(_ prefix: String) -> String {
    counterLock.lock()
    defer { counterLock.unlock() }
    counter += 1
    return "\(prefix)-\(getpid())-\(counter)"
}

/// The directory SwiftPM put the test binary and wl-probe in.
let productsDirectory: String = {
    let argv0 = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var dir = argv0.deletingLastPathComponent()
    if !FileManager.default.fileExists(atPath: dir.appendingPathComponent("wl-probe").path) {
        dir =
            URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../.build/debug").standardized
    }
    return dir.path
}()

/// A child process whose output (stdout and stderr) is read without blocking.
final class Child {
    let process: ChildProcess
    let name: String
    private var buffer = Data()
    private(set) var lines: [String] = []
    var mark = 0

    init(_ executable: String, _ arguments: [String], environment: [String: String], name: String? = nil) throws {
        self.name = name ?? URL(fileURLWithPath: executable).lastPathComponent
        process = try ChildProcess(executable, arguments, environment: environment, inheritingEnvironment: false)
    }

    deinit { stop() }

    /// SIGTERM, then SIGKILL if it is still there after a second.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(1)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    func poll() {
        buffer.append(contentsOf: process.readAvailable())
        while let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: buffer[buffer.startIndex..<nl], as: UTF8.self))
            buffer.removeSubrange(buffer.startIndex...nl)
        }
    }

    /// Lines since the mark, which moves to the end.
    func take() -> [String] {
        poll()
        let new = Array(lines[mark...])
        mark = lines.count
        return new
    }

    var output: String {
        poll()
        return lines.joined(separator: "\n")
    }
}

/// Why the parent session could not start, when the cause is the machine, not our code.
struct EnvironmentProblem: Error, CustomStringConvertible { let description: String }

/// Xvfb + weston (x11 backend, kiosk-shell, pixman renderer).
final class ParentSession {
    let xvfb: Child
    let weston: Child
    /// The X display, ":N".
    let xDisplay: String
    /// weston's socket: an absolute path, usable as WAYLAND_DISPLAY or `display:`.
    let socket: String
    /// Xvfb's framebuffer file (XWD format), from `-fbdir`.
    let framebufferFile: String
    let outputWidth: Int, outputHeight: Int
    private var clients: [Child] = []

    static let xvfbPath = "/usr/bin/Xvfb", westonPath = "/usr/bin/weston", xdotoolPath = "/usr/bin/xdotool"
    static let setxkbmapPath = "/usr/bin/setxkbmap"

    /// Starts the session with the X keyboard layout `layout` (weston's x11 backend takes
    /// its keymap from the X server's rule names). Throws `EnvironmentProblem` when a
    /// program is missing or cannot start.
    init(layout: String = "us", outputWidth: Int = 1024, outputHeight: Int = 768) throws {
        for tool in [Self.xvfbPath, Self.westonPath, Self.xdotoolPath, Self.setxkbmapPath]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            throw EnvironmentProblem(
                description: "\(tool) is not installed (make deps installs xvfb, xdotool, x11-xkb-utils, weston)")
        }
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
        let fbdir = privateDirectory + "/" + uniqueName("fb")
        try FileManager.default.createDirectory(atPath: fbdir, withIntermediateDirectories: true)
        framebufferFile = fbdir + "/Xvfb_screen0"
        // -displayfd 1: Xvfb picks a free display and prints its number once it accepts
        // connections. -noreset: the keymap set below survives clients disconnecting.
        xvfb = try Child(
            Self.xvfbPath,
            [
                "-displayfd", "1", "-noreset", "-nolisten", "tcp",
                "-screen", "0", "\(outputWidth + 256)x\(outputHeight + 256)x24", "-fbdir", fbdir,
            ],
            environment: ["PATH": "/usr/bin:/bin"])
        var number: String?
        let deadline = Date().addingTimeInterval(20)
        while number == nil && Date() < deadline && xvfb.process.isRunning {
            usleep(20_000)
            xvfb.poll()
            number = xvfb.lines.first { Int($0) != nil }
        }
        guard let number else {
            throw EnvironmentProblem(description: "Xvfb did not start:\n\(xvfb.output)")
        }
        xDisplay = ":" + number

        let setxkbmap = try ChildProcess.run(Self.setxkbmapPath, ["-display", xDisplay, "-layout", layout])
        guard setxkbmap.status == 0 else {
            throw EnvironmentProblem(description: "setxkbmap \(layout) failed on \(xDisplay): \(setxkbmap.error)")
        }

        let config = privateDirectory + "/" + uniqueName("weston") + ".ini"
        try "[core]\nshell=kiosk-shell.so\nidle-time=0\n".write(toFile: config, atomically: true, encoding: .utf8)
        socket = privateDirectory + "/" + uniqueName("weston")
        weston = try Child(
            Self.westonPath,
            [
                "--backend=x11-backend.so", "--use-pixman", "--socket=\(socket)",
                "--config=\(config)", "--width=\(outputWidth)", "--height=\(outputHeight)",
            ],
            environment: ["PATH": "/usr/bin:/bin", "DISPLAY": xDisplay, "XDG_RUNTIME_DIR": privateDirectory])
        let westonDeadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: socket) && Date() < westonDeadline && weston.process.isRunning {
            usleep(20_000)
        }
        // weston listens before it has loaded its shell: wait for the output's X window too.
        while Date() < westonDeadline && weston.process.isRunning && westonWindow() == nil { usleep(50_000) }
        guard weston.process.isRunning, FileManager.default.fileExists(atPath: socket), westonWindow() != nil else {
            throw EnvironmentProblem(description: "weston did not start on \(xDisplay):\n\(weston.output)")
        }
    }

    deinit {
        for c in clients { c.stop() }
        weston.stop()
        xvfb.stop()
        // Xvfb's framebuffer file is a few megabytes.
        try? FileManager.default.removeItem(atPath: (framebufferFile as NSString).deletingLastPathComponent)
    }

    /// The environment of a client of weston.
    var clientEnvironment: [String: String] {
        ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": privateDirectory, "WAYLAND_DISPLAY": socket]
    }

    /// Starts a client of weston (not of our server).
    func spawnClient(_ executable: String, _ arguments: [String] = []) throws -> Child {
        let c = try Child(executable, arguments, environment: clientEnvironment)
        clients.append(c)
        return c
    }

    /// Runs xdotool on the X display and waits for it (it only sends X requests).
    func xdotool(_ arguments: [String]) throws -> String {
        let result = try ChildProcess.run(
            Self.xdotoolPath, arguments, environment: ["DISPLAY": xDisplay, "PATH": "/usr/bin:/bin"],
            inheritingEnvironment: false)
        return result.output + result.error
    }

    /// weston's output window on the X screen: its position and size.
    func westonWindow() -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let ids = try? xdotool(["search", "--name", ""]) else { return nil }
        for id in ids.split(separator: "\n") {
            guard let name = try? xdotool(["getwindowname", String(id)]), name.hasPrefix("Weston Compositor"),
                let geometry = try? xdotool(["getwindowgeometry", "--shell", String(id)])
            else { continue }
            var values: [String: Int] = [:]
            for line in geometry.split(separator: "\n") {
                let parts = line.split(separator: "=")
                if parts.count == 2, let v = Int(parts[1]) { values[String(parts[0])] = v }
            }
            if let x = values["X"], let y = values["Y"], let w = values["WIDTH"], let h = values["HEIGHT"] {
                return (x, y, w, h)
            }
        }
        return nil
    }

    /// One pixel of the X screen as 0xRRGGBB, read from Xvfb's framebuffer file (XWD:
    /// a big-endian header, a colormap, then rows of 32-bit pixels in the server's order).
    func screenPixel(x: Int, y: Int) -> UInt32? {
        guard let data = FileManager.default.contents(atPath: framebufferFile), data.count > 100 else { return nil }
        func field(_ i: Int) -> Int {
            data.withUnsafeBytes { Int(UInt32(bigEndian: $0.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))) }
        }
        let headerSize = field(0)
        let byteOrder = field(7)
        let bitsPerPixel = field(11)
        let bytesPerLine = field(12)
        let colors = field(19) // ncolors: XWDColor entries of 12 bytes
        guard bitsPerPixel == 32 else { return nil }
        let offset = headerSize + colors * 12 + y * bytesPerLine + x * 4
        guard offset + 4 <= data.count else { return nil }
        let raw = data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
        return (byteOrder == 0 ? UInt32(littleEndian: raw) : UInt32(bigEndian: raw)) & 0x00ff_ffff
    }
}

extension Test {
    /// Starts the parent session. When the machine cannot run Xvfb, weston or xdotool the
    /// test FAILS with the reason: `make test` installs them, so a missing one is a broken
    /// setup, and a cancelled suite would let it pass without testing anything.
    static func parentSession(layout: String = "us") throws -> ParentSession {
        do {
            return try ParentSession(layout: layout)
        } catch let problem as EnvironmentProblem {
            Issue.record("no parent session: \(problem.description)")
            throw problem
        }
    }
}

/// Every test with a parent session, one at a time: each runs its own Xvfb and weston, and
/// the machine's cores are shared.
@Suite(.serialized) struct WithParentSession {}
