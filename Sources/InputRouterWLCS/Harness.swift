// The server as Mir's Wayland Conformance Suite (WLCS) drives it: one harness per test,
// made by `create_server`, run by `start_on_this_thread` on a thread WLCS starts, which
// also gets every later call (WLCS proxies them through its own event loop, which this
// loop dispatches), so the server is only ever touched on that one thread after its
// hand-over. Everything here is the public API of WaylandServer and InputRouter.
import CWaylandServer
import CWlcs
import Dispatch
import Foundation
import Glibc
import InputRouter
import InputRouterRendering
import InputRouterWayland

enum HarnessError: Error { case pipe(Int32) }

final class Harness {
    private var server: WaylandServer?
    private var running = false
    /// Clients by the fd of their end of the socket pair: WLCS names a client by its
    /// client-side `wl_display`, whose fd is the one it was given.
    private var clientsByFD: [Int32: ClientID] = [:]
    /// The descriptor's strings, alive until the harness goes.
    let globalNames: [UnsafeMutablePointer<CChar>]
    let globalVersions: [UInt32]
    private var nextDevice: UInt32 = 2
    /// Work from other threads, run on the server's (see `onServerThread`).
    private var serverThread: pthread_t?
    /// A pipe: a byte written wakes the server's loop for queued work.
    private var wake: [Int32] = [-1, -1]
    private let workLock = NSLock()
    private var work: [() -> Void] = []
    private var nextTouchSlot: Int32 = 0

    init() throws {
        var configuration = WaylandServer.Configuration()
        // WLCS 1.5.0's window helper attaches a buffer before it acknowledges the first
        // configure (upstream fixed it in 1.8.1); the default server refuses that.
        configuration.acceptsBufferBeforeFirstConfigure = true
        // Its copy-and-paste tests set the selection citing serial 0 (a TODO in WLCS).
        configuration.acceptsSelectionWithAnySerial = true
        // Its popup tests put a 400×500 window at (500, 500), down to y = 1000, and WLCS
        // 1.8.1 aims the pointer below y = 720 in 16 of them: off the default 1280×720
        // output, where the cursor cannot go.
        configuration.outputWidth = 1920
        configuration.outputHeight = 1080
        guard pipe(&wake) == 0 else { throw HarnessError.pipe(errno) }
        for fd in wake {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        let server = try WaylandServer(configuration: configuration)
        self.server = server
        // Read every committed buffer, as a compositor's renderer does (the server itself
        // reads no pixels): a truncated shm file is found by that read, and its client gets
        // the error (BadBufferTest.test_truncated_shm_file).
        server.bufferCommitted = { _, buffer in _ = SurfaceImage(shmBuffer: buffer) }
        // WLCS's client binds wl_pointer, wl_keyboard and wl_touch when wl_seat announces
        // them, once, as it connects (and binds again on every later announcement), while
        // tests make their fake devices afterwards: the seat has all three from the start,
        // as Mir's test seat does.
        server.handle(InputEvent(time: 0, device: DeviceID(1), .deviceAdded([.pointer, .keyboard, .touch])))
        globalNames = server.globals.map { strdup($0.interface)! }
        globalVersions = server.globals.map { UInt32($0.version) }
    }

    deinit {
        for name in globalNames { free(name) }
        close(wake[0])
        close(wake[1])
    }

    /// Runs the server on this thread until `stop()`, then tears it down here.
    func run(dispatching wlcsLoop: OpaquePointer) {
        guard let server else { return }
        running = true
        serverThread = pthread_self()
        let watch = server.watchReadable(fd: wl_event_loop_get_fd(wlcsLoop)) {
            wl_event_loop_dispatch(wlcsLoop, 0)
        }
        let wakeWatch = server.watchReadable(fd: wake[0]) { [unowned self] in self.runQueuedWork() }
        while running { server.dispatch(timeoutMS: -1) }
        watch.remove()
        wakeWatch.remove()
        clientsByFD.removeAll()
        self.server = nil
    }

    func stop() { running = false }

    /// Runs `body` on the server's thread and waits for it. WLCS 1.5.0 proxies every call
    /// onto that thread except its touch helper's down, move and up, which call the vtable
    /// from the test's thread (its proxied versions are set up but unused); without this
    /// those would race the server's loop (seen as a touch delivered twice).
    func onServerThread(_ body: @escaping () -> Void) {
        if let t = serverThread, pthread_equal(t, pthread_self()) != 0 { return body() }
        let done = DispatchSemaphore(value: 0)
        workLock.lock()
        work.append {
            body()
            done.signal()
        }
        workLock.unlock()
        var byte: UInt8 = 1
        _ = write(wake[1], &byte, 1)
        done.wait()
    }

    private func runQueuedWork() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(wake[0], &bytes, bytes.count) > 0 {}
        workLock.lock()
        let items = work
        work.removeAll()
        workLock.unlock()
        for item in items { item() }
    }

    func createClientSocket() -> Int32 {
        guard let server else { return -1 }
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            return -1
        }
        do {
            clientsByFD[fds[1]] = try server.connectClient(fd: fds[0])
        } catch {
            close(fds[0])
            close(fds[1])
            return -1
        }
        return fds[1]
    }

    func positionWindow(clientFD: Int32, surfaceID: UInt32, x: Int32, y: Int32) {
        guard let server, let client = clientsByFD[clientFD],
            let node = server.node(ofSurface: surfaceID, client: client), server.placeWindow(node, x: x, y: y)
        else {
            fputs(
                "wlcs integration: wl_surface@\(surfaceID) of client fd \(clientFD) is not a toplevel; not moved\n",
                stderr)
            return
        }
    }

    // MARK: Devices

    func addDevice(_ capabilities: DeviceCapabilities) -> InputDevice {
        let id = DeviceID(nextDevice)
        nextDevice += 1
        var slot: Int32 = 0
        if capabilities.contains(.touch) {
            slot = nextTouchSlot
            nextTouchSlot += 1
        }
        server?.handle(InputEvent(time: Harness.now, device: id, .deviceAdded(capabilities)))
        return InputDevice(harness: self, id: id, touchSlot: slot)
    }

    /// A test's device goes when the test's scope ends, often with its finger still down.
    /// The finger is lifted first: WLCS's client has no `wl_touch.cancel` listener (it
    /// aborts on one), and what a test means here is "done", not a device unplugged.
    func removeDevice(_ device: InputDevice) {
        if device.touching {
            withSeat { seat in
                seat.notifyTouchUp(time: Harness.now, slot: device.touchSlot)
                seat.notifyTouchFrame()
            }
        }
        server?.handle(InputEvent(time: Harness.now, device: device.id, .deviceRemoved))
    }

    /// Runs `body` on the seat and sends what it routed.
    func withSeat(_ body: (Seat) -> Void) {
        guard let server else { return }
        body(server.seat)
        server.sendDeliveries()
    }

    static var now: UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
    }
}

/// One fake pointer or touch device of a test.
final class InputDevice {
    unowned let harness: Harness
    let id: DeviceID
    let touchSlot: Int32
    var touching = false

    init(harness: Harness, id: DeviceID, touchSlot: Int32) {
        self.harness = harness
        self.id = id
        self.touchSlot = touchSlot
    }
}
