import InputRouter
import InputRouterRecording

/// The router fuzz target: bytes decode into an interleaving of input events (every kind,
/// eight devices, any slot, in any order, unruly values included) and scene mutations
/// (create, destroy, map, unmap, move, resize, restack, reparent, input regions, opacity,
/// handlers, clients coming and going, grabs, focus) on three seats. Every delivery goes
/// through the invariant checker; at the end every device goes away and no client may
/// believe a key, button or touch point is still down.
///
/// Format: one opcode byte per step (low six bits: the operation, high two: the seat),
/// then the operation's argument bytes; `RouterScript` writes the same format.
///
/// A snapshot seed starts from a real scene instead of the empty one: `sceneSeedHeader`,
/// a scene snapshot's text (docs/bug-reports.md), `sceneSeedEnd`, then the steps. The
/// scene must be a quiet one (nothing held, no focus, no grab: the client model starts
/// knowing nothing a client was told); one that is not, or does not read or rebuild, is
/// an uninteresting input (no problems). Seats it lacks are added as in the empty scene;
/// its named handlers take every event that reaches them.
public enum RouterFuzz {
    public static let seatCount = 3
    public static let deviceCount: UInt32 = 8
    public static let maxSteps = 2048

    public static let sceneSeedHeader = "#inputrouter-fuzz-scene\n"
    public static let sceneSeedEnd = "#end-scene\n"

    /// A snapshot seed: `scene` (a quiet one) then `steps`.
    public static func sceneSeed(_ scene: SceneState, steps: [UInt8]) -> [UInt8] {
        Array((sceneSeedHeader + SceneSnapshot.write(scene) + sceneSeedEnd).utf8) + steps
    }

    /// The scene a snapshot seed starts from and where its steps begin; nil for other bytes
    /// (or a scene that cannot be read or is not quiet: `.some(nil)`).
    static func seedScene(_ bytes: [UInt8]) -> (scene: SceneState?, steps: Int)? {
        let header = Array(sceneSeedHeader.utf8)
        guard bytes.starts(with: header) else { return nil }
        let end = Array(sceneSeedEnd.utf8)
        var i = header.count
        while i + end.count <= bytes.count, !bytes[i..<(i + end.count)].elementsEqual(end) { i += 1 }
        guard i + end.count <= bytes.count else { return (nil, bytes.count) }
        let text = String(decoding: bytes[header.count..<i], as: UTF8.self)
        // A small scene (a fuzzed slot count must not make the rebuild allocate gigabytes).
        guard let read = try? SceneSnapshot.read(text, file: "seed"), read.scene.slotCount <= 4096,
            read.scene.seats.count <= 8,
            read.scene.seats.allSatisfy({
                $0.heldKeys.isEmpty && $0.heldButtons.isEmpty && $0.touchPoints.isEmpty && $0.pointerGrab == nil
                    && $0.pointerFocus == nil && $0.keyboardFocus == nil
            })
        else { return (nil, i + end.count) }
        return (read.scene, i + end.count)
    }

    public static func run(
        _ bytes: [UInt8], mode: InvariantChecker<ClientModel<NullSink>>.Mode = .collect, log: ((String) -> Void)? = nil
    ) -> [String] {
        var start = 0
        var router = Router()
        var clients: [ClientID] = [.compositor]
        var nodes: [NodeID] = []
        if let seed = seedScene(bytes) {
            var handlers = SceneHandlers()
            // The snapshot's handlers are names: each becomes one that takes what reaches it.
            handlers.fallbackHandler = { _ in .handled }
            guard let scene = seed.scene,
                let rebuilt = try? Router(
                    restoring: scene, handlers: handlers, keyTranslator: { _ in CodeKeyTranslator() })
            else { return [] }
            router = rebuilt
            start = seed.steps
            clients += scene.clients.indices.map { ClientID(index: UInt32($0 + 1)) }
            nodes = scene.nodes.map { NodeID(index: $0.slot, generation: $0.generation) }
        }
        var world = World(router: router, clients: clients, nodes: nodes, mode: mode, log: log)
        var r = ByteReader(Array(bytes[start...]))
        var steps = 0
        while !r.isAtEnd && steps < maxSteps {
            steps += 1
            world.step(&r)
            world.flush()
            if !world.sink.violations.isEmpty { return world.sink.violations }
        }
        return world.finish()
    }

