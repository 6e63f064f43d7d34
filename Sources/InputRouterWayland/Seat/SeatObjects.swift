// `wl_seat` and its devices. A client's surfaces take pointer, keyboard or touch events
// only while it holds at least one resource of that kind (the core's bound devices).
import CWaylandProtocolsServer
import CWaylandServer
import Foundation
import InputRouter

final class SeatObject: WaylandObject {
    /// Which seat this `wl_seat` is (Seats.swift); its devices are bound on that seat.
    var seatIndex = 0
    var seat: Seat { server.router.seats[seatIndex] }

    func sendState() {
        wl_seat_send_capabilities(resource, server.capabilities(of: seat))
        if version >= 2 { wl_seat_send_name(resource, seat.name) }
    }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: WlSeatRequest = decode(opcode, args) else { return }
        switch request {
        case .getPointer(let id):
            bindDevice(.wlPointer, .pointer, id, PointerObject.init(server:owner:resource:)) { [seatIndex] client, r in
                client.withDevices(on: SeatID(index: UInt32(seatIndex))) { $0.pointers.append(r) }
            }
        case .getKeyboard(let id):
            bindDevice(.wlKeyboard, .keyboard, id, KeyboardObject.init(server:owner:resource:)) {
                [seatIndex] client, resource in
                client.withDevices(on: SeatID(index: UInt32(seatIndex))) { $0.keyboards.append(resource) }
                (WaylandObject.from(resource) as? KeyboardObject)?.sendKeymapAtBind(
                    seat: SeatID(index: UInt32(seatIndex)))
            }
        case .getTouch(let id):
            bindDevice(.wlTouch, .touch, id, TouchObject.init(server:owner:resource:)) { [seatIndex] client, r in
                client.withDevices(on: SeatID(index: UInt32(seatIndex))) { $0.touches.append(r) }
            }
        case .release: destroyResource() // release
        }
    }

    /// Creates the device resource, records it with its client, and tells the core the
    /// client's surfaces now take that kind of event.
    private func bindDevice<T: SeatDeviceObject>(
        _ interface: UnsafePointer<wl_interface>, _ kind: BoundDevices, _ id: UInt32,
        _ make: (WaylandServer, ClientState, ResourcePointer) -> T, record: (ClientState, ResourcePointer) -> Void
    ) {
        guard
            let object = server.createObject(
                interface, client: owner, version: version, id: id,
                {
                    make(server, owner, $0)
                })
        else { return }
        object.seatIndex = seatIndex
        record(owner, object.resource)
        seat.setBound(kind, for: owner.id, true)
    }

    override func resourceDestroyed() {
        server.servedSeat(SeatID(index: UInt32(seatIndex)))?.resources.removeAll { $0 == resource }
    }
}

/// A `wl_pointer`, `wl_keyboard` or `wl_touch`: bound on one seat.
class SeatDeviceObject: WaylandObject {
    var seatIndex = 0
    var seat: Seat { server.router.seats[seatIndex] }
    var seatID: SeatID { SeatID(index: UInt32(seatIndex)) }

    /// Forgets `resource` from the client's list for this seat and kind; with none left,
    /// the client's surfaces stop taking that kind of event on this seat.
    func unbind(_ kind: BoundDevices, _ list: WritableKeyPath<SeatDevices, [ResourcePointer]>) {
        let empty = owner.withDevices(on: seatID) { d in
            d[keyPath: list].removeAll { $0 == resource }
            return d[keyPath: list].isEmpty
        }
        if owner.alive, empty { seat.setBound(kind, for: owner.id, false) }
    }
}

final class PointerObject: SeatDeviceObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: WlPointerRequest = decode(opcode, args) else { return }
        switch request {
        // set_cursor(serial, surface?, hotspot_x, hotspot_y)
        case .setCursor(let serial, let surface, let hotspotX, let hotspotY):
            guard mayChooseCursor(citing: serial) else { return }
            let surface = surface.object(as: Surface.self)
            if let surface {
                switch surface.role {
                case .none: surface.role = .cursor
                case .cursor: break
                default:
                    return postError(
                        WL_POINTER_ERROR_ROLE.rawValue,
                        "wl_surface@\(wl_resource_get_id(surface.resource)) already has the role \(surface.roleName)")
                }
            }
            owner.onSeat(seatIndex).cursor = .surface(surface, hotspotX: hotspotX, hotspotY: hotspotY)
        case .release: destroyResource() // release
        }
    }

    /// Whether a request citing `serial` may choose this pointer's cursor (`set_cursor`, and
    /// cursor-shape's `set_shape`: CursorShape.swift). Only the client this seat's pointer
    /// entered last, citing that enter, may: an enter of another seat's pointer is refused.
    func mayChooseCursor(citing serial: UInt32) -> Bool {
        server.router.seats[seatIndex].serialEntry(serial, client: owner.id, for: .setCursor) != nil
    }

    override func resourceDestroyed() { unbind(.pointer, \.pointers) }
}

final class KeyboardObject: SeatDeviceObject {
    /// The server's keymap (`setKeyboard` sends it to every keyboard).
    func sendKeymap() {
        let file = server.keymapFile
        wl_keyboard_send_keymap(resource, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, file.fd, UInt32(file.size))
        sendRepeatInfo()
    }

    /// The keymap in use on its seat (a virtual keyboard's, while it typed last), which the
    /// client's other keyboards of that seat are sent too if they hold another: a client's
    /// keyboards of one seat hold one keymap (ClientKeymaps.swift). Already in its client's list.
    func sendKeymapAtBind(seat sid: SeatID) {
        if owner.keymapSent(on: sid) == server.keymapTagInUse(sid) {
            server.sendKeymapInUse(to: resource, seat: sid)
        } else {
            server.sendKeymapInUse(to: owner, seat: sid)
        }
        sendRepeatInfo()
    }

    private func sendRepeatInfo() {
        if version >= 4 {
            let r = server.configuration.keyboard.repeatInfo
            wl_keyboard_send_repeat_info(resource, r.rate, r.delay)
        }
    }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: WlKeyboardRequest = decode(opcode, args) else { return }
        switch request {
        case .release: destroyResource() // release
        }
    }

    override func resourceDestroyed() { unbind(.keyboard, \.keyboards) }
}

final class TouchObject: SeatDeviceObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: WlTouchRequest = decode(opcode, args) else { return }
        switch request {
        case .release: destroyResource() // release
        }
    }

    override func resourceDestroyed() { unbind(.touch, \.touches) }
}
