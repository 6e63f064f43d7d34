import InputRouter
import InputRouterRecording
import Testing

/// A scene snapshot taken in the middle of a live run, written as text, read back and
/// rebuilt with no client connected, must route the rest of the input to the very trace
/// the live run produced after the snapshot. The scenes are the hit-test differential
/// test's random trees, with clients and popups added; the moment of the snapshot is
/// mid-move, mid-drag, with a popup chain open, or with keys, buttons and touches held.
@Suite struct SceneSnapshotRoundTripTests {
    enum Moment: CaseIterable { case plain, midMove, midDrag, popupChain, keysHeld }

    /// Collects the trace lines.
    struct Lines: DeliverySink {
        let router: Router
        var lines: [String] = []
        mutating func deliver(_ d: Delivery, from queue: DeliveryQueue) {
            lines.append(TraceSink.line(d, queue: queue, router: router))
        }
    }

    static func randomEvents(_ rng: inout SeededRandom, count: Int, from time: UInt64) -> [InputEvent] {
        var events: [InputEvent] = []
        var t = time
        var down = Set<Int32>()
        for _ in 0..<count {
            t += 1000
            let device = DeviceID(UInt32.random(in: 1...2, using: &rng))
            let kind: InputEvent.Kind
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<35:
                let dx = Double(Int.random(in: -160...160, using: &rng)) / 4
                let dy = Double(Int.random(in: -160...160, using: &rng)) / 4
                kind = .pointerMotion(dx: dx, dy: dy, unacceleratedDX: dx, unacceleratedDY: dy)
            case 35..<45:
                kind = .pointerButton(
                    button: [0x110, 0x111].randomElement(using: &rng)!,
                    state: Bool.random(using: &rng) ? .pressed : .released)
            case 45..<50:
                kind = .pointerAxis(source: .wheel, vertical: AxisValue(value: 15, value120: 120), horizontal: nil)
            case 50..<70:
                kind = .keyboardKey(
                    key: [30, 31, 42, 125, 28].randomElement(using: &rng)!,
                    state: Bool.random(using: &rng) ? .pressed : .released)
            case 70..<80:
                let slot = Int32.random(in: 0...1, using: &rng)
                if down.contains(slot) {
                    down.remove(slot)
                    kind = .touchUp(slot: slot)
                } else {
                    down.insert(slot)
                    kind = .touchDown(
                        slot: slot, x: Double(Int.random(in: 0...64, using: &rng)) / 64,
                        y: Double(Int.random(in: 0...64, using: &rng)) / 64)
                }
            case 80..<88:
                guard let slot = down.first else { continue }
                kind = .touchMotion(
                    slot: slot, x: Double(Int.random(in: 0...64, using: &rng)) / 64,
                    y: Double(Int.random(in: 0...64, using: &rng)) / 64)
            case 88..<92:
                kind = .touchFrame
            default:
                kind = .pointerMotionAbsolute(
                    x: Double(Int.random(in: 0...256, using: &rng)) / 256,
                    y: Double(Int.random(in: 0...256, using: &rng)) / 256)
            }
            events.append(InputEvent(time: t, device: device, kind))
        }
        return events
    }

    static func handlers() -> SceneHandlers {
        var h = SceneHandlers()
        // The differential scene's disc (HitTestDifferentialTests.RefNode.customContains).
        h.containmentTests["disc"] = { tree, id in
            { p in
                let f = tree.frame(of: id) ?? Rect(0, 0, 0, 0)
                let w = Double(f.width)
                let h = Double(f.height)
                return (p.x - w / 2) * (p.x - w / 2) + (p.y - h / 2) * (p.y - h / 2) <= w * w / 4
            }
        }
        return h
    }

    /// One live run up to the moment, the snapshot, then the rest live and rebuilt.
    func roundTrip(seed: UInt64, moment: Moment) throws -> (live: [String], replayed: [String], snapshot: String) {
        var rng = SeededRandom(seed: seed &* 104_729 &+ 17)
        let router = Router()
        let all: [BoundDevices] = [.pointer, [.pointer, .keyboard], [.pointer, .keyboard, .touch], .keyboard]
        var clients: [ClientID] = []
        for i in 1...3 { clients.append(router.addClient(name: "c\(i)")) }
        let seat = router.addSeat()
        for c in clients { seat.setBound(all.randomElement(using: &rng)!, for: c, true) }
        seat.keyTranslator = CodeTranslator()
        seat.addBinding(KeyBinding(keysym: 28, modifiers: .superKey), name: "launcher") {}
        for d in 1...2 { seat.notifyDeviceAdded(DeviceID(UInt32(d)), capabilities: [.pointer, .keyboard, .touch]) }
        let scene = HitTestDifferentialTests.randomScene(&rng, in: router.tree)
        var live = Lines(router: router)
        func run(_ events: [InputEvent]) {
            for e in events {
                seat.handle(e)
                router.flush(into: &live)
            }
        }
        run(Self.randomEvents(&rng, count: 150, from: 0))
        let toplevels = scene.all.map(\.id).filter {
            router.tree.kind(of: $0) == .toplevel && router.tree.canReceiveInput($0)
        }
        var t: UInt64 = 1_000_000
        func at(_ node: NodeID) {
            let o = router.tree.layoutPosition(of: node)!
            let f = router.tree.frame(of: node)!
            t += 1000
            seat.notifyPointerWarp(time: t, to: Point(o.x + Double(f.width) / 2, o.y + Double(f.height) / 2))
        }
        switch moment {
        case .plain: break
        case .midMove, .midDrag:
            if let n = toplevels.randomElement(using: &rng) {
                at(n)
                t += 1000
                seat.notifyPointerButton(time: t, button: 0x110, state: .pressed, device: DeviceID(1))
                if moment == .midMove { seat.beginMove(n) }
                t += 1000
                seat.notifyPointerMotion(time: t, dx: 7, dy: 3)
            }
        case .popupChain:
            if let n = toplevels.randomElement(using: &rng), let c = router.tree.client(of: n), !c.isCompositor {
                let f = router.tree.frame(of: n)!
                let p1 = router.tree.createNode(
                    .popup, client: c, parent: n, frame: Rect(f.width / 2, f.height / 2, 80, 60))
                router.tree.setNextResponder(p1, n)
                let p2 = router.tree.createNode(.popup, client: c, parent: p1, frame: Rect(40, 10, 70, 50))
                router.tree.setNextResponder(p2, p1)
                seat.beginPopupGrab(p1)
                seat.beginPopupGrab(p2)
                at(p2)
            }
        case .keysHeld:
            for key in [42, 30] as [UInt32] {
                t += 1000
                seat.notifyKey(time: t, key: key, state: .pressed, device: DeviceID(2))
            }
            t += 1000
            seat.handle(InputEvent(time: t, device: DeviceID(1), .touchDown(slot: 3, x: 0.25, y: 0.25)))
            seat.handle(InputEvent(time: t, device: DeviceID(1), .pointerButton(button: 0x111, state: .pressed)))
        }
        router.flush(into: &live)

        let text = SceneSnapshot.write(router.captureScene())
        live.lines.removeAll()
        let rest = Self.randomEvents(&rng, count: 250, from: t + 1000)
        run(rest)

        let read = try SceneSnapshot.read(text, file: "seed\(seed).jsonl")
        let rebuilt = try SceneSnapshot.rebuild(read, handlers: Self.handlers()) { _ in CodeTranslator() }
        // The rebuilt scene writes the same snapshot: nothing was lost on the way.
        #expect(SceneSnapshot.write(rebuilt.captureScene()) == text)
        var replayed = Lines(router: rebuilt)
        let rebuiltSeat = rebuilt.seats[0]
        for e in rest {
            rebuiltSeat.handle(e)
            rebuilt.flush(into: &replayed)
        }
        return (live.lines, replayed.lines, text)
    }

    @Test(arguments: Moment.allCases)
    func randomScenesReplayToTheLiveTrace(moment: Moment) throws {
        var lines = 0
        var momentsMet = 0
        for seed in 0..<60 as Range<UInt64> {
            let r = try roundTrip(seed: seed, moment: moment)
            lines += r.live.count
            let met =
                switch moment {
                case .plain: true
                case .midMove: r.snapshot.contains("\"grab\":{\"kind\":\"move\"")
                case .midDrag: r.snapshot.contains("\"heldButtons\":[{")
                case .popupChain: r.snapshot.contains("\"grab\":{\"client\"")
                case .keysHeld: r.snapshot.contains("\"heldKeys\":[{") && r.snapshot.contains("\"touchPoints\":[{")
                }
            if met { momentsMet += 1 }
            if let first = SceneSnapshot.firstDifference(expected: r.live, actual: r.replayed) {
                Issue.record(
                    """
                    seed \(seed) \(moment): traces differ at line \(first + 1)
                    live:     \(first < r.live.count ? r.live[first] : "(end)")
                    replayed: \(first < r.replayed.count ? r.replayed[first] : "(end)")
                    """)
                return
            }
        }
        #expect(lines > 1000) // the runs routed something
        #expect(momentsMet >= 20, "only \(momentsMet) of 60 snapshots were taken at the moment \(moment)")
    }
}
