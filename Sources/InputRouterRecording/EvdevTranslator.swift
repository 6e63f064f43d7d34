// Translates evdev frames of evdev-only recordings for the devices whose events libinput
// passes through unchanged: keyboards, relative mice, switches, direct-touch screens.
// Touchpads and tablets are not translated (libinput's tapping, palm detection, scroll
// and gesture logic would have to be re-implemented); the reader says so per device.

import InputRouter

/// Seat slots are unique across the seat's touch devices, lowest free first, as in libinput.
struct SeatSlotAllocator {
    private var used: Set<Int32> = []
    mutating func allocate() -> Int32 {
        var slot: Int32 = 0
        while used.contains(slot) { slot += 1 }
        used.insert(slot)
        return slot
    }
    mutating func release(_ slot: Int32) { used.remove(slot) }
}

struct EvdevTranslator {
    let device: RecordedDevice
    private var heldKeys: Set<UInt16> = []
    private var heldButtons: Set<UInt16> = []
    private var switches: [UInt16: Bool] = [:]
    private var currentSlot: Int32 = 0
    private var slots: [Int32: TouchSlot] = [:]
    /// Single-touch screens (ABS_X/ABS_Y with BTN_TOUCH, no MT axes) use this one point.
    private var singleTouch = TouchSlot()
    private let hasMT: Bool
    private let usesHiResWheel: Bool
    private let hiResHorizontal: Bool

    private struct TouchSlot {
        var trackingID: Int32 = -1
        var x: Int32 = 0, y: Int32 = 0
        var seatSlot: Int32?
        var began = false, ended = false, moved = false
    }

    init(device: RecordedDevice) {
        self.device = device
        hasMT = device.supports(type: EV.abs, code: ABS.mtPositionX)
        usesHiResWheel = device.supports(type: EV.rel, code: REL.wheelHiRes)
        hiResHorizontal = device.supports(type: EV.rel, code: REL.hwheelHiRes)
    }

    /// The events of one frame (ending in SYN_REPORT), at the frame's time. Warnings are
    /// for things a real device does that libinput would drop (a release without a press).
    mutating func translate(
        _ frame: [EvdevEvent], seatSlots: inout SeatSlotAllocator,
        warn: (SourcePosition, String) -> Void
    ) -> [InputEvent.Kind] {
        var out: [InputEvent.Kind] = []
        var dx = 0.0
        var dy = 0.0
        var wheel = (v: Int64(0), h: Int64(0))
        var singleTouchState: Bool?
        for event in frame {
            switch event.type {
            case EV.key:
                if event.code.isKeyboardKey {
                    key(event, into: &out, warn: warn)
                } else if event.code == BTN.touch {
                    singleTouchState = event.value != 0
                } else if (BTN.mouse...BTN.task).contains(event.code) {
                    button(event, into: &out)
                }
            case EV.rel:
                switch event.code {
                case REL.x: dx += Double(event.value)
                case REL.y: dy += Double(event.value)
                case REL.wheel where !usesHiResWheel: wheel.v += Int64(event.value) * 120
                case REL.wheelHiRes: wheel.v += Int64(event.value)
                case REL.hwheel where !hiResHorizontal: wheel.h += Int64(event.value) * 120
                case REL.hwheelHiRes: wheel.h += Int64(event.value)
                default: break
                }
            case EV.abs:
                absolute(event)
            case EV.sw:
                toggle(event, into: &out)
            default:
                break // EV_SYN, EV_MSC, EV_LED, EV_REP...: nothing libinput forwards
            }
        }
        if dx != 0 || dy != 0 {
            // Without libinput there is no acceleration: both deltas are the raw ones.
            out.append(.pointerMotion(dx: dx, dy: dy, unacceleratedDX: dx, unacceleratedDY: dy))
        }
        if wheel.v != 0 || wheel.h != 0 {
            out.append(WheelScroll.event(vertical120: -wheel.v, horizontal120: wheel.h, degreesPerDetent: 15))
        }
        if device.deviceClass == .touchscreen {
            touchFrame(singleTouchState, seatSlots: &seatSlots, into: &out)
        }
        return out
    }

    private mutating func key(
        _ event: EvdevEvent, into out: inout [InputEvent.Kind],
        warn: (SourcePosition, String) -> Void
    ) {
        switch event.value {
        case 0:
            guard heldKeys.remove(event.code) != nil else {
                warn(event.position, "release of key \(event.code) that is not pressed; skipped")
                return
            }
            out.append(.keyboardKey(key: UInt32(event.code), state: .released))
        case 2:
            return // kernel autorepeat: libinput drops it, compositors repeat themselves
        default:
            guard heldKeys.insert(event.code).inserted else { return }
            out.append(.keyboardKey(key: UInt32(event.code), state: .pressed))
        }
    }

