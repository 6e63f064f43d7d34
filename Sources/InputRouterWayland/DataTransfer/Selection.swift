// Each seat's two selections, the clipboard (wl_data_device) and the primary selection
// (zwp_primary_selection_device_v1), and the rule both follow: a client sets one citing
// the serial of the input that asked for it, and the client with the keyboard focus is
// offered it whenever it gains the focus and whenever it changes while it holds it.
// DataDevice.swift and PrimarySelection.swift are the protocol objects; the data itself
// never passes through the server: `receive` hands the reader's fd to the source's client.
import CWaylandServer
import InputRouter

enum SelectionKind { case clipboard, primary }

/// Data a client offers: a `wl_data_source` or a `zwp_primary_selection_source_v1`.
protocol SelectionSource: AnyObject {
    var owner: ClientState { get }
    var mimeTypes: [String] { get }
    /// Asks the source's client to write `mimeType` into `fd` (the fd is duplicated by
    /// libwayland; the caller closes its own).
    func send(_ mimeType: String, fd: Int32)
    /// The source was replaced: it will not be asked for data again.
    func cancel()
}

/// Where a client is told of a selection: a `wl_data_device` or a primary selection device.
protocol SelectionDevice: AnyObject {
    var owner: ClientState { get }
    /// Sends a fresh offer of `source` (its mime types), then the selection event; nil
    /// sends a selection of none.
    func sendSelection(_ source: SelectionSource?)
}

/// One selection: who holds it, the serial it was set with, and the devices bound for it.
final class SelectionSlot {
    var source: SelectionSource?
    var serial: UInt32 = 0
    var devices: [SelectionDevice] = []
}

final class Selections {
    let clipboard = SelectionSlot()
    let primary = SelectionSlot()
    /// The client last offered the selections as the keyboard's holder, nil while no client
    /// has the keyboard: a change of holder sends them to the new one.
    var focusClient: ClientID?

    subscript(kind: SelectionKind) -> SelectionSlot { kind == .clipboard ? clipboard : primary }
}

extension WaylandServer {
    /// The client whose surface has the first seat's keyboard, if any.
    var keyboardFocusClient: ClientState? { keyboardFocusClient(onSeat: 0) }

    /// The client whose surface has seat `index`'s keyboard, if any.
    func keyboardFocusClient(onSeat index: Int) -> ClientState? {
        routerSeat(index).keyboardFirstResponder.flatMap(owner(of:))
    }

    /// Whether `client` may set seat `index`'s selection citing `serial`: one of the input
    /// events that seat sent it, or the keyboard enter of a focus it still holds (the seat's
    /// rule table, `SerialRules`: toolkits cite the newest serial they saw, GTK's Ctrl+C the
    /// Ctrl release or the modifiers after it, wl-copy the enter). Another seat's serial is
    /// refused, as wlroots checks a serial per seat client. A serial older than the current
    /// selection's never replaces it: a request that was late cannot undo a newer copy.
    func isSelectionSerial(_ serial: UInt32, from client: ClientState, replacing slot: SelectionSlot, seat index: Int)
        -> Bool
    {
        if configuration.acceptsSelectionWithAnySerial { return true }
        if slot.source != nil, Serial(serial) < Serial(slot.serial) { return false }
        return router.seats[index].serialEntry(serial, client: client.id, for: .selection) != nil
    }

    /// A client's `set_selection` on the device of seat `index`. Refused without a word when
    /// the serial is not valid (the protocol names no error for it; every compositor ignores
    /// such requests). The source replaced is cancelled; the client with that seat's
    /// keyboard is offered the new one. Each seat has its own selections, as the protocol
    /// says: a copy on one seat is not offered on another.
    func setSelection(
        _ kind: SelectionKind, _ source: SelectionSource?, serial: UInt32, from client: ClientState, seat index: Int
    ) {
        let slot = services(index).selections[kind]
        guard isSelectionSerial(serial, from: client, replacing: slot, seat: index) else { return }
        let old = slot.source
        slot.source = source
        slot.serial = serial
        if let old, old !== source { old.cancel() }
        offerSelection(kind, to: keyboardFocusClient(onSeat: index), seat: index)
    }

    /// A source was destroyed: if it held a seat's selection, that selection is now empty.
    func selectionSourceDestroyed(_ source: SelectionSource) {
        for services in seatServices {
            for kind in [SelectionKind.clipboard, .primary] where services.selections[kind].source === source {
                services.selections[kind].source = nil
                offerSelection(kind, to: keyboardFocusClient(onSeat: services.seatIndex), seat: services.seatIndex)
            }
        }
    }

    func addSelectionDevice(_ kind: SelectionKind, _ device: SelectionDevice, seat index: Int) {
        let selections = services(index).selections
        selections[kind].devices.append(device)
        // A device made while its client has the keyboard learns the selection at once.
        if let focus = selections.focusClient, focus == device.owner.id {
            device.sendSelection(selections[kind].source)
        }
    }

    func removeSelectionDevice(_ kind: SelectionKind, _ device: SelectionDevice, seat index: Int) {
        services(index).selections[kind].devices.removeAll { $0 === device }
    }

    func offerSelection(_ kind: SelectionKind, to client: ClientState?, seat index: Int) {
        guard let client, client.alive else { return }
        let slot = services(index).selections[kind]
        for d in slot.devices where d.owner === client { d.sendSelection(slot.source) }
    }

    /// Called when seat `index`'s keyboard may have moved to another client (a keyboard
    /// enter is about to be sent, or the focus changed): the new holder gets both of that
    /// seat's selections first, as the protocol asks ("immediately before receiving keyboard
    /// focus").
    /// The test inline (a click's keyboard enter makes it), the change out of line.
    @inline(__always) func selectionsFollowKeyboard(to client: ClientState?, seat index: Int) {
        // The common case, the same holder, read in place: `services(index).selections`
        // retained and released both objects (every keyboard enter).
        if index < seatServices.count, client?.id == seatServices[index].selections.focusClient { return }
        selectionsMove(to: client, seat: index)
    }

    @inline(never) private func selectionsMove(to client: ClientState?, seat index: Int) {
        let selections = services(index).selections
        guard client?.id != selections.focusClient else { return }
        selections.focusClient = client?.id
        offerSelection(.clipboard, to: client, seat: index)
        offerSelection(.primary, to: client, seat: index)
    }
}
