// `wl_seat` and its devices. A client's surfaces take pointer, keyboard or touch events
// only while it holds at least one resource of that kind (the core's bound devices).
import CWaylandServer
import Foundation
import InputRouter

final class SeatObject: WaylandObject {
    func sendState() {
        wl_seat_send_capabilities(resource, server.seatCapabilities)
        if version >= 2 { wl_seat_send_name(resource, server.seat.name) }
    }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        let id = args.newID(0)
        switch opcode {
        case 0: bindDevice("wl_pointer", .pointer, id, PointerObject.init(server:owner:resource:)) { $0.pointers.append($1) }
        case 1:
            bindDevice("wl_keyboard", .keyboard, id, KeyboardObject.init(server:owner:resource:)) { client, resource in
                (WaylandObject.from(resource) as? KeyboardObject)?.sendKeymap()
                client.keyboards.append(resource)
            }
        case 2: bindDevice("wl_touch", .touch, id, TouchObject.init(server:owner:resource:)) { $0.touches.append($1) }
        case 3: destroyResource()  // release
        default: break
        }
    }

    /// Creates the device resource, records it with its client, and tells the core the
    /// client's surfaces now take that kind of event.
    private func bindDevice<T: WaylandObject>(
        _ interface: String, _ kind: BoundDevices, _ id: UInt32,
        _ make: (WaylandServer, ClientState, ResourcePointer) -> T, record: (ClientState, ResourcePointer) -> Void
    ) {
        guard let object = server.createObject(interface, client: owner, version: version, id: id, {
            make(server, owner, $0)
        }) else { return }
        record(owner, object.resource)
        server.seat.setBound(kind, for: owner.id, true)
    }

    override func resourceDestroyed() { server.seatResources.removeAll { $0 == resource } }
}

final class PointerObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        switch opcode {
        case 0:  // set_cursor(serial, surface?, hotspot_x, hotspot_y)
            // Only the client that has the pointer, citing its latest enter, may set it.
            guard args.uint(0) == owner.lastEnterSerial, owner.lastEnterSerial != 0 else { return }
            let surface = args.object(1, as: Surface.self)
            if let surface {
                switch surface.role {
                case .none: surface.role = .cursor
                case .cursor: break
                default:
                    return postError(WL_POINTER_ERROR_ROLE.rawValue,
                                     "wl_surface@\(wl_resource_get_id(surface.resource)) already has the role \(surface.roleName)")
                }
            }
            owner.cursor = (surface, args.int(2), args.int(3))
        case 1: destroyResource()  // release
        default: break
        }
    }

    override func resourceDestroyed() {
        owner.pointers.removeAll { $0 == resource }
        if owner.alive, owner.pointers.isEmpty { server.seat.setBound(.pointer, for: owner.id, false) }
    }
}

final class KeyboardObject: WaylandObject {
    func sendKeymap() {
        let file = server.keymapFile
        wl_keyboard_send_keymap(resource, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, file.fd, UInt32(file.size))
        if version >= 4 {
            let r = server.configuration.keyboard.repeatInfo
            wl_keyboard_send_repeat_info(resource, r.rate, r.delay)
        }
    }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        if opcode == 0 { destroyResource() }  // release
    }

    override func resourceDestroyed() {
        owner.keyboards.removeAll { $0 == resource }
        if owner.alive, owner.keyboards.isEmpty { server.seat.setBound(.keyboard, for: owner.id, false) }
    }
}

final class TouchObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        if opcode == 0 { destroyResource() }  // release
    }

    override func resourceDestroyed() {
        owner.touches.removeAll { $0 == resource }
        if owner.alive, owner.touches.isEmpty { server.seat.setBound(.touch, for: owner.id, false) }
    }
}
