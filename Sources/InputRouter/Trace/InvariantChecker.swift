/// Wraps any sink and checks every delivery against the rules clients rely on, keeping
/// its own model of what each client was told. A violation is recorded (and, in `.trap`
/// mode, stops the process) with the offending delivery's trace line.
///
/// Checked: enter without leave and the reverse; any event to a destroyed surface, or to
/// an unmapped one (except leave); touch motion or up for a point the client was not told
/// about; a button or key release with no press; keys or modifiers to a surface without
/// the keyboard focus; tablet proximity in without out and the reverse, a tablet tool
/// event to a surface the tool is not in proximity of, tip and tool-button pairing, a
/// proximity out with the tip down (except to an unmapped surface), pad enter without
/// leave and the reverse, pad events (buttons, rings, strips, mode switches) to a surface
/// the pad has not entered (the seat enters the keyboard focus), pad button pairing, a pad
/// leave with a button still down (except to an unmapped surface); pointer events to a surface that is neither in the responder chain
/// under the cursor nor the owner of the pointer grab; a gesture update or end with no
/// begin to that surface, or a begin while one is under way; a shortcuts inhibitor made
/// active twice, active for a surface without the keyboard focus, or inactive when it was
/// not active. And after each delivery of a device, the invariants that device's part of
/// the seat keeps (PointerState.swift, KeyboardFocusState.swift, TouchState.swift,
/// TabletState.swift, PadState.swift), reported as "seat state: ...".
public struct InvariantChecker<Inner: DeliverySink>: DeliverySink {
    /// `.collect` records violations in `violations`; `.trap` also stops the process at the first.
    public enum Mode { case collect, trap }
    /// The sink every delivery is passed on to after it is checked.
    public var inner: Inner
    /// The router whose deliveries are checked: its tree, clients and seats are read to judge them.
    public let router: Router
    /// What a violation does: collect it or trap.
    public let mode: Mode
    /// The violations found so far, each with the offending delivery's trace line.
    public private(set) var violations: [String] = []

    private struct SeatModel {
        var pointerEntered: NodeID?
        var pressedButtons: [NodeID: Set<UInt32>] = [:]
        var keyboardEntered: NodeID?
        var keysOfClient: [ClientID: Set<UInt32>] = [:]
        var touchSlots: [ClientID: Set<Int32>] = [:]
        var tabletIn: [DeviceID: NodeID] = [:]
        var tabletTip: Set<DeviceID> = []
        var tabletButtons: [DeviceID: Set<UInt32>] = [:]
        var padIn: [DeviceID: NodeID] = [:]
        var padButtons: [DeviceID: Set<UInt32>] = [:]
        /// The surface whose lock or confinement is active.
        var constrained: (node: NodeID, kind: PointerConstraintKind)?
        var gestureIn: NodeID?
        var inhibitorActive: NodeID?
    }
    private var seats: [SeatID: SeatModel] = [:]

    /// A checker in front of `inner`. It keeps hashed per-surface models and allocates as they
    /// grow: for tests, fuzzing and debug builds, not a production hot path.
    public init(wrapping inner: Inner, router: Router, mode: Mode = .collect) {
        self.inner = inner
        self.router = router
        self.mode = mode
    }

    /// Drops what the model keeps for clients that are gone and surfaces destroyed since, so
    /// a checker that runs for hours (`ir-compositor --check-invariants`) does not grow with
    /// every client ever connected. Walks the model: call it now and then, not per delivery.
    public mutating func forgetGone() {
        let tree = router.tree
        for (seat, var m) in seats {
            m.keysOfClient = m.keysOfClient.filter { router.isAlive($0.key) }
            m.touchSlots = m.touchSlots.filter { router.isAlive($0.key) }
            m.pressedButtons = m.pressedButtons.filter { tree.isAlive($0.key) }
            seats[seat] = m
        }
    }

    /// Checks `d` against the model, then passes it to `inner`. Hashes per delivery.
    public mutating func deliver(_ d: Delivery, from queue: DeliveryQueue) {
        check(d, queue: queue)
        inner.deliver(d, from: queue)
    }

