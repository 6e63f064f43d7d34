// `zwp_input_method_manager_v2` (version 1): an input method program (fcitx5, an on-screen
// keyboard) serving a seat's text inputs, in place of the compositor's own compose.
//
// One input method per seat; a second one gets `unavailable` and is inert. While one is
// bound, the seat's active text input (the enabled one on the keyboard focus,
// TextInputMethod.swift) is relayed to it: `activate` with the text input's surrounding
// text, change cause and content type and a `done` when one becomes active; the same state
// and `done` after each of its commits; `deactivate` and `done` when it stops being active
// (disabled, focus moved, window closed). The input method's `commit` is relayed back:
// preedit, deletion and committed text, then the text input's `done` with its commit count.
//
// Its keyboard grab (`grab_keyboard`) gets the keymap and repeat info at once, then every key
// no binding took and every modifier change of the seat (`Seat.inputMethodKeyboard`), before
// a popup grab and the focus, as in wlroots; keys of the input method's own virtual keyboard
// (what it types back) pass it by. Its popup surfaces (`get_input_popup_surface`) sit below
// the text cursor rectangle the client reported, children of the focused surface, shown only
// while the input method is active.
//
// An input method that goes (destroyed, or its client died) clears the preedit it showed
// with a `done`, and the compose input method takes over again.
import CShim
import CWaylandProtocolsServer
import CWaylandServer
import InputRouter

final class InputMethodManagerObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpInputMethodManagerV2Request = decode(opcode, args) else { return }
        switch request {
        case .getInputMethod(let seat, let inputMethod): // get_input_method(seat, id)
            let seatIndex = server.seatIndex(from: seat.object(as: SeatObject.self))
            guard
                let method = server.createObject(
                    .zwpInputMethodV2, client: owner, version: version, id: inputMethod,
                    {
                        InputMethodObject(server: server, owner: owner, resource: $0, seatIndex: seatIndex)
                    })
            else { return }
            // Not allowed (`mayCreateVirtualDevice`): the XML names no error, and
            // `unavailable` is its word for an input method that cannot serve.
            guard server.allowsVirtualDevice(.inputMethod, for: owner) else { return method.sendUnavailable() }
            server.services(seatIndex).textInput.attach(method)
        case .destroy: destroyResource() // its input methods live on
        }
    }
}

final class InputMethodObject: WaylandObject {
    let seatIndex: Int
    /// Another input method served the seat when this one was made: `unavailable`, and
    /// every request but destroy is ignored.
    var inert = false
    /// What the next `commit` applies (the protocol's double-buffered requests).
    struct Pending {
        var commitString: String?
        var preedit: (text: String, begin: Int32, end: Int32)?
        var delete: (before: UInt32, after: UInt32)?
    }
    private var pending = Pending()
    /// How many `done` events it was sent: the serial its commits cite.
    private(set) var doneCount: UInt32 = 0
    /// Whether the last state it was sent is active.
    private(set) var isActive = false
    var popups: [InputPopupObject] = []
    weak var keyboardGrab: InputMethodKeyboardGrabObject?

    init(server: WaylandServer, owner: ClientState, resource: ResourcePointer, seatIndex: Int) {
        self.seatIndex = seatIndex
        super.init(server: server, owner: owner, resource: resource)
    }

