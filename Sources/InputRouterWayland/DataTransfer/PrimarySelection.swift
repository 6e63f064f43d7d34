// `zwp_primary_selection_device_manager_v1`: the middle-click selection. The same rule as
// the clipboard (Selection.swift); the protocol has no actions, drags or errors of its own.
import CWaylandProtocolsServer
import CWaylandServer
import Foundation

final class PrimarySelectionManagerObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpPrimarySelectionDeviceManagerV1Request = decode(opcode, args) else { return }
        switch request {
        case .createSource(let id): // create_source(id)
            server.createObject(.zwpPrimarySelectionSourceV1, client: owner, version: version, id: id) {
                PrimarySourceObject(server: server, owner: owner, resource: $0)
            }
        case .getDevice(let id, let seat): // get_device(id, seat)
            guard
                let device = server.createObject(
                    .zwpPrimarySelectionDeviceV1, client: owner, version: version, id: id,
                    {
                        PrimaryDeviceObject(server: server, owner: owner, resource: $0)
                    })
            else { return }
            device.seatIndex = server.seatIndex(from: seat.object(as: SeatObject.self))
            server.addSelectionDevice(.primary, device, seat: device.seatIndex)
        case .destroy: destroyResource()
        }
    }
}

final class PrimarySourceObject: WaylandObject, SelectionSource {
    private(set) var mimeTypes: [String] = []
    private var cancelled = false

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpPrimarySelectionSourceV1Request = decode(opcode, args) else { return }
        switch request {
        case .offer(let mimeType): // offer(mime_type)
            if let m = mimeType, !mimeTypes.contains(m) { mimeTypes.append(m) }
        case .destroy: destroyResource()
        }
    }

    func send(_ mimeType: String, fd: Int32) {
        guard !cancelled else { return }
        zwp_primary_selection_source_v1_send_send(resource, mimeType, fd)
    }

    func cancel() {
        guard !cancelled else { return }
        cancelled = true
        zwp_primary_selection_source_v1_send_cancelled(resource)
    }

    override func resourceDestroyed() {
        cancelled = true
        server.selectionSourceDestroyed(self)
    }
}

final class PrimaryDeviceObject: WaylandObject, SelectionDevice {
    /// The seat named by `get_device`: whose primary selection this is.
    var seatIndex = 0

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpPrimarySelectionDeviceV1Request = decode(opcode, args) else { return }
        switch request {
        case .setSelection(let source, let serial): // set_selection(source?, serial)
            server.setSelection(
                .primary, source.object(as: PrimarySourceObject.self), serial: serial, from: owner, seat: seatIndex)
        case .destroy: destroyResource()
        }
    }

    func sendSelection(_ source: SelectionSource?) {
        guard let source = source as? PrimarySourceObject else {
            return zwp_primary_selection_device_v1_send_selection(resource, nil)
        }
        guard
            let offer = server.createObject(
                .zwpPrimarySelectionOfferV1, client: owner, version: version, id: 0,
                {
                    PrimaryOfferObject(server: server, owner: owner, resource: $0, source: source)
                })
        else { return }
        zwp_primary_selection_device_v1_send_data_offer(resource, offer.resource)
        for m in source.mimeTypes { zwp_primary_selection_offer_v1_send_offer(offer.resource, m) }
        zwp_primary_selection_device_v1_send_selection(resource, offer.resource)
    }

    override func resourceDestroyed() { server.removeSelectionDevice(.primary, self, seat: seatIndex) }
}

final class PrimaryOfferObject: WaylandObject {
    weak var source: PrimarySourceObject?

    init(server: WaylandServer, owner: ClientState, resource: ResourcePointer, source: PrimarySourceObject) {
        self.source = source
        super.init(server: server, owner: owner, resource: resource)
    }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpPrimarySelectionOfferV1Request = decode(opcode, args) else { return }
        switch request {
        case .receive(let mimeType, let fd): // receive(mime_type, fd)
            if let source, let m = mimeType { source.send(m, fd: fd) }
            close(fd)
        case .destroy: destroyResource()
        }
    }
}
