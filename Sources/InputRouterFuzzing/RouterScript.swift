import InputRouter

/// Writes bytes in `RouterFuzz`'s format: the seed corpus and hand-written regression
/// scripts are made with it. Values go through the same tables the decoder reads, so a
/// coordinate comes back quantised (1/239 of the range, 1.5 px for deltas).
public struct RouterScript {
    public private(set) var bytes: [UInt8] = []
    public init() {}

    public mutating func op(_ op: RouterFuzz.Op, seat: Int = 0, device: UInt32 = 0, _ args: UInt8...) {
        bytes.append(op.rawValue | UInt8(seat & 3) << 6)
        bytes.append(UInt8(device % RouterFuzz.deviceCount))
        bytes += args
    }

    static func unit(_ v: Double) -> UInt8 { v.isFinite ? UInt8(min(max(v, 0), 1) * 239) : 240 }
    static func delta(_ v: Double) -> UInt8 { v.isFinite ? UInt8(min(max(v / 1.5 + 120, 0), 239)) : 240 }
    static func index<T: Equatable>(_ v: T, in table: [T]) -> UInt8 { UInt8(table.firstIndex(of: v) ?? 0) }

    /// An input event as the decoder reads it back (devices modulo eight).
    public mutating func event(_ e: InputEvent, seat: Int = 0) {
        let d = e.device.index
        switch e.kind {
        case .deviceAdded(let caps): op(.deviceAdded, seat: seat, device: d, UInt8(truncatingIfNeeded: caps.rawValue))
        case .deviceRemoved: op(.deviceRemoved, seat: seat, device: d)
        case .pointerMotion(let dx, let dy, _, _): op(.motion, seat: seat, device: d, Self.delta(dx), Self.delta(dy))
        case .pointerMotionAbsolute(let x, let y):
            op(.motionAbsolute, seat: seat, device: d, Self.unit(x), Self.unit(y))
        case .pointerButton(let b, let s):
            op(.button, seat: seat, device: d, Self.index(b, in: FuzzValues.buttons), s == .pressed ? 1 : 0)
        case .pointerAxis(let source, let v, let h):
            var args: [UInt8] = [source.rawValue]
            if let v {
                args += [1, Self.delta(v.value), UInt8(bitPattern: Int8(clamping: v.value120 / 15))]
            } else {
                args.append(0)
            }
            if let h { args += [1, Self.delta(h.value)] } else { args.append(0) }
            bytes += [RouterFuzz.Op.axis.rawValue | UInt8(seat & 3) << 6, UInt8(d % RouterFuzz.deviceCount)] + args
        case .keyboardKey(let k, let s):
            // Keys outside the decoder's table become the nearest usual one (A).
            op(.key, seat: seat, device: d, Self.index(k, in: FuzzValues.keys), s == .pressed ? 1 : 0)
        case .touchDown(let slot, let x, let y):
            op(.touchDown, seat: seat, device: d, Self.index(slot, in: FuzzValues.slots), Self.unit(x), Self.unit(y))
        case .touchMotion(let slot, let x, let y):
            op(.touchMotion, seat: seat, device: d, Self.index(slot, in: FuzzValues.slots), Self.unit(x), Self.unit(y))
        case .touchUp(let slot): op(.touchUp, seat: seat, device: d, Self.index(slot, in: FuzzValues.slots))
        case .touchCancel(let slot): op(.touchCancel, seat: seat, device: d, Self.index(slot, in: FuzzValues.slots))
        case .touchFrame: op(.touchFrame, seat: seat, device: d)
        case .gesture(let g):
            let kind: UInt8 = g.kind == .swipe ? 0 : g.kind == .pinch ? 1 : 2
            let phase: UInt8 = g.phase == .begin ? 0 : g.phase == .update ? 1 : 2
            let b = kind | phase << 2 | UInt8(min(max(g.fingers, 0), 7)) << 4 | (g.cancelled ? 0x80 : 0)
            op(
                .gesture, seat: seat, device: d, b, Self.delta(g.dx), Self.delta(g.dy), Self.unit(g.scale / 2),
                Self.delta(g.rotation))
        case .switchToggle(let kind, let on): op(.switchToggle, seat: seat, device: d, kind.rawValue, on ? 1 : 0)
        default:
            // Tablet tool and pad events: the decoder has no ops for them yet (they are
            // covered by TabletTests' random stream through the checker).
            break
        }
    }

    /// A client bound to `devices` (pointer 1, keyboard 2, touch 4) on every seat.
    public mutating func addClient(bound devices: UInt8 = 7) { op(.addClient, devices) }

    /// A node of `kind` (0 toplevel, 2 subsurface, 3 popup, 4 compositor) owned by the
    /// `client`th client, under the `parent`th node; the frame bytes are (x+100)/3,
    /// (y+60)/2, (w+10)/2, (h+10)/2.
    public mutating func create(
        kind: UInt8, client: UInt8, parent: UInt8, frame: (UInt8, UInt8, UInt8, UInt8), below: Bool = false
    ) {
        op(.create, kind, client, parent, 0, frame.0, frame.1, frame.2, frame.3, below ? 0 : 1)
    }

    public mutating func focus(seat: Int = 0, node: UInt8) { op(.focus, seat: seat, node, 1) }
}
