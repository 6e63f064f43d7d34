// What the server keeps per seat beyond the core's seat: each seat has its own clipboard and
// primary selection, drag, text-input focus, activated toplevel and tablets (wlroots keeps the same
// in `wlr_seat` and a per-seat data device; Smithay in its seat's user data). And what one
// client has on one seat: the objects made for that seat's `wl_pointer` (relative pointers,
// gesture objects), its tablet objects, its cursor there. (The serials a seat sent are the
// core seat's: SerialRecord.swift.) A request naming a
// `wl_seat` or a `wl_pointer` finds its seat's records here by index (`SeatObject.seatIndex`).
import InputRouter

/// One seat's protocol state (all seats, the first included), by seat index.
final class SeatServices {
    let seatIndex: Int
    /// The clipboard and primary selection of this seat (Selection.swift).
    let selections = Selections()
    /// The drag in progress on this seat (DragGrab.swift).
    var drag: DragGrab?
    /// The keyboard focus the activated toplevel and text-input focus were last computed
    /// from, and the toplevel this seat's keyboard activates (Server+Activation.swift).
    var activationSource: NodeID?
    var activatedToplevel: NodeID?
    /// Text inputs made for this seat's `wl_seat` (TextInputMethod.swift).
    let textInput: TextInputState
    /// This seat's tablets, tools and pads, as announced to its tablet seats (TabletManager.swift).
    var tablets = TabletRegistry()
    /// The keymap this seat's keys and modifiers are in now; nil: the server's own
    /// (ClientKeymaps.swift).
    var keymapInUse: ServedKeymap?
    /// The virtual keyboards made for this seat's `wl_seat` (VirtualKeyboard.swift).
    var virtualKeyboards: [VirtualKeyboardObject] = []

    init(server: WaylandServer, seatIndex: Int) {
        self.seatIndex = seatIndex
        textInput = TextInputState(server: server, seatIndex: seatIndex)
    }
}

/// One client's objects on one seat (what requests add and read; no delivery touches it).
final class ClientSeatState {
    var relativePointers: [ResourcePointer] = []
    /// Its pointer-gesture objects (PointerGestures.swift).
    var gestures = ClientGestures()
    /// The cursor it chose for this seat's pointer: a surface or a shape (CursorShape.swift).
    var cursor: ChosenCursor?
    /// Its tablet-unstable-v2 objects of this seat (TabletManager.swift).
    var tablet = ClientTablet()
}

extension ClientState {
    /// Its objects on seat `index` (created on first use).
    func onSeat(_ index: Int) -> ClientSeatState {
        while seatStates.count <= index { seatStates.append(ClientSeatState()) }
        return seatStates[index]
    }
}

extension WaylandServer {
    /// The protocol state of seat `index` (the first seat's is made with the server).
    @inline(__always) func services(_ index: Int) -> SeatServices {
        if index < seatServices.count { return seatServices[index] }
        return makeServices(index)
    }

    private func makeServices(_ index: Int) -> SeatServices {
        while seatServices.count <= index {
            seatServices.append(SeatServices(server: self, seatIndex: seatServices.count))
        }
        return seatServices[index]
    }

    /// The core's seat `index`, through `Router.seat(_:)`, where the read is unchecked:
    /// `router.seats` read from this module pays a dynamic exclusivity check
    /// (`@exclusivity(unchecked)` does not carry across modules), ~75 instructions.
    @inline(__always) func routerSeat(_ index: Int) -> Seat {
        router.seat(SeatID(index: UInt32(index)))
    }

    /// The toplevel the first seat's keyboard activates.
    var activatedToplevel: NodeID? { seatServices[0].activatedToplevel }

    /// Whether toplevel `node` has some seat's keyboard: the `activated` state.
    func isActivated(_ node: NodeID) -> Bool {
        for i in seatServices.indices where seatServices[i].activatedToplevel == node { return true }
        return false
    }
}
