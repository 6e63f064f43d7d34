// The live libinput backend. It owns a libinput context (udev seat or single device
// nodes), opens devices directly or through libseat, applies the user's device settings
// when a device appears, and turns every libinput event into the core's InputEvent.
//
// It never polls and never blocks: `start(watching:sink:)` puts `fd` (and `seatFD` with
// libseat) on the compositor's event loop, keeps those watches, and dispatches at once
// so the devices already present are announced (LibinputSource+EventLoop.swift).
// Everything runs on that one thread.
//
//     let source = try LibinputSource(devices: .udev(seat: "seat0"), access: .libseat(seat: "seat0"))
//     try source.start(watching: server.watchReadable) { server.handle($0, description: $1) }

import CLibinput
import CUdev
import InputRouter
import InputRouterRecording

#if canImport(Glibc)
    import Glibc
#endif

/// A device as the source announced it.
public struct LibinputDeviceInfo: Sendable, Hashable {
    /// The id its events carry, as the router sees the device (counted up from `deviceIDBase`).
    public var id: DeviceID
    /// `event3`
    public var sysname: String
    /// The name the device gives itself ("Logitech USB Receiver").
    public var name: String
    /// What it can do (keyboard, pointer, touch, ...), as announced in `deviceAdded`.
    public var capabilities: DeviceCapabilities
    /// The settings applied to it (the configuration, narrowed to what it supports).
    public var applied: [ConfigurationStep]
    /// A pad's layout (sent as `tabletPadAdded` after its `deviceAdded`), bound to the tablet
    /// of its libinput device group once that tablet is known.
    public var padLayout: TabletPadLayout? = nil
    /// The USB (or Bluetooth) vendor and product ids libinput reports; 0 when it has none.
    public var vendor: UInt32 = 0
    public var product: UInt32 = 0
    /// Its device node (`/dev/input/event3`) and sysfs path, as udev gives them.
    public var path: String? = nil
    public var sysPath: String? = nil

    /// What the source says of the device beside its `deviceAdded`: the name, node, sysfs
    /// path and ids.
    public var deviceDescription: DeviceDescription {
        DeviceDescription(name: name, path: path, sysPath: sysPath, vendor: vendor, product: product)
    }
}

/// The live input backend: real devices through libinput, turned into `InputEvent`s for the
/// router. Make one at startup. Per event, `dispatch` translates into a plain value (no string
/// or array is built); device arrival, unrouted event types and a `recorder` allocate.
public final class LibinputSource {
    private var context: OpaquePointer?
    private var udev: OpaquePointer?
    private let backing: Backing
    /// The interface struct libinput keeps a pointer to: heap allocated, freed after unref.
    private let interface: UnsafeMutablePointer<libinput_interface>
    private let configuration: DeviceConfiguration
    private let deviceIDBase: UInt32

    private struct Device {
        var handle: OpaquePointer
        var info: LibinputDeviceInfo
        var reportedUnrouted: Set<String> = []
        var recorderIndex: Int?
        /// Modifiers down when it was opened, pressed for it by the source and not yet
        /// seen up (HeldAtOpen.swift).
        var heldAtOpen: [UInt32] = []
    }
    /// Indexed by DeviceID.index - deviceIDBase; ids are never reused by one source.
    private var devices: [Device?] = []

    /// Writes what the backend sees as a `libinput record` file (see LiveRecorder).
    public var recorder: LiveRecorder?
    /// The event-loop watches `start(watching:sink:)` was given: they live as the source does.
    var watches: [AnyObject] = []
    /// Where `start(watching:sink:)` hands events: also what a session switch produces.
    var startedSink: Sink?
    /// How many devices hold modifiers from before they were opened (HeldAtOpen.swift).
    private var devicesHoldingAtOpen = 0

    /// Called when libseat takes the seat away (`false`, a VT switch away) or gives it back
    /// (`true`), after what libinput produced for it reached the sink: away, every device's
    /// releases, touch cancels and removal; back, the devices again, with a press of each
    /// modifier held meanwhile. The place to tell the seat:
    /// `seat.setSessionActive(active, time:)`, so the keyboard and the pointer leave their
    /// surfaces and come back.
    public var sessionChanged: ((_ active: Bool) -> Void)?

