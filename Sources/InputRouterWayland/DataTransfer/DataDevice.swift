// `wl_data_device_manager` version 3: data sources with mime types and drag-and-drop
// actions, the clipboard selection (Selection.swift), drags (DragGrab.swift) and offers.
import CWaylandServer
import Foundation

final class DataDeviceManagerObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: WlDataDeviceManagerRequest = decode(opcode, args) else { return }
        switch request {
        case .createDataSource(let id): // create_data_source(id)
            server.createObject(.wlDataSource, client: owner, version: version, id: id) {
                DataSourceObject(server: server, owner: owner, resource: $0)
            }
        // get_data_device(id, seat): the device of that seat's selection and drags
        case .getDataDevice(let id, let seat):
            guard
                let device = server.createObject(
                    .wlDataDevice, client: owner, version: version, id: id,
                    {
                        DataDeviceObject(server: server, owner: owner, resource: $0)
                    })
            else { return }
            device.seatIndex = server.seatIndex(from: seat.object(as: SeatObject.self))
            server.addSelectionDevice(.clipboard, device, seat: device.seatIndex)
        }
    }
}

/// The `wl_data_device_manager.dnd_action` bits.
enum DndAction {
    static let copy: UInt32 = 1, move: UInt32 = 2, ask: UInt32 = 4
    static let all: UInt32 = copy | move | ask
}

final class DataSourceObject: WaylandObject, SelectionSource {
    private(set) var mimeTypes: [String] = []
    /// The actions a drag of this source allows (`set_actions`), nil until set.
    private(set) var actions: UInt32?
    /// Set once it is the selection or a drag's source: actions may no longer change.
    var used = false
    private(set) var cancelled = false

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: WlDataSourceRequest = decode(opcode, args) else { return }
        switch request {
        case .offer(let mimeType): // offer(mime_type)
            if let m = mimeType, !mimeTypes.contains(m) { mimeTypes.append(m) }
        case .destroy: destroyResource()
        case .setActions(let dndActions): // set_actions(dnd_actions)
            let mask = dndActions
            if mask & ~DndAction.all != 0 {
                return postError(WL_DATA_SOURCE_ERROR_INVALID_ACTION_MASK.rawValue, "invalid dnd action mask \(mask)")
            }
            if actions != nil {
                return postError(WL_DATA_SOURCE_ERROR_INVALID_ACTION_MASK.rawValue, "set_actions may be sent only once")
            }
            if used {
                return postError(WL_DATA_SOURCE_ERROR_INVALID_SOURCE.rawValue, "set_actions after the source was used")
            }
            actions = mask
        }
    }

    func send(_ mimeType: String, fd: Int32) {
        guard !cancelled else { return }
        wl_data_source_send_send(resource, mimeType, fd)
    }

    func cancel() {
        guard !cancelled else { return }
        cancelled = true
        wl_data_source_send_cancelled(resource)
    }

    override func resourceDestroyed() {
        cancelled = true
        server.selectionSourceDestroyed(self)
        guard !server.shuttingDown else { return }
        for case let drag? in server.seatServices.map({ $0.drag })
        where drag.source === self || (drag.hasSource && drag.source == nil) {
            drag.sourceDestroyed()
        }
    }
}

