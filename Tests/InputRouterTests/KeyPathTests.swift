// The key path's shortcuts (docs/performance.md, "The key path"), each on the inputs where a
// wrong one would give another answer: the held list's release of a key that is not the
// newest, the translator called through its kept words after it is replaced or removed, the
// press log's ring wrapped by a mask, the serial source's C function, and `handle(_:)`'s
// key test ahead of the other kinds.
import InputRouter
import Testing

@Suite struct KeyPathTests {
    func setUp() -> (Harness, NodeID, NodeID) {
        let h = Harness()
        h.seat.keyTranslator = CodeTranslator()
        let a = h.toplevel("A", h.client("a"), Rect(0, 0, 100, 100))
        let b = h.toplevel("B", h.client("b"), Rect(200, 0, 100, 100))
        h.seat.setKeyboardFocus(a)
        _ = h.flush()
        return (h, a, b)
    }

    /// Released out of order, held keys leave the list they were pressed in: an enter then
    /// carries exactly the ones still down, in press order.
    @Test func enterCarriesTheKeysStillHeldAfterReleasesOutOfOrder() {
        let (h, a, b) = setUp()
        for k: UInt32 in [30, 31, 32, 33, 34] { _ = h.key(k, .pressed) }
        _ = h.key(31, .released) // neither the newest nor the oldest
        _ = h.key(34, .released) // the newest
        _ = h.key(30, .released) // the oldest
        _ = h.key(31, .pressed) // again: once in the list, not twice
        #expect(
            h.step { h.seat.setKeyboardFocus(b) } == [
                "seat0 keyboard.leave \"A\"", "seat0 keyboard.enter \"B\" keys []",
                "seat0 keyboard.modifiers \"B\" 0,0,0,0",
            ])
        #expect(
            h.step { h.seat.setKeyboardFocus(a) } == [
                "seat0 keyboard.leave \"B\"", "seat0 keyboard.enter \"A\" keys [32 33 31]",
                "seat0 keyboard.modifiers \"A\" 0,0,0,0",
            ])
        _ = h.key(33, .released)
        _ = h.key(35, .pressed)
        _ = h.key(32, .released)
        _ = h.key(33, .pressed)
        #expect(h.step { h.seat.setKeyboardFocus(b) }.count == 3)
        #expect(h.step { h.seat.setKeyboardFocus(a) }[1] == "seat0 keyboard.enter \"A\" keys [31 35 33]")
        h.expectClean()
    }

    /// Every code can be held at once (the list's capacity), and released again.
    @Test func everyCodeHeldAtOnce() {
        let (h, a, b) = setUp()
        h.seat.keyTranslator = nil
        for k in 0..<UInt32(0x300) { h.seat.notifyKey(time: 1, key: k, state: .pressed) }
        for k in stride(from: UInt32(0x2ff), through: 0, by: -2) { h.seat.notifyKey(time: 2, key: k, state: .released) }
        _ = h.flush()
        h.seat.setKeyboardFocus(b)
        _ = h.flush()
        let enter = h.step { h.seat.setKeyboardFocus(a) }[1]
        let keys = (0..<UInt32(0x300)).filter { $0 % 2 == 0 }.map(String.init).joined(separator: " ")
        #expect(enter == "seat0 keyboard.enter \"A\" keys [\(keys)]")
        h.expectClean()
    }

    /// A device's removal releases what it holds, newest first, however many keys (past a
    /// list's first capacity), from a device never added and past the preallocated ones, and
    /// a key another device also holds stays down until both are gone.
    @Test func aRemovedDeviceReleasesItsKeysNewestFirst() {
        let (h, _, _) = setUp()
        let far = DeviceID(40)
        let near = DeviceID(3)
        _ = h.key(30, .pressed, device: far)
        _ = h.key(31, .pressed, device: far)
        _ = h.key(31, .pressed, device: near) // counted: already down
        _ = h.key(32, .pressed, device: near)
        for k: UInt32 in 60...71 { _ = h.key(k, .pressed, device: far) } // no modifier among them
        _ = h.key(63, .released, device: far) // not the newest
        let released = h.step { h.seat.notifyDeviceRemoved(far, time: 99_000) }
        let expected = ([71, 70, 69, 68, 67, 66, 65, 64, 62, 61, 60, 30] as [UInt32]).map {
            "seat0 keyboard.key \"A\" \($0) released"
        }
        #expect(released == expected)
        #expect(h.step { h.seat.notifyDeviceRemoved(far, time: 99_500) } == []) // nothing left
        #expect(
            h.step { h.seat.notifyDeviceRemoved(near, time: 100_000) } == [
                "seat0 keyboard.key \"A\" 32 released", "seat0 keyboard.key \"A\" 31 released",
            ])
        // Pressed again, the same device's keys are its own again.
        _ = h.key(50, .pressed, device: far)
        #expect(h.step { h.seat.notifyDeviceRemoved(far, time: 101_000) } == ["seat0 keyboard.key \"A\" 50 released"])
        h.expectClean()
    }

    /// A translator set, replaced or removed takes effect on the very next key: the words the
    /// seat calls through follow the property.
    @Test func theTranslatorReplacedOrRemovedAnswersTheNextKey() {
        final class Fixed: KeyTranslator {
            let keysym: UInt32, depressed: UInt32
            init(_ keysym: UInt32, _ depressed: UInt32) {
                self.keysym = keysym
                self.depressed = depressed
            }
            func translate(key: UInt32, state: KeyState) -> KeyMeaning {
                KeyMeaning(keysym: keysym, modifiers: Modifiers(depressed: depressed))
            }
            func releaseAll() -> Modifiers { Modifiers() }
        }
        let (h, _, _) = setUp()
        var sym: UInt32 = 0
        h.seat.addBinding(KeyBinding(keysym: 7, modifiers: [])) { sym = 7 }
        h.seat.addBinding(KeyBinding(keysym: 9, modifiers: [])) { sym = 9 }
        h.seat.keyTranslator = Fixed(7, 0)
        _ = h.key(30, .pressed)
        #expect(sym == 7)
        h.seat.keyTranslator = Fixed(9, 0) // the old one is freed here
        _ = h.key(31, .pressed)
        #expect(sym == 9)
        h.seat.keyTranslator = nil
        sym = 0
        #expect(h.key(32, .pressed) == ["seat0 keyboard.key \"A\" 32 pressed"])
        #expect(sym == 0)
        h.seat.keyTranslator = Fixed(1, 4)
        #expect(
            h.key(33, .pressed) == ["seat0 keyboard.key \"A\" 33 pressed", "seat0 keyboard.modifiers \"A\" 4,0,0,0"])
        h.expectClean()
    }

    /// The seat's serial record keeps its newest 128 entries: with each key a press and a
    /// release (no modifiers change), the 64 newest keys' serials are still citable and the
    /// 65th newest is forgotten, over several turns of the ring. A release may open a menu
    /// (GTK opens a MenuButton on the key's release) but never start a move.
    @Test func theSerialRecordKeepsTheNewest128() {
        let (h, a, _) = setUp()
        let client = h.tree.client(of: a)!
        // Past the serials the setup's focus took.
        var next: UInt32 = 1000
        h.router.serialSource = {
            next += 1
            return next
        }
        for i in 0..<200 {
            h.seat.notifyKey(time: UInt64(i), key: UInt32(30 + i % 2), state: .pressed) // serial 1000 + 2i + 1
            h.seat.notifyKey(time: UInt64(i), key: UInt32(30 + i % 2), state: .released) // 1000 + 2i + 2
            for j in stride(from: max(0, i - 70), through: i, by: 1) {
                let press = UInt32(1000 + 2 * j + 1)
                let release = UInt32(1000 + 2 * j + 2)
                #expect(
                    (h.seat.serialEntry(press, client: client, for: .popupGrab)?.action == .keyPress) == (i - j < 64),
                    "key \(i), age \(i - j)")
                #expect(
                    (h.seat.serialEntry(release, client: client, for: .popupGrab)?.action == .keyRelease)
                        == (i - j < 64),
                    "key \(i), age \(i - j)")
            }
            #expect(h.seat.serialEntry(UInt32(1000 + 2 * i + 1), client: client, for: .move) == nil)
            #expect(h.seat.serialEntry(UInt32(1000 + 2 * i + 2), client: client, for: .move) == nil)
        }
        _ = h.flush()
    }

    /// Serials come from the source set last: the C function, or a closure set after it,
    /// or the function again; the router's own counter only with neither.
    @Test func serialsComeFromTheSourceSetLast() {
        let (h, _, _) = setUp()
        var store: UInt32 = 1000
        withUnsafeMutablePointer(to: &store) { p in
            h.router.setSerialSource(context: UnsafeMutableRawPointer(p)) { ctx in
                let s = ctx.assumingMemoryBound(to: UInt32.self)
                s.pointee += 1
                return s.pointee
            }
            #expect(h.seat.nextSerial() == 1001)
            h.router.serialSource = { 7 }
            #expect(h.seat.nextSerial() == 7)
            h.router.setSerialSource(context: UnsafeMutableRawPointer(p)) { ctx in
                ctx.assumingMemoryBound(to: UInt32.self).pointee + 5
            }
            #expect(h.seat.nextSerial() == 1006)
            h.router.serialSource = nil
            let a = h.seat.nextSerial()
            let b = h.seat.nextSerial()
            #expect(b == a &+ 1 && a < 1000)
        }
    }

    /// `handle(_:)` tests for a key before any other kind: keys, buttons, motion and touch
    /// through it give what the `notify*` calls give.
    @Test func handleRoutesKeysAndTheOtherKindsAsTheNotifyCallsDo() {
        func run(_ viaHandle: Bool) -> [String] {
            let (h, _, _) = setUp()
            let events: [InputEvent.Kind] = [
                .keyboardKey(key: 42, state: .pressed),
                .pointerMotion(dx: -950, dy: -950, unacceleratedDX: 0, unacceleratedDY: 0),
                .keyboardKey(key: 30, state: .pressed), .pointerButton(button: 0x110, state: .pressed),
                .keyboardKey(key: 30, state: .released), .pointerButton(button: 0x110, state: .released),
                .keyboardKey(key: 0x300, state: .pressed), .keyboardKey(key: 42, state: .released),
                .keyboardKey(key: 42, state: .released), .touchDown(slot: 0, x: 0.01, y: 0.01), .touchFrame,
                .keyboardKey(key: 50, state: .pressed),
            ]
            var lines: [String] = []
            for (i, kind) in events.enumerated() {
                let t = UInt64(i + 1) * 1000
                lines += h.step {
                    if viaHandle {
                        h.seat.handle(InputEvent(time: t, device: DeviceID(2), kind))
                        return
                    }
                    switch kind {
                    case .keyboardKey(let k, let s): h.seat.notifyKey(time: t, key: k, state: s, device: DeviceID(2))
                    case .pointerMotion(let dx, let dy, let udx, let udy):
                        h.seat.notifyPointerMotion(time: t, dx: dx, dy: dy, unacceleratedDX: udx, unacceleratedDY: udy)
                    case .pointerButton(let b, let s):
                        h.seat.notifyPointerButton(time: t, button: b, state: s, device: DeviceID(2))
                    case .touchDown(let slot, let x, let y):
                        h.seat.notifyTouchDown(time: t, slot: slot, at: Point(x * 1000, y * 1000), device: DeviceID(2))
                    case .touchFrame: h.seat.notifyTouchFrame()
                    default: Issue.record("unexpected \(kind)")
                    }
                }
            }
            // The key's device holds 50: its removal releases it.
            lines += h.step { h.seat.notifyDeviceRemoved(DeviceID(2), time: 20_000) }
            lines.append("drops \(h.seat.dropCount(.key))")
            h.expectClean()
            return lines
        }
        let handled = run(true)
        #expect(handled == run(false))
        #expect(handled.contains("seat0 keyboard.key \"A\" 30 released") && handled.contains("drops 2"))
        #expect(handled.contains("seat0 keyboard.key \"A\" 50 released"))
    }

    /// A translator that publishes answers for keys 30 (inert) and 31 (not), and counts its calls.
    final class Answering: KeyTranslator {
        let state = UnsafeMutablePointer<KeyAnswers.State>.allocate(capacity: 1)
        let keys = UnsafeMutablePointer<KeyAnswers.Key>.allocate(capacity: 2)
        var calls = 0
        init() {
            state.initialize(
                to: KeyAnswers.State(
                    generation: 5, modifiers: Modifiers(locked: 2),
                    inertKeysChangeNothing: true, feedsPresses: false))
            keys.initialize(to: KeyAnswers.Key(generation: 5, keysym: 0x61, baseKeysym: 0x61, inert: true))
            (keys + 1).initialize(to: KeyAnswers.Key(generation: 5, keysym: 0x62, baseKeysym: 0x62, inert: false))
        }
        deinit {
            state.deallocate()
            keys.deallocate()
        }
        var keyAnswers: KeyAnswers? {
            KeyAnswers(state: state, keys: keys, stride: MemoryLayout<KeyAnswers.Key>.stride, firstKey: 30, count: 2)
        }
        func translate(key: UInt32, state: KeyState) -> KeyMeaning {
            calls += 1
            return KeyMeaning(keysym: 0x99, modifiers: self.state.pointee.modifiers)
        }
        func releaseAll() -> Modifiers { state.pointee.modifiers }
    }

    /// A key the translator's answers hold is answered from them without a call (its keysym
    /// and the modifiers are theirs); a key they do not hold, or hold at an older generation,
    /// or while they say an inert key would change something, or a press while they feed
    /// presses, calls the translator; the answers follow the translator when it is replaced.
    @Test func keysTheAnswersHoldSkipTheTranslator() {
        let (h, _, _) = setUp()
        var bound: [UInt32] = []
        h.seat.addBinding(KeyBinding(keysym: 0x61, modifiers: [])) { bound.append(0x61) }
        h.seat.addBinding(KeyBinding(keysym: 0x99, modifiers: [])) { bound.append(0x99) }
        let t = Answering()
        h.seat.keyTranslator = t
        // The answered modifiers are the seat's from the first answered key on.
        #expect(h.key(30, .pressed) == ["seat0 binding #0 key 30", "seat0 keyboard.modifiers \"A\" 0,0,2,0"])
        #expect(t.calls == 0 && bound == [0x61])
        _ = h.key(30, .released)
        _ = h.key(31, .pressed)
        _ = h.key(31, .released) // not inert
        _ = h.key(32, .pressed)
        _ = h.key(32, .released) // not held
        #expect(t.calls == 4 && bound == [0x61, 0x99, 0x99])
        t.state.pointee.generation = 6
        _ = h.key(30, .pressed)
        _ = h.key(30, .released)
        #expect(t.calls == 6 && bound == [0x61, 0x99, 0x99, 0x99])
        t.keys.pointee.generation = 6
        t.state.pointee.inertKeysChangeNothing = false
        _ = h.key(30, .pressed)
        _ = h.key(30, .released)
        t.state.pointee.inertKeysChangeNothing = true
        t.state.pointee.feedsPresses = true
        _ = h.key(30, .pressed)
        _ = h.key(30, .released) // the release is answered
        #expect(t.calls == 9 && bound == [0x61, 0x99, 0x99, 0x99, 0x99, 0x99])
        h.seat.keyTranslator = CodeTranslator()
        #expect(h.key(30, .pressed).first == "seat0 keyboard.key \"A\" 30 pressed")
        #expect(t.calls == 9 && bound.count == 6)
        h.expectClean()
    }
}
