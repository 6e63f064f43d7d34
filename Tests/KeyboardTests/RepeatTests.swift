import InputRouter
import Testing

@testable import InputRouterKeyboard

struct RepeatTests {
    let device = DeviceID(1)
    let ms: UInt64 = 1000 // times are microseconds

    @Test func defaults() {
        #expect(RepeatInfo.default == RepeatInfo(rate: 25, delay: 600))
        #expect(RepeatInfo(rate: -3, delay: -1) == RepeatInfo(rate: 0, delay: 0))
    }

    /// Repeats fall at delay, then every 1/rate, for several rates and delays, however
    /// finely or coarsely the caller polls; the total is exact and never drifts.
    @Test(
        arguments: [(25, 600), (30, 250), (1, 1000), (33, 200), (7, 0)] as [(Int32, Int32)],
        [1, 7, 100, 1000] as [UInt64])
    func dueRepeats(_ rateDelay: (Int32, Int32), _ pollMs: UInt64) {
        let (rate, delay) = rateDelay
        var repeater = KeyRepeater(info: RepeatInfo(rate: rate, delay: delay))
        let start: UInt64 = 5_000 * ms
        repeater.press(key: K.a, device: device, at: start)
        var total = 0
        var time = start
        let end = start + 3_000 * ms
        while time <= end {
            total += repeater.due(at: time)
            time += pollMs * ms
        }
        total += repeater.due(at: end)
        // By `end`: one repeat at start+delay, then one per 1/rate second.
        let elapsed = Int(end - start) / 1000 - Int(delay)
        let expected = elapsed < 0 ? 0 : elapsed * Int(rate) / 1000 + 1
        #expect(total == expected)
    }

    @Test func firstRepeatExactlyAtDelay() {
        var repeater = KeyRepeater()
        repeater.press(key: K.a, device: device, at: 0)
        #expect(repeater.nextRepeat() == 600 * ms)
        #expect(repeater.due(at: 600 * ms - 1) == 0)
        #expect(repeater.due(at: 600 * ms) == 1)
        #expect(repeater.nextRepeat() == 640 * ms)
        #expect(repeater.due(at: 639 * ms) == 0)
        #expect(repeater.due(at: 640 * ms) == 1)
        #expect(repeater.due(at: 720 * ms) == 2)
    }

    enum Stop: CaseIterable, Sendable { case release, focus, deviceRemoval }

    @Test(arguments: Stop.allCases)
    func stops(_ stop: Stop) {
        var repeater = KeyRepeater()
        repeater.press(key: K.a, device: device, at: 0)
        #expect(repeater.due(at: 700 * ms) == 3)
        switch stop {
        case .release: repeater.release(key: K.a)
        case .focus: repeater.focusChanged()
        case .deviceRemoval: repeater.deviceRemoved(device)
        }
        #expect(repeater.repeatingKey == nil)
        #expect(repeater.nextRepeat() == nil)
        #expect(repeater.due(at: 10_000 * ms) == 0)
    }

    /// What must not stop the repeat: another key's release, another device's removal.
    @Test func unrelatedEventsDoNotStop() {
        var repeater = KeyRepeater()
        repeater.press(key: K.a, device: device, at: 0)
        repeater.release(key: K.b)
        repeater.deviceRemoved(DeviceID(2))
        #expect(repeater.repeatingKey == K.a)
        #expect(repeater.due(at: 600 * ms) == 1)
    }

    /// A new press takes over; a non-repeating key (a modifier) stops the old one.
    @Test func lastPressWins() throws {
        let keymap = try makeState("us").keymap
        #expect(keymap.keyRepeats(key: K.a))
        #expect(!keymap.keyRepeats(key: K.leftShift))
        var repeater = KeyRepeater()
        repeater.press(key: K.a, device: device, at: 0)
        repeater.press(key: K.b, device: device, at: 100 * ms)
        #expect(repeater.repeatingKey == K.b)
        #expect(repeater.due(at: 650 * ms) == 0)
        #expect(repeater.due(at: 700 * ms) == 1)
        repeater.release(key: K.a) // the old key's release changes nothing
        #expect(repeater.repeatingKey == K.b)
        repeater.press(key: K.leftShift, device: device, at: 800 * ms, repeats: keymap.keyRepeats(key: K.leftShift))
        #expect(repeater.repeatingKey == nil)
    }

    @Test func rateZeroMeansOff() {
        var repeater = KeyRepeater(info: RepeatInfo(rate: 0, delay: 600))
        repeater.press(key: K.a, device: device, at: 0)
        #expect(repeater.repeatingKey == nil)
        #expect(repeater.due(at: 10_000 * ms) == 0)
    }
}
