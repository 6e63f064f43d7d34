import InputRouter
import InputRouterFuzzing
import InputRouterRecording
import Testing

/// Devices come and go while keys, buttons and touch points are held, on three seats,
/// with focus moving and windows moving, mapping and dying under them. What is asserted is
/// what a client would believe from the deliveries alone (`ClientModel`): whenever a seat
/// has no device left, no client believes anything is down on it; at the end, with every
/// device gone, nothing anywhere.
@Suite struct DeviceChaosTests {
    final class World {
        let router = Router()
        var sink: InvariantChecker<ClientModel<NullSink>>
        var windows: [NodeID] = []
        var present: [[Bool]]
        var time: UInt64 = 0

        init(seats: Int, devices: Int) {
            sink = InvariantChecker(wrapping: ClientModel(wrapping: NullSink(), router: router), router: router)
            present = Array(repeating: Array(repeating: false, count: devices), count: seats)
            for i in 0..<seats {
                let seat = router.addSeat(name: "seat\(i)")
                if i != 1 { seat.keyTranslator = CodeKeyTranslator() }
                if i == 2 { seat.addRecognizer(ThreeFingerTouch()) }
            }
            let output = router.tree.createNode(.output, frame: Rect(0, 0, 600, 400))
            for c in 0..<3 {
                let client = router.addClient(name: "c\(c)")
                for s in router.seats { s.setBound([.pointer, .keyboard, .touch], for: client, true) }
                windows.append(
                    router.tree.createNode(
                        .toplevel, client: client, parent: output,
                        frame: Rect(Int32(c) * 200, 0, 200, 400)))
                windows.append(
                    router.tree.createNode(
                        .subsurface, client: client, parent: windows.last!,
                        frame: Rect(20, 20, 100, 100)))
            }
            flush()
        }

        func flush() { router.flush(into: &sink) }

        /// What a client still believes on `seat`, as lines.
        func stuck(on seat: Seat) -> [String] { sink.inner.stuck().filter { $0.hasPrefix("\(seat.id) ") } }
    }

    @Test(arguments: 0..<60 as Range<UInt64>)
    func nothingStaysDownWhenDevicesGo(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let w = World(seats: 3, devices: 4)
        let caps: DeviceCapabilities = [.keyboard, .pointer, .touch]
        for _ in 0..<1500 {
            w.time += 1000
            let t = w.time
            let s = Int.random(in: 0..<3, using: &rng)
            let seat = w.router.seats[s]
            let d = Int.random(in: 0..<4, using: &rng)
            let device = DeviceID(UInt32(d))
            let down = Bool.random(using: &rng)
            let op = Int.random(in: 0..<100, using: &rng)
            switch op {
            case 0..<8:
                seat.notifyDeviceAdded(device, capabilities: caps)
                w.present[s][d] = true
            case 8..<16:
                seat.notifyDeviceRemoved(device, time: t)
                w.present[s][d] = false
            case 16..<34:
                seat.notifyKey(
                    time: t, key: [30, 31, 42, 29, 125, 57][Int.random(in: 0..<6, using: &rng)],
                    state: down ? .pressed : .released, device: device)
            case 34..<48:
                seat.notifyPointerButton(
                    time: t, button: [0x110, 0x111, 0x112][Int.random(in: 0..<3, using: &rng)],
                    state: down ? .pressed : .released, device: device)
            case 48..<66:
                let slot = Int32(d * 2 + Int.random(in: 0..<2, using: &rng)) // slots are seat-wide, one pair per device
                let p = Point(Double.random(in: 0..<600, using: &rng), Double.random(in: 0..<400, using: &rng))
                switch Int.random(in: 0..<4, using: &rng) {
                case 0, 1: seat.notifyTouchDown(time: t, slot: slot, at: p, device: device)
                case 2: seat.notifyTouchMotion(time: t, slot: slot, at: p)
                default: seat.notifyTouchUp(time: t, slot: slot)
                }
                seat.notifyTouchFrame()
            case 66..<78:
                seat.notifyPointerWarp(
                    time: t, to: Point(Double.random(in: 0..<600, using: &rng), Double.random(in: 0..<400, using: &rng))
                )
            case 78..<86:
                seat.setKeyboardFocus(w.windows[Int.random(in: 0..<w.windows.count, using: &rng)])
            case 86..<91:
                let n = w.windows[Int.random(in: 0..<w.windows.count, using: &rng)]
                w.router.tree.move(
                    n, to: (Int32.random(in: -50...500, using: &rng), Int32.random(in: -50...300, using: &rng)))
            case 91..<95:
                let n = w.windows[Int.random(in: 0..<w.windows.count, using: &rng)]
                w.router.tree.setMapped(n, !w.router.tree.isMapped(n))
            case 95..<98:
                if let c = w.router.tree.client(of: w.windows[Int.random(in: 0..<w.windows.count, using: &rng)]) {
                    seat.setBound([.pointer, .keyboard, .touch], for: c, Bool.random(using: &rng))
                }
            default:
                seat.beginMove(w.windows[Int.random(in: 0..<w.windows.count, using: &rng)])
            }
            w.flush()
            #expect(w.sink.violations == [], "seed \(seed)")
            if !w.sink.violations.isEmpty { return }
            // The seat's last device went: nothing may be believed down on it. Events may
            // have come from devices already removed, so every one is removed once more.
            if (8..<16).contains(op), !w.present[s].contains(true) {
                for other in 0..<4 { seat.notifyDeviceRemoved(DeviceID(UInt32(other)), time: t) }
                w.flush()
                #expect(w.stuck(on: seat) == [], "seed \(seed)")
                #expect(seat.activeTouchCount == 0, "seed \(seed)")
            }
        }
        for seat in w.router.seats {
            for d in 0..<4 { seat.notifyDeviceRemoved(DeviceID(UInt32(d)), time: w.time + 1) }
        }
        w.flush()
        #expect(w.sink.violations == [], "seed \(seed)")
        #expect(w.sink.inner.stuck() == [], "seed \(seed)")
        for seat in w.router.seats {
            #expect(seat.activeTouchCount == 0, "seed \(seed)")
            if seat.keyTranslator != nil { #expect(seat.modifiers.depressed == 0, "seed \(seed)") }
        }
    }
}