    private mutating func button(_ event: EvdevEvent, into out: inout [InputEvent.Kind]) {
        if event.value == 0 {
            guard heldButtons.remove(event.code) != nil else { return }
            out.append(.pointerButton(button: UInt32(event.code), state: .released))
        } else if event.value == 1, heldButtons.insert(event.code).inserted {
            out.append(.pointerButton(button: UInt32(event.code), state: .pressed))
        }
    }

    private mutating func toggle(_ event: EvdevEvent, into out: inout [InputEvent.Kind]) {
        let kind: SwitchKind
        switch event.code {
        case SW.lid: kind = .lid
        case SW.tabletMode: kind = .tabletMode
        case SW.keypadSlide: kind = .keypadSlide
        default: return
        }
        let on = event.value != 0
        // The first report of a switch already in that state is not a toggle.
        guard switches[event.code] != on else { return }
        switches[event.code] = on
        out.append(.switchToggle(kind, on: on))
    }

    private mutating func absolute(_ event: EvdevEvent) {
        let slotted = [ABS.mtTrackingID, ABS.mtPositionX, ABS.mtPositionY].contains(event.code)
        if slotted && currentSlot < 0 { return }
        switch event.code {
        case ABS.mtSlot:
            // A slot outside the device's range is not a real slot; its events are ignored
            // (and a hostile file cannot grow the slot table without bound).
            let range = device.absinfo[ABS.mtSlot].map { $0.minimum...$0.maximum } ?? 0...63
            currentSlot = range.contains(event.value) ? event.value : -1
        case ABS.mtTrackingID:
            if event.value >= 0 {
                slots[currentSlot, default: TouchSlot()].trackingID = event.value
                slots[currentSlot, default: TouchSlot()].began = true
            } else if slots[currentSlot]?.trackingID ?? -1 >= 0 {
                slots[currentSlot]?.ended = true
            }
        case ABS.mtPositionX:
            slots[currentSlot, default: TouchSlot()].x = event.value
            slots[currentSlot, default: TouchSlot()].moved = true
        case ABS.mtPositionY:
            slots[currentSlot, default: TouchSlot()].y = event.value
            slots[currentSlot, default: TouchSlot()].moved = true
        case ABS.x where !hasMT:
            singleTouch.x = event.value
            singleTouch.moved = true
        case ABS.y where !hasMT:
            singleTouch.y = event.value
            singleTouch.moved = true
        default:
            break
        }
    }

    /// At SYN_REPORT: down for new points, motion for moved ones, up for lifted ones, and
    /// one frame if anything was sent.
    private mutating func touchFrame(
        _ singleTouchState: Bool?, seatSlots: inout SeatSlotAllocator,
        into out: inout [InputEvent.Kind]
    ) {
        let before = out.count
        let xInfo = device.absinfo[hasMT ? ABS.mtPositionX : ABS.x] ?? AbsInfo(minimum: 0, maximum: 0)
        let yInfo = device.absinfo[hasMT ? ABS.mtPositionY : ABS.y] ?? AbsInfo(minimum: 0, maximum: 0)
        if hasMT {
            for key in slots.keys.sorted() {
                guard var slot = slots[key] else { continue }
                step(&slot, xInfo: xInfo, yInfo: yInfo, seatSlots: &seatSlots, into: &out)
                // A lifted slot keeps its last position: the kernel does not resend an
                // unchanged coordinate when the slot's next touch begins.
                slots[key] = slot
            }
        } else {
            if let down = singleTouchState {
                if down {
                    singleTouch.trackingID = 0
                    singleTouch.began = true
                } else {
                    singleTouch.ended = true
                }
            }
            step(&singleTouch, xInfo: xInfo, yInfo: yInfo, seatSlots: &seatSlots, into: &out)
        }
        if out.count > before { out.append(.touchFrame) }
    }

    private func step(
        _ slot: inout TouchSlot, xInfo: AbsInfo, yInfo: AbsInfo,
        seatSlots: inout SeatSlotAllocator, into out: inout [InputEvent.Kind]
    ) {
        let x = Normalisation.fromRaw(slot.x, xInfo)
        let y = Normalisation.fromRaw(slot.y, yInfo)
        if slot.began, slot.seatSlot == nil {
            let seatSlot = seatSlots.allocate()
            slot.seatSlot = seatSlot
            out.append(.touchDown(slot: seatSlot, x: x, y: y))
        } else if slot.moved, !slot.ended, let seatSlot = slot.seatSlot {
            out.append(.touchMotion(slot: seatSlot, x: x, y: y))
        }
        if slot.ended {
            if let seatSlot = slot.seatSlot {
                out.append(.touchUp(slot: seatSlot))
                seatSlots.release(seatSlot)
            }
            slot.seatSlot = nil
            slot.trackingID = -1
        }
        slot.began = false
        slot.ended = false
        slot.moved = false
    }
}