    private mutating func checkPadEvent(
        _ n: NodeID, _ dev: DeviceID, _ d: Delivery, _ queue: DeliveryQueue, _ m: SeatModel
    ) {
        if m.padIn[dev] != n { fail("pad event to a surface the pad has not entered", d, queue) }
    }

    private mutating func fail(_ what: String, _ d: Delivery, _ queue: DeliveryQueue) {
        let text = "\(what): \(TraceSink.line(d, queue: queue, router: router))"
        violations.append(text)
        if mode == .trap { fatalError("InputRouter invariant violated: \(text)") }
    }

    private mutating func check(_ d: Delivery, queue: DeliveryQueue) {
        let tree = router.tree
        var m = seats[d.seat] ?? SeatModel()
        defer { seats[d.seat] = m }
        checkDeviceState(d, queue)
        // A destroyed surface gets no leave: its focus ended with it.
        if let e = m.pointerEntered, !tree.isAlive(e) {
            m.pointerEntered = nil
            m.pressedButtons[e] = nil
        }
        if let e = m.keyboardEntered, !tree.isAlive(e) { m.keyboardEntered = nil }
        if let c = m.constrained, !tree.isAlive(c.node) { m.constrained = nil }
        // A gesture whose surface went or unmapped ends without an end (the core stops it).
        if let g = m.gestureIn, !tree.canReceiveInput(g) { m.gestureIn = nil }
        if let i = m.inhibitorActive, !tree.isAlive(i) { m.inhibitorActive = nil }
        for (dev, n) in m.tabletIn where !tree.isAlive(n) {
            m.tabletIn[dev] = nil
            m.tabletTip.remove(dev)
            m.tabletButtons[dev] = nil
        }
        for (dev, n) in m.padIn where !tree.isAlive(n) {
            m.padIn[dev] = nil
            m.padButtons[dev] = nil
        }
        if let n = d.surface {
            if !tree.isAlive(n) {
                fail("event to a destroyed surface", d, queue)
                return
            }
            if case .pointerLeave = d {
            } else if case .keyboardLeave = d {
            } else if case .tabletProximityOut = d {
            } else if case .padLeave = d {
            } else if case .pointerConstraint(_, _, _, false) = d {
            } else if case .shortcutsInhibited(_, _, active: false) = d {
            } else if !tree.isVisible(n) {
                fail("event to an unmapped surface", d, queue)
            }
        }
        switch d {
        case .pointerEnter(_, let n, _, _):
            if let e = m.pointerEntered { fail("pointer enter while \(e) has not had a leave", d, queue) }
            m.pointerEntered = n
            checkUnderCursor(n, d, queue, m)
        case .pointerLeave(_, let n, _):
            if m.pointerEntered != n { fail("pointer leave without enter", d, queue) }
            if m.constrained?.node == n, tree.isAlive(n) {
                fail("pointer leave while the surface's constraint is active", d, queue)
            }
            m.pointerEntered = nil
            m.pressedButtons[n] = nil
        case .pointerMotion(_, let n, _, _), .pointerAxis(_, let n, _, _, _, _, _), .pointerAxisStop(_, let n, _, _):
            if m.pointerEntered != n { fail("pointer event to a surface without pointer focus", d, queue) }
            if case .pointerMotion = d, let c = m.constrained, c.node == n, c.kind == .lock {
                fail("absolute motion to a surface whose pointer is locked", d, queue)
            }
            checkUnderCursor(n, d, queue, m)
        case .relativeMotion(_, let n, _, _):
            if m.pointerEntered != n { fail("relative motion to a surface without pointer focus", d, queue) }
        case .pointerConstraint(_, let n, let kind, let active):
            if active {
                if m.pointerEntered != n { fail("constraint activated on a surface without pointer focus", d, queue) }
                if let c = m.constrained { fail("constraint activated while \(c.node)'s is active", d, queue) }
                m.constrained = (n, kind)
            } else {
                if m.constrained?.node != n || m.constrained?.kind != kind {
                    fail("constraint deactivated that was not active", d, queue)
                }
                m.constrained = nil
            }
        case .pointerButton(_, let n, _, let b, let st, _):
            if m.pointerEntered != n { fail("pointer event to a surface without pointer focus", d, queue) }
            if st == .pressed {
                checkUnderCursor(n, d, queue, m)
                m.pressedButtons[n, default: []].insert(b)
            } else if m.pressedButtons[n]?.remove(b) == nil {
                fail("button release with no press", d, queue)
            }
        case .keyboardEnter(_, let n, let keys, _):
            if let e = m.keyboardEntered { fail("keyboard enter while \(e) has not had a leave", d, queue) }
            m.keyboardEntered = n
            if let c = tree.client(of: n) { m.keysOfClient[c] = Set(queue.keys(keys)) }
        case .keyboardLeave(_, let n, _):
            if m.keyboardEntered != n { fail("keyboard leave without enter", d, queue) }
            m.keyboardEntered = nil
            if let c = tree.client(of: n) { m.keysOfClient[c] = [] }
        case .key(_, let n, _, let k, let st, _):
            if m.keyboardEntered != n { fail("key to a surface without keyboard focus", d, queue) }
            let c = tree.client(of: n) ?? .compositor
            if st == .pressed {
                m.keysOfClient[c, default: []].insert(k)
            } else if m.keysOfClient[c]?.remove(k) == nil {
                fail("key release with no press", d, queue)
            }
        case .modifiers(_, let n, _, _):
            if m.keyboardEntered != n { fail("modifiers to a surface without keyboard focus", d, queue) }
        case .touchDown(_, let n, _, let slot, _, _):
            let c = tree.client(of: n) ?? .compositor
            if m.touchSlots[c, default: []].insert(slot).inserted == false {
                fail("touch down on a live touch point", d, queue)
            }
        case .touchMotion(_, let n, _, let slot, _):
            if m.touchSlots[tree.client(of: n) ?? .compositor]?.contains(slot) != true {
                fail("touch motion for an unknown touch point", d, queue)
            }
        case .touchUp(_, let n, _, let slot, _):
            if m.touchSlots[tree.client(of: n) ?? .compositor]?.remove(slot) == nil {
                fail("touch up for an unknown touch point", d, queue)
            }
        case .touchCancel(_, let c):
            if !router.isAlive(c) { fail("touch cancel to a disconnected client", d, queue) }
            m.touchSlots[c] = []
        case .touchReleased(_, let c, _, let slot, _):
            if m.touchSlots[c]?.remove(slot) == nil { fail("touch up for an unknown touch point", d, queue) }
        case .tabletProximityIn(_, let n, let dev, _, _):
            if let e = m.tabletIn[dev] { fail("tablet proximity in while \(e) has not had a proximity out", d, queue) }
            m.tabletIn[dev] = n
        case .tabletProximityOut(_, let n, let dev):
            if m.tabletIn[dev] != n { fail("tablet proximity out without proximity in", d, queue) }
            if tree.isVisible(n) && (m.tabletTip.contains(dev) || m.tabletButtons[dev]?.isEmpty == false) {
                fail("tablet proximity out with the tip or a button still down", d, queue)
            }
            m.tabletIn[dev] = nil
            m.tabletTip.remove(dev)
            m.tabletButtons[dev] = nil
        case .tabletMotion(_, let n, let dev, _, _, _):
            if m.tabletIn[dev] != n { fail("tablet event to a surface without proximity", d, queue) }
        case .tabletDown(_, let n, let dev, _, _):
            if m.tabletIn[dev] != n { fail("tablet event to a surface without proximity", d, queue) }
            if !m.tabletTip.insert(dev).inserted { fail("tablet down while the tip is down", d, queue) }
        case .tabletUp(_, let n, let dev, _):
            if m.tabletIn[dev] != n { fail("tablet event to a surface without proximity", d, queue) }
            if m.tabletTip.remove(dev) == nil { fail("tablet up without down", d, queue) }
        case .tabletButton(_, let n, let dev, _, let b, let st, _):
            if m.tabletIn[dev] != n { fail("tablet event to a surface without proximity", d, queue) }
            if st == .pressed {
                if m.tabletButtons[dev, default: []].insert(b).inserted == false {
                    fail("tablet button pressed twice", d, queue)
                }
            } else if m.tabletButtons[dev]?.remove(b) == nil {
                fail("tablet button release with no press", d, queue)
            }
        case .padEnter(_, let n, let dev, _):
            if let e = m.padIn[dev] { fail("pad enter while \(e) has not had a leave", d, queue) }
            m.padIn[dev] = n
        case .padLeave(_, let n, let dev, _):
            if m.padIn[dev] != n { fail("pad leave without enter", d, queue) }
            if tree.isVisible(n), m.padButtons[dev]?.isEmpty == false {
                fail("pad leave with a button still down", d, queue)
            }
            m.padIn[dev] = nil
            m.padButtons[dev] = nil
        case .padButton(_, let n, let dev, _, let b, let st):
            checkPadEvent(n, dev, d, queue, m)
            if st == .pressed {
                if m.padButtons[dev, default: []].insert(b).inserted == false {
                    fail("pad button pressed twice", d, queue)
                }
            } else if m.padButtons[dev]?.remove(b) == nil {
                fail("pad button release with no press", d, queue)
            }
        case .padRing(_, let n, let dev, _, _, _, _), .padStrip(_, let n, let dev, _, _, _, _),
            .padModeSwitch(_, let n, let dev, _, _, _, _):
            checkPadEvent(n, dev, d, queue, m)
        case .gesture(_, let n, _, let g):
            switch g.phase {
            case .begin:
                if m.gestureIn != nil { fail("gesture begin while another is under way", d, queue) }
                m.gestureIn = n
            case .update, .end:
                if m.gestureIn != n { fail("gesture event without its begin", d, queue) }
                if g.phase == .end { m.gestureIn = nil }
            }
        case .shortcutsInhibited(_, let n, let active):
            if active {
                if m.inhibitorActive != nil { fail("shortcuts inhibitor active twice", d, queue) }
                if router.seat(d.seat).keyboardFirstResponder != n {
                    fail("shortcuts inhibitor active without keyboard focus", d, queue)
                }
                m.inhibitorActive = n
            } else {
                if m.inhibitorActive != n { fail("shortcuts inhibitor inactive that was not active", d, queue) }
                m.inhibitorActive = nil
            }
        case .tabletFrame(_, let c, _):
            if !router.isAlive(c) { fail("frame to a disconnected client", d, queue) }
        case .pointerFrame(_, let c), .touchFrame(_, let c):
            if !router.isAlive(c) { fail("frame to a disconnected client", d, queue) }
        default:
            break
        }
    }