final class DataDeviceObject: WaylandObject, SelectionDevice {
    /// The seat named by `get_data_device`.
    var seatIndex = 0

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: WlDataDeviceRequest = decode(opcode, args) else { return }
        switch request {
        case .setSelection(let source, let serial): // set_selection(source?, serial)
            let source = source.object(as: DataSourceObject.self)
            if let source {
                // A source whose drag actions were set is for drag and drop only.
                if source.actions != nil {
                    return source.postError(
                        WL_DATA_SOURCE_ERROR_INVALID_SOURCE.rawValue,
                        "a source with drag-and-drop actions cannot be the selection")
                }
                source.used = true
            }
            server.setSelection(.clipboard, source, serial: serial, from: owner, seat: seatIndex)
        case .startDrag(let source, let origin, let icon, let serial):
            startDrag(source, origin: origin, icon: icon, serial: serial)
        case .release: destroyResource() // release
        }
    }

    /// start_drag(source?, origin, icon?, serial): the serial must be a press of this client
    /// that still holds (a button held down, or a touch point). Refused otherwise: the
    /// source is told `cancelled`, as wlroots does.
    private func startDrag(_ source: ResourcePointer?, origin: ResourcePointer?, icon: ResourcePointer?, serial: UInt32)
    {
        let source = source.object(as: DataSourceObject.self)
        let icon = icon.object(as: Surface.self)
        if let icon {
            switch icon.role {
            case .none: icon.role = .dragIcon
            case .dragIcon: break
            default:
                return postError(
                    WL_DATA_DEVICE_ERROR_ROLE.rawValue,
                    "wl_surface@\(wl_resource_get_id(icon.resource)) already has the role \(icon.roleName)")
            }
        }
        guard let origin = origin.object(as: Surface.self), origin.owner === owner,
            let press = server.router.seats[seatIndex].serialEntry(serial, client: owner.id, for: .drag)
        else {
            source?.cancel()
            return
        }
        source?.used = true
        server.startDrag(origin: owner, source: source, icon: icon, press: press, seat: seatIndex)
    }

    func sendSelection(_ source: SelectionSource?) {
        guard let source = source as? DataSourceObject else { return wl_data_device_send_selection(resource, nil) }
        guard
            let offer = server.createObject(
                .wlDataOffer, client: owner, version: version, id: 0,
                {
                    DataOfferObject(server: server, owner: owner, resource: $0, source: source)
                })
        else { return }
        wl_data_device_send_data_offer(resource, offer.resource)
        for m in source.mimeTypes { wl_data_offer_send_offer(offer.resource, m) }
        wl_data_device_send_selection(resource, offer.resource)
    }

    override func resourceDestroyed() {
        server.removeSelectionDevice(.clipboard, self, seat: seatIndex)
        server.services(seatIndex).drag?.deviceDestroyed(self)
    }
}

/// An offer of the selection to one client. It reads from the source it was made for,
/// as long as that source lives and was not replaced.
final class DataOfferObject: WaylandObject {
    weak var source: DataSourceObject?
    /// The drag this offer was made for while it is over the offer's surface; nil for a
    /// selection offer (and a drag offer left behind).
    weak var drag: DragGrab?
    var isDragOffer = false
    /// Version 3 negotiation: what the target accepts and prefers, and the action chosen.
    var actions: UInt32?
    var preferredAction: UInt32 = 0
    var action: UInt32 = 0
    var acceptedMime: String?
    var dropped = false

    override func resourceDestroyed() { drag?.offerDestroyed(self) }

    init(server: WaylandServer, owner: ClientState, resource: ResourcePointer, source: DataSourceObject) {
        self.source = source
        super.init(server: server, owner: owner, resource: resource)
    }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: WlDataOfferRequest = decode(opcode, args) else { return }
        switch request {
        case .accept(_, let mimeType): drag?.accepted(self, mimeType) // accept(serial, mime_type?)
        case .receive(let mimeType, let fd): // receive(mime_type, fd)
            if let source, let m = mimeType { source.send(m, fd: fd) }
            close(fd)
        case .destroy: destroyResource()
        case .finish: finish()
        case .setActions(let dndActions, let preferredAction): setActions(dndActions, preferred: preferredAction)
        }
    }
}

extension DataOfferObject {
    /// finish: only after a drop whose type and action were accepted.
    func finish() {
        guard isDragOffer else {
            return postError(WL_DATA_OFFER_ERROR_INVALID_FINISH.rawValue, "finish on a selection offer, not a drop")
        }
        guard dropped, acceptedMime != nil, action != 0 else {
            return postError(
                WL_DATA_OFFER_ERROR_INVALID_FINISH.rawValue, "finish before a drop of an accepted type and action")
        }
        dropped = false
        if let source, source.version >= 3 { wl_data_source_send_dnd_finished(source.resource) }
    }

    func setActions(_ mask: UInt32, preferred: UInt32) {
        guard isDragOffer else {
            return postError(WL_DATA_OFFER_ERROR_INVALID_OFFER.rawValue, "set_actions on a selection offer, not a drag")
        }
        if mask & ~DndAction.all != 0 {
            return postError(WL_DATA_OFFER_ERROR_INVALID_ACTION_MASK.rawValue, "invalid dnd action mask \(mask)")
        }
        if preferred & ~DndAction.all != 0 || preferred.nonzeroBitCount > 1 || (preferred != 0 && mask & preferred == 0)
        {
            return postError(WL_DATA_OFFER_ERROR_INVALID_ACTION.rawValue, "invalid preferred dnd action \(preferred)")
        }
        actions = mask
        preferredAction = preferred
        drag?.negotiate(self)
    }
}