    private var textInput: TextInputState { server.services(seatIndex).textInput }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpInputMethodV2Request = decode(opcode, args) else { return }
        if inert { return inertRequest(request) }
        switch request {
        case .commitString(let text): pending.commitString = text ?? "" // commit_string(text)
        case .setPreeditString(let text, let cursorBegin, let cursorEnd):
            pending.preedit = (text ?? "", cursorBegin, cursorEnd) // set_preedit_string
        // delete_surrounding_text(before, after)
        case .deleteSurroundingText(let beforeLength, let afterLength): pending.delete = (beforeLength, afterLength)
        case .commit: // commit(serial)
            let state = pending
            pending = Pending()
            // Relayed even with a stale serial: the protocol asks only that the input method's
            // own state not change, and the text input counts on every commit it was promised.
            if isActive { textInput.inputMethodCommitted(state) }
        case .getInputPopupSurface(let id, let surface): // get_input_popup_surface(id, surface)
            guard let surface = surface.object(as: Surface.self) else { return }
            guard case .none = surface.role else {
                // The XML names no error of its own: the role is taken, as for any role.
                return postDisplayError(
                    WL_DISPLAY_ERROR_INVALID_OBJECT.rawValue,
                    "wl_surface@\(wl_resource_get_id(surface.resource)) already has the role \(surface.roleName)")
            }
            guard
                let popup = server.createObject(
                    .zwpInputPopupSurfaceV2, client: owner, version: version, id: id,
                    {
                        InputPopupObject(server: server, owner: owner, resource: $0, surface: surface, method: self)
                    })
            else { return }
            surface.role = .inputPopup(popup)
            popups.append(popup)
            popup.place()
        case .grabKeyboard(let keyboard): // grab_keyboard(keyboard)
            guard
                let grab = server.createObject(
                    .zwpInputMethodKeyboardGrabV2, client: owner, version: version, id: keyboard,
                    {
                        InputMethodKeyboardGrabObject(server: server, owner: owner, resource: $0, method: self)
                    })
            else { return }
            keyboardGrab?.end()
            keyboardGrab = grab
            grab.begin()
        case .destroy: destroyResource()
        }
    }

    /// An unavailable input method does nothing, but the objects its requests make must
    /// exist: the client made them, and libwayland refuses its next new id, or any request
    /// on them, if the server skipped one (WireFindingTests). They are inert too: a
    /// popup with no role and never shown, a grab that gets no key.
    private func inertRequest(_ request: ZwpInputMethodV2Request) {
        switch request {
        case .getInputPopupSurface(let id, let surface):
            guard let surface = surface.object(as: Surface.self) else { return }
            server.createObject(.zwpInputPopupSurfaceV2, client: owner, version: version, id: id) {
                InputPopupObject(server: server, owner: owner, resource: $0, surface: surface, method: nil)
            }
        case .grabKeyboard(let keyboard):
            server.createObject(.zwpInputMethodKeyboardGrabV2, client: owner, version: version, id: keyboard) {
                InputMethodKeyboardGrabObject(server: server, owner: owner, resource: $0, method: self)
            }
        case .destroy: destroyResource()
        case .commitString, .setPreeditString, .deleteSurroundingText, .commit: break
        }
    }

    // MARK: Events

    /// `activate` or `deactivate`, then the text input's state when active, then `done`.
    func sendActivation(_ input: TextInputObject?) {
        guard !inert else { return }
        if let input {
            zwp_input_method_v2_send_activate(resource)
            isActive = true
            sendState(of: input)
        } else {
            zwp_input_method_v2_send_deactivate(resource)
            isActive = false
            sendDone()
        }
        for p in popups { p.place() }
    }

    /// The text input's surrounding text (when it sent any), change cause and content type,
    /// then `done`.
    func sendState(of input: TextInputObject) {
        guard !inert, isActive else { return }
        let s = input.current
        if let text = s.surroundingText {
            zwp_input_method_v2_send_surrounding_text(
                resource, text, UInt32(max(s.cursor, 0)), UInt32(max(s.anchor, 0)))
        }
        zwp_input_method_v2_send_text_change_cause(resource, s.changeCause)
        zwp_input_method_v2_send_content_type(resource, s.contentHint, s.contentPurpose)
        sendDone()
        for p in popups { p.place() }
    }

    private func sendDone() {
        doneCount &+= 1
        zwp_input_method_v2_send_done(resource)
    }

    func sendUnavailable() {
        inert = true
        zwp_input_method_v2_send_unavailable(resource)
    }

    override func resourceDestroyed() {
        keyboardGrab?.end()
        for p in popups { p.methodGone() }
        popups.removeAll()
        if !inert { textInput.detach(self) }
    }
}

/// `zwp_input_method_keyboard_grab_v2`: the seat's keys and modifiers, to the input method.
final class InputMethodKeyboardGrabObject: WaylandObject {
    weak var method: InputMethodObject?
    private var seatIndex: Int
    private var installed = false

    init(server: WaylandServer, owner: ClientState, resource: ResourcePointer, method: InputMethodObject) {
        self.method = method
        seatIndex = method.seatIndex
        super.init(server: server, owner: owner, resource: resource)
    }

    private var seat: Seat { server.router.seats[seatIndex] }

    /// The keymap and repeat info at once (the protocol: before any key), then the seat's
    /// keys and modifiers.
    func begin() {
        let file = server.keymapFile // every seat's wl_keyboard is sent this one too
        zwp_input_method_keyboard_grab_v2_send_keymap(
            resource, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, file.fd, UInt32(file.size))
        let r = server.configuration.keyboard.repeatInfo
        zwp_input_method_keyboard_grab_v2_send_repeat_info(resource, r.rate, r.delay)
        let m = seat.modifiers
        zwp_input_method_keyboard_grab_v2_send_modifiers(
            resource, server.nextSerial(), m.depressed, m.latched, m.locked, m.group)
        installed = true
        seat.inputMethodKeyboard = { [unowned self] event in self.offer(event) }
    }

