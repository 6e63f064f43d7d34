import CWaylandServer
import Foundation
import InputRouter
import InputRouterKeyboard
import InputRouterWayland
import InputRouterWireClient

/// The wire fuzz target: bytes decode into Wayland requests (any interface, opcode and
/// arguments, fds from a small pool, old and new object ids, and now and then what the
/// wire format forbids) from one to three clients connected in this process to a real
/// `WaylandServer` over socketpairs, interleaved with input events on its seat.
///
/// After every step the server is dispatched, every client reads what it was sent, and:
/// the core's invariant checker saw nothing wrong; a client that broke the wire protocol
/// was sent an error or disconnected; no other client was (an error goes only to the
/// client at fault), and no other client's surfaces changed; the server never says an
/// object a client made does not exist. At the end, every client still connected is
/// answered a round trip, then all disconnect and must leave no surface behind, and the
/// server, once destroyed, leaves no file descriptor open.
///
/// Format: one opcode byte per step (low five bits: the operation, high three: which
/// client), then the operation's argument bytes; `WireScript` writes the same format.
public enum WireFuzz {
    public static let maxClients = 3
    public static let maxConnections = 6
    public static let maxSteps = 400

    public enum Op: UInt8, CaseIterable, Sendable {
        case request, request2, request3, request4, request5, bind, connect, disconnect, mapToplevel, ackConfigure
        case raw, motion, motionAbsolute, button, axis, key, touchDown, touchMotion, touchUp, touchFrame, device
        case tabletProximity, tabletTip, tabletAxis, tabletButton, padButton, frameCallbacks
    }

    /// Devices on the server's seat when a run starts.
    enum Device {
        static let pointer = DeviceID(1), keyboard = DeviceID(2), touch = DeviceID(3), tool = DeviceID(4),
            pad = DeviceID(5)
    }

    /// Runs one input. `freshServer`: a server of its own (the regression tests, so that a
    /// finding replays alone); otherwise one server for the process, which every run
    /// leaves as it found it (no client, the same devices, and that is checked): making
    /// the keymap is most of a fresh server's cost. `checksFileDescriptors`: the process's
    /// open fds are counted before and after, which only means something when nothing
    /// else in the process opens any meanwhile (the fuzzer, not the parallel test suites).
    public static func run(
        _ bytes: [UInt8], freshServer: Bool = true, checksFileDescriptors: Bool = false, log: ((String) -> Void)? = nil
    ) -> [String] {
        FDPool.shared.prepare()
        // A fresh server's own fds (epoll, keymap) are counted too: destroyed with it,
        // they must all close.
        let shared = freshServer ? nil : Host.sharedHost()
        let fdsBefore = openFDs()
        var problems: [String]
        do {
            guard let host = shared ?? (try? Host()) else { return ["the server could not start"] }
            let world = World(host: host, log: log)
            var r = ByteReader(bytes)
            var steps = 0
            while !r.isAtEnd && steps < maxSteps && world.problems.isEmpty {
                steps += 1
                world.step(&r)
            }
            if world.problems.isEmpty { world.finish() }
            problems = world.problems
        }
        // Counted with the server still up: what the run left open, not the server's own.
        let fdsAfter = openFDs()
        if checksFileDescriptors, problems.isEmpty, fdsAfter.count > fdsBefore.count {
            let new = fdsAfter.filter { fdsBefore[$0.key] != $0.value }.sorted { $0.key < $1.key }
            problems.append(
                "\(fdsAfter.count - fdsBefore.count) file descriptors still open after every client left"
                    + " (new or changed: \(new.map { "\($0.key) → \($0.value)" }.joined(separator: ", ")))")
        }
        // A locker that went without unlocking leaves the session locked, as it must
        // (SessionLock.swift), and nothing a client can do unlocks it but a new lock: the
        // next input gets a server of its own, so that each input means the same alone.
        if let shared, shared.server.isSessionLocked { Host.shared = nil }
        return problems
    }

    /// The server and what outlives one run on it: the router's client numbering and the
    /// clock.
    final class Host {
        let server: WaylandServer
        var clientsCreated: UInt32 = 0
        var time: UInt64 = 0
        nonisolated(unsafe) static var shared: Host?

