// `zwp_virtual_keyboard_manager_v1` and `zwp_virtual_keyboard_v1`: a client (wtype, an
// on-screen keyboard, a remote desktop, an input method) adds a keyboard to a seat and
// types with it. As in wlroots, a virtual keyboard is an ordinary keyboard device of the
// seat (VirtualDevices.swift): its keys are routed like a physical keyboard's, so compositor
// bindings see them, and they go to the keyboard focus, never to a surface of the client's
// choosing. What differs is its keymap, its own: its keys are translated with it, and the
// focused client is sent it before the first key it types and the seat's own again before
// the next physical key (Seat+KeyboardDevices.swift in the core, ClientKeymaps.swift here).
// Its `modifiers` request sets its own modifier state, which is sent after its keymap.
// When it is destroyed, or its client goes, the keys it held are released to the client
// that got them and the seat's keymap and modifiers come back (niri#3274).
//
// Errors: `key` or `modifiers` before a keymap is `no_keymap`; a client the embedder does
// not allow (`mayCreateVirtualDevice`) gets `unauthorized` on the manager. A keymap the
// protocol has no error for (a format other than `no_keymap` and `xkb_v1`, an fd that does
// not hold `size` bytes, text xkbcommon does not compile) is `wl_display.invalid_method`.
import CWaylandProtocolsServer
import CWaylandServer
import Glibc
import InputRouter
import InputRouterKeyboard

final class VirtualKeyboardManagerObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpVirtualKeyboardManagerV1Request = decode(opcode, args) else { return }
        guard case .createVirtualKeyboard(let seat, let id) = request else { return }
        guard server.allowsVirtualDevice(.keyboard, for: owner) else {
            return postError(
                ZWP_VIRTUAL_KEYBOARD_MANAGER_V1_ERROR_UNAUTHORIZED.rawValue,
                "this client may not create virtual keyboards")
        }
        let seatIndex = server.seatIndex(from: seat.object(as: SeatObject.self))
        guard
            let keyboard = server.createObject(
                .zwpVirtualKeyboardV1, client: owner, version: version, id: id,
                {
                    VirtualKeyboardObject(server: server, owner: owner, resource: $0, seatIndex: seatIndex)
                })
        else { return }
        keyboard.device = server.addVirtualDevice(.keyboard, seat: seatIndex)
        server.services(seatIndex).virtualKeyboards.append(keyboard)
    }
}

final class VirtualKeyboardObject: WaylandObject {
    let seatIndex: Int
    /// Its device on the seat (VirtualDevices.swift).
    var device = DeviceID(0)
    /// The keymap clients are sent for it; nil until its first `keymap` request.
    private(set) var keymap: ServedKeymap?
    /// Its xkb state (nil for a keymap of format `no_keymap`: its keys carry no keysym).
    private var state: KeyboardState?
    /// The time of its last key, on its client's clock (microseconds): its held keys are
    /// released with it when it goes.
    private var lastTime: UInt64 = 0

    init(server: WaylandServer, owner: ClientState, resource: ResourcePointer, seatIndex: Int) {
        self.seatIndex = seatIndex
        super.init(server: server, owner: owner, resource: resource)
    }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpVirtualKeyboardV1Request = decode(opcode, args) else { return }
        switch request {
        case .keymap(let format, let fd, let size): setKeymap(format: format, fd: fd, size: size)
        case .key(let time, let key, let state): // key(time, key, state)
            guard keymap != nil else {
                return postError(ZWP_VIRTUAL_KEYBOARD_V1_ERROR_NO_KEYMAP.rawValue, "key before a keymap was set")
            }
            // wl_keyboard.key_state has no other values in this protocol's time: nothing to type.
            guard let keyState = KeyState(rawValue: UInt8(truncatingIfNeeded: state)), state <= 1 else { return }
            // Sent on as the client timed it (wlroots does too), in the core's microseconds.
            lastTime = UInt64(time) * 1000
            let event = InputEvent(time: lastTime, device: device, .keyboardKey(key: key, state: keyState))
            server.handle(event, seat: server.routerSeat(seatIndex))
        // modifiers(depressed, latched, locked, group)
        case .modifiers(let modsDepressed, let modsLatched, let modsLocked, let group):
            guard keymap != nil else {
                return postError(ZWP_VIRTUAL_KEYBOARD_V1_ERROR_NO_KEYMAP.rawValue, "modifiers before a keymap was set")
            }
            var m = Modifiers(depressed: modsDepressed, latched: modsLatched, locked: modsLocked, group: group)
            // What its xkb state makes of them is what its next keys are translated with.
            if let state { m = state.adoptModifiers(m) }
            server.routerSeat(seatIndex).notifyModifiers(m, device: device)
        case .destroy: destroyResource()
        }
    }

    /// `keymap(format, fd, size)`: compiled into a state of its own and served to clients
    /// as xkbcommon writes it back (in a sealed memfd: the client's fd is never passed on).
    private func setKeymap(format: UInt32, fd: Int32, size: UInt32) {
        defer { close(fd) }
        switch format {
        case WL_KEYBOARD_KEYMAP_FORMAT_NO_KEYMAP.rawValue:
            let file = NoKeymapFile()
            state = nil
            keymap = ServedKeymap(tag: server.newKeymapTag(), format: format, fd: file.fd, size: 0, owner: file)
        case WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue:
            guard let text = Self.read(fd: fd, size: Int(size)) else {
                return postDisplayError(
                    WL_DISPLAY_ERROR_INVALID_METHOD.rawValue,
                    "zwp_virtual_keyboard_v1.keymap: the fd does not hold \(size) bytes")
            }
            do {
                let compiled = try Keymap(context: server.keyboardState.keymap.context, string: text)
                let file = try compiled.clientFile()
                state = KeyboardState(keymap: compiled)
                keymap = ServedKeymap(
                    tag: server.newKeymapTag(), format: format, fd: file.fd, size: UInt32(file.size),
                    owner: file)
            } catch {
                return postDisplayError(
                    WL_DISPLAY_ERROR_INVALID_METHOD.rawValue, "zwp_virtual_keyboard_v1.keymap: \(error)")
            }
        default:
            return postDisplayError(
                WL_DISPLAY_ERROR_INVALID_METHOD.rawValue,
                "zwp_virtual_keyboard_v1.keymap: format \(format) is neither no_keymap (0) nor xkb_v1 (1)")
        }
        server.routerSeat(seatIndex).setKeyTranslator(state, forDevice: device, modifiers: state?.modifiers ?? .none)
    }

    /// The keymap text: `size` bytes from the start of `fd`, up to a NUL. Read, not mapped:
    /// a file shorter than `size` would fault a mapping's reader; here it is an error.
    private static func read(fd: Int32, size: Int) -> String? {
        // Larger than any keymap xkbcommon writes (a full evdev one is about 60 KB).
        guard size > 0, size <= 16 << 20 else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        var offset = 0
        while offset < size {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + offset, size - offset, off_t(offset)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            offset += n
        }
        let text = bytes.firstIndex(of: 0).map { bytes[..<$0] } ?? bytes[...]
        return String(decoding: text, as: UTF8.self)
    }

    override func resourceDestroyed() {
        guard !server.shuttingDown else { return }
        // Removed from its seat's list only after the release's deliveries are sent: a key
        // it held may need its keymap sent once more first (ClientKeymaps.swift).
        server.removeVirtualDevice(device, seat: seatIndex, time: lastTime)
        server.services(seatIndex).virtualKeyboards.removeAll { $0 === self }
    }
}
