// Tablet pads: buttons, rings and strips with no position. As zwp_tablet_pad_v2 has it, a
// pad is focused on the keyboard focus: it enters the focused surface when that surface's
// client bound the tablet and the pad's tablet is present, and leaves when the keyboard
// focus moves, the surface goes or unmaps, the client lets the tablet go, or the pad (or
// its tablet) is unplugged. After each enter, every group's current mode follows; a pad
// event whose mode differs from its group's is preceded by a mode switch. What the focus
// was told is pressed is released before the leave (to a surface still mapped): nothing
// stays down. With no client surface entered, pad events go to the keyboard focus's chain
// of compositor handlers, then the seat, else they are dropped.

extension Seat {
    /// The layout of the pad `device`, if the seat has one.
    public func padLayout(_ device: DeviceID) -> TabletPadLayout? { padIndex(device).map { pads.records[$0].layout } }

    /// The surface the pad `device` is focused on (entered), if any.
    public func padFocus(device: DeviceID) -> NodeID? { padIndex(device).flatMap { pads.records[$0].focus } }

    /// The current mode of a pad's group, as its events last reported it.
    public func padMode(device: DeviceID, group: Int) -> UInt32? {
        padIndex(device).map { pads.records[$0].mode(group) }
    }

    func padIndex(_ device: DeviceID) -> Int? {
        for i in pads.records.indices where pads.records[i].device == device { return i }
        return nil
    }

    // MARK: Devices

    /// A pad appeared with its layout (after its `deviceAdded`): it enters the keyboard focus
    /// if it can. A second layout for the same device replaces the first (a leave first).
    /// Allocates: call on hot-plug, not per event.
    public func notifyPadAdded(_ device: DeviceID, layout: TabletPadLayout, time: UInt64) {
        lastTime = time
        if let i = padIndex(device) {
            leavePad(i, time: time)
            pads.records.remove(at: i)
        }
        var pad = PadRecord(device: device, layout: layout)
        for g in 0..<Int(layout.groupCount) { pad.setMode(g, layout.mode(ofGroup: g)) }
        pads.records.append(pad)
        syncPad(pads.records.count - 1, time: time)
    }

    /// The pad's device went: its held buttons are released to the focus, then it leaves.
    func padDeviceRemoved(_ device: DeviceID, time: UInt64) {
        guard let i = padIndex(device) else { return }
        leavePad(i, time: time)
        pads.records.remove(at: i)
    }

    /// Keyboard focus, bindings, the scene or the devices present changed: each pad moves
    /// to where it belongs now. No allocation.
    func padsFollowKeyboardFocus() {
        for i in pads.records.indices { syncPad(i, time: lastTime) }
    }

    // MARK: Events

    /// A pad button, with the mode its group is in (libinput's): to the surface the pad
    /// entered; a release goes only where its press went. No hit test, no allocation.
    public func notifyPadButton(time: UInt64, device: DeviceID, button: UInt32, state: ButtonState, mode: UInt32 = 0) {
        lastTime = time
        guard let i = padIndex(device) else {
            routePadToHandlers(.padButton(button: button, state: state), kind: .padButton)
            return
        }
        syncPad(i, time: time)
        let bit: UInt64 = button < 64 ? 1 << button : 0
        let group = pads.records[i].layout.group(ofButton: button)
        if let g = group { switchMode(i, group: g, to: mode, time: time) }
        if let n = pads.records[i].focus {
            if state == .pressed {
                // A button in none of the groups the client was told of is not sent: GTK
                // aborts on one (its pad code asserts that every button has a group).
                guard bit != 0, group != nil, pads.records[i].sentButtons & bit == 0 else {
                    drop(.padButton)
                    return
                }
                pads.records[i].sentButtons |= bit
            } else {
                guard bit != 0, pads.records[i].sentButtons & bit != 0 else {
                    drop(.padButton)
                    return
                }
                pads.records[i].sentButtons &= ~bit
            }
            enqueue(.padButton(id, n, device, time: time, button: button, state))
        } else {
            routePadToHandlers(.padButton(button: button, state: state), kind: .padButton)
        }
    }

    /// A pad ring turned (degrees) or was let go (-1): like `notifyPadButton`. No allocation.
    public func notifyPadRing(
        time: UInt64, device: DeviceID, ring: UInt32, position: Double, source: PadSource, mode: UInt32 = 0
    ) {
        notifyPadControl(.ring, ring, time: time, device: device, position: position, source: source, mode: mode)
    }

