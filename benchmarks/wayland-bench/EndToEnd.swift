// Routed against raw, one event kind at a time: the event through `server.handle(_:)` onto
// the measured client's socket, against the same protocol events posted directly on the
// same resources (wl_*_send_*, then wl_display_flush_clients). Both ways flush after every
// event and are timed until a reader thread on the client's end has read every byte; both
// must put the same bytes on the socket.
//
// The scene: a 1920×1080 output with 28 background windows (one client each) and, on top,
// the measured client's windows A at (40, 40) and B at (240, 40), 400×300 each.
import CWaylandProtocolsServer
import CWaylandServer
import Foundation
import InputRouter
import InputRouterWayland
import InputRouterWireClient
import Synchronization

/// Bytes read on the measured client's end, by the reader thread.
final class ByteCounter: @unchecked Sendable {
    let bytes = Atomic<Int>(0)
    let stop = Atomic<Bool>(false)
}

enum Scenario: String, CaseIterable {
    case motion = "pointer motion on the desktop tree (motion + frame)"
    case click = "click that raises and focuses a window (motion across, press, release)"
    case key = "key press or release (xkb us)"
    case touch = "touch frame, 10 fingers moving"
    var short: String { "\(self)" }
}

final class EndToEnd {
    static let backgroundWindows = 28
    let server: WaylandServer
    let measured: BenchClient
    var background: [BenchClient] = []
    let counter = ByteCounter()
    var time: UInt64 = 1_000_000
    var step = 0
    /// The measured client's two windows' resources, read by the raw click: a plain pair, where
    /// each read of `measured.windows` (an array property of a class) paid an exclusivity
    /// check and the array's retain and release in the Swift runtime, about 65 instructions a
    /// raw click that the bare protocol does not pay.
    typealias WindowResources = (
        surface: UnsafeMutablePointer<wl_resource>, xdg: UnsafeMutablePointer<wl_resource>,
        toplevel: UnsafeMutablePointer<wl_resource>
    )
    let windows: (WindowResources, WindowResources)