    /// The seat offers a key or a modifier change; a key of the input method's own virtual
    /// keyboard is typed as it is.
    private func offer(_ event: InputMethodKeyEvent) -> Bool {
        switch event {
        case .key(let time, let key, let state, let device):
            // While the session is locked the lock screen gets the keys, a password among
            // them: never an input method (SessionLock.swift).
            if server.router.inputLockScope != nil || server.isVirtualKeyboard(device, of: owner, seat: seatIndex) {
                return false
            }
            zwp_input_method_keyboard_grab_v2_send_key(
                resource, server.nextSerial(), UInt32(truncatingIfNeeded: time / 1000), key, UInt32(state.rawValue))
        case .modifiers(let m):
            zwp_input_method_keyboard_grab_v2_send_modifiers(
                resource, server.nextSerial(), m.depressed, m.latched, m.locked, m.group)
        }
        // Sent at once: a key goes out with nothing the seat queued after it.
        wl_client_flush(owner.client)
        return true
    }

    /// Released, or the input method went: the seat's keys go to the focus again.
    func end() {
        guard installed else { return }
        installed = false
        if seatIndex < server.router.seats.count { seat.inputMethodKeyboard = nil }
    }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpInputMethodKeyboardGrabV2Request = decode(opcode, args) else { return }
        switch request {
        case .release: destroyResource() // release
        }
    }

    override func resourceDestroyed() { end() }
}

/// `zwp_input_popup_surface_v2`: the input method's candidate window, below the text cursor.
final class InputPopupObject: WaylandObject {
    let surface: Surface
    weak var method: InputMethodObject?
    /// The text cursor rectangle last told (`text_input_rectangle`), in the popup's coordinates.
    private var toldRectangle: Rect?

    init(
        server: WaylandServer, owner: ClientState, resource: ResourcePointer, surface: Surface,
        method: InputMethodObject?
    ) {
        self.surface = surface
        self.method = method
        super.init(server: server, owner: owner, resource: resource)
    }

    /// Where it goes: below the active text input's cursor rectangle, on the focused
    /// surface (a child of its node, above it), shown while the input method is active and
    /// the popup has a buffer. Not a keyboard target.
    func place() {
        guard let method else { return }
        let tree = server.router.tree
        let textInput = server.services(method.seatIndex).textInput
        guard method.isActive, let input = textInput.activeInput, let focusNode = input.focus?.node else {
            if let node = surface.node { tree.setMapped(node, false) }
            return
        }
        if surface.node == nil {
            let node = tree.createNode(.popup, name: "input method popup", client: owner.id, parent: focusNode)
            surface.attachNode(node)
            tree.setCanBecomeFirstResponder(node, false)
        }
        guard let node = surface.node else { return }
        if tree.parent(of: node) != focusNode { _ = tree.setParent(node, focusNode) }
        let cursor = input.current.cursorRectangle ?? Rect(0, 0, 0, 0)
        tree.move(node, to: (cursor.x, cursor.y &+ cursor.height))
        tree.setMapped(node, surface.hasBuffer)
        let rectangle = Rect(0, 0 &- cursor.height, cursor.width, cursor.height) // a client's numbers: no trap
        if rectangle != toldRectangle {
            toldRectangle = rectangle
            zwp_input_popup_surface_v2_send_text_input_rectangle(
                resource, rectangle.x, rectangle.y, rectangle.width, rectangle.height)
        }
    }

    /// After a commit of its surface.
    func committed() { place() }

    func methodGone() {
        method = nil
        if let node = surface.node { server.router.tree.setMapped(node, false) }
    }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpInputPopupSurfaceV2Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource()
        }
    }

    override func resourceDestroyed() {
        method?.popups.removeAll { $0 === self }
        guard case .inputPopup(let p) = surface.role, p === self else { return }
        surface.role = .none
        surface.destroyNode()
    }
}

extension WaylandServer {
    /// Whether `device` is a virtual keyboard made by `client`: an input method types back
    /// through its own, and those keys must not come back to its grab.
    /// A scan of the seat's virtual keyboards (usually one or none), only for keys offered
    /// to a grabbing input method.
    func isVirtualKeyboard(_ device: DeviceID, of client: ClientState, seat index: Int) -> Bool {
        services(index).virtualKeyboards.contains { $0.device == device && $0.owner === client }
    }
}
