// The programs the tests start (wl-probe, real clients, ir-compositor, python3), without
// Foundation's Process. In the shared test process, Process kept about a third of its
// objects alive after their program had ended and been reaped (148 of 430 in one
// WaylandServerTests run), and with each its pipes: 2 descriptors per client, 300 by the
// end of the suite, and the growth the hostile suite used to read as its own. It also
// leaves a 32-byte weak reference behind on every run, which LeakSanitizer reports.
// Here every descriptor and every child belongs to one object, and goes with it.
import CTestSpawn
import Foundation

/// A program started with `posix_spawn`, its standard streams on pipes this object owns.
/// Dropping it kills the program (SIGKILL) if it still runs, reaps it and closes the pipes.
public final class ChildProcess {
    /// Where the program's standard input comes from.
    public enum Input: Sendable {
        /// A pipe: `write(_:)` and `closeInput()`.
        case pipe
        /// /dev/null.
        case nullDevice
        /// A descriptor of the caller's (a socket's end, say), which the caller keeps and
        /// closes once the program started.
        case descriptor(Int32)
    }

    /// Where its standard output and error go.
    public enum Output: Sendable {
        /// Both to one pipe, read with `readAvailable()` or `readToEnd()`.
        case merged
        /// Each to its own pipe: output as with `.merged`, error with `readToEnd()`.
        case separate
    }

    public struct SpawnError: Error, CustomStringConvertible {
        public let executable: String
        public let errno: Int32
        public var description: String { "could not start \(executable): \(String(cString: strerror(errno)))" }
    }

    public let executable: String
    public let arguments: [String]
    public let processIdentifier: Int32
    /// Our end of the program's standard input (-1 when not a pipe, or closed).
    public private(set) var inputDescriptor: Int32 = -1
    /// Our end of its standard output (with its error when `.merged`); -1 when none.
    public private(set) var outputDescriptor: Int32 = -1
    /// Our end of its standard error when `.separate`; -1 otherwise.
    public private(set) var errorDescriptor: Int32 = -1
    /// The wait status once reaped.
    private var waitStatus: Int32?

