// Several seats. The first ("seat0") is `WaylandServer.seat`, created with the server;
// `addSeat(name:)` adds more, each a seat of the core (its own cursor, keyboard focus, touch
// points and grabs) with its own xkb state and its own `wl_seat` global. A client binds
// devices per seat: its `wl_pointer` from one seat's `wl_seat` gets only that seat's
// pointer events. Deliveries name their seat, so the sender picks the resource list by
// seat index (an array, no hashing); the first seat's lists stay where they always were.
// What the other protocols keep per seat is in SeatServices.swift.
import CWaylandServer
import InputRouter
import InputRouterKeyboard

/// One client's device resources on a seat after the first.
final class SeatDevices {
    var pointers: [ResourcePointer] = []
    var keyboards: [ResourcePointer] = []
    var touches: [ResourcePointer] = []
    /// The tag of the keymap its `wl_keyboard`s of this seat were sent last (ClientKeymaps.swift).
    var keymapSent: UInt32 = 0
}

/// A seat after the first, as the server serves it.
final class ServedSeat {
    let seat: Seat
    let keyboardState: KeyboardState
    var resources: [ResourcePointer] = []
    var capabilities: UInt32 = 0

    init(seat: Seat, keyboardState: KeyboardState) {
        self.seat = seat
        self.keyboardState = keyboardState
    }
}

extension ClientState {
    /// The client's records on seat `s` (index ≥ 1), created on first bind.
    func devices(on s: SeatID) -> SeatDevices {
        let i = Int(s.index) - 1
        while otherSeats.count <= i { otherSeats.append(SeatDevices()) }
        return otherSeats[i]
    }

    @inline(__always) func pointers(on s: SeatID) -> [ResourcePointer] {
        if s.index == 0 { return pointers }
        let i = Int(s.index) - 1
        return i < otherSeats.count ? otherSeats[i].pointers : []
    }

    @inline(__always) func keyboards(on s: SeatID) -> [ResourcePointer] {
        if s.index == 0 { return keyboards }
        let i = Int(s.index) - 1
        return i < otherSeats.count ? otherSeats[i].keyboards : []
    }

    @inline(__always) func touches(on s: SeatID) -> [ResourcePointer] {
        if s.index == 0 { return touches }
        let i = Int(s.index) - 1
        return i < otherSeats.count ? otherSeats[i].touches : []
    }
}

extension WaylandServer {
    /// Adds a seat with its own `wl_seat` global (advertised after the first seat's, so a
    /// client sees the seats in the order they were added), its own devices and focus, and
    /// an xkb state from the server's keyboard configuration (the same keymap).
    @discardableResult
    public func addSeat(name: String) throws -> Seat {
        let seat = router.addSeat(name: name)
        let state = try configuration.keyboard.makeState()
        seat.keyTranslator = state
        seat.beforePress = pressHook  // focus on click, as on the first seat (Server+Activation.swift)
        let served = ServedSeat(seat: seat, keyboardState: state)
        extraSeats.append(served)
        addGlobal(.wlSeat, GlobalVersion.seat) { server, client, version, id in
            guard let object = server.createObject(.wlSeat, client: client, version: version, id: id, {
                SeatObject(server: server, owner: client, resource: $0)
            }) else { return }
            object.seatIndex = Int(seat.id.index)
            served.resources.append(object.resource)
            object.sendState()
        }
        return seat
    }

    /// Every seat, the first one first.
    public var seats: [Seat] { router.seats }

    /// The seat called `name`, if there is one.
    public func seat(named name: String) -> Seat? { router.seats.first { $0.name == name } }

    /// Routes one input event on `seat` and sends what it produced; a device added or
    /// removed there updates that seat's `wl_seat` capabilities. A device added this way
    /// has no description: its source's goes with `handle(_:description:seat:)`.
    public func handle(_ event: InputEvent, seat: Seat) {
        handle(event, description: nil, seat: seat)
    }

    /// Routes one input event on `seat` (nil: the first seat) and sends what it produced;
    /// a `deviceAdded` comes with what its source said of the device (name, node, ids; nil
    /// when it said nothing), which the seat keeps while the device is present
    /// (`Seat.deviceDescription(of:)`) and a tablet's or pad's announcement tells clients.
    /// `description` is ignored for any other event, so a source's sink may pass it always.
    public func handle(_ event: InputEvent, description: DeviceDescription?, seat: Seat? = nil) {
        guard let seat, seat.id.index != 0 else {
            // Only a deviceAdded takes the description: every other event keeps the first
            // seat's own path (its commonest kinds first).
            guard case .deviceAdded = event.kind else { return handle(event) }
            route(event, description: description)
            if idleWatching { idle.inputArrived(seat: 0) }
            return
        }
        switch event.kind {
        case .deviceAdded, .deviceRemoved, .tabletPadAdded:
            routeDeviceChange(event, description, on: seat)  // Tablet+Announce.swift
        case .touchMotion: seat.handle(event)  // waits for its frame, as on the first seat
        default:
            seat.handle(event)
            sendDeliveries()
        }
        if idle.watching { idle.inputArrived(seat: Int(seat.id.index)) }  // activity on this seat (Idle.swift)
        switch event.kind {
        case .deviceAdded, .deviceRemoved:
            guard let served = servedSeat(seat.id) else { return }
            let caps = capabilities(of: seat)
            if caps != served.capabilities {
                served.capabilities = caps
                for r in served.resources { wl_seat_send_capabilities(r, caps) }
            }
        default:
            break
        }
    }

    func servedSeat(_ id: SeatID) -> ServedSeat? {
        let i = Int(id.index) - 1
        return i >= 0 && i < extraSeats.count ? extraSeats[i] : nil
    }

    /// The `wl_seat` capabilities of `seat`: the kinds of its devices present.
    func capabilities(of seat: Seat) -> UInt32 {
        var caps: UInt32 = 0
        let present = seat.presentCapabilities
        if present.contains(.pointer) || present.contains(.gesture) { caps |= WL_SEAT_CAPABILITY_POINTER.rawValue }
        if present.contains(.keyboard) { caps |= WL_SEAT_CAPABILITY_KEYBOARD.rawValue }
        if present.contains(.touch) { caps |= WL_SEAT_CAPABILITY_TOUCH.rawValue }
        return caps
    }

    /// The seat a `wl_seat` argument names (the first seat when it names none).
    func seat(from object: SeatObject?) -> Seat {
        object.map { router.seats[$0.seatIndex] } ?? seat
    }

    /// The seat index a `wl_seat` argument names (0 when it names none).
    func seatIndex(from object: SeatObject?) -> Int { object?.seatIndex ?? 0 }

    /// After a flush: the keyboard focus of each seat after the first, followed as the
    /// first seat's is (`keyboardFocusMoved(onSeat:to:)`) when it moved.
    func followKeyboardFocusOfOtherSeats() {
        for served in extraSeats {
            let i = Int(served.seat.id.index)
            let focus = served.seat.keyboardFirstResponder
            if focus != services(i).activationSource { keyboardFocusMoved(onSeat: i, to: focus) }
        }
    }
}