        static func sharedHost() -> Host? {
            if shared == nil { shared = try? Host() }
            return shared
        }

        init() throws {
            var config = WaylandServer.Configuration()
            config.keyboard = .init(keymap: .names(.init(rules: "evdev", model: "pc105", layout: "us")), compose: false)
            // Nothing may depend on the clock: no stalled-client timeout, no frame timer.
            config.unresponsiveTimeoutMS = 0
            config.policy.framePacing = .onPresent
            server = try WaylandServer(configuration: config)
            // libwayland keeps one timerfd per event loop for all its timers, made when the
            // first timer is added and kept until the loop goes. With the clock-driven timers
            // off, the first timer is one a run asks for (an idle notification): made here,
            // it is the server's from the start, and no run counts it as an fd left open.
            let loop = wl_display_get_event_loop(server.display)
            if let timer = wl_event_loop_add_timer(loop, { _ in 0 }, nil) { wl_event_source_remove(timer) }
        }

        static let devices: [(DeviceID, DeviceCapabilities)] = [
            (Device.pointer, .pointer), (Device.keyboard, .keyboard), (Device.touch, .touch),
            (Device.tool, .tabletTool), (Device.pad, .tabletPad),
        ]

        /// Every device a run may have added goes, releasing what it held; then the
        /// standard ones come back, and the pointer returns to the corner.
        func resetDevices() {
            for d in 0..<6 as Range<UInt32> {
                server.handle(InputEvent(time: time, device: DeviceID(d), .deviceRemoved))
            }
            for (d, caps) in Host.devices { server.handle(InputEvent(time: time, device: d, .deviceAdded(caps))) }
            // The pad's layout (zwp_tablet_pad_v2 with a group, a ring and a strip), on the tool's tablet.
            server.handle(
                InputEvent(
                    time: time, device: Device.pad,
                    .tabletPadAdded(
                        TabletPadLayout(
                            buttons: 6, rings: 1, strips: 1,
                            groups: [
                                TabletPadGroup(
                                    buttons: [0, 1, 2, 3, 4, 5], rings: [0], strips: [0], modes: 2, toggles: [0])
                            ],
                            tablet: Device.tool))))
            server.seat.notifyPointerWarp(time: time, to: Point(0, 0))
            server.dispatch(timeoutMS: 0)
        }
    }

    /// libwayland logs every client it disconnects for a protocol error to stderr; at
    /// thousands of runs a second that is only noise (the errors are checked here).
    public static func silenceLibwaylandLog() {
        wl_log_set_handler_server { _, _ in }
    }

