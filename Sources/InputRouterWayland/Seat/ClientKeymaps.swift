// Which keymap each client has. A seat's keys and modifiers are in the keymap of the
// keyboard that typed last: the server's own, or a virtual keyboard's (the core switches,
// Seat+KeyboardDevices.swift, and says so with `Delivery.keymapChanged`). Each client's
// `wl_keyboard`s of a seat hold one keymap, the one they were sent last; every keymap has a
// tag (0: the server's, which `setKeyboard` re-sends to all; a virtual keyboard's keymaps
// count up from 1), and the client remembers the tag it was sent. Before a key, modifiers
// or an enter goes to a client, the sender compares the two tags and, when they differ,
// sends the keymap in use first: one comparison per key, and a client that never sees a
// virtual keyboard's keys is never sent its keymap (wlroots sends every keymap change to
// every client instead).
import CWaylandProtocolsServer
import CWaylandServer
import Glibc
import InputRouter
import InputRouterKeyboard

/// A keymap as clients are sent it in `wl_keyboard.keymap`.
struct ServedKeymap {
    /// Tells this keymap from every other one the server served (0 is the server's own).
    let tag: UInt32
    let format: UInt32
    let fd: Int32
    let size: UInt32
    /// What keeps `fd` open (a `KeymapFile`, a `NoKeymapFile`).
    let owner: AnyObject
}

/// The fd sent with a keymap of format `no_keymap`: /dev/null, which maps nothing.
final class NoKeymapFile {
    let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
    deinit { if fd >= 0 { close(fd) } }
}

extension ClientState {
    /// The tag of the keymap its `wl_keyboard`s of seat `s` were sent last.
    @inline(__always) func keymapSent(on s: SeatID) -> UInt32 {
        let i = Int(s.index)
        return i < seatDevices.count ? seatDevices[i].keymapSent : 0
    }

    func setKeymapSent(_ tag: UInt32, on s: SeatID) { withDevices(on: s) { $0.keymapSent = tag } }
}

extension WaylandServer {
    /// A tag no keymap had before.
    func newKeymapTag() -> UInt32 {
        lastKeymapTag &+= 1
        if lastKeymapTag == 0 { lastKeymapTag = 1 }
        return lastKeymapTag
    }

    /// `Delivery.keymapChanged`: seat `sid`'s keys and modifiers are in `keyboard`'s keymap
    /// from here on (nil: the server's). A virtual keyboard is found among its seat's: it
    /// stays there until its removal's deliveries are sent (VirtualKeyboard.swift).
    func keymapChanged(seat sid: SeatID, keyboard: DeviceID?) {
        let services = services(Int(sid.index))
        let keymap = keyboard.flatMap { d in services.virtualKeyboards.first { $0.device == d }?.keymap }
        services.keymapInUse = keymap
        let i = Int(sid.index)
        while keymapTags.count <= i { keymapTags.append(0) }
        keymapTags[i] = keymap?.tag ?? 0
    }

    /// The tag of the keymap in use on seat `sid`: kept apart from `SeatServices.keymapInUse`
    /// in an array of tags, which the sender compares on every key.
    @inline(__always) func keymapTagInUse(_ sid: SeatID) -> UInt32 {
        let i = Int(sid.index)
        return i < keymapTags.count ? keymapTags[i] : 0
    }

    /// Sends the keymap in use on seat `sid` to every `wl_keyboard` `c` has there.
    @inline(never) func sendKeymapInUse(to c: ClientState, seat sid: SeatID) {
        for r in c.keyboards(on: sid) { sendKeymapInUse(to: r, seat: sid) }
        c.setKeymapSent(keymapTagInUse(sid), on: sid)
    }

    /// Sends the keymap in use on seat `sid` to one `wl_keyboard`.
    func sendKeymapInUse(to keyboard: ResourcePointer, seat sid: SeatID) {
        if let k = services(Int(sid.index)).keymapInUse {
            wl_keyboard_send_keymap(keyboard, k.format, k.fd, k.size)
        } else {
            wl_keyboard_send_keymap(
                keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, keymapFile.fd, UInt32(keymapFile.size))
        }
    }
}
