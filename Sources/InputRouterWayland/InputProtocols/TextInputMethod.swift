// The text-input focus and the compositor's own input method.
//
// The focus follows the keyboard focus of its seat (`keyboardFocusMoved(onSeat:to:)` hands every change here):
// the text inputs of the client that loses it get `leave`, those of the client that gains
// it get `enter`. One text input is *active*: the enabled one on the focused surface (a
// second one enabled meanwhile is ignored, as the protocol says).
//
// While one is active, the seat offers this input method every key press of a compose
// sequence (`Seat.inputMethod`; plain keys never come here). It takes them all: a dead key
// or Multi_key shows as preedit, the finished sequence goes out as `commit_string`, a broken
// one clears the preedit, each followed by `done`. Those keys (and their releases) never
// reach `wl_keyboard`; every other key does, as before, and clients without an active text
// input get raw keys and compose themselves.
//
// Unsafe idioms, and why: the seat's text-input state holds its server `unowned(unsafe)`, as
// every protocol object does (Object.swift): the server's deinit destroys the clients, and
// their resources' destruction reaches here, where a checked `unowned` reference traps
// (WaylandServerTests crashed with "Attempted to read an unowned reference" when it was one)
// and a strong one would be a cycle through the server's tables.
import InputRouter
import InputRouterKeyboard

/// One seat's text inputs (those made with its `wl_seat`) and their focus.
final class TextInputState {
    unowned(unsafe) let server: WaylandServer
    let seatIndex: Int
    private var seat: Seat { server.router.seats[seatIndex] }
    /// The seat's xkb state, whose compose the input method reads.
    private var keyboardState: KeyboardState {
        server.servedSeat(seat.id)!.keyboardState
    }
    private(set) var inputs: [TextInputObject] = []
    /// The surface whose client's text inputs got `enter`. While the seat has no text
    /// input only the keyboard focus's node is kept (`idleFocus`), and its surface found
    /// when one is added: storing the weak surface cost a side-table retain, release and
    /// weak assignment per focus change (every click that focuses, ~350 instructions).
    var focus: Surface? { inputs.isEmpty ? idleFocus.flatMap { server.surface(for: $0) } : focusSurface }
    private weak var focusSurface: Surface?
    private var idleFocus: NodeID?
    /// The enabled text input on the focus, which the input method talks to.
    private(set) weak var active: TextInputObject?
    /// The preedit shown in `active`: the sequence typed so far.
    private var preedit = ""
    /// The input method program serving the seat (InputMethod.swift), in place of compose.
    private(set) weak var program: InputMethodObject?
    /// The preedit the program's last commit left in `active` ("" when none, or once it
    /// goes).
    private(set) var programPreedit = ""
    var programPreeditShown: Bool { !programPreedit.isEmpty }
    /// The program's commit strings relayed to text inputs so far: what a test waits for
    /// before typing on, since fcitx5 answers keys on its own time.
    private(set) var programCommitStrings = 0
    /// The active text input, for the program's popups.
    var activeInput: TextInputObject? { active }

    init(server: WaylandServer, seatIndex: Int) {
        self.server = server
        self.seatIndex = seatIndex
    }

    func add(_ input: TextInputObject) {
        if inputs.isEmpty {
            focusSurface = idleFocus.flatMap { server.surface(for: $0) }
            idleFocus = nil
        }
        inputs.append(input)
        if let focus, focus.owner === input.owner { input.sendEnter(focus) }
    }

    func remove(_ input: TextInputObject) {
        inputs.removeAll { $0 === input }
        if inputs.isEmpty {
            idleFocus = focusSurface?.node
            focusSurface = nil
        }
        if active === input || active == nil { updateActive() }
    }

    /// The keyboard focus moved to `node` (a client surface, a compositor node, or nothing).
    /// Inline, so that the caller reaching this object in place pays no retain for it.
    @inline(__always) func keyboardFocusChanged(to node: NodeID?) {
        // No text input on this seat (every click that focuses, in most sessions): nothing to
        // enter, leave or activate (`remove` left none active); the focus is kept for `add`.
        if inputs.isEmpty {
            idleFocus = node
            return
        }
        focusMoved(to: node)
    }

    private func focusMoved(to node: NodeID?) {
        let surface = node.flatMap { server.surface(for: $0) }
        guard surface !== focus else { return }
        if let old = focus { for input in inputs where input.focus === old { input.sendLeave() } }
        focusSurface = surface
        if let surface { for input in inputs where input.owner === surface.owner { input.sendEnter(surface) } }
        updateActive()
    }

