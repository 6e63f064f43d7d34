/// Writes one line per delivery: stable, documented in docs/trace.md, and the same bytes
/// for the same scene and events. Golden-trace tests compare its text.
public struct TraceSink: DeliverySink {
    /// The trace lines so far, one per delivery.
    public private(set) var lines: [String] = []
    /// The router the deliveries came from, for client, seat and action names.
    public let router: Router
    /// Whether lines carry event times (`t=` in milliseconds).
    public var showsTimes: Bool

    /// A trace writer. Each delivery allocates a line: for tests and debugging, not production.
    public init(router: Router, showsTimes: Bool = false) {
        self.router = router
        self.showsTimes = showsTimes
    }

    /// The whole trace, one line per delivery, each ending in a newline.
    public var text: String { lines.map { $0 + "\n" }.joined() }
    /// Forgets the lines so far.
    public mutating func removeAll() { lines.removeAll() }

    /// Appends the delivery's trace line (allocates a string).
    public mutating func deliver(_ d: Delivery, from queue: DeliveryQueue) {
        lines.append(Self.line(d, queue: queue, router: router, showsTimes: showsTimes))
    }

    /// The trace line of one delivery.
    public static func line(_ d: Delivery, queue: DeliveryQueue, router: Router, showsTimes: Bool = false) -> String {
        let tree = router.tree
        func node(_ n: NodeID) -> String { label(of: n, tree: tree) }
        func client(_ c: ClientID) -> String { "\(c)(\"\(router.name(of: c))\")" }
        func responder(_ r: Responder) -> String {
            switch r {
            case .node(let n): node(n)
            case .client(let c): client(c)
            case .seat(let s): "\(s)"
            }
        }
        func at(_ p: Point) -> String { "at \(Fixed(p.x)),\(Fixed(p.y))" }
        func time(_ t: UInt64) -> String {
            guard showsTimes else { return "" }
            let ms = t / 1000
            let frac = t % 1000
            return " t=\(ms).\(String(repeating: "0", count: 3 - String(frac).count))\(frac)"
        }
        let s = "\(d.seat) "
        switch d {
        case .pointerEnter(_, let n, let p, _): return s + "pointer.enter \(node(n)) \(at(p))"
        case .pointerLeave(_, let n, _): return s + "pointer.leave \(node(n))"
        case .pointerMotion(_, let n, let t, let p): return s + "pointer.motion \(node(n)) \(at(p))" + time(t)
        case .pointerButton(_, let n, let t, let b, let st, _):
            return s + "pointer.button \(node(n)) \(buttonName(b)) \(st)" + time(t)
        case .pointerAxis(_, let n, let t, let axis, let source, let v, let v120):
            return s + "pointer.axis \(node(n)) \(axis) \(source) \(Fixed(v)) v120=\(v120)" + time(t)
        case .pointerAxisStop(_, let n, let t, let axis): return s + "pointer.axis_stop \(node(n)) \(axis)" + time(t)
        case .pointerFrame(_, let c): return s + "pointer.frame \(client(c))"
        case .relativeMotion(_, let n, let t, let m):
            return s
                + "pointer.relative_motion \(node(n)) d \(Fixed(m.dx)),\(Fixed(m.dy)) raw \(Fixed(m.unacceleratedDX)),\(Fixed(m.unacceleratedDY))"
                + time(t)
        case .pointerConstraint(_, let n, let kind, let active):
            return s
                + "pointer.\(kind == .lock ? (active ? "locked" : "unlocked") : (active ? "confined" : "unconfined")) \(node(n))"
        case .keyboardEnter(_, let n, let keys, _):
            return s + "keyboard.enter \(node(n)) keys [\(queue.keys(keys).map(String.init).joined(separator: " "))]"
        case .keyboardLeave(_, let n, _): return s + "keyboard.leave \(node(n))"
        case .key(_, let n, let t, let k, let st, _): return s + "keyboard.key \(node(n)) \(k) \(st)" + time(t)
        case .modifiers(_, let n, let m, _): return s + "keyboard.modifiers \(node(n)) \(m)"
        case .keymapChanged(_, let k): return s + "keyboard.keymap \(k.map { "of \($0)" } ?? "of the seat")"
        case .touchDown(_, let n, let t, let slot, let p, _):
            return s + "touch.down \(node(n)) slot \(slot) \(at(p))" + time(t)
        case .touchMotion(_, let n, let t, let slot, let p):
            return s + "touch.motion \(node(n)) slot \(slot) \(at(p))" + time(t)
        case .touchUp(_, let n, let t, let slot, _): return s + "touch.up \(node(n)) slot \(slot)" + time(t)
        case .touchFrame(_, let c): return s + "touch.frame \(client(c))"
        case .touchCancel(_, let c): return s + "touch.cancel \(client(c))"
        case .touchReleased(_, let c, let t, let slot, _):
            return s + "touch.up \(client(c)) slot \(slot) (surface gone)" + time(t)
        case .gesture(_, let n, let t, let g):
            var text = s + "gesture.\(g.kind).\(g.phase) \(node(n)) fingers \(g.fingers)"
            if g.phase == .update { text += " d \(Fixed(g.dx)),\(Fixed(g.dy))" }
            if g.kind == .pinch && g.phase == .update {
                text += " scale \(Fixed(g.scale)) rotation \(Fixed(g.rotation))"
            }
            if g.phase == .end && g.cancelled { text += " cancelled" }
            return text + time(t)
        case .tabletProximityIn(_, let n, let dev, let tool, _):
            return s + "tablet.proximity_in \(node(n)) \(dev) \(tool.type) serial \(tool.serial)"
        case .tabletProximityOut(_, let n, let dev): return s + "tablet.proximity_out \(node(n)) \(dev)"
        case .tabletDown(_, let n, let dev, let t, _): return s + "tablet.down \(node(n)) \(dev)" + time(t)
        case .tabletUp(_, let n, let dev, let t): return s + "tablet.up \(node(n)) \(dev)" + time(t)
        case .tabletMotion(_, let n, let dev, let t, let p, let index):
            let a = queue.axes(index)
            var text = s + "tablet.motion \(node(n)) \(dev) \(at(p))"
            for (name, v) in [
                ("pressure", a.pressure), ("distance", a.distance), ("tilt_x", a.tiltX), ("tilt_y", a.tiltY),
                ("rotation", a.rotation), ("slider", a.slider), ("wheel", a.wheel),
            ] {
                if let v { text += " \(name) \(Fixed(v))" }
            }
            return text + time(t)
        case .tabletButton(_, let n, let dev, let t, let b, let st, _):
            return s + "tablet.button \(node(n)) \(dev) \(buttonName(b)) \(st)" + time(t)
        case .tabletFrame(_, let c, let t): return s + "tablet.frame \(client(c))" + time(t)
        case .padEnter(_, let n, let dev, _): return s + "pad.enter \(node(n)) \(dev)"
        case .padLeave(_, let n, let dev, _): return s + "pad.leave \(node(n)) \(dev)"
        case .padModeSwitch(_, let n, let dev, let t, let g, let mode, _):
            return s + "pad.mode_switch \(node(n)) \(dev) group \(g) mode \(mode)" + time(t)
        case .padButton(_, let n, let dev, let t, let b, let st):
            return s + "pad.button \(node(n)) \(dev) \(b) \(st)" + time(t)
        case .padRing(_, let n, let dev, let t, let r, let p, let src):
            return s + "pad.ring \(node(n)) \(dev) \(r) \(Fixed(p)) \(src)" + time(t)
        case .padStrip(_, let n, let dev, let t, let r, let p, let src):
            return s + "pad.strip \(node(n)) \(dev) \(r) \(Fixed(p)) \(src)" + time(t)
        case .handled(_, let r, let kind): return s + "handled \(kind) by \(responder(r))"
        case .action(_, let r, let a): return s + "action \"\(router.name(of: a))\" by \(responder(r))"
        case .binding(_, let i, let k): return s + "binding #\(i) key \(k)"
        case .inputMethodKey(_, let n, let k): return s + "input_method key \(k) for \(node(n))"
        case .claimed(_, let r): return s + "claimed by recognizer #\(r)"
        case .switchToggled(_, let kind, let on): return s + "switch \(kind) \(on ? "on" : "off")"
        case .shortcutsInhibited(_, let n, let active):
            return s + "shortcuts_inhibitor \(node(n)) \(active ? "active" : "inactive")"
        case .popupDone(_, let n): return s + "popup.done \(node(n))"
        case .resizeRequest(_, let n, let w, let h): return s + "resize.request \(node(n)) \(w)x\(h)"
        case .dropped(_, let kind): return s + "dropped \(kind)"
        }
    }

