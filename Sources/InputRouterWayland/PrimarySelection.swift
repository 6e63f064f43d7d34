// `zwp_primary_selection_device_manager_v1`: the middle-click selection. The same rule as
// the clipboard (Selection.swift); the protocol has no actions, drags or errors of its own.
import CWaylandServer
import CXdgShellServer
import Foundation

final class PrimarySelectionManagerObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        switch opcode {
        case 0:  // create_source(id)
            server.createObject("zwp_primary_selection_source_v1", client: owner, version: version, id: args.newID(0)) {
                PrimarySourceObject(server: server, owner: owner, resource: $0)
            }
        case 1:  // get_device(id, seat)
            guard let device = server.createObject(
                "zwp_primary_selection_device_v1", client: owner, version: version, id: args.newID(0), {
                    PrimaryDeviceObject(server: server, owner: owner, resource: $0)
                }) else { return }
            device.seatIndex = server.seatIndex(from: args.object(1, as: SeatObject.self))
            server.addSelectionDevice(.primary, device, seat: device.seatIndex)
        case 2: destroyResource()
        default: break
        }
    }
}

final class PrimarySourceObject: WaylandObject, SelectionSource {
    private(set) var mimeTypes: [String] = []
    private var cancelled = false

    override func request(_ opcode: UInt32, _ args: Arguments) {
        switch opcode {
        case 0:  // offer(mime_type)
            if let m = args.string(0), !mimeTypes.contains(m) { mimeTypes.append(m) }
        case 1: destroyResource()
        default: break
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
        switch opcode {
        case 0:  // set_selection(source?, serial)
            server.setSelection(.primary, args.object(0, as: PrimarySourceObject.self), serial: args.uint(1), from: owner, seat: seatIndex)
        case 1: destroyResource()
        default: break
        }
    }

    func sendSelection(_ source: SelectionSource?) {
        guard let source = source as? PrimarySourceObject else {
            return zwp_primary_selection_device_v1_send_selection(resource, nil)
        }
        guard let offer = server.createObject("zwp_primary_selection_offer_v1", client: owner, version: version, id: 0, {
            PrimaryOfferObject(server: server, owner: owner, resource: $0, source: source)
        }) else { return }
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
        switch opcode {
        case 0:  // receive(mime_type, fd)
            let fd = args.fd(1)
            if let source, let m = args.string(0) { source.send(m, fd: fd) }
            close(fd)
        case 1: destroyResource()
        default: break
        }
    }
}