    /// The opcodes, in the order of `World.step`.
    public enum Op: UInt8, CaseIterable, Sendable {
        case motion, motion2, motionAbsolute, button, button2, axis, key, key2, key3
        case touchDown, touchDown2, touchMotion, touchUp, touchCancel, touchFrame, gesture, switchToggle
        case deviceAdded, deviceRemoved, warp, timeJump
        case create, create2, destroy, map, move, resize, restack, place, reparent, inputRegion, attributes
        case nextResponder, handler, addClient, removeClient, bind, focus, resign, popupGrab, dismissPopups
        case beginMove, beginResize, action, modifiers, absoluteMapping, output, opacityThreshold
        // Tablets (added last, so that older seeds keep their meaning).
        case tabletProximity, tabletTip, tabletAxis, tabletButton, padButton, padRing, padStrip
    }

    struct World {
        let router: Router
        var sink: InvariantChecker<ClientModel<NullSink>>
        var nodes: [NodeID] = []
        var clients: [ClientID] = [.compositor]
        var time: UInt64 = 0
        let log: ((String) -> Void)?

        init(
            router: Router, clients: [ClientID], nodes: [NodeID], mode: InvariantChecker<ClientModel<NullSink>>.Mode,
            log: ((String) -> Void)?
        ) {
            self.router = router
            self.clients = clients
            self.nodes = nodes
            self.log = log
            sink = InvariantChecker(
                wrapping: ClientModel(wrapping: NullSink(), router: router), router: router, mode: mode)
            // A snapshot seed's seats are kept; those it lacks are made as in the empty scene.
            for i in min(router.seats.count, RouterFuzz.seatCount)..<RouterFuzz.seatCount {
                let seat = router.addSeat(name: "seat\(i)")
                if i < 2 {
                    seat.keyTranslator = CodeKeyTranslator()
                    seat.addBinding(KeyBinding(keysym: 28, modifiers: .superKey)) {}
                    seat.addRecognizer(ThreeFingerTouch())
                    seat.addRecognizer(SuperButton())
                    seat.addRecognizer(FourFingerSwipe())
                }
                for d in 0..<RouterFuzz.deviceCount / 2 {
                    seat.notifyDeviceAdded(
                        DeviceID(d),
                        capabilities: [.pointer, .keyboard, .touch, .gesture, .switch, .tabletTool, .tabletPad])
                    // Its pad part: three buttons (one switching three modes), a ring and a strip.
                    seat.notifyPadAdded(
                        DeviceID(d),
                        layout: TabletPadLayout(
                            buttons: 3, rings: 1, strips: 1,
                            groups: [
                                TabletPadGroup(buttons: [0, 1, 2], rings: [0], strips: [0], modes: 3, toggles: [0])
                            ],
                            tablet: DeviceID(d)), time: 0)
                }
            }
            if nodes.isEmpty {
                self.nodes.append(router.tree.createNode(.output, name: "out0", frame: Rect(0, 0, 640, 480)))
            }
            flush()
        }

        mutating func flush() {
            if let log {
                for d in router.queue.deliveries {
                    log("    -> " + TraceSink.line(d, queue: router.queue, router: router))
                }
            }
            router.flush(into: &sink)
        }

        func note(_ text: @autoclosure () -> String) { if let log { log(text()) } }

        func node(_ r: inout ByteReader) -> NodeID {
            // Dead handles stay in the list: using them must be harmless.
            let b = r.byte()
            return b == 255 ? router.tree.root : nodes[Int(b) % nodes.count]
        }

        func client(_ r: inout ByteReader) -> ClientID { clients[r.index(clients.count)] }

        func rect(_ r: inout ByteReader) -> Rect {
            let b = r.byte()
            if b >= 250 {
                return Rect(Int32.min + Int32(b & 1), Int32.max - 3, Int32.max, Int32.max - Int32(b & 3))
            }
            return Rect(
                Int32(r.byte()) * 3 - 100, Int32(r.byte()) * 2 - 60, Int32(r.byte()) * 2 - 10, Int32(r.byte()) * 2 - 10)
        }

