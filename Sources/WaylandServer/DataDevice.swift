// `wl_data_device_manager` version 3: data sources with mime types and drag-and-drop
// actions, the clipboard selection (Selection.swift) and its offers.
import CWaylandServer
import Foundation

final class DataDeviceManagerObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        switch opcode {
        case 0:  // create_data_source(id)
            server.createObject("wl_data_source", client: owner, version: version, id: args.newID(0)) {
                DataSourceObject(server: server, owner: owner, resource: $0)
            }
        case 1:  // get_data_device(id, seat)
            guard let device = server.createObject("wl_data_device", client: owner, version: version, id: args.newID(0), {
                DataDeviceObject(server: server, owner: owner, resource: $0)
            }) else { return }
            server.addSelectionDevice(.clipboard, device)
        default: break
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
        switch opcode {
        case 0:  // offer(mime_type)
            if let m = args.string(0), !mimeTypes.contains(m) { mimeTypes.append(m) }
        case 1: destroyResource()
        case 2:  // set_actions(dnd_actions)
            let mask = args.uint(0)
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
        default: break
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
    }
}

final class DataDeviceObject: WaylandObject, SelectionDevice {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        switch opcode {
        case 1:  // set_selection(source?, serial)
            let source = args.object(0, as: DataSourceObject.self)
            if let source {
                // A source whose drag actions were set is for drag and drop only.
                if source.actions != nil {
                    return source.postError(WL_DATA_SOURCE_ERROR_INVALID_SOURCE.rawValue,
                                            "a source with drag-and-drop actions cannot be the selection")
                }
                source.used = true
            }
            server.setSelection(.clipboard, source, serial: args.uint(1), from: owner)
        case 2: destroyResource()  // release
        default: break  // start_drag(0): drag and drop is not served yet
        }
    }

    func sendSelection(_ source: SelectionSource?) {
        guard let source = source as? DataSourceObject else { return wl_data_device_send_selection(resource, nil) }
        guard let offer = server.createObject("wl_data_offer", client: owner, version: version, id: 0, {
            DataOfferObject(server: server, owner: owner, resource: $0, source: source)
        }) else { return }
        wl_data_device_send_data_offer(resource, offer.resource)
        for m in source.mimeTypes { wl_data_offer_send_offer(offer.resource, m) }
        wl_data_device_send_selection(resource, offer.resource)
    }

    override func resourceDestroyed() { server.removeSelectionDevice(.clipboard, self) }
}

/// An offer of the selection to one client. It reads from the source it was made for,
/// as long as that source lives and was not replaced.
final class DataOfferObject: WaylandObject {
    weak var source: DataSourceObject?

    init(server: WaylandServer, owner: ClientState, resource: ResourcePointer, source: DataSourceObject) {
        self.source = source
        super.init(server: server, owner: owner, resource: resource)
    }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        switch opcode {
        case 0: break  // accept(serial, mime_type?): feedback for a drag's source only
        case 1:  // receive(mime_type, fd)
            let fd = args.fd(1)
            if let source, let m = args.string(0) { source.send(m, fd: fd) }
            close(fd)
        case 2: destroyResource()
        case 3: postError(WL_DATA_OFFER_ERROR_INVALID_FINISH.rawValue, "finish on a selection offer, not a drop")
        case 4: postError(WL_DATA_OFFER_ERROR_INVALID_OFFER.rawValue, "set_actions on a selection offer, not a drag")
        default: break
        }
    }
}