    /// The invariants of the part of the seat whose device `d` is about (the part's file
    /// lists them): a violation is the seat's bookkeeping gone wrong, before a client sees it.
    private mutating func checkDeviceState(_ d: Delivery, _ queue: DeliveryQueue) {
        let seat = router.seat(d.seat)
        let found: [String]
        switch d {
        case .pointerEnter, .pointerLeave, .pointerMotion, .pointerButton, .pointerAxis, .pointerAxisStop,
            .pointerFrame:
            found = seat.pointer.violations()
        case .keyboardEnter, .keyboardLeave, .key, .modifiers:
            found = seat.keyboard.violations()
        case .touchDown, .touchMotion, .touchUp, .touchFrame, .touchCancel, .touchReleased:
            found = seat.touch.violations()
        case .tabletProximityIn, .tabletProximityOut, .tabletDown, .tabletUp, .tabletMotion, .tabletButton,
            .tabletFrame:
            found = seat.tablet.violations()
        case .padEnter, .padLeave, .padModeSwitch, .padButton, .padRing, .padStrip:
            found = seat.pads.violations()
        default:
            return
        }
        for v in found { fail("seat state: \(v)", d, queue) }
    }

    /// Pointer events go to a surface in the responder chain under the cursor, or to the
    /// surface holding the implicit grab (a button it was told about is still down), or
    /// wherever an explicit pointer grab other than a popup's sends them. Judged
    /// by the naive reference walk and chain (ReferenceHitTest.swift), not by the code under
    /// test: a hit-test or chain bug shows up here instead of agreeing with itself. No
    /// client surface earlier in that chain may have been passed over: one whose client has
    /// bound the pointer takes the event before anything after it.
    private mutating func checkUnderCursor(_ n: NodeID, _ d: Delivery, _ queue: DeliveryQueue, _ m: SeatModel) {
        if let held = m.pressedButtons[n], !held.isEmpty { return }
        let seat = router.seat(d.seat)
        // An embedder's grab chooses its own targets (the popup grab keeps this rule).
        if let g = seat.pointerGrab, g !== seat.popupGrab { return }
        guard let hit = router.tree.referenceHitTest(seat.cursor) else {
            fail("pointer event with nothing under the cursor", d, queue)
            return
        }
        let chain = router.referenceResponderChain(from: .node(hit), seat: d.seat)
        guard let at = chain.firstIndex(of: .node(n)) else {
            fail("pointer event to a surface not under the cursor", d, queue)
            return
        }
        for case .node(let earlier) in chain[..<at] {
            guard let k = router.tree.kind(of: earlier), k.isClientSurface, router.tree.isVisible(earlier),
                let c = router.tree.client(of: earlier), !c.isCompositor, seat.boundDevices(of: c).contains(.pointer)
            else { continue }
            fail("pointer event passed over \(earlier), which is above it in the chain and takes the pointer", d, queue)
            return
        }
    }