        mutating func step(_ r: inout ByteReader) {
            let code = r.byte()
            let op = Op(rawValue: (code & 0x3f) % UInt8(Op.allCases.count)) ?? .motion
            let seat = router.seats[Int(code >> 6) % RouterFuzz.seatCount]
            let device = DeviceID(UInt32(r.byte()) % RouterFuzz.deviceCount)
            time &+= 1000
            let t = time
            func event(_ kind: InputEvent.Kind) {
                note("\(seat.name) \(device) \(kind)")
                seat.handle(InputEvent(time: t, device: device, kind))
            }
            switch op {
            case .motion, .motion2:
                let dx = r.delta()
                let dy = r.delta()
                event(.pointerMotion(dx: dx, dy: dy, unacceleratedDX: dx, unacceleratedDY: dy))
            case .motionAbsolute:
                event(.pointerMotionAbsolute(x: r.unit(), y: r.unit()))
            case .button, .button2:
                event(.pointerButton(button: r.pick(FuzzValues.buttons), state: r.bool() ? .pressed : .released))
            case .axis:
                let source = r.pick([AxisSource.wheel, .finger, .continuous, .wheelTilt])
                let v = r.bool() ? AxisValue(value: r.delta(), value120: Int32(Int8(bitPattern: r.byte())) * 15) : nil
                let h = r.bool() ? AxisValue(value: r.delta(), value120: 0) : nil
                event(.pointerAxis(source: source, vertical: v, horizontal: h))
            case .key, .key2, .key3:
                event(.keyboardKey(key: r.pick(FuzzValues.keys), state: r.bool() ? .pressed : .released))
            case .touchDown, .touchDown2:
                event(.touchDown(slot: r.pick(FuzzValues.slots), x: r.unit(), y: r.unit()))
            case .touchMotion:
                event(.touchMotion(slot: r.pick(FuzzValues.slots), x: r.unit(), y: r.unit()))
            case .touchUp:
                event(.touchUp(slot: r.pick(FuzzValues.slots)))
            case .touchCancel:
                event(.touchCancel(slot: r.pick(FuzzValues.slots)))
            case .touchFrame:
                event(.touchFrame)
            case .gesture:
                let b = r.byte()
                let g = GestureEvent(
                    kind: [.swipe, .pinch, .hold][Int(b & 3) % 3], phase: [.begin, .update, .end][Int(b >> 2 & 3) % 3],
                    fingers: Int32(b >> 4), dx: r.delta(), dy: r.delta(), scale: r.unit() * 2,
                    rotation: r.delta(), cancelled: b & 0x80 != 0)
                event(.gesture(g))
            case .switchToggle:
                event(.switchToggle(r.pick([SwitchKind.lid, .tabletMode, .keypadSlide]), on: r.bool()))
            case .deviceAdded:
                event(.deviceAdded(DeviceCapabilities(rawValue: UInt16(r.byte()))))
            case .deviceRemoved:
                event(.deviceRemoved)
            case .warp:
                let p = Point(r.delta() * 4, r.delta() * 4)
                note("\(seat.name) warp \(p.x),\(p.y)")
                seat.notifyPointerWarp(time: t, to: p)
            case .timeJump:
                let jumps: [UInt64] = [0, 1, UInt64.max, UInt64.max - 1000, time / 2]
                time = jumps[r.index(jumps.count)]
                note("time \(time)")

            // MARK: The scene
            case .create, .create2:
                let kind = r.pick([NodeKind.toplevel, .toplevel, .subsurface, .popup, .compositor])
                var owner = client(&r)
                if kind == .compositor {
                    owner = .compositor
                } else if owner == .compositor, clients.count > 1 {
                    owner = clients[1]
                }
                let parent = node(&r)
                let frame = rect(&r)
                let layer: ChildLayer = r.bool() ? .above : .below
                let n = router.tree.createNode(kind, client: owner, parent: parent, frame: frame, layer: layer)
                note("create \(n) \(kind) of \(owner) under \(parent) at \(frame) \(layer)")
                nodes.append(n)
            case .destroy:
                let n = node(&r)
                note("destroy \(n)")
                router.tree.destroy(n)
            case .map:
                let n = node(&r)
                let mapped = r.bool()
                note("map \(n) \(mapped)")
                router.tree.setMapped(n, mapped)
            case .move:
                let n = node(&r)
                let frame = rect(&r)
                note("move \(n) to \(frame.x),\(frame.y)")
                router.tree.move(n, to: (frame.x, frame.y))
            case .resize:
                let n = node(&r)
                let frame = rect(&r)
                let scale = Int32(r.byte() % 4)
                note("resize \(n) to \(frame.width)x\(frame.height) scale \(scale)")
                if scale == 0 {
                    router.tree.resize(n, width: frame.width, height: frame.height)
                } else {
                    router.tree.setBuffer(n, width: frame.width, height: frame.height, scale: scale)
                }
            case .restack:
                let n = node(&r)
                let up = r.bool()
                note("\(up ? "raise" : "lower") \(n)")
                if up { router.tree.raiseToTop(n) } else { router.tree.lowerToBottom(n) }
            case .place:
                let n = node(&r)
                let s = node(&r)
                let above = r.bool()
                note("place \(n) \(above ? "above" : "below") \(s)")
                if above { router.tree.place(n, above: s) } else { router.tree.place(n, below: s) }
            case .reparent:
                let n = node(&r)
                let p = node(&r)
                let b = r.byte()
                note("reparent \(n) under \(p) mode \(b % 3)")
                switch b % 3 {
                case 0: router.tree.setParent(n, p, layer: .above)
                case 1: router.tree.setParent(n, p, layer: .below)
                default: router.tree.detach(n)
                }
            case .inputRegion:
                let n = node(&r)
                let b = r.byte()
                var region: Region? = nil
                if b & 1 == 1 {
                    var g = Region()
                    for i in 0..<Int(b >> 1 & 3) {
                        let rc = Rect(Int32(r.byte()) - 20, Int32(r.byte()) - 20, Int32(r.byte()), Int32(r.byte()))
                        if i & 1 == 0 || b & 0x40 != 0 { g.add(rc) } else { g.subtract(rc) }
                    }
                    region = g
                }
                note("input region of \(n): \(region.map { "\($0)" } ?? "infinite")")
                router.tree.setInputRegion(n, region)
            case .attributes:
                let n = node(&r)
                let b = r.byte()
                note("attribute \(b % 4) of \(n) = \(b & 4 != 0)")
                switch b % 4 {
                case 0: router.tree.setAcceptsInput(n, b & 4 != 0)
                case 1: router.tree.setOpacity(n, [0, 0.005, 0.01, 0.5, 1, .nan, -1, .infinity][Int(b >> 2) % 8])
                case 2: router.tree.setClipsChildren(n, b & 4 != 0)
                default: router.tree.setCanBecomeFirstResponder(n, b & 4 != 0)
                }
            case .nextResponder:
                let n = node(&r)
                let other = node(&r)
                let clear = r.bool()
                note("next responder of \(n) = \(clear ? "default" : "\(other)")")
                router.tree.setNextResponder(n, clear ? nil : other)
            case .handler:
                let n = node(&r)
                let mask = r.u16()
                let isClient = r.bool()
                note("handler on \(isClient ? "client of \(n)" : "\(n)") takes \(String(mask, radix: 2))")
                let handler: NodeHandler? =
                    mask == 0 ? nil : { e in mask & (1 << (e.kind.rawValue % 16)) != 0 ? .handled : .notHandled }
                if isClient {
                    if let c = router.tree.client(of: n) { router.setHandler(for: c, handler) }
                } else if r.bool() {
                    seat.handler = handler
                } else {
                    router.tree.setHandler(n, handler)
                }

            // MARK: Clients, focus and grabs
            case .addClient:
                let c = router.addClient(name: "c\(clients.count)")
                let b = r.byte()
                for s in router.seats { s.setBound(BoundDevices(rawValue: b & 15), for: c, true) }
                note("add \(c) bound \(b & 15)")
                clients.append(c)
            case .removeClient:
                let c = client(&r)
                note("remove \(c)")
                router.removeClient(c)
            case .bind:
                let c = client(&r)
                let b = r.byte()
                // Bit 4 adds the tablet seat to pointer, keyboard and touch (bits 0-2).
                let devices = BoundDevices(rawValue: b & 7 | (b & 16 != 0 ? BoundDevices.tablet.rawValue : 0))
                note("\(seat.name) bind \(devices.rawValue) for \(c): \(b & 8 != 0)")
                seat.setBound(devices, for: c, b & 8 != 0)
            case .focus:
                let n = node(&r)
                let clear = r.byte() == 0
                note("\(seat.name) focus \(clear ? "nil" : "\(n)")")
                seat.setKeyboardFocus(clear ? nil : n)
            case .resign:
                let n = node(&r)
                note("\(seat.name) resign \(n)")
                seat.resignKeyboardFocus(n)
            case .popupGrab:
                let n = node(&r)
                note("\(seat.name) popup grab \(n)")
                seat.beginPopupGrab(n)
            case .dismissPopups:
                note("\(seat.name) dismiss popups")
                seat.dismissPopups()
            case .beginMove:
                let n = node(&r)
                note("\(seat.name) move grab \(n)")
                seat.beginMove(n)
            case .beginResize:
                let n = node(&r)
                let edges = ResizeEdges(rawValue: UInt32(r.byte() & 15))
                note("\(seat.name) resize grab \(n) \(edges.rawValue)")
                seat.beginResize(n, edges: edges)
            case .action:
                let name = r.pick(["close", "copy", "paste", ""])
                note("\(seat.name) action \(name)")
                seat.sendAction(name)
            case .modifiers:
                let m = Modifiers(
                    depressed: UInt32(r.byte()), latched: UInt32(r.byte() & 3), locked: UInt32(r.byte() & 3))
                note("\(seat.name) modifiers \(m)")
                seat.notifyModifiers(m)
            case .absoluteMapping:
                let clear = r.bool()
                let frame = rect(&r)
                note("\(seat.name) absolute mapping \(clear ? "outputs" : "\(frame)")")
                seat.absoluteMapping = clear ? nil : frame
            case .output:
                let frame = rect(&r)
                let n = router.tree.createNode(.output, name: "out\(nodes.count)", frame: frame)
                note("output \(n) at \(frame)")
                nodes.append(n)
            case .opacityThreshold:
                let v: Float = [0, 0.01, 0.5, 1, .nan][r.index(5)]
                note("opacity threshold \(v)")
                router.tree.opacityThreshold = v

            // MARK: Tablets: tools (proximity, tip, axes, buttons) and pads
            case .tabletProximity:
                let tool = TabletTool(type: r.pick(TabletToolType.allCases), serial: UInt64(r.byte() % 4))
                event(.tabletToolProximity(tool, inProximity: r.bool(), tabletAxes(&r)))
            case .tabletTip:
                event(.tabletToolTip(down: r.bool(), tabletAxes(&r)))
            case .tabletAxis:
                event(.tabletToolAxis(tabletAxes(&r)))
            case .tabletButton:
                event(
                    .tabletToolButton(button: r.pick(FuzzValues.tabletButtons), state: r.bool() ? .pressed : .released))
            case .padButton:
                event(
                    .tabletPadButton(
                        button: r.pick([0, 1, 2, 3, 17, UInt32.max]), state: r.bool() ? .pressed : .released))
            case .padRing:
                event(
                    .tabletPadRing(
                        ring: UInt32(r.byte() % 3), position: r.delta() * 3, source: r.bool() ? .finger : .unknown))
            case .padStrip:
                event(
                    .tabletPadStrip(
                        strip: UInt32(r.byte() % 3), position: r.unit(), source: r.bool() ? .finger : .unknown))
            }
        }