    /// The focused surface was destroyed: its text inputs lose it without a leave naming it.
    func surfaceDestroyed(_ surface: Surface) {
        guard focus === surface else { return }
        for input in inputs where input.focus === surface { input.sendLeave(surfaceDestroyed: true) }
        focusSurface = nil
        idleFocus = nil
        updateActive()
    }

    /// A commit changed `input`'s state.
    func stateChanged(_ input: TextInputObject) {
        if input === active, !input.current.enabled {
            updateActive()
        } else if active == nil {
            updateActive()
        } else if input === active, let program {
            program.sendState(of: input)
        }
    }

    // MARK: An input method program

    /// `get_input_method`: the seat's program, unless it has a live one (then the new one is
    /// told `unavailable`). Compose stops; an active text input is relayed at once.
    func attach(_ method: InputMethodObject) {
        if program != nil { return method.sendUnavailable() }
        program = method
        if seat.inputMethod != nil {
            if keyboardState.compose?.isComposing == true { keyboardState.compose?.reset() }
            if !preedit.isEmpty, let active {
                preedit = ""
                active.sendDone() // no preedit: the half-typed sequence's preedit goes
            }
            seat.inputMethod = nil
        }
        if let active { method.sendActivation(active) }
    }

    /// The program went: a preedit it left is cleared, and compose serves again.
    func detach(_ method: InputMethodObject) {
        guard program === method || program == nil else { return }
        program = nil
        if programPreeditShown, let active { active.sendDone() }
        programPreedit = ""
        updateActive(force: true)
    }

    /// The program's `commit`: relayed to the active text input, then its `done`.
    func inputMethodCommitted(_ state: InputMethodObject.Pending) {
        guard let input = active else { return }
        if let p = state.preedit { input.sendPreedit(p.text, cursorBegin: p.begin, cursorEnd: p.end) }
        if let d = state.delete { input.sendDeleteSurrounding(before: d.before, after: d.after) }
        if let c = state.commitString {
            input.sendCommitString(c)
            programCommitStrings += 1
        }
        programPreedit = state.preedit?.text ?? ""
        input.sendDone()
    }

    /// Picks the active text input (the first enabled on the focus keeps it) and installs or
    /// removes the input method. A sequence half typed for the old one is dropped.
    private func updateActive(force: Bool = false) {
        // A text input being destroyed is no longer in `inputs` (`remove`), but still alive.
        let keeps =
            active.map { a in a.current.enabled && a.focus === focus && focus != nil && inputs.contains { $0 === a } }
            ?? false
        let next = keeps ? active : inputs.first { $0.current.enabled && $0.focus != nil && $0.focus === focus }
        let composes = next != nil && program == nil
        guard force || next !== active || composes != (seat.inputMethod != nil) else { return }
        if active != nil, keyboardState.compose?.isComposing == true { keyboardState.compose?.reset() }
        preedit = ""
        let changed = next !== active
        active = next
        seat.inputMethod =
            !composes
            ? nil
            : { [unowned self] focus, _, meaning in
                self.handle(focus: focus, meaning: meaning)
            }
        // The program hears of each change of the active text input.
        if let program, changed {
            programPreedit = ""
            if program.isActive { program.sendActivation(nil) }
            if let next { program.sendActivation(next) }
        }
    }

    /// One key press of a compose sequence for the focused surface. Returns whether the
    /// input method took it.
    private func handle(focus node: NodeID, meaning: KeyMeaning) -> Bool {
        guard let input = active, let focus, focus.node == node else { return false }
        switch meaning.compose {
        case .none: return false
        case .composing:
            preedit += Self.preeditText(of: meaning.keysym)
            input.sendPreedit(preedit)
        case .composed:
            preedit = ""
            input.sendCommitString(keyboardState.compose?.composedText ?? "")
        case .cancelled:
            // No preedit in the next done clears the one shown.
            preedit = ""
        }
        input.sendDone()
        return true
    }

    /// How a key of a sequence in progress shows in the preedit: a dead key as its spacing
    /// accent (what toolkits' own compose shows), Multi_key as a middle dot, any other key
    /// as its character.
    static func preeditText(of keysym: UInt32) -> String {
        let name = Keysym.name(of: keysym)
        if let accent = deadKeyAccents[name] { return accent }
        if name == "Multi_key" { return "·" }
        return Keysym.text(of: keysym)
    }

    private static let deadKeyAccents: [String: String] = [
        "dead_grave": "`", "dead_acute": "´", "dead_circumflex": "^", "dead_tilde": "~", "dead_macron": "¯",
        "dead_breve": "˘", "dead_abovedot": "˙", "dead_diaeresis": "¨", "dead_abovering": "˚",
        "dead_doubleacute": "˝", "dead_caron": "ˇ", "dead_cedilla": "¸", "dead_ogonek": "˛",
    ]
}
