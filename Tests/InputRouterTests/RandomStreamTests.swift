import InputRouter
import Testing

/// Long random event streams on random scenes, with the scene changing under them, clients
/// coming and going, grabs, recognizers, bindings and devices vanishing mid-sequence: the
/// invariant checker must stay clean, and nothing may stay held at the end.
@Suite struct RandomStreamTests {
    @Test(arguments: 0..<100 as Range<UInt64>)
    func invariantsHoldOverLongRandomStreams(seed: UInt64) {
        var rng = SeededRandom(seed: seed &* 7919)
        let h = Harness(outputSize: Rect(0, 0, 400, 300))
        h.seat.keyTranslator = CodeTranslator()
        h.seat.addRecognizer(ThreeFingerSwipe())
        h.seat.addRecognizer(SuperDrag())
        h.seat.addBinding(KeyBinding(keysym: 28, modifiers: .superKey)) {}
        var clients: [ClientID] = []
        var surfaces: [NodeID] = []
        let devices = (1...3).map { DeviceID(UInt32($0)) }
        for d in devices { h.seat.notifyDeviceAdded(d, capabilities: [.pointer, .keyboard, .touch]) }

        func randomRect() -> Rect {
            Rect(
                Int32.random(in: -20...380, using: &rng), Int32.random(in: -20...280, using: &rng),
                Int32.random(in: 1...200, using: &rng), Int32.random(in: 1...200, using: &rng))
        }
        func addSurface() {
            if clients.isEmpty || Int.random(in: 0..<4, using: &rng) == 0 {
                let all: [BoundDevices] = [[], .pointer, .keyboard, .touch, [.pointer, .keyboard, .touch]]
                clients.append(h.client("c\(clients.count)", all.randomElement(using: &rng)!))
            }
            let c = clients.randomElement(using: &rng)!
            let own = surfaces.filter { h.tree.client(of: $0) == c }
            let kind: NodeKind = own.isEmpty ? .toplevel : [.toplevel, .subsurface, .popup].randomElement(using: &rng)!
            let parent = kind == .subsurface ? own.randomElement(using: &rng)! : h.output
            let n = h.tree.createNode(
                kind, client: c, parent: parent, frame: randomRect(),
                layer: Bool.random(using: &rng) ? .above : .below)
            if kind == .popup, let p = own.randomElement(using: &rng) { h.tree.setNextResponder(n, p) }
            surfaces.append(n)
        }
        for _ in 0..<6 { addSurface() }
        _ = h.flush()

        for _ in 0..<3000 {
            let t = h.tick()
            let device = devices.randomElement(using: &rng)!
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<30:
                h.seat.notifyPointerMotion(
                    time: t, dx: Double.random(in: -40...40, using: &rng), dy: Double.random(in: -40...40, using: &rng))
            case 30..<38:
                h.seat.notifyPointerButton(
                    time: t, button: [0x110, 0x111].randomElement(using: &rng)!,
                    state: Bool.random(using: &rng) ? .pressed : .released, device: device)
            case 38..<42:
                h.seat.notifyPointerAxis(
                    time: t, source: [.wheel, .finger].randomElement(using: &rng)!,
                    vertical: AxisValue(value: Double(Int.random(in: -1...1, using: &rng)) * 15, value120: 120),
                    horizontal: nil)
            case 42..<52:
                h.seat.notifyKey(
                    time: t, key: [30, 31, 42, 125, 28].randomElement(using: &rng)!,
                    state: Bool.random(using: &rng) ? .pressed : .released, device: device)
            case 52..<64:
                let slot = Int32.random(in: 0..<4, using: &rng)
                let p = Point(Double.random(in: 0..<400, using: &rng), Double.random(in: 0..<300, using: &rng))
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: h.seat.notifyTouchDown(time: t, slot: slot, at: p, device: device)
                case 1: h.seat.notifyTouchUp(time: t, slot: slot)
                case 2: h.seat.notifyTouchCancel(time: t, slot: slot)
                default: h.seat.notifyTouchMotion(time: t, slot: slot, at: p)
                }
                h.seat.notifyTouchFrame()
            case 64..<67:
                let kind: GestureKind = [.swipe, .pinch, .hold].randomElement(using: &rng)!
                let phase: GesturePhase = [.begin, .update, .end].randomElement(using: &rng)!
                h.seat.notifyGesture(time: t, GestureEvent(kind: kind, phase: phase, fingers: 3))
            case 67..<72:
                if let n = surfaces.randomElement(using: &rng) { h.seat.setKeyboardFocus(n) }
            case 72..<76:
                if let n = surfaces.randomElement(using: &rng) { h.tree.move(n, to: (randomRect().x, randomRect().y)) }
            case 76..<79:
                if let n = surfaces.randomElement(using: &rng) { h.tree.setMapped(n, !h.tree.isMapped(n)) }
            case 79..<81:
                if let n = surfaces.randomElement(using: &rng) {
                    var r = Region(Rect(0, 0, 100, 100))
                    r.subtract(Rect(10, 10, 30, 30))
                    h.tree.setInputRegion(n, Bool.random(using: &rng) ? r : nil)
                }
            case 81..<83:
                if let n = surfaces.randomElement(using: &rng) { h.tree.raiseToTop(n) }
            case 83..<86:
                if let n = surfaces.randomElement(using: &rng) { h.tree.destroy(n) }
                surfaces.removeAll { !h.tree.isAlive($0) }
            case 86..<89:
                addSurface()
            case 89..<90:
                if let c = clients.randomElement(using: &rng) {
                    h.router.removeClient(c)
                    clients.removeAll { $0 == c }
                    surfaces.removeAll { !h.tree.isAlive($0) }
                }
            case 90..<92:
                if let n = surfaces.filter({ h.tree.kind(of: $0) == .popup }).randomElement(using: &rng) {
                    h.seat.beginPopupGrab(n)
                }
            case 92..<93:
                if let n = surfaces.randomElement(using: &rng) { h.seat.beginMove(n) }
            case 93..<94:
                h.seat.notifyDeviceRemoved(device, time: t)
                h.seat.notifyDeviceAdded(device, capabilities: [.pointer, .keyboard, .touch])
            case 94..<96:
                if let c = clients.randomElement(using: &rng) {
                    h.seat.setBound(
                        [.pointer, .keyboard, .touch].randomElement(using: &rng)!, for: c, Bool.random(using: &rng))
                }
            default:
                h.seat.sendAction("close")
            }
            _ = h.flush()
            if !h.sink.violations.isEmpty { break }
        }
        // Every device goes away: nothing stays held anywhere.
        for d in devices { h.seat.notifyDeviceRemoved(d, time: h.tick()) }
        _ = h.flush()
        #expect(h.sink.violations == [], "seed \(seed)")
        #expect(h.seat.activeTouchCount == 0)
        #expect(h.seat.modifiers.depressed == 0)
    }
}