        /// A tool's position (unit square, or unruly) and any of its optional axes.
        func tabletAxes(_ r: inout ByteReader) -> TabletAxes {
            let x = r.unit()
            let y = r.unit()
            let b = r.byte()
            return TabletAxes(
                x: x, y: y, pressure: b & 1 != 0 ? r.unit() : nil, distance: b & 2 != 0 ? r.unit() : nil,
                tiltX: b & 4 != 0 ? r.delta() : nil, tiltY: b & 8 != 0 ? r.delta() : nil,
                rotation: b & 16 != 0 ? r.delta() * 3 : nil, slider: b & 32 != 0 ? r.unit() * 2 - 1 : nil,
                wheel: b & 64 != 0 ? r.delta() : nil)
        }

        /// Every device of every seat goes away; then nothing may be held anywhere.
        mutating func finish() -> [String] {
            note("every device goes away")
            for seat in router.seats {
                for d in 0..<RouterFuzz.deviceCount {
                    // Present or not, once added its holds are released by the removal.
                    seat.notifyDeviceAdded(
                        DeviceID(d), capabilities: [.pointer, .keyboard, .touch, .tabletTool, .tabletPad])
                    flush()
                    seat.notifyDeviceRemoved(DeviceID(d), time: time)
                    flush()
                    if !sink.violations.isEmpty { return sink.violations }
                }
            }
            var problems = sink.violations + sink.inner.stuck()
            for seat in router.seats {
                if seat.activeTouchCount != 0 {
                    problems.append("\(seat.name): \(seat.activeTouchCount) touch points still active")
                }
                if seat.tabletToolsInProximity != 0 {
                    problems.append("\(seat.name): \(seat.tabletToolsInProximity) tablet tools still in proximity")
                }
                // Only a keyboard layer's modifiers follow the keys; without one they are the
                // nested parent's (notifyModifiers), which nothing here resets.
                if seat.keyTranslator != nil, seat.modifiers.depressed != 0 {
                    problems.append("\(seat.name): modifiers \(seat.modifiers) still depressed")
                }
            }
            return problems
        }
    }
}