    /// The process's open fds and what each is (/proc/self/fd's links), so that a finding
    /// says which one stayed open.
    static func openFDs() -> [Int32: String] {
        var fds: [Int32: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            // The listing's own descriptor is closed by now: its link no longer reads.
            guard let fd = Int32(name),
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name)
            else { continue }
            fds[fd] = target
        }
        return fds
    }

    /// The server's deliveries through the core's invariant checker.
    final class CheckerBox {
        var checker: InvariantChecker<NullSink>
        init(router: Router) { checker = InvariantChecker(wrapping: NullSink(), router: router) }
    }

    final class World {
        let host: Host
        let server: WaylandServer
        let checker: CheckerBox
        var clients: [WireFuzzClient] = []
        var connections = 0
        var time: UInt64 {
            get { host.time }
            set { host.time = newValue }
        }
        var problems: [String] = []
        let log: ((String) -> Void)?

        init(host: Host, log: ((String) -> Void)?) {
            self.host = host
            self.log = log
            server = host.server
            host.resetDevices()
            checker = CheckerBox(router: server.router)
            server.deliveryObserver = { [checker] d, q in checker.checker.deliver(d, from: q) }
        }

        deinit {
            for c in clients { shutdown(c.wire.fd, Int32(SHUT_RDWR)) }
            clients.removeAll()
            server.dispatch(timeoutMS: 0)
            server.deliveryObserver = nil
        }

        func note(_ text: @autoclosure () -> String) { if let log { log(text()) } }

        var live: [WireFuzzClient] { clients.filter { !$0.isGone } }

        // MARK: Steps

        func step(_ r: inout ByteReader) {
            let code = r.byte()
            let op = Op(rawValue: (code & 0x1f) % UInt8(Op.allCases.count)) ?? .request
            let candidates = live
            let client = candidates.isEmpty ? nil : candidates[Int(code >> 5) % candidates.count]
            switch op {
            case .connect: connect()
            case .disconnect:
                guard let client else { return }
                disconnect(client)
            case .request, .request2, .request3, .request4, .request5:
                guard let client else { return connect() }
                request(client, &r)
            case .bind:
                guard let client else { return }
                bind(client, &r)
            case .mapToplevel:
                guard let client else { return }
                mapToplevel(client, size: r.byte())
            case .ackConfigure:
                guard let client else { return }
                let surfaces = client.objects(of: "xdg_surface")
                let b = r.byte()
                guard !surfaces.isEmpty else { return }
                let xdg = surfaces[surfaces.count - 1 - Int(b) % surfaces.count]
                guard let serial = client.configures[xdg] else { return }
                send(client, xdg, "ack_configure", [.uint(serial)])
            case .raw:
                guard let client else { return }
                let count = Int(r.byte() % 48)
                let bytes = (0..<count).map { _ in r.byte() }
                let withFD = r.bool()
                note("\(client.description) raw \(bytes)\(withFD ? " + fd" : "")")
                // The framing may now be off for good: what the server makes of the rest
                // of this client's bytes is no longer predictable, only contained.
                client.desynced = true
                let before = snapshot()
                client.wire.write(bytes, fds: withFD ? [FDPool.shared.fds[0]] : [])
                settle(after: "raw bytes from \(client.description)", actor: client, before: before)
            case .frameCallbacks:
                note("frame callbacks")
                let before = snapshot()
                server.sendFrameCallbacks()
                settle(after: "frame callbacks", actor: nil, before: before)
            default:
                input(op, &r)
            }
        }

        func connect() {
            guard live.count < WireFuzz.maxClients, connections < WireFuzz.maxConnections else { return }
            var fds: [Int32] = [-1, -1]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
                problems.append("socketpair failed: \(String(cString: strerror(errno)))")
                return
            }
            connections += 1
            // The server numbers its clients in the router in the order they connect.
            host.clientsCreated += 1
            let id = ClientID(index: host.clientsCreated)
            guard wl_client_create(server.display, fds[1]) != nil else {
                problems.append("wl_client_create failed")
                close(fds[0])
                close(fds[1])
                return
            }
            guard server.router.isAlive(id) else {
                problems.append("the server did not register client \(connections) with the router as \(id)")
                return
            }
            clients.append(WireFuzzClient(number: connections, fd: fds[0], id: id))
            note("connect client \(connections)")
        }

        func disconnect(_ client: WireFuzzClient) {
            note("\(client.description) disconnects")
            let before = snapshot()
            clients.removeAll { $0 === client }
            // The socket closes for the server now, whoever still holds the connection.
            shutdown(client.wire.fd, Int32(SHUT_RDWR))
            settle(after: "\(client.description) disconnecting", actor: nil, before: before, leaving: client.id)
        }

        // MARK: Requests

        /// A request chosen by the bytes: which object (by interface, then newest first),
        /// which opcode, and each argument.
        func request(_ client: WireFuzzClient, _ r: inout ByteReader) {
            let names = client.interfaceNames()
            let b = Int(r.byte())
            let name =
                b < WireProtocol.order.count && names.contains(WireProtocol.order[b])
                ? WireProtocol.order[b] : names[b % names.count]
            let ids = client.objects(of: name)
            let which = r.byte()
            let opcodeByte = r.byte()
            var target = ids[ids.count - 1 - Int(which) % ids.count]
            var fault: String?
            if which == 255 {
                target = client.unusedID
                fault = "a request on object \(target), which does not exist"
            }
            guard let spec = client.objects[ids.last!] else { return }
            var opcode = Int(opcodeByte) % max(spec.requests.count, 1)
            var truncate = false
            if opcodeByte >= 250 {
                opcode = spec.requests.count + Int(opcodeByte - 250)
                fault = fault ?? "opcode \(opcode) of \(spec.name), which has \(spec.requests.count) requests"
            } else if opcodeByte >= 244, !spec.requests.isEmpty {
                opcode = Int(opcodeByte - 244) % spec.requests.count
                truncate = true
            }
            guard opcode < spec.requests.count else {
                return sendRaw(
                    client, WireConnection.encode(target, UInt16(opcode), []), fds: [], fault: fault,
                    what: "opcode \(opcode) on \(target)")
            }
            let message = spec.requests[opcode]
            if fault == nil, message.since > client.version(of: target) {
                fault =
                    "\(spec.name).\(message.name) (since \(message.since)) on a version \(client.version(of: target)) object"
            }
            guard var built = arguments(client, message, &r) else { return }
            if fault == nil { fault = built.fault }
            var bytes = WireConnection.encode(target, UInt16(opcode), built.arguments)
            if truncate {
                let body = bytes.count - 8
                guard body > 0 else { return }
                // Four bytes fewer than the arguments need: libwayland must refuse it.
                let size = UInt32(bytes.count - 4)
                bytes.removeLast(4)
                bytes.replaceSubrange(
                    4..<8, with: withUnsafeBytes(of: (size << 16 | UInt32(opcode)).littleEndian, Array.init))
                fault = fault ?? "\(spec.name).\(message.name) four bytes short"
                built.adopt = []
            }
            let text = "\(spec.name)@\(target).\(message.name)(\(built.text.joined(separator: ", ")))"
            sendRaw(client, bytes, fds: built.fds, fault: fault, what: text, adopt: built.adopt)
        }

        struct Built {
            var arguments: [WireArgument] = []
            var fds: [Int32] = []
            var text: [String] = []
            var fault: String?
            var adopt: [(UInt32, WireInterfaceSpec, UInt32)] = []
        }

        /// The arguments of `message` from the bytes; nil when the client has no object of
        /// a type the request needs (the step is skipped rather than wasted on an error).
        func arguments(_ client: WireFuzzClient, _ message: WireMessageSpec, _ r: inout ByteReader) -> Built? {
            var b = Built()
            var lastString: String?
            var lastUint: UInt32 = 1
            for a in message.arguments {
                let choice = r.byte()
                switch a.kind {
                case .int, .uint:
                    let v = integer(client, choice, &r)
                    lastUint = v
                    b.arguments.append(.uint(v))
                    b.text.append("\(a.kind == .int ? String(Int32(bitPattern: v)) : String(v))")
                case .fixed:
                    let v =
                        choice < 128 ? UInt32(bitPattern: (Int32(choice) - 64) * 256 * 4) : integer(client, choice, &r)
                    b.arguments.append(.uint(v))
                    b.text.append("fixed \(Double(Int32(bitPattern: v)) / 256)")
                case .string:
                    switch choice % 8 {
                    case 0:
                        b.arguments.append(.string(nil))
                        b.text.append("nil")
                        if !a.nullable { b.fault = b.fault ?? "a null string for \(message.name)" }
                    case 1:
                        b.arguments.append(.array(Array("abc".utf8)))
                        b.text.append("unterminated string")
                        b.fault = b.fault ?? "a string without its NUL for \(message.name)"
                    case 2:
                        b.arguments.append(.string(""))
                        b.text.append("\"\"")
                    case 3:
                        b.arguments.append(.string(String(repeating: "w", count: 1000)))
                        b.text.append("1000 chars")
                    case 4:
                        b.arguments.append(.array([0xff, 0xfe, 0xc3, 0x28, 0]))
                        b.text.append("bad UTF-8")
                    default:
                        let s = WireFuzz.strings[Int(choice >> 3) % WireFuzz.strings.count]
                        lastString = s
                        b.arguments.append(.string(s))
                        b.text.append("\"\(s)\"")
                    }
                case .object:
                    let pool =
                        a.interface.map { client.objects(of: String(cString: $0.pointee.name)) } ?? client.created
                    switch choice {
                    case 248:
                        b.arguments.append(.uint(0))
                        b.text.append("null")
                        if !a.nullable { b.fault = b.fault ?? "null for a non-nullable object of \(message.name)" }
                    case 249 where a.interface != nil:
                        let wanted = String(cString: a.interface!.pointee.name)
                        guard let other = client.created.last(where: { client.objects[$0]?.name != wanted }) else {
                            return nil
                        }
                        b.arguments.append(.uint(other))
                        b.text.append("wrong-type \(other)")
                        b.fault = b.fault ?? "a \(client.objects[other]!.name) where \(message.name) wants a \(wanted)"
                    case 250:
                        b.arguments.append(.uint(client.unusedID))
                        b.text.append("no object \(client.unusedID)")
                        b.fault = b.fault ?? "object \(client.unusedID), which does not exist, for \(message.name)"
                    default:
                        if pool.isEmpty {
                            guard a.nullable else { return nil }
                            b.arguments.append(.uint(0))
                            b.text.append("null")
                        } else {
                            let id = pool[pool.count - 1 - Int(choice) % pool.count]
                            b.arguments.append(.uint(id))
                            b.text.append("\(id)")
                        }
                    }
                case .newID:
                    if choice >= 250 {
                        let id = client.invalidNewID(choice)
                        b.arguments.append(.uint(id))
                        b.text.append("bad new id \(id)")
                        b.fault = b.fault ?? "new id \(id), which is not free or not next, for \(message.name)"
                    } else {
                        let id = client.peekNewID()
                        b.arguments.append(.uint(id))
                        b.text.append("new \(id)")
                        if let type = a.interface {
                            b.adopt.append((id, WireProtocol.spec(type), 0))
                        } else if let name = lastString, let spec = WireProtocol.spec(named: name) {
                            b.adopt.append((id, spec, lastUint))
                        }
                    }
                case .array:
                    let bytes = (0..<Int(choice % 17)).map { _ in r.byte() }
                    b.arguments.append(.array(bytes))
                    b.text.append("array \(bytes.count)")
                case .fd:
                    if choice == 255 {
                        b.text.append("no fd")
                        b.fault = b.fault ?? "\(message.name) without its fd"
                    } else {
                        let f = FDPool.shared.fds[Int(choice) % FDPool.shared.fds.count]
                        b.fds.append(f)
                        b.text.append("fd \(FDPool.shared.names[Int(choice) % FDPool.shared.fds.count])")
                    }
                }
            }
            return b
        }

        /// An integer argument: small most of the time, a serial the client was sent, an
        /// edge value, or any 32 bits.
        func integer(_ client: WireFuzzClient, _ choice: UInt8, _ r: inout ByteReader) -> UInt32 {
            switch choice {
            case 0..<128: return UInt32(choice)
            case 128..<192:
                let s = client.serials
                return s.isEmpty ? 0 : s[s.count - 1 - Int(choice - 128) % s.count]
            case 192..<224: return WireFuzz.integers[Int(choice - 192) % WireFuzz.integers.count]
            default: return r.u32()
            }
        }

        /// Sends one request built by name (for macros): valid by construction.
        @discardableResult
        func send(
            _ client: WireFuzzClient, _ target: UInt32, _ name: String, _ args: [WireArgument],
            newID: WireInterfaceSpec? = nil, fds: [Int32] = []
        ) -> UInt32? {
            guard !client.isGone, let spec = client.objects[target],
                let opcode = spec.requests.firstIndex(where: { $0.name == name })
            else { return nil }
            var arguments = args
            var adopt: [(UInt32, WireInterfaceSpec, UInt32)] = []
            var made: UInt32?
            if let newID {
                let id = client.peekNewID()
                arguments.insert(.uint(id), at: 0)
                adopt.append((id, newID, 0))
                made = id
            }
            sendRaw(
                client, WireConnection.encode(target, UInt16(opcode), arguments), fds: fds, fault: nil,
                what: "\(spec.name)@\(target).\(name)", adopt: adopt)
            return made
        }

        func sendRaw(
            _ client: WireFuzzClient, _ bytes: [UInt8], fds: [Int32], fault: String?, what: String,
            adopt: [(UInt32, WireInterfaceSpec, UInt32)] = []
        ) {
            note("\(client.description) \(what)\(fault.map { "   [must fail: \($0)]" } ?? "")")
            let before = snapshot()
            if let fault, client.broke == nil { client.broke = fault }
            if bytes.count >= 8 {
                let target = bytes[0..<4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                let opcode = Int(bytes[4]) | Int(bytes[5]) << 8
                if let spec = client.objects[target], opcode < spec.requests.count,
                    spec.requests[opcode].isDestructor
                {
                    client.retire(target)
                }
            }
            for (id, spec, version) in adopt {
                let parent =
                    bytes.count >= 4
                    ? UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24 : 1
                client.adopt(id, spec, version: version == 0 ? client.version(of: parent) : version)
            }
            client.wire.write(bytes, fds: fds)
            settle(after: "\(client.description) \(what)", actor: client, before: before)
        }

        func bind(_ client: WireFuzzClient, _ r: inout ByteReader) {
            let which = r.byte()
            let versionByte = r.byte()
            guard let registry = client.objects(of: "wl_registry").last, !client.globals.isEmpty else { return }
            let g = client.globals[Int(which) % client.globals.count]
            guard let spec = WireProtocol.spec(named: g.interface) else { return }
            var name = g.name
            var version = g.version
            var fault: String?
            switch versionByte % 16 {
            case 0: break
            case 1..<10: version = min(UInt32(versionByte % 16), g.version)
            case 10:
                version = g.version + 1
                fault = "bind \(g.interface) at version \(version), above the \(g.version) offered"
            case 11:
                name = g.name &+ 1000
                fault = "bind of global \(name), which does not exist"
            default: break
            }
            let id = client.peekNewID()
            let bytes = WireConnection.encode(
                registry, 0, [.uint(name), .string(g.interface), .uint(version), .uint(id)])
            sendRaw(
                client, bytes, fds: [], fault: fault, what: "bind \(g.interface) v\(version) as \(id)",
                adopt: fault == nil ? [(id, spec, version)] : [])
        }

        /// A toplevel with a buffer, the way every real client starts (so that the rest of
        /// a program has something on screen to point at): surface, xdg_surface, toplevel,
        /// commit, ack of the configure, a shm buffer, attach and commit.
        func mapToplevel(_ client: WireFuzzClient, size: UInt8) {
            guard let compositor = client.objects(of: "wl_compositor").last,
                let wm = client.objects(of: "xdg_wm_base").last,
                let shm = client.objects(of: "wl_shm").last,
                let surfaceSpec = WireProtocol.spec(named: "wl_surface"),
                let xdgSpec = WireProtocol.spec(named: "xdg_surface"),
                let topSpec = WireProtocol.spec(named: "xdg_toplevel"),
                let poolSpec = WireProtocol.spec(named: "wl_shm_pool"),
                let bufferSpec = WireProtocol.spec(named: "wl_buffer")
            else { return }
            guard let surface = send(client, compositor, "create_surface", [], newID: surfaceSpec),
                let xdg = send(client, wm, "get_xdg_surface", [.uint(surface)], newID: xdgSpec),
                send(client, xdg, "get_toplevel", [], newID: topSpec) != nil
            else { return }
            send(client, surface, "commit", [])
            if let serial = client.configures[xdg] { send(client, xdg, "ack_configure", [.uint(serial)]) }
            let side = Int32(size % 120) + 8
            guard
                let pool = send(
                    client, shm, "create_pool", [.int(FDPool.shared.shmSize)], newID: poolSpec,
                    fds: [FDPool.shared.fds[0]]),
                let buffer = send(
                    client, pool, "create_buffer", [.int(0), .int(side), .int(side), .int(side * 4), .uint(0)],
                    newID: bufferSpec)
            else { return }
            send(client, pool, "destroy", [])
            send(client, surface, "attach", [.uint(buffer), .int(0), .int(0)])
            send(client, surface, "commit", [])
        }

        // MARK: Input

        func input(_ op: Op, _ r: inout ByteReader) {
            time &+= 1000
            let t = time
            var events: [InputEvent] = []
            func add(_ d: DeviceID, _ kind: InputEvent.Kind) { events.append(InputEvent(time: t, device: d, kind)) }
            switch op {
            case .motion:
                let dx = r.delta()
                let dy = r.delta()
                add(Device.pointer, .pointerMotion(dx: dx, dy: dy, unacceleratedDX: dx, unacceleratedDY: dy))
            case .motionAbsolute: add(Device.pointer, .pointerMotionAbsolute(x: r.unit(), y: r.unit()))
            case .button:
                add(
                    Device.pointer,
                    .pointerButton(button: r.pick(FuzzValues.buttons), state: r.bool() ? .pressed : .released))
            case .axis:
                let v = AxisValue(value: r.delta(), value120: Int32(Int8(bitPattern: r.byte())) * 15)
                add(
                    Device.pointer,
                    .pointerAxis(
                        source: r.pick([AxisSource.wheel, .finger, .continuous, .wheelTilt]), vertical: v,
                        horizontal: nil))
            case .key:
                add(Device.keyboard, .keyboardKey(key: r.pick(FuzzValues.keys), state: r.bool() ? .pressed : .released))
            case .touchDown: add(Device.touch, .touchDown(slot: r.pick(FuzzValues.slots), x: r.unit(), y: r.unit()))
            case .touchMotion: add(Device.touch, .touchMotion(slot: r.pick(FuzzValues.slots), x: r.unit(), y: r.unit()))
            case .touchUp: add(Device.touch, .touchUp(slot: r.pick(FuzzValues.slots)))
            case .touchFrame: add(Device.touch, .touchFrame)
            case .device:
                let d = DeviceID(UInt32(r.byte() % 6))
                if r.bool() {
                    add(d, .deviceAdded(DeviceCapabilities(rawValue: UInt16(r.byte() & 0x1f))))
                } else {
                    add(d, .deviceRemoved)
                }
            case .tabletProximity:
                let tool = TabletTool(type: r.pick(TabletToolType.allCases), serial: UInt64(r.byte() % 3))
                add(Device.tool, .tabletToolProximity(tool, inProximity: r.bool(), tabletAxes(&r)))
            case .tabletTip: add(Device.tool, .tabletToolTip(down: r.bool(), tabletAxes(&r)))
            case .tabletAxis: add(Device.tool, .tabletToolAxis(tabletAxes(&r)))
            case .tabletButton:
                add(
                    Device.tool,
                    .tabletToolButton(
                        button: r.pick([0x14b, 0x14c, 0x14d, 0x110]), state: r.bool() ? .pressed : .released))
            case .padButton:
                add(Device.pad, .tabletPadButton(button: UInt32(r.byte() % 6), state: r.bool() ? .pressed : .released))
            default: return
            }
            for e in events {
                note("input \(e.device) \(e.kind)")
                let before = snapshot()
                server.handle(e)
                settle(after: "input \(e.kind)", actor: nil, before: before)
            }
        }

        func tabletAxes(_ r: inout ByteReader) -> TabletAxes {
            let x = r.unit()
            let y = r.unit()
            let b = r.byte()
            return TabletAxes(
                x: x, y: y, pressure: b & 1 != 0 ? r.unit() : nil, distance: b & 2 != 0 ? r.unit() : nil,
                tiltX: b & 4 != 0 ? r.delta() : nil, tiltY: b & 8 != 0 ? r.delta() : nil)
        }

        // MARK: Checks

        struct ClientSnapshot {
            var client: WireFuzzClient
            var gone: Bool
            var nodes: Int
        }

        /// Per client: already gone, and how many tree nodes it owns.
        func snapshot() -> [ClientSnapshot] {
            let owned = nodesByClient()
            return clients.map { ClientSnapshot(client: $0, gone: $0.isGone, nodes: owned[$0.id] ?? 0) }
        }

        /// Live nodes per client, in the scene or not: a node another client's departure
        /// took out of the scene is still its own client's (an input method's popup on the
        /// window that went), and one it destroyed is a bug.
        func nodesByClient() -> [ClientID: Int] { server.router.tree.liveNodesByClient }

        /// Lets the server handle what was sent, every client read what came back, and
        /// checks what must hold. `before` is `snapshot()` from before the step.
        func settle(after what: String, actor: WireFuzzClient?, before: [ClientSnapshot], leaving: ClientID? = nil) {
            server.dispatch(timeoutMS: 0)
            server.dispatch(timeoutMS: 0)
            for c in clients { c.readEvents() }
            if let v = checker.checker.violations.first {
                problems.append("after \(what): \(v)")
                return
            }
            if let leaving {
                if server.router.isAlive(leaving) { problems.append("after \(what): the router still has \(leaving)") }
                if let n = nodesByClient()[leaving] {
                    problems.append("after \(what): \(n) surfaces of \(leaving) are left in the tree")
                }
            }
            if let actor, let fault = actor.broke, !actor.desynced, !actor.isGone {
                problems.append("\(actor.description) sent \(fault) and was neither sent an error nor disconnected")
            }
            // invalid_object is wl_display's code 0; other interfaces' code 0 means their own
            // error (wl_data_source's is an invalid action mask, its message ending in a number).
            if let actor, actor.broke == nil, !actor.desynced, let e = actor.wire.error, e.object == 1, e.code == 0,
                let id = e.message.split(separator: " ").last.flatMap({ UInt32($0) }), id < 0xff00_0000,
                let spec = actor.objects[id]
            {
                problems.append(
                    "after \(what): the server says \(actor.description)'s \(spec.name) \(id) does not exist (\(e.message))"
                )
            }
            let owned = nodesByClient()
            for b in before where b.client !== actor && clients.contains(where: { $0 === b.client }) {
                let c = b.client
                if !b.gone && c.isGone {
                    let why = c.wire.error.map { "was sent an error (\($0))" } ?? "was disconnected"
                    problems.append("after \(what): \(c.description), which did nothing wrong, \(why)")
                } else if actor != nil, !c.isGone, owned[c.id] ?? 0 != b.nodes {
                    problems.append(
                        "after \(what): \(c.description)'s surfaces went from \(b.nodes) to \(owned[c.id] ?? 0)")
                }
            }
        }

        /// Every client still connected gets a round trip answered; then they all go and
        /// must take their surfaces with them.
        func finish() {
            for c in live where !c.desynced {
                guard let callbackSpec = WireProtocol.spec(named: "wl_callback"),
                    let callback = send(c, 1, "sync", [], newID: callbackSpec)
                else { continue }
                if problems.isEmpty, !c.isGone, c.objects[callback] != nil {
                    problems.append("\(c.description): wl_display.sync went unanswered")
                }
            }
            guard problems.isEmpty else { return }
            let ids = clients.map(\.id)
            for c in clients { shutdown(c.wire.fd, Int32(SHUT_RDWR)) }
            clients.removeAll()
            server.dispatch(timeoutMS: 0)
            for id in ids where server.router.isAlive(id) {
                problems.append("after every client left: the router still has \(id)")
            }
            for (id, n) in nodesByClient() {
                problems.append("after every client left: \(n) surfaces of \(id) are left in the tree")
            }
            if let v = checker.checker.violations.first { problems.append("after every client left: \(v)") }
        }
    }

    /// Strings for string arguments (`(choice >> 3) % count`: 32 at most). New ones go at
    /// the end, so that the old seeds keep their meaning.
    static let strings = [
        "wl_compositor", "wl_seat", "xdg_wm_base", "text/plain", "text/plain;charset=utf-8", "title", "org.example.app",
        "wl_output",
        // Layer shell namespaces, text for the input method.
        "panel", "wallpaper", "notifications", "é€😀", "zwlr_layer_shell_v1", "ext_session_lock_manager_v1",
        "zwp_input_method_manager_v2", "zwp_virtual_keyboard_manager_v1", "wp_cursor_shape_manager_v1",
        "zxdg_output_manager_v1",
    ]
    static let integers: [UInt32] = [
        UInt32.max, 0x7fff_ffff, 0x8000_0000, 1 << 16, 0xff00_0000, 0xffff, 2, 3, 4, 5, 6, 7, 8, 15, 16, 0x7fff, 0x8000,
        UInt32(bitPattern: -1), UInt32(bitPattern: -100), 1_000_000, 4096, 4097, 65536, 1 << 24, 1 << 30,
    ]
}
