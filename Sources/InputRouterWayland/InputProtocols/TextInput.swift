// `zwp_text_input_manager_v3` and `zwp_text_input_v3`: a client's text fields tell the
// compositor when they take text, and the input method answers with preedit and committed
// strings: an input method program when one is bound (`zwp_input_method_v2`,
// InputMethod.swift), else the compositor's own compose (dead keys, Multi_key sequences:
// TextInputMethod.swift).
//
// Every text input of the client whose surface has the keyboard focus of the text input's
// seat (the `wl_seat` of `get_text_input`) gets `enter`; the
// protocol's state (enable, surrounding text, content type, cursor rectangle) is
// double-buffered and applied on `commit`, and every `done` carries the number of commits
// this text input sent so far, as the protocol requires.
import CWaylandProtocolsServer
import CWaylandServer
import InputRouter

final class TextInputManagerObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpTextInputManagerV3Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource() // text inputs made with it live on
        case .getTextInput(let id, let seat): // get_text_input(id, seat)
            guard
                let input = server.createObject(
                    .zwpTextInputV3, client: owner, version: version, id: id,
                    {
                        TextInputObject(server: server, owner: owner, resource: $0)
                    })
            else { return }
            input.seatIndex = server.seatIndex(from: seat.object(as: SeatObject.self))
            server.services(input.seatIndex).textInput.add(input)
        }
    }
}

final class TextInputObject: WaylandObject {
    /// The seat it was made for: its focus follows that seat's keyboard.
    var seatIndex = 0
    /// What a commit establishes. The initial values are the protocol's.
    struct State: Equatable {
        var enabled = false
        var surroundingText: String?
        var cursor: Int32 = 0
        var anchor: Int32 = 0
        var changeCause: UInt32 = ZWP_TEXT_INPUT_V3_CHANGE_CAUSE_INPUT_METHOD.rawValue
        var contentHint: UInt32 = ZWP_TEXT_INPUT_V3_CONTENT_HINT_NONE.rawValue
        var contentPurpose: UInt32 = ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_NORMAL.rawValue
        var cursorRectangle: Rect?
    }

    /// Requests since the last commit, each nil until sent: `enable` (true) starts from a
    /// fresh state, `disable` (false) drops it, and the others change only what they name.
    private struct Pending {
        var enable: Bool?
        var surrounding: (text: String, cursor: Int32, anchor: Int32)?
        var changeCause: UInt32?
        var contentType: (hint: UInt32, purpose: UInt32)?
        var cursorRectangle: Rect?
    }
    private var pending = Pending()
    private(set) var current = State()
    /// Commit requests received: the serial of every `done`.
    private(set) var commits: UInt32 = 0
    /// The serial of the last `done` sent. A client that commits again before it reads
    /// that `done` sees a serial behind its own count, and foot 1.13 then drops the
    /// changes it carried (docs/wayland.md, Input method programs).
    private(set) var doneSerial: UInt32 = 0
    /// The surface of the last `enter`, until its `leave`; requests are ignored without one.
    weak var focus: Surface?

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpTextInputV3Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource()
        case .enable: pending = Pending(enable: true) // enable: resets everything requested before it
        case .disable: pending.enable = false // disable
        // set_surrounding_text
        case .setSurroundingText(let text, let cursor, let anchor): pending.surrounding = (text ?? "", cursor, anchor)
        case .setTextChangeCause(let cause): pending.changeCause = cause // set_text_change_cause(cause)
        // set_content_type(hint, purpose)
        case .setContentType(let hint, let purpose): pending.contentType = (hint, purpose)
        case .setCursorRectangle(let x, let y, let width, let height):
            pending.cursorRectangle = Rect(x, y, width, height)
        case .commit: commit()
        }
    }

    private func commit() {
        commits &+= 1
        let requested = pending
        pending = Pending()
        // After leave the protocol says to ignore requests until the next enter.
        guard focus != nil else { return }
        var next = current
        // The change cause lasts one commit.
        next.changeCause = ZWP_TEXT_INPUT_V3_CHANGE_CAUSE_INPUT_METHOD.rawValue
        switch requested.enable {
        case true?: next = State(enabled: true)
        case false?: next = State()
        case nil: break
        }
        if next.enabled {
            if let s = requested.surrounding { (next.surroundingText, next.cursor, next.anchor) = s }
            if let c = requested.changeCause { next.changeCause = c }
            if let t = requested.contentType { (next.contentHint, next.contentPurpose) = t }
            if let r = requested.cursorRectangle { next.cursorRectangle = r }
        }
        current = next
        server.services(seatIndex).textInput.stateChanged(self)
    }

    // MARK: Events

    func sendEnter(_ surface: Surface) {
        focus = surface
        // "After an enter event or disable request all state information is invalidated."
        current = State()
        pending = Pending()
        zwp_text_input_v3_send_enter(resource, surface.resource)
    }

    /// `surfaceDestroyed`: the surface is gone, so no leave can name it; the state goes too.
    func sendLeave(surfaceDestroyed: Bool = false) {
        if let focus, !surfaceDestroyed { zwp_text_input_v3_send_leave(resource, focus.resource) }
        focus = nil
        current = State()
    }

    func sendPreedit(_ text: String) {
        let end = Int32(text.utf8.count)
        zwp_text_input_v3_send_preedit_string(resource, text, end, end)
    }

    /// An input method program's preedit, with its cursor (bytes in `text`; -1, -1 hides it).
    func sendPreedit(_ text: String, cursorBegin: Int32, cursorEnd: Int32) {
        zwp_text_input_v3_send_preedit_string(resource, text, cursorBegin, cursorEnd)
    }

    func sendDeleteSurrounding(before: UInt32, after: UInt32) {
        zwp_text_input_v3_send_delete_surrounding_text(resource, before, after)
    }

    func sendCommitString(_ text: String) { zwp_text_input_v3_send_commit_string(resource, text) }

    func sendDone() {
        doneSerial = commits
        zwp_text_input_v3_send_done(resource, commits)
    }

    override func resourceDestroyed() { server.services(seatIndex).textInput.remove(self) }
}