    /// True when no violation has been found.
    public var isClean: Bool { violations.isEmpty }

    /// What clients were told they hold now, by the checker's model over every seat (keys,
    /// buttons, touch points, tablet tips and buttons, pad buttons), e.g. `keys [42],
    /// touch points 1`; "nothing" when they hold nothing. Allocates: for reports.
    public var held: String {
        var keys: [UInt32] = []
        var buttons: [UInt32] = []
        var touches = 0
        var tablet = 0
        for m in seats.values {
            for k in m.keysOfClient.values { keys += k }
            for b in m.pressedButtons.values { buttons += b }
            touches += m.touchSlots.values.reduce(0) { $0 + $1.count }
            tablet += m.tabletTip.count + m.tabletButtons.values.reduce(0) { $0 + $1.count }
            tablet += m.padButtons.values.reduce(0) { $0 + $1.count }
        }
        var parts: [String] = []
        if !keys.isEmpty { parts.append("keys \(keys.sorted())") }
        if !buttons.isEmpty { parts.append("buttons \(buttons.sorted())") }
        if touches > 0 { parts.append("touch points \(touches)") }
        if tablet > 0 { parts.append("tablet tips and buttons \(tablet)") }
        return parts.isEmpty ? "nothing" : parts.joined(separator: ", ")
    }
}