    /// A named node prints as its name in quotes. An unnamed one prints as kind and slot
    /// (`subsurface#9`); an unnamed client surface adds the nearest named surface of its
    /// own client above it (`subsurface#9 in "client1 foot: foot"`), so that with several
    /// clients each line says whose surface it is.
    static func label(of n: NodeID, tree: SurfaceTree) -> String {
        if let name = tree.name(of: n), !name.isEmpty { return "\"\(name)\"" }
        guard let kind = tree.kind(of: n) else { return "dead\(n)" }
        var text = "\(kind)\(n)"
        guard kind.isClientSurface, let client = tree.client(of: n) else { return text }
        var up = tree.parent(of: n)
        var steps = 0
        while let p = up, tree.client(of: p) == client, steps < Router.maxChainLength {
            if let name = tree.name(of: p), !name.isEmpty {
                text += " in \"\(name)\""
                break
            }
            up = tree.parent(of: p)
            steps += 1
        }
        return text
    }

    static func buttonName(_ b: UInt32) -> String {
        switch b {
        case 0x110: "BTN_LEFT"
        case 0x111: "BTN_RIGHT"
        case 0x112: "BTN_MIDDLE"
        case 0x113: "BTN_SIDE"
        case 0x114: "BTN_EXTRA"
        case 0x14b: "BTN_STYLUS"
        case 0x14c: "BTN_STYLUS2"
        case 0x149: "BTN_STYLUS3"
        default: "0x" + String(b, radix: 16)
        }
    }
}

