// `zwp_pointer_gestures_v1` (pointer-gestures, version 3): touchpad swipe, pinch and hold
// gestures, as libinput recognises them, to the surface under the pointer when the gesture
// began. The core decides the target (Seat+Pointer.swift `notifyGesture`): a compositor
// recognizer may take a gesture at its begin (the client sees nothing of it) or at any
// update, and then the client gets `end` with `cancelled = 1` and nothing more of it.
//
// Each gesture object belongs to the wl_pointer it was made for, and so to its seat; the
// client gets a seat's gesture on every gesture object of that kind it holds for that seat,
// as it gets pointer events on every wl_pointer of the seat.
import CWaylandProtocolsServer
import CWaylandServer
import InputRouter

final class PointerGesturesObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpPointerGesturesV1Request = decode(opcode, args) else { return }
        switch request {
        case .getSwipeGesture(let id, let pointer): makeGesture(.zwpPointerGestureSwipeV1, .swipe, id, pointer)
        case .getPinchGesture(let id, let pointer): makeGesture(.zwpPointerGesturePinchV1, .pinch, id, pointer)
        case .release: destroyResource() // release (v2); gesture objects live on
        case .getHoldGesture(let id, let pointer): makeGesture(.zwpPointerGestureHoldV1, .hold, id, pointer) // (v3)
        }
    }

    private func makeGesture(
        _ interface: UnsafePointer<wl_interface>, _ kind: GestureKind, _ id: UInt32, _ pointer: ResourcePointer?
    ) {
        let seatIndex = pointer.object(as: PointerObject.self)?.seatIndex ?? 0
        guard
            let gesture = server.createObject(
                interface, client: owner, version: version, id: id,
                {
                    PointerGestureObject(server: server, owner: owner, resource: $0, kind: kind, seatIndex: seatIndex)
                })
        else { return }
        owner.onSeat(seatIndex).gestures.append(gesture.resource, kind)
    }
}

/// A swipe, pinch or hold gesture object: its one request is `destroy`.
final class PointerGestureObject: WaylandObject {
    let kind: GestureKind
    let seatIndex: Int

    init(server: WaylandServer, owner: ClientState, resource: ResourcePointer, kind: GestureKind, seatIndex: Int) {
        self.kind = kind
        self.seatIndex = seatIndex
        super.init(server: server, owner: owner, resource: resource)
    }

    /// Swipe, pinch and hold share their one request, `destroy` (opcode 0 of each): the
    /// swipe's enum decodes all three.
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpPointerGestureSwipeV1Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource()
        }
    }

    override func resourceDestroyed() { owner.onSeat(seatIndex).gestures.remove(resource, kind) }
}

/// A client's gesture objects, by kind: delivery walks one array, no lookup.
struct ClientGestures {
    var swipes: [ResourcePointer] = []
    var pinches: [ResourcePointer] = []
    var holds: [ResourcePointer] = []

    mutating func append(_ r: ResourcePointer, _ kind: GestureKind) {
        switch kind {
        case .swipe: swipes.append(r)
        case .pinch: pinches.append(r)
        case .hold: holds.append(r)
        }
    }

    mutating func remove(_ r: ResourcePointer, _ kind: GestureKind) {
        switch kind {
        case .swipe: swipes.removeAll { $0 == r }
        case .pinch: pinches.removeAll { $0 == r }
        case .hold: holds.removeAll { $0 == r }
        }
    }
}

extension WaylandServer {
    /// One gesture delivery as protocol events. Begin and end carry a fresh serial from the
    /// display's sequence; updates carry none.
    func sendGesture(_ node: NodeID, seat index: Int, time: UInt64, _ g: GestureEvent) {
        guard let s = surface(for: node), s.owner.alive else { return }
        let c = s.owner.onSeat(index)
        let ms = UInt32(truncatingIfNeeded: time / 1000)
        let cancelled: Int32 = g.cancelled ? 1 : 0
        let fingers = UInt32(clamping: max(g.fingers, 0))
        let serial = g.phase == .update ? 0 : nextSerial()
        switch (g.kind, g.phase) {
        case (.swipe, .begin):
            for r in c.gestures.swipes { zwp_pointer_gesture_swipe_v1_send_begin(r, serial, ms, s.resource, fingers) }
        case (.swipe, .update):
            for r in c.gestures.swipes {
                zwp_pointer_gesture_swipe_v1_send_update(r, ms, wl_fixed_from_double(g.dx), wl_fixed_from_double(g.dy))
            }
        case (.swipe, .end):
            for r in c.gestures.swipes { zwp_pointer_gesture_swipe_v1_send_end(r, serial, ms, cancelled) }
        case (.pinch, .begin):
            for r in c.gestures.pinches { zwp_pointer_gesture_pinch_v1_send_begin(r, serial, ms, s.resource, fingers) }
        case (.pinch, .update):
            for r in c.gestures.pinches {
                zwp_pointer_gesture_pinch_v1_send_update(
                    r, ms, wl_fixed_from_double(g.dx), wl_fixed_from_double(g.dy),
                    wl_fixed_from_double(g.scale), wl_fixed_from_double(g.rotation))
            }
        case (.pinch, .end):
            for r in c.gestures.pinches { zwp_pointer_gesture_pinch_v1_send_end(r, serial, ms, cancelled) }
        case (.hold, .begin):
            for r in c.gestures.holds { zwp_pointer_gesture_hold_v1_send_begin(r, serial, ms, s.resource, fingers) }
        case (.hold, .update): break // holds have no updates
        case (.hold, .end): for r in c.gestures.holds { zwp_pointer_gesture_hold_v1_send_end(r, serial, ms, cancelled) }
        }
    }
}