    /// - Parameters:
    ///   - devices: the udev seat, or device nodes (path backend).
    ///   - access: libseat (sessions) or open(2) (root, tests, VMs).
    ///   - configuration: settings applied to each device that supports them.
    ///   - logPriority: the lowest priority libinput reports.
    ///   - deviceIDBase: the first DeviceID; devices count up from it.
    ///   - log: where libinput's, libseat's and the backend's messages go.
    public init(
        devices: DeviceSet = .udev(seat: "seat0"), access: DeviceAccess = .libseat(seat: "seat0"),
        configuration: DeviceConfiguration = DeviceConfiguration(), logPriority: LogPriority = .info,
        deviceIDBase: UInt32 = 1, log: @escaping LogHandler = LibinputSource.standardErrorLog
    ) throws(LibinputError) {
        self.configuration = configuration
        self.deviceIDBase = deviceIDBase
        var session: SeatSession?
        if case .libseat(let seat) = access { session = try SeatSession.shared(seat: seat, log: log) }
        backing = Backing(session: session, log: log)
        interface = .allocate(capacity: 1)
        interface.initialize(
            to: libinput_interface(
                open_restricted: { path, flags, user in
                    guard let path, let user else { return -EINVAL }
                    return CallbackContext.borrowed(user, as: Backing.self).open(String(cString: path), flags: flags)
                },
                close_restricted: { fd, user in
                    guard let user else { return }
                    CallbackContext.borrowed(user, as: Backing.self).close(fd)
                }))
        let user = CallbackContext.unretained(backing)
        switch devices {
        case .udev(let seat):
            guard let udev = udev_new() else { throw LibinputError("udev_new failed") }
            self.udev = udev
            context = libinput_udev_create_context(interface, user, udev)
            guard let context else { throw LibinputError("libinput_udev_create_context failed") }
            LogForwarding.install(on: context, minimum: logPriority)
            if libinput_udev_assign_seat(context, seat) != 0 {
                let reason = backing.lastError.map { ": \($0)" } ?? ""
                throw LibinputError("libinput could not assign udev seat \"\(seat)\"\(reason)")
            }
        case .paths(let paths):
            context = libinput_path_create_context(interface, user)
            guard let context else { throw LibinputError("libinput_path_create_context failed") }
            LogForwarding.install(on: context, minimum: logPriority)
            for path in paths { try addDevice(path: path) }
        }
        session?.addActiveChangeHandler(for: self) { [unowned self] active in
            guard let context = self.context else { return }
            if active { _ = libinput_resume(context) } else { libinput_suspend(context) }
            // What suspend and resume produce (the devices' releases and removals; the
            // devices again) libinput queues inside itself, not on its fd: after a resume
            // nothing delivered the devices until the next input event. Now, then.
            if let sink = self.startedSink { self.dispatchLogging(sink) }
            self.sessionChanged?(active)
        }
    }

    // Also runs when init throws after every stored property is set (the udev and path
    // errors above), so what was created is released there too.
    deinit {
        backing.session?.removeActiveChangeHandler(for: self)
        watches.removeAll()
        for index in devices.indices { if let d = devices[index] { libinput_device_unref(d.handle) } }
        devices.removeAll()
        if let context { libinput_unref(context) }
        context = nil
        if let udev { udev_unref(udev) }
        udev = nil
        interface.deinitialize(count: 1)
        interface.deallocate()
    }

    /// libinput's fd: poll it for reading, then call `dispatch`.
    public var fd: Int32 { context.map { libinput_get_fd($0) } ?? -1 }
    /// libseat's fd with `.libseat` access (poll it, then call `dispatchSeat`); nil otherwise.
    public var seatFD: Int32? { backing.session?.fd }

    /// Reads libseat's messages (seat enabled or disabled on a VT switch).
    public func dispatchSeat() throws(LibinputError) { try backing.session?.dispatch() }

    /// Where the source hands its events, in order: each with the description of the device
    /// it adds when it is a `deviceAdded` (its name, node, sysfs path and ids), nil for
    /// every other event. Route both in one call, `server.handle(event, description:)` or
    /// `seat.handle(event, description:)`: the seat keeps the description while the device
    /// is present, and the source keeps none for anyone else.
    public typealias Sink = (_ event: InputEvent, _ deviceAdded: DeviceDescription?) -> Void

