// Several seats. The first ("seat0") is `WaylandServer.seat`, created with the server;
// `addSeat(name:)` adds more, all served by the same code, each a seat of the core (its own cursor, keyboard focus, touch
// points and grabs) with its own xkb state and its own `wl_seat` global. A client binds
// devices per seat: its `wl_pointer` from one seat's `wl_seat` gets only that seat's
// pointer events. Deliveries name their seat, so the sender picks the resource list by
// seat index (an array, no hashing), the same way for every seat.
// What the other protocols keep per seat is in SeatServices.swift.
import CWaylandServer
import InputRouter
import InputRouterKeyboard

/// One client's device resources on one seat, every seat alike (`ClientState.seatDevices`).
struct SeatDevices {
    var pointers: [ResourcePointer] = [] {
        didSet {
            soloPointer = pointers.count == 1 ? pointers[0] : nil
            soloPointerTakesFrames = soloPointer.map { wl_resource_get_version($0) >= 5 } ?? false
        }
    }
    var keyboards: [ResourcePointer] = [] { didSet { soloKeyboard = keyboards.count == 1 ? keyboards[0] : nil } }
    var touches: [ResourcePointer] = [] { didSet { soloTouch = touches.count == 1 ? touches[0] : nil } }
    /// The only resource of the list when it holds exactly one (the common case): the
    /// sender reads it without retaining the array (Sender.swift).
    private(set) var soloPointer: ResourcePointer?
    private(set) var soloKeyboard: ResourcePointer?
    private(set) var soloTouch: ResourcePointer?
    /// Whether `soloPointer` is of version 5 or later (`wl_pointer.frame`), asked of
    /// libwayland once: every motion's and button's frame asked it.
    private(set) var soloPointerTakesFrames = false
    /// The tag of the keymap its `wl_keyboard`s of this seat were sent last (0: the
    /// server's own), ClientKeymaps.swift.
    var keymapSent: UInt32 = 0
}

/// A seat as the server serves it (every seat, the first included): its `wl_seat`
/// resources and the capabilities they were last told.
final class ServedSeat {
    let seat: Seat
    /// Its xkb state (the first seat's is the server's `keyboardState`, which
    /// `setKeyboard` replaces).
    var keyboardState: KeyboardState
    var resources: [ResourcePointer] = []
    var capabilities: UInt32 = 0

    init(seat: Seat, keyboardState: KeyboardState) {
        self.seat = seat
        self.keyboardState = keyboardState
    }
}

extension ClientState {
    /// Changes its records on seat `s`, made on first use (a bind).
    func withDevices<R>(on s: SeatID, _ body: (inout SeatDevices) -> R) -> R {
        let i = Int(s.index)
        while seatDevices.count <= i { seatDevices.append(SeatDevices()) }
        return body(&seatDevices[i])
    }

    @inline(__always) func pointers(on s: SeatID) -> [ResourcePointer] {
        let i = Int(s.index)
        return i < seatDevices.count ? seatDevices[i].pointers : []
    }

    @inline(__always) func keyboards(on s: SeatID) -> [ResourcePointer] {
        let i = Int(s.index)
        return i < seatDevices.count ? seatDevices[i].keyboards : []
    }

    @inline(__always) func touches(on s: SeatID) -> [ResourcePointer] {
        let i = Int(s.index)
        return i < seatDevices.count ? seatDevices[i].touches : []
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
        seat.beforePress = pressHook // focus on click, as on the first seat (Server+Activation.swift)
        let served = ServedSeat(seat: seat, keyboardState: state)
        _ = services(Int(seat.id.index)) // before the first flush follows its focus
        servedSeats.append(served)
        addSeatGlobal(served)
        return seat
    }

    /// The `wl_seat` global of `served`: the first seat's made with the server's globals
    /// (Globals.swift), each other by `addSeat`.
    func addSeatGlobal(_ served: ServedSeat) {
        addGlobal(.wlSeat, GlobalVersion.seat) { server, client, version, id in
            guard
                let object = server.createObject(
                    .wlSeat, client: client, version: version, id: id,
                    {
                        SeatObject(server: server, owner: client, resource: $0)
                    })
            else { return }
            object.seatIndex = Int(served.seat.id.index)
            served.resources.append(object.resource)
            object.sendState()
        }
    }

    /// Every seat, the first one first.
    public var seats: [Seat] { router.seats }

    /// The seat called `name`, if there is one.
    public func seat(named name: String) -> Seat? { router.seats.first { $0.name == name } }

    /// Routes one input event on `seat` (nil: the first seat) and sends what it produced;
    /// a `deviceAdded` comes with what its source said of the device (name, node, ids; nil
    /// when it said nothing), which the seat keeps while the device is present
    /// (`Seat.deviceDescription(of:)`) and a tablet's or pad's announcement tells clients.
    /// `description` is ignored for any other event, so a source's sink may pass it always.
    public func handle(_ event: InputEvent, description: DeviceDescription?, seat: Seat? = nil) {
        let seat = seat ?? self.seat
        guard case .deviceAdded = event.kind else { return handle(event, seat: seat) }
        route(event, description: description, on: seat)
        if idleWatching { idle.inputArrived(seat: Int(seat.id.index)) } // activity (Idle.swift)
    }

    func servedSeat(_ id: SeatID) -> ServedSeat? {
        let i = Int(id.index)
        return i < servedSeats.count ? servedSeats[i] : nil
    }

    /// Tells every `wl_seat` of `seat` its capabilities when they changed since it was last
    /// told them (`always`: even unchanged).
    func updateCapabilities(of seat: Seat, always: Bool = false) {
        guard let served = servedSeat(seat.id) else { return }
        let caps = capabilities(of: seat)
        guard always || caps != served.capabilities else { return }
        served.capabilities = caps
        for r in served.resources { wl_seat_send_capabilities(r, caps) }
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

    /// After a flush: each seat's keyboard focus, followed when it moved
    /// (`keyboardFocusMoved(onSeat:to:)`).
    @inline(__always) func followKeyboardFocus() {
        var i = 0
        while i < servedSeats.count {
            // Read once, passed on: reading it again there was one more call per focus change.
            let focus = router.keyboardFirstResponder(ofSeat: i)
            // A served seat's services exist (made with it): no `services(i)`, whose lazy
            // path kept the services retained across the compare.
            if focus != seatServices[i].activationSource { keyboardFocusMoved(onSeat: i, to: focus) }
            i += 1
        }
    }
}