    /// Starts `executable` (a path, or a name looked up in PATH) with `arguments`. The
    /// environment is this process's with `environment` laid over it (a nil value removes
    /// the variable), or only `environment` when `inheritingEnvironment` is false.
    /// `nonBlockingOutput`: reads of the output pipe never wait (`readAvailable()`).
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String?] = [:],
        inheritingEnvironment: Bool = true, input: Input = .nullDevice, output: Output = .merged,
        nonBlockingOutput: Bool = true
    ) throws {
        self.executable = executable
        self.arguments = arguments
        var env = inheritingEnvironment ? ProcessInfo.processInfo.environment : [:]
        for (key, value) in environment { env[key] = value }

        var childEnds: [Int32] = []
        defer { for fd in childEnds { close(fd) } }
        var closeOnFailure: [Int32] = []
        func makePipe() throws -> (read: Int32, write: Int32) {
            var ends: [Int32] = [-1, -1]
            guard ir_test_pipe(&ends) == 0 else { throw SpawnError(executable: executable, errno: Glibc.errno) }
            return (ends[0], ends[1])
        }
        var childIn: Int32 = -1
        var childOut: Int32 = -1
        var childErr: Int32 = -1
        var ownIn: Int32 = -1
        var ownOut: Int32 = -1
        var ownErr: Int32 = -1
        do {
            switch input {
            case .pipe:
                let p = try makePipe()
                (childIn, ownIn) = (p.read, p.write)
                childEnds.append(childIn)
                closeOnFailure.append(ownIn)
            case .descriptor(let fd):
                childIn = fd
            case .nullDevice:
                break
            }
            switch output {
            case .merged, .separate:
                let p = try makePipe()
                (ownOut, childOut) = (p.read, p.write)
                childEnds.append(childOut)
                closeOnFailure.append(ownOut)
                childErr = childOut
                if output == .separate {
                    let e = try makePipe()
                    (ownErr, childErr) = (e.read, e.write)
                    childEnds.append(childErr)
                    closeOnFailure.append(ownErr)
                }
            }
            var pid: pid_t = 0
            let argv = ([executable] + arguments).map { strdup($0) }
            let envp = env.map { strdup("\($0.key)=\($0.value)") }
            defer {
                for p in argv { free(p) }
                for p in envp { free(p) }
            }
            let status = (argv + [nil]).withUnsafeBufferPointer { argvBuffer in
                (envp + [nil]).withUnsafeBufferPointer { envpBuffer in
                    ir_test_spawn(
                        executable, argvBuffer.baseAddress, envpBuffer.baseAddress, childIn, childOut, childErr, &pid)
                }
            }
            guard status == 0 else { throw SpawnError(executable: executable, errno: status) }
            processIdentifier = pid
        } catch {
            for fd in closeOnFailure { close(fd) }
            throw error
        }
        inputDescriptor = ownIn
        outputDescriptor = ownOut
        errorDescriptor = ownErr
        if nonBlockingOutput, ownOut >= 0 {
            _ = fcntl(ownOut, F_SETFL, fcntl(ownOut, F_GETFL) | O_NONBLOCK)
        }
    }

    deinit {
        if isRunning {
            kill(processIdentifier, SIGKILL)
        }
        waitUntilExit()
        closeInput()
        for fd in [outputDescriptor, errorDescriptor] where fd >= 0 { close(fd) }
    }

    /// Whether the program still runs (it is reaped the first time it is seen to have ended).
    public var isRunning: Bool {
        guard waitStatus == nil else { return false }
        var status: Int32 = 0
        let result = waitpid(processIdentifier, &status, WNOHANG)
        if result == processIdentifier {
            waitStatus = status
            return false
        }
        return result == 0
    }

    /// Blocks until the program ends, and reaps it.
    public func waitUntilExit() {
        guard waitStatus == nil else { return }
        var status: Int32 = 0
        while true {
            let result = waitpid(processIdentifier, &status, 0)
            if result == processIdentifier {
                waitStatus = status
                return
            }
            if result < 0, errno != EINTR {
                waitStatus = 0
                return
            }
        }
    }

    /// As Foundation's: the exit status, or the number of the signal that ended it.
    /// Only meaningful once `isRunning` is false or `waitUntilExit()` returned.
    public var terminationStatus: Int32 {
        guard let status = waitStatus else { return -1 }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : signal
    }

    /// Sends `signal` unless the program has been reaped.
    public func signal(_ signal: Int32) {
        if isRunning { kill(processIdentifier, signal) }
    }

    /// Writes all of `bytes` to the program's standard input. Throws when it is closed or
    /// the program no longer reads it (EPIPE: SIGPIPE is ignored here first).
    public func write(_ bytes: [UInt8]) throws {
        Glibc.signal(SIGPIPE, SIG_IGN)
        var offset = 0
        while offset < bytes.count {
            guard inputDescriptor >= 0 else { throw SpawnError(executable: executable, errno: EBADF) }
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(inputDescriptor, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw SpawnError(executable: executable, errno: errno)
            }
            offset += n
        }
    }

    /// Writes `text` to the program's standard input.
    public func write(_ text: String) throws { try write(Array(text.utf8)) }

    /// Closes the program's standard input: a program that reads it to the end goes on.
    public func closeInput() {
        if inputDescriptor >= 0 {
            close(inputDescriptor)
            inputDescriptor = -1
        }
    }

    /// What the program wrote since the last read, without waiting (`nonBlockingOutput`).
    public func readAvailable() -> [UInt8] {
        guard outputDescriptor >= 0 else { return [] }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(outputDescriptor, &chunk, chunk.count)
            if n > 0 {
                bytes.append(contentsOf: chunk[0..<n])
            } else if n < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        return bytes
    }

    /// The next bytes on the output pipe, waiting for them; empty once the program and
    /// whatever it started closed it.
    public func nextOutput() -> [UInt8] {
        guard outputDescriptor >= 0 else { return [] }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            var entry = pollfd(fd: outputDescriptor, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, -1) < 0, errno != EINTR { return [] }
            let n = read(outputDescriptor, &chunk, chunk.count)
            if n > 0 { return Array(chunk[0..<n]) }
            if n == 0 || (errno != EINTR && errno != EAGAIN) { return [] }
        }
    }

    /// Everything on the output pipe until the program and whatever it started close it,
    /// and, with `.separate`, everything on the error pipe: read together, so a program
    /// that fills one while the other is read never stalls.
    public func readToEnd() -> (output: [UInt8], error: [UInt8]) {
        var output: [UInt8] = []
        var error: [UInt8] = []
        var fds = [outputDescriptor, errorDescriptor].filter { $0 >= 0 }.map {
            pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
        }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !fds.isEmpty {
            if poll(&fds, nfds_t(fds.count), -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            var open: [pollfd] = []
            for entry in fds {
                guard entry.revents != 0 else {
                    open.append(entry)
                    continue
                }
                let n = read(entry.fd, &chunk, chunk.count)
                if n > 0 {
                    if entry.fd == outputDescriptor {
                        output.append(contentsOf: chunk[0..<n])
                    } else {
                        error.append(contentsOf: chunk[0..<n])
                    }
                    open.append(pollfd(fd: entry.fd, events: entry.events, revents: 0))
                } else if n < 0, errno == EINTR || errno == EAGAIN {
                    open.append(pollfd(fd: entry.fd, events: entry.events, revents: 0))
                }
            }
            fds = open
        }
        return (output, error)
    }

    /// Runs a program to its end: its exit status (or signal) and what it wrote on its
    /// output and error, as text.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String?] = [:],
        inheritingEnvironment: Bool = true, input: [UInt8]? = nil
    ) throws -> (status: Int32, output: String, error: String) {
        let child = try ChildProcess(
            executable, arguments, environment: environment, inheritingEnvironment: inheritingEnvironment,
            input: input == nil ? .nullDevice : .pipe, output: .separate, nonBlockingOutput: false)
        if let input {
            try? child.write(input)
            child.closeInput()
        }
        let (output, error) = child.readToEnd()
        child.waitUntilExit()
        return (
            child.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self)
        )
    }
}