extension ButtonState: CustomStringConvertible {
    /// The trace word: "pressed" or "released".
    public var description: String { self == .pressed ? "pressed" : "released" }
}
extension KeyState: CustomStringConvertible {
    /// The trace word: "pressed" or "released".
    public var description: String { self == .pressed ? "pressed" : "released" }
}
extension Axis: CustomStringConvertible {
    /// The trace word: "vertical" or "horizontal".
    public var description: String { self == .vertical ? "vertical" : "horizontal" }
}
extension AxisSource: CustomStringConvertible {
    /// The trace word for the source ("wheel", "finger"...).
    public var description: String {
        switch self {
        case .wheel: "wheel"
        case .finger: "finger"
        case .continuous: "continuous"
        case .wheelTilt: "wheel_tilt"
        }
    }
}
extension SwitchKind: CustomStringConvertible {
    /// The trace word for the switch ("lid", "tablet_mode", "keypad_slide").
    public var description: String {
        switch self {
        case .lid: "lid"
        case .tabletMode: "tablet_mode"
        case .keypadSlide: "keypad_slide"
        }
    }
}
extension GestureKind: CustomStringConvertible {
    /// The trace word: "swipe", "pinch" or "hold".
    public var description: String {
        switch self {
        case .swipe: "swipe"
        case .pinch: "pinch"
        case .hold: "hold"
        }
    }
}
extension GesturePhase: CustomStringConvertible {
    /// The trace word: "begin", "update" or "end".
    public var description: String {
        switch self {
        case .begin: "begin"
        case .update: "update"
        case .end: "end"
        }
    }
}
extension TabletToolType: CustomStringConvertible {
    /// The trace word for the tool type ("pen", "eraser"...).
    public var description: String {
        switch self {
        case .pen: "pen"
        case .eraser: "eraser"
        case .brush: "brush"
        case .pencil: "pencil"
        case .airbrush: "airbrush"
        case .mouse: "mouse"
        case .lens: "lens"
        case .totem: "totem"
        }
    }
}
extension PadSource: CustomStringConvertible {
    /// The trace word: "finger" or "unknown".
    public var description: String { self == .finger ? "finger" : "unknown" }
}