    /// A pad strip slid (0...1) or was let go (-1): like `notifyPadButton`. No allocation.
    public func notifyPadStrip(
        time: UInt64, device: DeviceID, strip: UInt32, position: Double, source: PadSource, mode: UInt32 = 0
    ) {
        notifyPadControl(.strip, strip, time: time, device: device, position: position, source: source, mode: mode)
    }

    // MARK: Helpers

    private enum PadControl { case ring, strip }

    /// A ring or a strip moved: rings and strips differ only in their events' names and
    /// in which of the layout's lists gives their mode group.
    private func notifyPadControl(
        _ control: PadControl, _ number: UInt32, time: UInt64, device: DeviceID, position: Double,
        source: PadSource, mode: UInt32
    ) {
        lastTime = time
        let event: NodeEvent =
            control == .ring
            ? .padRing(ring: number, position: position, source: source)
            : .padStrip(strip: number, position: position, source: source)
        guard let i = padIndex(device) else {
            routePadToHandlers(event, kind: .padRingStrip)
            return
        }
        syncPad(i, time: time)
        if let g = control == .ring
            ? pads.records[i].layout.group(ofRing: number) : pads.records[i].layout.group(ofStrip: number)
        {
            switchMode(i, group: g, to: mode, time: time)
        }
        if let n = pads.records[i].focus {
            enqueue(
                control == .ring
                    ? .padRing(id, n, device, time: time, ring: number, position: position, source)
                    : .padStrip(id, n, device, time: time, strip: number, position: position, source))
        } else {
            routePadToHandlers(event, kind: .padRingStrip)
        }
    }

    /// Where the pad belongs: the keyboard focus, when it is a mapped client surface whose
    /// client bound the tablet, and the pad's tablet is present.
    private func padTarget(_ i: Int) -> NodeID? {
        guard let tablet = pads.records[i].layout.tablet, tablet.slot < devices.count,
            devices[tablet.slot].present, devices[tablet.slot].capabilities.contains(.tabletTool),
            let f = keyboard.focus, isClientNode(f), tree.canReceiveInput(f),
            boundDevices(of: keyboard.focusClient).contains(.tablet)
        else { return nil }
        return f
    }

    private func syncPad(_ i: Int, time: UInt64) {
        let target = padTarget(i)
        guard target != pads.records[i].focus else { return }
        leavePad(i, time: time)
        guard let n = target else { return }
        pads.records[i].focus = n
        let dev = pads.records[i].device
        enqueue(.padEnter(id, n, dev, serial: nextSerial()))
        for g in 0..<Int(pads.records[i].layout.groupCount) {
            enqueue(
                .padModeSwitch(
                    id, n, dev, time: time, group: UInt8(g), mode: pads.records[i].mode(g),
                    serial: nextSerial()))
        }
    }

    /// Releases what the focus holds (unless it is unmapped), then the leave (unless it was
    /// destroyed: nothing can name it any more).
    private func leavePad(_ i: Int, time: UInt64) {
        guard let old = pads.records[i].focus else { return }
        let dev = pads.records[i].device
        if tree.isAlive(old) {
            if tree.isVisible(old) {
                var held = pads.records[i].sentButtons
                while held != 0 {
                    let b = UInt32(held.trailingZeroBitCount)
                    held &= held - 1
                    enqueue(.padButton(id, old, dev, time: time, button: b, .released))
                }
            }
            enqueue(.padLeave(id, old, dev, serial: nextSerial()))
        }
        pads.records[i].focus = nil
        pads.records[i].sentButtons = 0
    }

    private func switchMode(_ i: Int, group g: Int, to mode: UInt32, time: UInt64) {
        guard pads.records[i].mode(g) != mode else { return }
        pads.records[i].setMode(g, mode)
        if let n = pads.records[i].focus {
            enqueue(
                .padModeSwitch(
                    id, n, pads.records[i].device, time: time, group: UInt8(g), mode: mode,
                    serial: nextSerial()))
        }
    }

    /// No surface entered: the keyboard focus's chain of compositor handlers, then the seat.
    private func routePadToHandlers(_ event: NodeEvent, kind: EventKind) {
        if let t = dispatch(from: keyboardChainStart, device: .tablet, handlersOnly: true, at: .zero, { _ in event }) {
            enqueue(.handled(id, t, kind))
        } else {
            drop(kind)
        }
    }
}
