// Per-device state of the synthetic generator: what is held, touching or switched, so
// every generated frame is one the device could really send (no release without press,
// no motion for a finger that is not down).

import InputRouter

struct DeviceState {
    let kind: SyntheticDeviceKind
    private var heldKeys: [UInt16] = []
    private var heldButtons: [UInt16] = []
    /// Touchscreen slot → (tracking id, x, y, seat slot).
    private var touches: [Int32: (tracking: Int32, x: Int32, y: Int32, seat: Int32)] = [:]
    private var nextTracking: Int32 = 1
    private var switches: [UInt16: Bool] = [SW.lid: false, SW.tabletMode: false]

    init(kind: SyntheticDeviceKind) { self.kind = kind }

    mutating func frame(
        at time: UInt64, rng: inout SplitMix64,
        seatSlots: inout SeatSlotAllocator
    ) -> SyntheticGenerator.Frame {
        var frame: SyntheticGenerator.Frame
        switch kind {
        case .keyboard: frame = keyboard(rng: &rng)
        case .mouse: frame = mouse(rng: &rng)
        case .touchscreen: frame = touchscreen(rng: &rng, seatSlots: &seatSlots)
        case .switches: frame = toggle(rng: &rng)
        }
        frame.evdev =
            frame.evdev.map { EvdevRecord(time: time, type: $0.type, code: $0.code, value: $0.value) }
            + [EvdevRecord(time: time, type: EV.syn, code: SYN.report, value: 0)]
        if frame.libinput == nil { frame.libinput = [] }
        return frame
    }

    private func ev(_ type: UInt16, _ code: UInt16, _ value: Int32) -> EvdevRecord {
        EvdevRecord(time: 0, type: type, code: code, value: value)
    }

    private mutating func keyboard(rng: inout SplitMix64) -> SyntheticGenerator.Frame {
        var frame = SyntheticGenerator.Frame()
        if let key = heldKeys.last, rng.chance(10) {
            // Kernel autorepeat: an evdev frame with no libinput event.
            frame.evdev = [ev(EV.msc, 4, 0x70000 + Int32(key)), ev(EV.key, key, 2)]
            return frame
        }
        let press = heldKeys.isEmpty || (heldKeys.count < 3 && rng.chance(50))
        var key: UInt16
        if press {
            repeat { key = UInt16(rng.int(2...88)) } while heldKeys.contains(key)
            heldKeys.append(key)
        } else {
            key = heldKeys.remove(at: rng.int(0...heldKeys.count - 1))
        }
        frame.evdev = [ev(EV.msc, 4, 0x70000 + Int32(key)), ev(EV.key, key, press ? 1 : 0)]
        frame.expected = [.keyboardKey(key: UInt32(key), state: press ? .pressed : .released)]
        frame.libinput = frame.expected.map { InputEvent(time: 0, device: DeviceID(0), $0) }
        return frame
    }

    private mutating func mouse(rng: inout SplitMix64) -> SyntheticGenerator.Frame {
        var frame = SyntheticGenerator.Frame()
        let roll = rng.int(0...99)
        if roll < 50 {
            var (rx, ry) = (Int32(rng.int(-20...20)), Int32(rng.int(-20...20)))
            if rx == 0 && ry == 0 { rx = 1 }
            let gain = rng.pick([0.75, 1.0, 1.25, 1.5, 2.0])
            if rx != 0 { frame.evdev.append(ev(EV.rel, REL.x, rx)) }
            if ry != 0 { frame.evdev.append(ev(EV.rel, REL.y, ry)) }
            frame.expected = [
                .pointerMotion(
                    dx: Double(rx) * gain, dy: Double(ry) * gain,
                    unacceleratedDX: Double(rx), unacceleratedDY: Double(ry))
            ]
        } else if roll < 70 {
            let button = rng.pick([BTN.left, BTN.right, BTN.middle])
            let press = !heldButtons.contains(button)
            if press { heldButtons.append(button) } else { heldButtons.removeAll { $0 == button } }
            frame.evdev = [ev(EV.msc, 4, 0x90001 + Int32(button - BTN.left)), ev(EV.key, button, press ? 1 : 0)]
            frame.expected = [.pointerButton(button: UInt32(button), state: press ? .pressed : .released)]
        } else {
            let vertical = rng.chance(70)
            let direction: Int32 = rng.chance(50) ? 1 : -1
            let whole = rng.chance(60)
            // Kernel sign: wheel up and tilt right are positive; Wayland's vertical is down-positive.
            let hires = direction * (whole ? 120 : Int32(rng.pick([30, 60, 90])))
            let wayland = vertical ? -hires : hires
            if whole { frame.evdev.append(ev(EV.rel, vertical ? REL.wheel : REL.hwheel, direction)) }
            frame.evdev.append(ev(EV.rel, vertical ? REL.wheelHiRes : REL.hwheelHiRes, hires))
            let value = AxisValue(value: Double(wayland) / 8, value120: wayland)
            frame.expected = [
                .pointerAxis(source: .wheel, vertical: vertical ? value : nil, horizontal: vertical ? nil : value)
            ]
            // libinput 1.22 records only whole detents; partial steps get a null entry.
            if !whole { return frame }
        }
        frame.libinput = frame.expected.map { InputEvent(time: 0, device: DeviceID(0), $0) }
        return frame
    }

