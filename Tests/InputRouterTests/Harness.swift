import InputRouter
import Testing

/// A router with one seat, a 1000×1000 output, and a trace checked by the invariant
/// checker after every step: the Smithay way, a recording target and asserted lists.
final class Harness {
    let router = Router()
    let seat: Seat
    let output: NodeID
    var sink: InvariantChecker<TraceSink>
    var time: UInt64 = 0

    init(outputSize: Rect = Rect(0, 0, 1000, 1000)) {
        seat = router.addSeat()
        output = router.tree.createNode(.output, name: "out", frame: outputSize)
        sink = InvariantChecker(wrapping: TraceSink(router: router), router: router)
        // The cursor starts in the far corner, where tests put nothing.
        seat.notifyPointerWarp(time: 0, to: Point(Double(outputSize.width) - 1, Double(outputSize.height) - 1))
        _ = flush()
    }

    var tree: SurfaceTree { router.tree }

    /// A client that has bound `devices` on the seat.
    func client(_ name: String, _ devices: BoundDevices = [.pointer, .keyboard, .touch]) -> ClientID {
        let c = router.addClient(name: name)
        seat.setBound(devices, for: c, true)
        return c
    }

    @discardableResult
    func toplevel(_ name: String, _ c: ClientID, _ frame: Rect, parent: NodeID? = nil) -> NodeID {
        let n = tree.createNode(.toplevel, name: name, client: c, parent: parent ?? output, frame: frame)
        _ = flush() // the checker judges each change against the scene it was made in
        return n
    }

    /// Runs `body` and returns the trace lines it produced.
    func step(_ body: () -> Void) -> [String] {
        body()
        return flush()
    }

    func flush() -> [String] {
        router.flush(into: &sink)
        let lines = sink.inner.lines
        sink.inner.removeAll()
        return lines
    }

    func tick() -> UInt64 {
        time += 1000
        return time
    }

    func warp(_ x: Double, _ y: Double) -> [String] { step { seat.notifyPointerWarp(time: tick(), to: Point(x, y)) } }
    func button(_ state: ButtonState, _ b: UInt32 = 0x110, device: DeviceID = DeviceID(0)) -> [String] {
        step { seat.notifyPointerButton(time: tick(), button: b, state: state, device: device) }
    }
    func key(_ k: UInt32, _ state: KeyState, device: DeviceID = DeviceID(0)) -> [String] {
        step { seat.notifyKey(time: tick(), key: k, state: state, device: device) }
    }

    func expectClean(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(sink.violations == [], sourceLocation: sourceLocation)
    }
}

/// A keyboard layer for tests: keysym = key code; Shift (42), Ctrl (29), Alt (56) and
/// Super (125) set their modifier bits. The real one is xkbcommon's, in Keyboard.
final class CodeTranslator: KeyTranslator {
    var depressed: UInt32 = 0
    func translate(key: UInt32, state: KeyState) -> KeyMeaning {
        let bits: [UInt32: UInt32] = [42: 1, 29: 4, 56: 8, 125: 64]
        if let b = bits[key] { if state == .pressed { depressed |= b } else { depressed &= ~b } }
        return KeyMeaning(keysym: key, baseKeysym: key, modifiers: Modifiers(depressed: depressed))
    }
    func releaseAll() -> Modifiers {
        depressed = 0
        return Modifiers()
    }
}

/// A deterministic generator for seeded random tests (SplitMix64).
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