/// A sink that keeps nothing: for benchmarks and for the checker alone.
public struct NullSink: DeliverySink {
    /// A sink that keeps nothing; free.
    public init() {}
    /// Drops the delivery.
    public mutating func deliver(_ delivery: Delivery, from queue: DeliveryQueue) {}
}

/// A sink that keeps the deliveries themselves.
public struct RecordingSink: DeliverySink {
    /// Every delivery received, in order.
    public private(set) var deliveries: [Delivery] = []
    /// The held keys of each `keyboardEnter`, in order, copied out of the queue.
    public private(set) var enterKeys: [[UInt32]] = []
    /// The axes of each `tabletMotion`, in order (the index in the delivery is the queue's).
    public private(set) var tabletAxes: [TabletAxes] = []
    /// An empty recording. Recording allocates: for tests, not per event in production.
    public init() {}
    /// Appends `d`, copying out the keys or axes it refers to in `queue`.
    public mutating func deliver(_ d: Delivery, from queue: DeliveryQueue) {
        deliveries.append(d)
        if case .keyboardEnter(_, _, let keys, _) = d { enterKeys.append(Array(queue.keys(keys))) }
        if case .tabletMotion(_, _, _, _, _, let axes) = d { tabletAxes.append(queue.axes(axes)) }
    }
    /// Forgets everything recorded, e.g. between test steps.
    public mutating func removeAll() {
        deliveries.removeAll()
        enterKeys.removeAll()
        tabletAxes.removeAll()
    }
}