    private mutating func touchscreen(rng: inout SplitMix64, seatSlots: inout SeatSlotAllocator)
        -> SyntheticGenerator.Frame
    {
        var frame = SyntheticGenerator.Frame()
        let wasTouching = !touches.isEmpty
        func normal(_ x: Int32, _ y: Int32) -> (Double, Double) { (Double(x) / 4096, Double(y) / 2048) }
        if touches.isEmpty || (touches.count < 3 && rng.chance(25)) {
            var slot: Int32 = 0
            while touches[slot] != nil { slot += 1 }
            let (x, y) = (Int32(rng.int(0...4095)), Int32(rng.int(0...2047)))
            let seat = seatSlots.allocate()
            touches[slot] = (nextTracking, x, y, seat)
            frame.evdev = [
                ev(EV.abs, ABS.mtSlot, slot), ev(EV.abs, ABS.mtTrackingID, nextTracking),
                ev(EV.abs, ABS.mtPositionX, x), ev(EV.abs, ABS.mtPositionY, y),
            ]
            nextTracking = nextTracking == 65535 ? 1 : nextTracking + 1
            let (nx, ny) = normal(x, y)
            frame.expected = [.touchDown(slot: seat, x: nx, y: ny)]
        } else if rng.chance(20) {
            let slot = touches.keys.sorted()[rng.int(0...touches.count - 1)]
            guard let touch = touches.removeValue(forKey: slot) else { return frame }
            seatSlots.release(touch.seat)
            frame.evdev = [ev(EV.abs, ABS.mtSlot, slot), ev(EV.abs, ABS.mtTrackingID, -1)]
            frame.expected = [.touchUp(slot: touch.seat)]
        } else {
            for slot in touches.keys.sorted() {
                guard var touch = touches[slot] else { continue }
                let x = min(4095, max(0, touch.x + Int32(rng.int(-30...30))))
                let y = min(2047, max(0, touch.y + Int32(rng.int(-30...30))))
                guard x != touch.x || y != touch.y else { continue }
                frame.evdev.append(ev(EV.abs, ABS.mtSlot, slot))
                if x != touch.x { frame.evdev.append(ev(EV.abs, ABS.mtPositionX, x)) }
                if y != touch.y { frame.evdev.append(ev(EV.abs, ABS.mtPositionY, y)) }
                (touch.x, touch.y) = (x, y)
                touches[slot] = touch
                let (nx, ny) = normal(x, y)
                frame.expected.append(.touchMotion(slot: touch.seat, x: nx, y: ny))
            }
        }
        if wasTouching != !touches.isEmpty { frame.evdev.append(ev(EV.key, BTN.touch, touches.isEmpty ? 0 : 1)) }
        if !frame.expected.isEmpty { frame.expected.append(.touchFrame) }
        frame.libinput = frame.expected.map { InputEvent(time: 0, device: DeviceID(0), $0) }
        return frame
    }

    private mutating func toggle(rng: inout SplitMix64) -> SyntheticGenerator.Frame {
        var frame = SyntheticGenerator.Frame()
        let code = rng.chance(50) ? SW.lid : SW.tabletMode
        let on = !(switches[code] ?? false)
        switches[code] = on
        frame.evdev = [ev(EV.sw, code, on ? 1 : 0)]
        frame.expected = [.switchToggle(code == SW.lid ? .lid : .tabletMode, on: on)]
        frame.libinput = frame.expected.map { InputEvent(time: 0, device: DeviceID(0), $0) }
        return frame
    }
}
