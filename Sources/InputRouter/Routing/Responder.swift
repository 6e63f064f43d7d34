// The responder chain: surface → parent surface … → client responder → seat → dropped.

/// Whether a responder took an event. One that did not passes it to its next responder.
public enum Disposition: Sendable { case handled, notHandled }

/// Something that can be asked to handle an event.
public enum Responder: Hashable, Sendable, CustomStringConvertible {
    case node(NodeID)
    /// One per client: after the client's surfaces, before the seat.
    case client(ClientID)
    case seat(SeatID)
    /// "#n", "clientN" or "seatN", for traces.
    public var description: String {
        switch self {
        case .node(let n): "\(n)"
        case .client(let c): "\(c)"
        case .seat(let s): "\(s)"
        }
    }
}

/// What a compositor node, a client responder or a seat handler is asked to handle.
/// Points are local to the responder asked (layout space for client and seat).
public enum NodeEvent: Sendable, Equatable {
    case pointerEnter(Point)
    case pointerLeave
    case pointerMotion(Point)
    case pointerButton(button: UInt32, state: ButtonState, at: Point)
    case pointerAxis(Axis, source: AxisSource, value: Double, value120: Int32)
    case keyboardEnter
    case keyboardLeave
    case key(key: UInt32, state: KeyState, keysym: UInt32)
    case touchDown(slot: Int32, at: Point)
    case touchMotion(slot: Int32, at: Point)
    case touchUp(slot: Int32)
    case touchCancel
    case gesture(GestureEvent)
    case action(ActionID)
    /// Tablet tool (positional, to the responder under the tool) and pad events (to the
    /// keyboard focus's chain).
    case tabletProximity(inProximity: Bool, at: Point)
    case tabletMotion(at: Point, TabletAxes)
    case tabletTip(down: Bool, at: Point)
    case tabletButton(button: UInt32, state: ButtonState)
    case padButton(button: UInt32, state: ButtonState)
    case padRing(ring: UInt32, position: Double, source: PadSource)
    case padStrip(strip: UInt32, position: Double, source: PadSource)

    /// The kind of the event, for traces and drop counters.
    public var kind: EventKind {
        switch self {
        case .pointerEnter: .pointerEnter
        case .pointerLeave: .pointerLeave
        case .pointerMotion: .pointerMotion
        case .pointerButton: .pointerButton
        case .pointerAxis: .pointerAxis
        case .keyboardEnter: .keyboardEnter
        case .keyboardLeave: .keyboardLeave
        case .key: .key
        case .touchDown: .touchDown
        case .touchMotion: .touchMotion
        case .touchUp: .touchUp
        case .touchCancel: .touchCancel
        case .gesture: .gesture
        case .action: .action
        case .tabletProximity: .tabletProximity
        case .tabletMotion: .tabletMotion
        case .tabletTip: .tabletTip
        case .tabletButton: .tabletButton
        case .padButton: .padButton
        case .padRing, .padStrip: .padRingStrip
        }
    }
}

/// Event kinds, for drop counters and trace lines.
public enum EventKind: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case pointerEnter, pointerLeave, pointerMotion, pointerButton, pointerAxis
    case keyboardEnter, keyboardLeave, key
    case touchDown, touchMotion, touchUp, touchCancel
    case gesture, action, switchToggle
    case tabletProximity, tabletMotion, tabletTip, tabletButton, padButton, padRingStrip
    /// The trace name of the kind ("pointer.enter"...).
    public var description: String {
        switch self {
        case .pointerEnter: "pointer.enter"
        case .pointerLeave: "pointer.leave"
        case .pointerMotion: "pointer.motion"
        case .pointerButton: "pointer.button"
        case .pointerAxis: "pointer.axis"
        case .keyboardEnter: "keyboard.enter"
        case .keyboardLeave: "keyboard.leave"
        case .key: "keyboard.key"
        case .touchDown: "touch.down"
        case .touchMotion: "touch.motion"
        case .touchUp: "touch.up"
        case .touchCancel: "touch.cancel"
        case .gesture: "gesture"
        case .action: "action"
        case .switchToggle: "switch"
        case .tabletProximity: "tablet.proximity"
        case .tabletMotion: "tablet.motion"
        case .tabletTip: "tablet.tip"
        case .tabletButton: "tablet.button"
        case .padButton: "pad.button"
        case .padRingStrip: "pad.ring_strip"
        }
    }
}

/// A compositor node's, client responder's or seat's event handler.
public typealias NodeHandler = (NodeEvent) -> Disposition

/// The Wayland device a client must have bound for its surfaces to handle an event.
public struct BoundDevices: OptionSet, Hashable, Sendable {
    /// The bound-device bits, one per option below.
    public var rawValue: UInt8
    /// A set from raw bits, as an `OptionSet` requires.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `wl_pointer`: the client's surfaces can take pointer events.
    public static let pointer = BoundDevices(rawValue: 1)
    /// `wl_keyboard`: the client's surfaces can take the keyboard focus.
    public static let keyboard = BoundDevices(rawValue: 2)
    /// `wl_touch`: the client's surfaces can take touch points.
    public static let touch = BoundDevices(rawValue: 4)
    /// `zwp_tablet_seat_v2` (tablet tools and pads).
    public static let tablet = BoundDevices(rawValue: 8)
    /// `zwp_relative_pointer_v1`: the client's surfaces get relative motion too.
    public static let relativePointer = BoundDevices(rawValue: 128)
}

extension Router {
    /// The next responder after `r`: an override if set and alive; else the parent when it
    /// belongs to the same client (outputs end a client's chain); else the client
    /// responder; compositor nodes climb through their containers to the seat.
    public func nextResponder(after r: Responder, seat: SeatID) -> Responder? {
        switch r {
        case .node(let id):
            guard let i = tree.resolve(id) else { return nil }
            let rec = tree.nodes[Int(i)]
            if rec.nextResponder != NodeRecord.none {
                let o = Int(rec.nextResponder)
                if o < tree.nodes.count, tree.nodes[o].alive, tree.nodes[o].generation == rec.nextResponderGeneration {
                    return .node(tree.id(ofSlot: rec.nextResponder))
                }
            }
            let p = rec.parent
            let hasParent = p != NodeRecord.none && p != 0
            if rec.client.isCompositor {
                return hasParent ? .node(tree.id(ofSlot: p)) : .seat(seat)
            }
            if hasParent {
                let pr = tree.nodes[Int(p)]
                if pr.kind != .output && pr.client == rec.client { return .node(tree.id(ofSlot: p)) }
            }
            return .client(rec.client)
        case .client:
            return .seat(seat)
        case .seat:
            return nil
        }
    }

    /// The chain from `first` to the seat, for inspection and tests.
    public func responderChain(from first: Responder, seat: SeatID) -> [Responder] {
        var out: [Responder] = []
        var r: Responder? = first
        while let cur = r, out.count < Router.maxChainLength {
            out.append(cur)
            r = nextResponder(after: cur, seat: seat)
        }
        return out
    }

    /// A chain longer than this is a cycle made by overrides; routing stops there.
    public static let maxChainLength = 256
}
