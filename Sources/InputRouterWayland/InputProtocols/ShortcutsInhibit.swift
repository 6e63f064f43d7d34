// `zwp_keyboard_shortcuts_inhibit_manager_v1` and `zwp_keyboard_shortcuts_inhibitor_v1`:
// a surface asks that the compositor's key bindings reach it while it has the keyboard
// focus. The core decides when the inhibitor is active (Seat+ShortcutsInhibit.swift): while
// the focus is on the surface, until the user presses the escape binding (Super+Escape by
// default, `Seat.escapeBinding`, which also breaks a pointer lock), which stays the compositor's and deactivates it
// until the surface gets the focus again. Every activation is sent as `active`, every end of
// one as `inactive`.
import CWaylandProtocolsServer
import CWaylandServer
import InputRouter

final class ShortcutsInhibitManagerObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpKeyboardShortcutsInhibitManagerV1Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource() // inhibitors made with it live on
        case .inhibitShortcuts(let id, let surface, let seat): // inhibit_shortcuts(id, surface, seat)
            guard let surface = surface.object(as: Surface.self) else { return }
            // One inhibitor per surface and seat: it inhibits the bindings of the seat named.
            let seatIndex = server.seatIndex(from: seat.object(as: SeatObject.self))
            if surface.shortcutsInhibitor(seat: seatIndex) != nil {
                return postError(
                    ZWP_KEYBOARD_SHORTCUTS_INHIBIT_MANAGER_V1_ERROR_ALREADY_INHIBITED.rawValue,
                    "wl_surface@\(wl_resource_get_id(surface.resource)) already inhibits the shortcuts of this seat")
            }
            guard
                let inhibitor = server.createObject(
                    .zwpKeyboardShortcutsInhibitorV1, client: owner, version: version, id: id,
                    {
                        ShortcutsInhibitorObject(
                            server: server, owner: owner, resource: $0, surface: surface, seatIndex: seatIndex)
                    })
            else { return }
            surface.shortcutsInhibitors.append(inhibitor)
            // A surface without a role has no node yet: it is registered when it gets one.
            if let node = surface.node { inhibitor.seat.addShortcutsInhibitor(node) }
        }
    }
}

final class ShortcutsInhibitorObject: WaylandObject {
    weak var surface: Surface?
    let seatIndex: Int
    var seat: Seat { server.router.seats[seatIndex] }

    init(server: WaylandServer, owner: ClientState, resource: ResourcePointer, surface: Surface, seatIndex: Int) {
        self.surface = surface
        self.seatIndex = seatIndex
        super.init(server: server, owner: owner, resource: resource)
    }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpKeyboardShortcutsInhibitorV1Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource() // destroy
        }
    }

    func send(active: Bool) {
        if active {
            zwp_keyboard_shortcuts_inhibitor_v1_send_active(resource)
        } else {
            zwp_keyboard_shortcuts_inhibitor_v1_send_inactive(resource)
        }
    }

    override func resourceDestroyed() {
        guard let surface, surface.shortcutsInhibitors.contains(where: { $0 === self }) else { return }
        surface.shortcutsInhibitors.removeAll { $0 === self }
        if let node = surface.node { seat.removeShortcutsInhibitor(node) }
    }
}

extension Surface {
    /// Its inhibitor of seat `index`'s shortcuts, if it made one.
    func shortcutsInhibitor(seat index: Int) -> ShortcutsInhibitorObject? {
        shortcutsInhibitors.first { $0.seatIndex == index }
    }
}