    init() throws {
        var config = WaylandServer.Configuration()
        config.outputWidth = 1920
        config.outputHeight = 1080
        config.keyboard = .init(keymap: .names(.init(rules: "evdev", model: "pc105", layout: "us")), compose: false)
        config.unresponsiveTimeoutMS = 0
        let n = Self.backgroundWindows
        config.policy.placeToplevel =
            MapOrderPlacement { i in
                i < n ? (Int32(i % 7) * 260, 100 + Int32(i / 7) * 240) : i == n ? (40, 40) : (240, 40)
            }.place
        server = try WaylandServer(configuration: config)
        for (i, caps) in [DeviceCapabilities.pointer, .keyboard, .touch].enumerated() {
            server.handle(InputEvent(time: 0, device: DeviceID(UInt32(i + 1)), .deviceAdded(caps)))
        }
        for _ in 0..<n {
            background.append(
                try BenchClient(server, devices: [], windows: 1, width: 250, height: 230, bigBuffer: false))
        }
        measured = try BenchClient(server, devices: [0, 1, 2], windows: 2, width: 400, height: 300, bigBuffer: true)
        windows = (measured.windows[0], measured.windows[1])
        // A clicked: on top and focused, where every scenario starts.
        server.seat.notifyPointerWarp(time: time, to: Point(140, 190))
        server.handle(InputEvent(time: time, device: DeviceID(1), .pointerButton(button: 0x110, state: .pressed)))
        server.handle(InputEvent(time: time, device: DeviceID(1), .pointerButton(button: 0x110, state: .released)))
        server.dispatch(timeoutMS: 0)
        let fd = measured.fd
        let counter = counter
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while !counter.stop.load(ordering: .relaxed) {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n > 0 { counter.bytes.add(n, ordering: .releasing) }
                if n <= 0 && errno != EINTR && errno != EAGAIN { break }
            }
        }
    }

    /// Puts the pointer, the fingers and the focus where `scenario` starts, and waits until
    /// the reader has read what that sent.
    func prepare(_ scenario: Scenario) {
        let seat = server.seat
        // Pointer in A's own part (B covers A right of x = 240).
        seat.notifyPointerWarp(time: time, to: Point(140, 190))
        step = 0
        if scenario == .touch {
            for f in 0..<10 {
                let p = fingerPoint(f, 0)
                server.handle(
                    InputEvent(
                        time: time, device: DeviceID(3), .touchDown(slot: Int32(f), x: p.x / 1920, y: p.y / 1080)))
            }
            server.handle(InputEvent(time: time, device: DeviceID(3), .touchFrame))
        }
        server.sendDeliveries()
        wl_display_flush_clients(server.display)
        waitForQuiet()
    }

    func finish(_ scenario: Scenario) {
        if scenario == .touch {
            for f in 0..<10 { server.handle(InputEvent(time: time, device: DeviceID(3), .touchUp(slot: Int32(f)))) }
            server.handle(InputEvent(time: time, device: DeviceID(3), .touchFrame))
        }
        if scenario == .click && step & 1 == 1 {
            // Back in A, as the next scenario expects.
            routed(.click)
        }
        wl_display_flush_clients(server.display)
        waitForQuiet()
    }

    /// Finger `f` in A, one pixel right on odd steps.
    func fingerPoint(_ f: Int, _ step: Int) -> Point { Point(Double(60 + f * 16 + (step & 1)), Double(80 + f * 20)) }

    func waitForQuiet() {
        var last = -1
        while true {
            usleep(20_000)
            let b = counter.bytes.load(ordering: .acquiring)
            if b == last { return }
            last = b
        }
    }

    @inline(__always) func waitForReader(_ target: Int) {
        while counter.bytes.load(ordering: .acquiring) < target { sched_yield() }
    }

    @inline(__always) func ms(_ t: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: t / 1000) }

    /// `n` events of `scenario` one way, back to back: callgrind's instruction counts
    /// collect only inside this call (main.swift), which `loopSymbol` names as callgrind
    /// does (mangled). Out of line, so that it stays a function.
    @inline(never) func loop(_ scenario: Scenario, _ n: Int, routedWay: Bool) {
        for _ in 0..<n { if routedWay { routed(scenario) } else { raw(scenario) } }
    }
    /// If a rename changes it, callgrind collects nothing and `make bench` prints FAIL.
    static let loopSymbol = "$s13wayland_bench05EndToC0C4loop__9routedWayyAA8ScenarioO_SiSbtF"

    /// One event of `scenario` through the router. Out of line, as `raw(_:)`: the profile's
    /// "server's thread alone" reads each one's inclusive count by name (Profile.swift).
    @inline(never) func routed(_ scenario: Scenario) {
        time &+= 1000
        step &+= 1
        switch scenario {
        case .motion:
            let dx: Double = step & 1 == 0 ? 1 : -1
            server.handle(
                InputEvent(
                    time: time, device: DeviceID(1),
                    .pointerMotion(dx: dx, dy: 0, unacceleratedDX: dx, unacceleratedDY: 0)))
        case .click:
            // Odd steps go to B's own part, even ones back to A's: each press raises and
            // focuses the window that was below.
            let dx: Double = step & 1 == 1 ? 400 : -400
            server.handle(
                InputEvent(
                    time: time, device: DeviceID(1),
                    .pointerMotion(dx: dx, dy: 0, unacceleratedDX: dx, unacceleratedDY: 0)))
            server.handle(InputEvent(time: time, device: DeviceID(1), .pointerButton(button: 0x110, state: .pressed)))
            server.handle(InputEvent(time: time, device: DeviceID(1), .pointerButton(button: 0x110, state: .released)))
        case .key:
            server.handle(
                InputEvent(
                    time: time, device: DeviceID(2), .keyboardKey(key: 30, state: step & 1 == 1 ? .pressed : .released))
            )
        case .touch:
            for f in 0..<10 {
                let p = fingerPoint(f, step)
                server.handle(
                    InputEvent(
                        time: time, device: DeviceID(3), .touchMotion(slot: Int32(f), x: p.x / 1920, y: p.y / 1080)))
            }
            server.handle(InputEvent(time: time, device: DeviceID(3), .touchFrame))
        }
        wl_display_flush_clients(server.display)
    }

    /// The same protocol events posted directly.
    @inline(never) func raw(_ scenario: Scenario) {
        time &+= 1000
        step &+= 1
        let display = server.display
        switch scenario {
        case .motion:
            let x = step & 1 == 0 ? 100.0 : 99.0
            wl_pointer_send_motion(measured.pointer, ms(time), wl_fixed_from_double(x), wl_fixed_from_double(150))
            wl_pointer_send_frame(measured.pointer)
        case .click:
            rawClick(into: step & 1 == 1 ? 1 : 0)
        case .key:
            wl_keyboard_send_key(
                measured.keyboard, wl_display_next_serial(display), ms(time), 30,
                step & 1 == 1 ? WL_KEYBOARD_KEY_STATE_PRESSED.rawValue : WL_KEYBOARD_KEY_STATE_RELEASED.rawValue)
        case .touch:
            for f in 0..<10 {
                let p = fingerPoint(f, step)
                wl_touch_send_motion(
                    measured.touch, ms(time), Int32(f), wl_fixed_from_double(p.x - 40), wl_fixed_from_double(p.y - 40))
            }
            wl_touch_send_frame(measured.touch)
        }
        wl_display_flush_clients(display)
    }

    /// What a routed click sends, in the same order (WAYLAND_DEBUG=server shows both): the
    /// pointer leaves the old window for window `to`, the press, the keyboard's move, both
    /// windows' new states, the release.
    func rawClick(into to: Int) {
        let display = server.display
        let p = measured.pointer
        let k = measured.keyboard
        let (old, new) = to == 1 ? (windows.0, windows.1) : (windows.1, windows.0)
        let t = ms(time)
        // The pointer lands at (140, 190) in A or (540, 190) in B, at (240, 40).
        let x: Double = to == 1 ? 300 : 100
        wl_pointer_send_leave(p, wl_display_next_serial(display), old.surface)
        wl_pointer_send_enter(
            p, wl_display_next_serial(display), new.surface,
            wl_fixed_from_double(x), wl_fixed_from_double(150))
        wl_pointer_send_motion(p, t, wl_fixed_from_double(x), wl_fixed_from_double(150))
        wl_pointer_send_frame(p)
        wl_pointer_send_button(p, wl_display_next_serial(display), t, 0x110, WL_POINTER_BUTTON_STATE_PRESSED.rawValue)
        wl_pointer_send_frame(p)
        // The keyboard moves first, then the configures (the order activate() sends).
        wl_keyboard_send_leave(k, wl_display_next_serial(display), old.surface)
        var noKeys = wl_array(size: 0, alloc: 0, data: nil)
        wl_keyboard_send_enter(k, wl_display_next_serial(display), new.surface, &noKeys)
        wl_keyboard_send_modifiers(k, wl_display_next_serial(display), 0, 0, 0, 0)
        // The activated state (4) from the stack: the raw way allocates only in libwayland.
        func configure(_ window: WindowResources, activated: Bool) {
            var state: UInt32 = 4
            withUnsafeMutableBytes(of: &state) { bytes in
                var states = wl_array(size: activated ? 4 : 0, alloc: 4, data: bytes.baseAddress)
                xdg_toplevel_send_configure(window.toplevel, 0, 0, &states)
            }
            xdg_surface_send_configure(window.xdg, wl_display_next_serial(display))
        }
        configure(old, activated: false)
        configure(new, activated: true)
        wl_pointer_send_button(p, wl_display_next_serial(display), t, 0x110, WL_POINTER_BUTTON_STATE_RELEASED.rawValue)
        wl_pointer_send_frame(p)
    }

    /// `n` events one way; ns per event. Keeps at most 128 events unread, so that neither
    /// way ever finds the socket full (libwayland 1.21 would drop events then).
    func run(_ scenario: Scenario, _ n: Int, routedWay: Bool, bytesPerEvent: Int) -> Double {
        timedRun(scenario, n, routedWay: routedWay, bytesPerEvent: bytesPerEvent).wall
    }

    /// Per event: the wall time until the reader has every byte, and the server's thread's
    /// own CPU time outside its waits for the reader. The second leaves out whatever the
    /// host ran instead of this thread (the wall time of a run moved fourfold between runs
    /// a minute apart), so it is the steadier of the two; it does not see the reader.
    func timedRun(_ scenario: Scenario, _ n: Int, routedWay: Bool, bytesPerEvent: Int) -> (
        wall: Double, serverCPU: Double
    ) {
        let start = counter.bytes.load(ordering: .acquiring)
        var cpu: UInt64 = 0
        let t0 = now()
        var c0 = threadCPUTime()
        for i in 0..<n {
            if routedWay { routed(scenario) } else { raw(scenario) }
            if i & 63 == 63 {
                cpu += threadCPUTime() - c0
                waitForReader(start + (i + 1 - 128) * bytesPerEvent)
                c0 = threadCPUTime()
            }
        }
        cpu += threadCPUTime() - c0
        waitForReader(start + n * bytesPerEvent)
        return (Double(now() - t0) / Double(n), Double(cpu) / Double(n))
    }

    /// Bytes one event puts on the socket (every byte must be read back).
    func measureBytesPerEvent(_ scenario: Scenario, routedWay: Bool) -> Int {
        let start = counter.bytes.load(ordering: .acquiring)
        for i in 0..<1000 {
            if routedWay { routed(scenario) } else { raw(scenario) }
            if i & 31 == 31 { waitForReader(start + (i + 1 - 64) * 8) }
        }
        waitForQuiet()
        return (counter.bytes.load(ordering: .acquiring) - start) / 1000
    }
}