    /// Reads what libinput has and hands every event, translated, to `sink`, in order.
    public func dispatch(_ sink: Sink) throws(LibinputError) {
        guard let context else { return }
        let rc = libinput_dispatch(context)
        if rc < 0 { throw LibinputError.errno("libinput_dispatch", rc) }
        while let event = libinput_get_event(context) {
            handle(event, sink)
            libinput_event_destroy(event)
        }
        if devicesHoldingAtOpen > 0 { releaseLetGoModifiers(sink) }
    }

    /// Routes the release of each modifier held at open that is now up (HeldAtOpen.swift).
    private func releaseLetGoModifiers(_ sink: Sink) {
        for index in devices.indices {
            guard let device = devices[index], !device.heldAtOpen.isEmpty,
                let path = device.info.path, let fd = backing.openFDs[path]
            else { continue }
            let stillDown = HeldAtOpen.down(device.heldAtOpen, fd: fd)
            for key in device.heldAtOpen where !stillDown.contains(key) {
                let event = InputEvent(
                    time: Self.now(), device: device.info.id, .keyboardKey(key: key, state: .released))
                record(event, index: index)
                sink(event, nil)
            }
            devices[index]?.heldAtOpen = stillDown
            if stillDown.isEmpty { devicesHoldingAtOpen -= 1 }
        }
    }

    /// The devices present now.
    public var currentDevices: [LibinputDeviceInfo] { devices.compactMap { $0?.info } }

    /// Path backend only: opens one more device node. Throws with libinput's reason.
    public func addDevice(path: String) throws(LibinputError) {
        guard let context else { return }
        backing.lastError = nil
        guard libinput_path_add_device(context, path) != nil else {
            let reason = backing.lastError.map { ": \($0)" } ?? ""
            throw LibinputError("libinput could not add device \(path)\(reason)")
        }
    }

    func log(error: LibinputError) {
        backing.log(LogMessage(origin: .backend, priority: .error, text: error.message))
    }

    /// Default log: one line per message on standard error.
    public static let standardErrorLog: LogHandler = { message in
        var line = "\(message)\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }

    // MARK: Events

    private func handle(_ event: OpaquePointer, _ sink: Sink) {
        let type = libinput_event_get_type(event)
        guard let handle = libinput_event_get_device(event) else { return }
        switch type {
        case LIBINPUT_EVENT_DEVICE_ADDED:
            deviceAdded(handle, sink)
        case LIBINPUT_EVENT_DEVICE_REMOVED:
            guard let index = index(of: handle), let device = devices[index] else { return }
            let event = InputEvent(time: Self.now(), device: device.info.id, .deviceRemoved)
            if !device.heldAtOpen.isEmpty { devicesHoldingAtOpen -= 1 } // the seat releases them
            record(event, index: index)
            sink(event, nil)
            libinput_device_set_user_data(handle, nil)
            libinput_device_unref(handle)
            devices[index] = nil
        default:
            // Per event: the id from the index, not a copy of the `Device` (two strings, an
            // array and a set retained and released on every event). A removed device's
            // handle has no user data, so `index(of:)` finds only live ones.
            guard let index = index(of: handle) else { return }
            switch EventTranslation.translate(event, type: type) {
            case .event(let time, let kind):
                let event = InputEvent(time: time, device: DeviceID(deviceIDBase &+ UInt32(index)), kind)
                record(event, index: index)
                sink(event, nil)
            case .unrouted(let what):
                guard let device = devices[index] else { return }
                if devices[index]?.reportedUnrouted.insert(what).inserted == true {
                    backing.log(
                        LogMessage(
                            origin: .backend, priority: .info,
                            text: "\(device.info.sysname) (\(device.info.name)): \(what) events are "
                                + "not routed yet; skipped (said once per device)"))
                }
            case .ignored:
                break
            }
        }
    }

    private func deviceAdded(_ handle: OpaquePointer, _ sink: Sink) {
        let index = devices.count
        let id = DeviceID(deviceIDBase &+ UInt32(index))
        libinput_device_ref(handle)
        libinput_device_set_user_data(handle, UnsafeMutableRawPointer(bitPattern: UInt(index + 1)))
        let steps = configuration.steps(for: DeviceConfigurator.support(of: handle))
        let sysname = String(cString: libinput_device_get_sysname(handle))
        let name = String(cString: libinput_device_get_name(handle))
        for (step, reason) in DeviceConfigurator.apply(steps, to: handle) {
            backing.log(
                LogMessage(origin: .backend, priority: .error, text: "\(sysname): cannot set \(step): \(reason)"))
        }
        var info = LibinputDeviceInfo(
            id: id, sysname: sysname, name: name,
            capabilities: EventTranslation.capabilities(of: handle), applied: steps)
        info.vendor = libinput_device_get_id_vendor(handle)
        info.product = libinput_device_get_id_product(handle)
        if let udevDevice = libinput_device_get_udev_device(handle) {
            info.path = udev_device_get_devnode(udevDevice).map { String(cString: $0) }
            info.sysPath = udev_device_get_syspath(udevDevice).map { String(cString: $0) }
            udev_device_unref(udevDevice)
        }
        if info.path == nil { info.path = "/dev/input/" + sysname }
        if info.capabilities.contains(.tabletPad) {
            info.padLayout = PadLayoutQuery.layout(of: handle, tablet: tablet(grouped: handle))
        }
        devices.append(Device(handle: handle, info: info))
        if recorder != nil { devices[index]?.recorderIndex = recorder?.addDevice(handle, info: info) }
        let event = InputEvent(time: Self.now(), device: id, .deviceAdded(info.capabilities))
        record(event, index: index)
        sink(event, info.deviceDescription)
        if let layout = info.padLayout { sink(InputEvent(time: event.time, device: id, .tabletPadAdded(layout)), nil) }
        if info.capabilities.contains(.tabletTool) { bindWaitingPads(to: handle, id: id, sink) }
        if info.capabilities.contains(.keyboard), let path = info.path, let fd = backing.openFDs[path] {
            let held = HeldAtOpen.down(HeldAtOpen.modifierKeys, fd: fd)
            for key in held {
                let press = InputEvent(time: event.time, device: id, .keyboardKey(key: key, state: .pressed))
                record(press, index: index)
                sink(press, nil)
            }
            devices[index]?.heldAtOpen = held
            if !held.isEmpty { devicesHoldingAtOpen += 1 }
        }
    }

    /// The tablet already added in the same libinput device group as `handle`, if any.
    private func tablet(grouped handle: OpaquePointer) -> DeviceID? {
        let group = libinput_device_get_device_group(handle)
        for case let d? in devices
        where d.info.capabilities.contains(.tabletTool) && libinput_device_get_device_group(d.handle) == group {
            return d.info.id
        }
        return nil
    }

    /// A tablet came after its pads: they are described again, now bound to it.
    private func bindWaitingPads(to handle: OpaquePointer, id: DeviceID, _ sink: Sink) {
        let group = libinput_device_get_device_group(handle)
        for i in devices.indices {
            guard let d = devices[i], var layout = d.info.padLayout, layout.tablet == nil,
                libinput_device_get_device_group(d.handle) == group
            else { continue }
            layout.tablet = id
            devices[i]?.info.padLayout = layout
            sink(InputEvent(time: Self.now(), device: d.info.id, .tabletPadAdded(layout)), nil)
        }
    }

    private func index(of handle: OpaquePointer) -> Int? {
        guard let bits = libinput_device_get_user_data(handle) else { return nil }
        let index = Int(bitPattern: UInt(bitPattern: bits)) - 1
        return index >= 0 && index < devices.count ? index : nil
    }

    private func record(_ event: InputEvent, index: Int) {
        guard recorder != nil else { return }
        if devices[index]?.recorderIndex == nil, let device = devices[index] {
            devices[index]?.recorderIndex = recorder?.addDevice(device.handle, info: device.info)
        }
        if let slot = devices[index]?.recorderIndex { recorder?.append(event, device: slot) }
    }

    /// CLOCK_MONOTONIC in µs, libinput's clock, for events that carry no time.
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
    }
}
