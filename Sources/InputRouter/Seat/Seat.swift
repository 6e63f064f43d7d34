/// A seat: one cursor, one keyboard focus, one set of touch points, and the grabs that
/// redirect them. Input comes in through `handle(_:)` or the `notify*` methods (the
/// wlroots verb for "input into the seat"); what clients are told is appended to the
/// router's queue.
///
/// All per-event state lives in fixed arrays indexed by key or button code, slot lists and
/// small enums: routing an event in steady state allocates nothing and hashes nothing.
///
/// Unsafe idiom, and why: the state written on every routed event is
/// `@exclusivity(unchecked)`. It is touched only on the routing thread and never while an
/// access to it is open, and the dynamic check costs per access: with it on the serial
/// record alone, a key press or release was 521 instructions against 392 (core-bench
/// `--route key` under callgrind, 6 December). State read once per press or less (the
/// `beforePress` hook: 41 a button event) keeps its checks.
public final class Seat {
    /// Index into `Router.seats`; what every delivery of this seat carries.
    public let id: SeatID
    /// The name given at `addSeat(name:)` (`wl_seat.name`).
    public let name: String
    /// The router that made the seat and owns it. Every event reaches the queue through it,
    /// and a safe `unowned` reference paid an atomic strong retain and a release per use (two
    /// per routed motion, about 90 instructions). The router outlives its seats unless an
    /// embedder keeps one after dropping the router: `routerGone` (set by the router's
    /// deinit) makes any later use trap, as `unowned` would, instead of reading freed memory.
    var router: Router {
        // Borrowed, not returned: a getter's result is owned, and cost the retain back.
        @inline(__always) _read {
            precondition(!routerGone, "a Seat was used after its Router was released")
            yield unsafeRouter
        }
    }
    private unowned(unsafe) let unsafeRouter: Router

    /// Appends to the router's queue with no reference counted at all: through `router` the
    /// compiler still retains the router around the append (about 20 instructions each).
    @inline(__always) func enqueue(_ d: Delivery) {
        withRouter { $0.queue.append(d) }
    }
    /// The router as a guaranteed reference for `body`: nothing is counted (through
    /// `router`, each use paid a retain and a release, ~40 instructions).
    @inline(__always) func withRouter<R>(_ body: (Router) -> R) -> R {
        precondition(!routerGone, "a Seat was used after its Router was released")
        return Unmanaged.passUnretained(unsafeRouter)._withUnsafeGuaranteedRef(body)
    }
    @exclusivity(unchecked) var routerGone = false
    /// Held directly: reaching it through the unowned `router` cost a strong retain and a
    /// release on every use (the tree refers to no seat, so there is no cycle).
    let tree: SurfaceTree

    /// Asked last, after the client responder: the seat's own handler.
    /// Read once per event that reaches the seat (compositor motion, drops): unchecked, like
    /// the tree's handlers (a handler that replaces it has already been copied out).
    @exclusivity(unchecked) public var handler: NodeHandler?
    /// What a scene snapshot calls `handler` (SceneHandlers maps it back).
    public var handlerName = ""
    /// The keymap's names (rules, model, layout, variant, options) as the embedder made it,
    /// written into scene snapshots so a replay builds the same keymap.
    public var keymapNames: [String: String] = [:]
    /// The names given to `bindings`, in the same order (for snapshots).
    var bindingNames: [String] = []
    /// The keyboard layer (xkbcommon) of the seat's own keyboards. Without one, keys carry
    /// no keysym and modifiers never change. A device with a keymap of its own (a virtual
    /// keyboard) has its own translator (`setKeyTranslator(_:forDevice:modifiers:)`).
    @exclusivity(unchecked) public var keyTranslator: KeyTranslator? {
        didSet { if activeKeyboard == nil { useTranslator(keyTranslator) } }
    }
    /// The translator in use: the seat's own or a device's (`useTranslator`). `keyTranslator`
    /// or `ownKeyboards` keeps it alive too; a translator that replaces itself from inside
    /// `translate` is not supported.
    @exclusivity(unchecked) private var translatorStorage: KeyTranslator?
    /// `translatorStorage` borrowed for the length of the call made on it: read as a stored
    /// property, each key paid a retain and a release of the translator around the call
    /// (core-bench `--route key` under callgrind: 439 instructions against 398), since the
    /// call might replace it.
    private var translatorInUse: KeyTranslator? {
        @inline(__always) _read { yield translatorStorage }
    }

    /// The answers of the translator in use (KeyTranslator.swift), kept with it: valid while
    /// it is in use.
    @exclusivity(unchecked) private var keyAnswers: KeyAnswers?

    /// Makes `translator` the one keys are translated with (the seat's own or a device's).
    func useTranslator(_ translator: KeyTranslator?) {
        translatorStorage = translator
        keyAnswers = translator?.keyAnswers
    }

    /// What `key` means: from the translator's answers when they hold it, else from the
    /// translator, borrowed (see `translatorInUse`).
    @inline(__always) func translate(key: UInt32, state: KeyState) -> KeyMeaning? {
        if let answers = keyAnswers, let m = answers.meaning(key: key, state: state) { return m }
        return translatorInUse?.translate(key: key, state: state)
    }

    // The state every event reads is marked `@exclusivity(unchecked)`: it is touched on
    // one thread and never while an access to it is open, and the dynamic checks were a
    // fifth of routed motion's instructions (wayland-bench's profile: swift_beginAccess).
    // Devices, indexed by DeviceID.index.
    struct DeviceState {
        var present = false
        var capabilities: DeviceCapabilities = []
    }
    /// By `DeviceID.slot` (Identifiers.swift).
    @exclusivity(unchecked) var devices: [DeviceState] = []
    /// The present devices' descriptions by `DeviceID.index`, off the per-event path
    /// (Seat+DeviceDescriptions.swift).
    var deviceDescriptions: [UInt32: DeviceDescription] = [:]
    /// The keys and the buttons each device holds (DeviceHolds.swift), apart from `devices`:
    /// a key's or a button's bookkeeping there paid two uniqueness checks.
    @exclusivity(unchecked) var deviceKeys = DeviceHolds(devices: Seat.preallocatedDevices)
    @exclusivity(unchecked) var deviceButtons = DeviceHolds(devices: Seat.preallocatedDevices)
    @exclusivity(unchecked) var bound: [BoundDevices] = []
    /// Whether some client bound `.relativePointer` (kept by `setBound` and `clientRemoved`):
    /// without one, relative motion resolves no focus (most clients never ask for it).
    @exclusivity(unchecked) var anyRelativePointer = false

    // Pointer.
    /// The cursor, the pointer focus, the buttons held (PointerState.swift).
    @exclusivity(unchecked) var pointer = PointerState()
    /// Where the pointer is, in layout coordinates, after clamping and any confinement.
    public internal(set) var cursor: Point {
        @inline(__always) get { pointer.cursor }
        @inline(__always) set { pointer.cursor = newValue }
    }
    /// The open grabs (Seat+Grabs.swift); nil is the default behaviour, routed statically.
    @exclusivity(unchecked) var pointerGrab: (any PointerGrab)?
    @exclusivity(unchecked) var touchGrab: (any TouchGrab)?
    @exclusivity(unchecked) var keyboardGrab: (any KeyboardGrab)?
    /// The popup grab when one holds the slots above: what `popupGrabStack` reports.
    @exclusivity(unchecked) var popupGrab: PopupGrab?
    /// The popup grab that last ended, kept for the next popup.
    var idlePopupGrab: PopupGrab?
    /// The mapped outputs (OutputLayout.swift), rebuilt on every scene change.
    @exclusivity(unchecked) public internal(set) var layout = OutputLayout()
    /// `layout.boundingBox`, kept by `refreshLayout`: absolute events (touch, tablets,
    /// absolute pointers) map onto it, and the box was a loop over the outputs per event.
    @exclusivity(unchecked) var layoutBox = Rect(0, 0, 0, 0)
    /// The first non-empty output's extent as `closestPoint` clamps into it (the right and
    /// bottom edges one `wl_fixed` step inside), for `clampToLayout`'s fast path.
    @exclusivity(unchecked) var firstOutput = (
        minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity
    )
    var layoutRects: [Rect] { layout.frames }
    @exclusivity(unchecked) var lastTime: UInt64 = 0
    /// The serials sent to clients and what each stood for (SerialRecord.swift).
    @exclusivity(unchecked) var serials = SerialRecord()
    /// Locks and confinements (Seat+Constraints.swift).
    @exclusivity(unchecked) var constraints = ConstraintTable()

    // Keyboard.
    /// The keyboard focus and the keys held (KeyboardFocusState.swift).
    @exclusivity(unchecked) var keyboard = KeyboardFocusState()
    /// The modifier state the key translator in use last reported (depressed, latched,
    /// locked, group): the seat's own keyboard's, or that of `activeKeyboard`.
    @exclusivity(unchecked) public internal(set) var modifiers = Modifiers.none
    /// Devices with a keymap of their own (virtual keyboards), Seat+KeyboardDevices.swift.
    @exclusivity(unchecked) var ownKeyboards: [OwnKeyboard] = []
    /// The device whose key was routed last: a key from another device may change the keymap
    /// in use, the same device never does (the one test a key pays for keyboards). Also the
    /// device `inputMethodKeyboard` is told a key came from.
    @exclusivity(unchecked) var lastKeyDevice = Seat.noKeyDevice
    /// The device whose keymap keys and modifiers are in now; nil: the seat's own keymap.
    @exclusivity(unchecked) public internal(set) var activeKeyboard: DeviceID?
    /// The seat's own keyboard's modifiers, kept while a device's keymap is in use.
    var seatKeyboardModifiers = Modifiers.none
    /// While the session is away from its seat (Seat+Session.swift): the surface the keyboard
    /// left then, to enter again on its return.
    var sessionAwayFocus: NodeID?
    var sessionAway = false
    /// The compositor's key bindings, in the order added; a key press checks them in that order.
    @exclusivity(unchecked) public internal(set) var bindings:
        [(binding: KeyBinding, whileLocked: Bool, action: () -> Void)] = []
    // Keyboard shortcuts inhibition (Seat+ShortcutsInhibit.swift).
    @exclusivity(unchecked) var shortcutsInhibitors: [NodeID] = []
    @exclusivity(unchecked) var activeShortcutsInhibitor: NodeID?
    @exclusivity(unchecked) var escapedShortcutsInhibitor: NodeID?
    /// The input method: offered each key press of a compose sequence (`KeyMeaning.compose`
    /// not `.none`) that would go to the focused client surface; returning true takes it
    /// (`Delivery.inputMethodKey`), and its release with it. Plain keys never reach it, so
    /// routing them costs nothing. The Wayland layer sets it while a text input is enabled
    /// on the focus (TextInput.swift).
    @exclusivity(unchecked) public var inputMethod: ((_ focus: NodeID, _ key: UInt32, _ meaning: KeyMeaning) -> Bool)?
    /// An input method program's keyboard grab (`zwp_input_method_keyboard_grab_v2`): while
    /// set, it is offered every key press no binding took, before any keyboard grab and the
    /// focus (a menu's popup grab included, as in wlroots), and takes it with its release by
    /// returning true; and every change of the seat's modifiers, which then go to it
    /// instead of the focus. It declines what it must not take: the keys of the input
    /// method's own virtual keyboard, which it sends back to be typed (docs/keyboard.md).
    @exclusivity(unchecked) public var inputMethodKeyboard: ((_ event: InputMethodKeyEvent) -> Bool)?
    /// The capture phase of a button press that is going to a client's surface: called with
    /// the seat and that surface before the press's serial is taken and the press queued.
    /// Focus on click belongs here (weston's and sway's order): the keyboard's leave, enter
    /// and modifiers it queues go out before the button, so the newest serial a toolkit
    /// cites in a grab or a copy is the press itself. It may queue deliveries and move
    /// focus; it must not flush.
    public var beforePress: ((_ seat: Seat, _ node: NodeID) -> Void)?
    /// The escape binding (Seat+Escape.swift): Super+Escape unless the embedder sets
    /// another; nil: none.
    @exclusivity(unchecked) public var escapeBinding: KeyBinding? = Seat.defaultEscapeBinding
    /// A pointer lock or confinement is active only while its window also holds the keyboard
    /// focus (Seat+Constraints.swift). False: the pointer focus alone decides.
    @exclusivity(unchecked) public var constraintsNeedKeyboardFocus = true

    // Touch.
    /// The touch points and the frames owed (TouchState.swift).
    @exclusivity(unchecked) var touch = TouchState()
    /// The layout rectangle touch screens and absolute pointers map onto. nil: the
    /// bounding box of the outputs.
    @exclusivity(unchecked) public var absoluteMapping: Rect?
    /// How much of a window an interactive move keeps on an output: this many pixels of
    /// its top strip, across and down (Seat+MoveBounds.swift). The default is a title bar.
    public var moveKeepsVisible: Int32 = 24

    // Tablet tools in proximity (Seat+Tablet.swift, TabletState.swift).
    @exclusivity(unchecked) var tablet = TabletState()
    // Tablet pads (Seat+Pad.swift, PadState.swift).
    @exclusivity(unchecked) var pads = PadState()

    // Capture phase.
    @exclusivity(unchecked) var recognizers: [GestureRecognizer] = []
    @exclusivity(unchecked) var recognizerStates: [GestureRecognizer.State] = []
    /// The recognizer that claimed the pointer, or the touches: their events go to it alone.
    @exclusivity(unchecked) var pointerClaim: Int?
    @exclusivity(unchecked) var touchClaim: Int?

    /// How many events of each kind nobody took.
    @exclusivity(unchecked) public private(set) var dropCounts = [Int](repeating: 0, count: EventKind.allCases.count)

    /// Linux key and button codes are below KEY_MAX (0x2ff).
    static let codeCount = 0x300

    enum KeyRecipient: Equatable {
        case none
        case client(ClientID)
        case responder(Responder)
        case consumed
        /// A keyboard grab kept the press: the release goes to it too.
        case grab
        /// The input method's keyboard grab took the press: the release goes to it too.
        case inputMethod
    }

    enum GestureTarget: Equatable {
        case none
        /// The gesture's kind and fingers, for the cancelled end a cut-short one gets.
        case client(NodeID, GestureKind, fingers: Int32)
        case responder(Responder)
        case recognizer(Int)
    }

    init(id: SeatID, name: String, router: Router) {
        self.id = id
        self.name = name
        unsafeRouter = router
        tree = router.tree
        bound = [BoundDevices](repeating: [], count: router.clients.count)
        // Records for the first devices up front (presence and capabilities; what each
        // device holds is in `deviceKeys` and `deviceButtons`, which preallocate as many).
        devices = [DeviceState](repeating: DeviceState(), count: Seat.preallocatedDevices)
        constraints.items.reserveCapacity(8)
        constraints.confineRects.reserveCapacity(16)
        refreshLayout()
        cursor = layoutRects.first.map { Point(Double($0.x), Double($0.y)) } ?? .zero
    }

    deinit {
        keyboard.deallocate()
        pointer.deallocate()
        deviceKeys.deallocate()
        deviceButtons.deallocate()
    }

    static let historyLimit = 64
    /// Per-device records made up front, by `DeviceID.slot`: the first 16 source ids and
    /// the first 16 server-made ones (virtual devices) take them.
    static let preallocatedDevices = 32

    // MARK: Clients' devices

    /// Records that `client` has (or no longer has) bound a device on this seat; its
    /// surfaces take pointer, keyboard or touch events only when it has.
    public func setBound(_ devices: BoundDevices, for client: ClientID, _ isBound: Bool) {
        // A disconnected client binds nothing again: no seat may send it anything.
        guard Int(client.index) < bound.count, router.isAlive(client) else { return }
        tree.journaled(
            .bind,
            {
                $0.seat = id.index
                $0.client = client.index
                $0.a = Int32(devices.rawValue)
                $0.flag = isBound
            }, { bindNow(devices, for: client, isBound) })
    }

    private func bindNow(_ devices: BoundDevices, for client: ClientID, _ isBound: Bool) {
        if devices.contains(.pointer), bound[Int(client.index)].contains(.pointer) != isBound,
            case .node(let n)? = pointer.focus, tree.client(of: n) == client
        {
            // The client's wl_pointer comes or goes while one of its surfaces has the focus:
            // the pairing ends here (even mid-grab) and the focus is picked again.
            setPointerFocus(nil)
            flushPointerFrames()
        }
        if isBound { bound[Int(client.index)].formUnion(devices) } else { bound[Int(client.index)].subtract(devices) }
        if devices.contains(.relativePointer) { anyRelativePointer = bound.contains { $0.contains(.relativePointer) } }
        if devices.contains(.keyboard), keyboard.focusClient == client, let f = keyboard.focus {
            if isBound && !keyboard.entered {
                enterKeyboard(f)
            } else if !isBound && keyboard.entered {
                // The client let its wl_keyboard go: the pairing ends here (the Wayland layer
                // has no resource left to send this leave to).
                enqueue(.keyboardLeave(id, f, serial: nextSerial()))
                keyboard.entered = false
            }
        }
        if devices.contains(.pointer) {
            pointer.lastFirstResponder = nil
            sceneDidChange()
        }
        if devices.contains(.tablet) { tabletSceneDidChange() }
    }

    /// The input devices `client` bound on this seat (`wl_pointer`, `wl_keyboard`...); an array read.
    public func boundDevices(of client: ClientID) -> BoundDevices {
        Int(client.index) < bound.count ? bound[Int(client.index)] : []
    }

    func clientAdded() { bound.append([]) }

    func clientRemoved(_ client: ClientID) {
        bound[Int(client.index)] = []
        serials.forget(client)
        anyRelativePointer = bound.contains { $0.contains(.relativePointer) }
        for k in 0..<keyboard.keyRecipients.count where keyboard.keyRecipients[k] == .client(client) {
            keyboard.keyRecipients[k] = .none
        }
        touch.frameClients.removeAll { $0 == client }
        tablet.frameClients.removeAll { $0 == client }
        for i in touch.points.indices where touch.points[i].client == client { touch.points[i].owner = .cancelled }
    }

    // MARK: Events from sources

    /// Routes one event from any source.
    /// Inlined into the caller, so that a key goes straight to `handleKey`, which reads only
    /// its payload: behind `handleEvent`'s tests every kind's payload words were loaded and
    /// spilled first (about 45 instructions per key), and tested at the top of it, a key
    /// paid its frame and motion two more instructions.
    @inlinable public func handle(_ event: InputEvent) {
        if case .keyboardKey = event.kind { return handleKey(event) }
        handleEvent(event)
    }

    /// Routes any event but a key (which `handle` sends to `handleKey`).
    @usableFromInline func handleEvent(_ event: InputEvent) {
        if let j = tree.journal {
            j.routingDepth += 1
            defer { j.routingDepth -= 1 }
            return handleEventNow(event)
        }
        handleEventNow(event)
    }

    @inline(__always) private func handleEventNow(_ event: InputEvent) {
        let t = event.time
        // The commonest kinds first, each behind one tag test: the switch below loads every
        // case's payload words before its jump (about 45 instructions per event).
        if case .pointerMotion(let dx, let dy, let udx, let udy) = event.kind {
            return notifyPointerMotion(time: t, dx: dx, dy: dy, unacceleratedDX: udx, unacceleratedDY: udy)
        }
        if case .touchMotion(let slot, let x, let y) = event.kind {
            return notifyTouchMotion(time: t, slot: slot, at: mapAbsolute(x, y))
        }
        // Every click's press and release: through the switch, about 40 instructions each.
        if case .pointerButton(let b, let s) = event.kind {
            return notifyPointerButton(time: t, button: b, state: s, device: event.device)
        }
        handleOtherEvent(event)
    }

    /// Out of line: the switch's frame (registers saved, stack reserved) cost the two
    /// commonest kinds above about 15 instructions each.
    @inline(never) private func handleOtherEvent(_ event: InputEvent) {
        let t = event.time
        switch event.kind {
        case .deviceAdded(let caps): notifyDeviceAdded(event.device, capabilities: caps)
        case .deviceRemoved: notifyDeviceRemoved(event.device, time: t)
        case .pointerMotion(let dx, let dy, let udx, let udy):
            notifyPointerMotion(time: t, dx: dx, dy: dy, unacceleratedDX: udx, unacceleratedDY: udy)
        case .pointerMotionAbsolute(let x, let y): notifyPointerWarp(time: t, to: mapAbsolute(x, y))
        case .pointerButton(let b, let s): notifyPointerButton(time: t, button: b, state: s, device: event.device)
        case .pointerAxis(let source, let v, let h):
            notifyPointerAxis(time: t, source: source, vertical: v, horizontal: h)
        case .keyboardKey(let k, let s): notifyKey(time: t, key: k, state: s, device: event.device)
        case .touchDown(let slot, let x, let y):
            notifyTouchDown(time: t, slot: slot, at: mapAbsolute(x, y), device: event.device)
        case .touchMotion(let slot, let x, let y): notifyTouchMotion(time: t, slot: slot, at: mapAbsolute(x, y))
        case .touchUp(let slot): notifyTouchUp(time: t, slot: slot)
        case .touchCancel(let slot): notifyTouchCancel(time: t, slot: slot)
        case .touchFrame: notifyTouchFrame()
        case .gesture(let g): notifyGesture(time: t, g)
        case .switchToggle(let kind, let on): notifySwitch(time: t, kind, on: on)
        case .tabletToolProximity(let tool, let inProximity, let axes):
            notifyTabletProximity(time: t, device: event.device, tool: tool, inProximity: inProximity, axes: axes)
        case .tabletToolTip(let down, let axes): notifyTabletTip(time: t, device: event.device, down: down, axes: axes)
        case .tabletToolAxis(let axes): notifyTabletAxis(time: t, device: event.device, axes: axes)
        case .tabletToolButton(let b, let s): notifyTabletButton(time: t, device: event.device, button: b, state: s)
        case .tabletPadAdded(let layout): notifyPadAdded(event.device, layout: layout, time: t)
        case .tabletPadButton(let b, let s, let m):
            notifyPadButton(time: t, device: event.device, button: b, state: s, mode: m)
        case .tabletPadRing(let n, let p, let src, let m):
            notifyPadRing(time: t, device: event.device, ring: n, position: p, source: src, mode: m)
        case .tabletPadStrip(let n, let p, let src, let m):
            notifyPadStrip(time: t, device: event.device, strip: n, position: p, source: src, mode: m)
        }
    }

    @usableFromInline @inline(never) func handleKey(_ event: InputEvent) {
        guard case .keyboardKey(let k, let s) = event.kind else { return }
        // What routing changes follows from the input: not the embedder's edit (SceneJournal).
        if let j = tree.journal {
            j.routingDepth += 1
            defer { j.routingDepth -= 1 }
            return routeKeyEvent(time: event.time, key: k, state: s, device: event.device)
        }
        routeKeyEvent(time: event.time, key: k, state: s, device: event.device)
    }

    /// A device appeared: its capabilities are recorded, and its source's description (if
    /// any) kept until it goes (`deviceDescription(of:)`), replacing what an earlier
    /// `deviceAdded` of the same device left. Allocates only for a device index beyond those
    /// preallocated, and for the description; call on hot-plug, not per event.
    public func notifyDeviceAdded(
        _ device: DeviceID, capabilities: DeviceCapabilities,
        description: DeviceDescription? = nil
    ) {
        deviceDescriptions[device.index] = description
        let i = device.slot
        while devices.count <= i { devices.append(DeviceState()) }
        devices[i].present = true
        devices[i].capabilities = capabilities
        if capabilities.contains(.tabletTool) { padsFollowKeyboardFocus() } // a pad waiting for its tablet
    }

    /// The client surface or compositor node that has the pointer (took `pointerEnter`).
    public var pointerFocusNode: NodeID? {
        if case .node(let n)? = pointer.focus { return n }
        return nil
    }

    /// What the devices present can do together: a Wayland seat's capabilities follow it.
    public var presentCapabilities: DeviceCapabilities {
        devices.reduce(into: []) { if $1.present { $0.formUnion($1.capabilities) } }
    }

    /// A device went away: whatever it held is released as if let go (the release reaches
    /// whoever got the press), its touches are cancelled, and nothing stays stuck. This
    /// holds for a device that sent events without ever being added, too (a broken
    /// recording, a hostile source): what it pressed was forwarded, so it is released. A
    /// device with a keymap of its own releases its keys in that keymap, and the seat's
    /// own keymap and modifiers come back if its were in use.
    public func notifyDeviceRemoved(_ device: DeviceID, time: UInt64) {
        let i = device.slot
        tabletDeviceRemoved(device, time: time) // a tool needs no device-added to be in proximity
        padDeviceRemoved(device, time: time)
        for key in deviceKeys.held(by: device).reversed() {
            notifyKey(time: time, key: key, state: .released, device: device)
        }
        for button in deviceButtons.held(by: device).reversed() {
            notifyPointerButton(time: time, button: button, state: .released, device: device)
        }
        var cancelledAny = false
        for t in touch.points where t.device == device {
            cancelledAny = true
            cancelTouch(slot: t.slot)
        }
        if cancelledAny {
            touch.points.removeAll { $0.device == device }
            touchSequenceMaybeEnded()
        }
        if i < devices.count { devices[i] = DeviceState() }
        deviceDescriptions[device.index] = nil
        deviceKeys.forget(device)
        deviceButtons.forget(device)
        padsFollowKeyboardFocus() // the pads of a tablet that went leave
        if ownKeyboards.contains(where: { $0.device == device }) {
            forgetOwnKeyboard(device) // its keymap goes with it (Seat+KeyboardDevices.swift)
        } else if keyboard.heldKeys.isEmpty, let translator = keyTranslator {
            let released = translator.releaseAll()
            if activeKeyboard == nil { updateModifiers(released) } else { seatKeyboardModifiers = released }
        }
    }

    /// A switch (lid, tablet mode) changed: queued as `switchToggled` and told to every switch
    /// observer, with no hit test. No allocation beyond what the observers do.
    public func notifySwitch(time: UInt64, _ kind: SwitchKind, on: Bool) {
        lastTime = time
        enqueue(.switchToggled(id, kind, on: on))
        for observer in router.switchObservers { observer(id, kind, on) }
    }

    // MARK: The responder chain

    /// Walks the chain from `first` and returns the responder that took the event. A
    /// client surface takes it when its client has bound `device` (never when
    /// `handlersOnly`); others take it when their handler says so. `at` is in layout space.
    func dispatch(
        from first: Responder?, device: BoundDevices, handlersOnly: Bool = false, stopAt: Responder? = nil,
        at point: Point, _ makeEvent: (Point) -> NodeEvent
    ) -> Responder? {
        var r = first
        var steps = 0
        while let cur = r, steps < Router.maxChainLength {
            if cur == stopAt { return cur } // already has it (the pointer focus): don't enter twice
            if take(cur, device: device, handlersOnly: handlersOnly, at: point, makeEvent) { return cur }
            r = router.nextResponder(after: cur, seat: id)
            steps += 1
        }
        return nil
    }

    private func take(
        _ r: Responder, device: BoundDevices, handlersOnly: Bool, at point: Point, _ makeEvent: (Point) -> NodeEvent
    ) -> Bool {
        switch r {
        case .node(let n):
            guard let i = tree.resolve(n) else { return false }
            let rec = tree.nodes[Int(i)]
            // A next-responder override may lead to a client surface that is unmapped or
            // detached: it takes nothing then, by delivery or through its handler.
            if rec.kind.isClientSurface && !tree.isVisible(n) { return false }
            if !handlersOnly && rec.kind.isClientSurface && boundDevices(of: rec.client).contains(device) {
                return true
            }
            guard let h = tree.handlers[Int(i)] else { return false }
            let o = tree.layoutOrigin(i)
            let event = makeEvent(Point(point.x - o.x, point.y - o.y))
            guard let j = tree.journal else { return h(event) == .handled }
            return j.call(.node, node: n) { h(event) } == .handled
        case .client(let c):
            guard router.isAlive(c), let h = router.clients[Int(c.index)].handler else { return false }
            guard let j = tree.journal else { return h(makeEvent(point)) == .handled }
            return j.call(.client, client: c.index) { h(makeEvent(point)) } == .handled
        case .seat:
            guard let h = handler else { return false }
            guard let j = tree.journal else { return h(makeEvent(point)) == .handled }
            return j.call(.seat) { h(makeEvent(point)) } == .handled
        }
    }

    /// Whether `r` is a client surface whose client takes `device` events (rather than a
    /// compositor responder). A client surface that took an event through its handler
    /// (its client has not bound the device, or is gone) is a compositor responder: its
    /// client is sent nothing.
    func clientSurface(_ r: Responder?, device: BoundDevices = .pointer) -> (NodeID, ClientID)? {
        guard case .node(let n)? = r, let i = tree.resolve(n) else { return nil }
        let rec = tree.nodes[Int(i)]
        return rec.kind.isClientSurface && !rec.client.isCompositor && boundDevices(of: rec.client).contains(device)
            ? (n, rec.client) : nil
    }

    /// Sends a non-positional event to a compositor responder's handler.
    func callHandler(_ r: Responder, _ event: NodeEvent) -> Disposition {
        switch r {
        case .node(let n):
            guard let i = tree.resolve(n), let h = tree.handlers[Int(i)] else { return .notHandled }
            guard let j = tree.journal else { return h(event) }
            return j.call(.node, node: n) { h(event) }
        case .client(let c):
            guard router.isAlive(c), let h = router.clients[Int(c.index)].handler else { return .notHandled }
            guard let j = tree.journal else { return h(event) }
            return j.call(.client, client: c.index) { h(event) }
        case .seat:
            guard let h = handler else { return .notHandled }
            guard let j = tree.journal else { return h(event) }
            return j.call(.seat) { h(event) }
        }
    }

    func drop(_ kind: EventKind) {
        dropCounts[Int(kind.rawValue)] += 1
        enqueue(.dropped(id, kind))
    }

    /// How many events of `kind` nobody took (for tests and diagnostics); an array read.
    public func dropCount(_ kind: EventKind) -> Int { dropCounts[Int(kind.rawValue)] }

    // MARK: Actions

    /// Sends a nil-target action ("close", "copy"...) to the keyboard first responder and
    /// along its chain until a responder implements it. Returns who did.
    @discardableResult
    public func sendAction(_ name: String, from first: Responder? = nil) -> Responder? {
        let action = router.action(name)
        let start = first ?? keyboardChainStart
        var r: Responder? = start
        var steps = 0
        while let cur = r, steps < Router.maxChainLength {
            if callHandler(cur, .action(action)) == .handled {
                enqueue(.action(id, cur, action))
                return cur
            }
            r = router.nextResponder(after: cur, seat: id)
            steps += 1
        }
        drop(.action)
        return nil
    }

    // MARK: Layout

    /// Rebuilds `layout` from the root's mapped output nodes, in tree order.
    func refreshLayout() {
        layout.frames.removeAll(keepingCapacity: true)
        var c = tree.nodes[0].firstAbove
        while c != NodeRecord.none {
            let r = tree.nodes[Int(c)]
            if r.kind == .output && r.mapped { layout.frames.append(Rect(r.x, r.y, r.width, r.height)) }
            c = r.next
        }
        layoutBox = layout.boundingBox
        if let first = layout.frames.first(where: { !$0.isEmpty }) {
            firstOutput = (
                Double(first.x), Double(first.y),
                Double(first.x) + Double(first.width) - 1 / 256, Double(first.y) + Double(first.height) - 1 / 256
            )
        } else {
            firstOutput = (.infinity, .infinity, -.infinity, -.infinity) // holds no point
        }
    }

    /// The bounding box of the outputs, or the explicit absolute mapping.
    var absoluteRect: Rect { absoluteMapping ?? layoutBox }

    func mapAbsolute(_ x: Double, _ y: Double) -> Point { OutputLayout.map(x: x, y: y, onto: absoluteRect) }

    /// The nearest point inside some output (the cursor never leaves the layout).
    @inline(__always) func clampToLayout(_ p: Point) -> Point {
        // A point on the first output is what `closestPoint` returns from its first
        // iteration (clamped into that output, which changes nothing): computed here the
        // same way, without the call and the loop over the outputs.
        let o = firstOutput
        if p.x >= o.minX, p.x <= o.maxX, p.y >= o.minY, p.y <= o.maxY {
            return Point(min(max(p.x, o.minX), o.maxX), min(max(p.y, o.minY), o.maxY))
        }
        return layout.closestPoint(to: p)
    }

    // MARK: Scene changes

    /// The scene changed under the seat: re-pick the pointer at once, cancel touches and
    /// move keyboard focus away from surfaces that can no longer receive input.
    ///
    /// `stackingOnly`: the tree only restacked siblings (a raise on click), which changes
    /// what is on top and nothing the other checks read: every node is as alive, visible
    /// and able to take input as before, and the outputs' layout is the same. Then only
    /// what depends on the order runs (the re-picks, the constraint, the tablets), and the
    /// popup grab's claim on the keyboard. The scans this skips (the focus history, the
    /// touches, the layout) were about 1,000 instructions per click with 30 windows.
    func sceneDidChange(stackingOnly: Bool = false) {
        if stackingOnly {
            // The responder cache stays: a restack changes which node is hit (the re-pick
            // compares it), not the chain from a node (its ancestors, handlers and input
            // state), so the click's release after its raise needs no walk of the chain.
            if let top = popupGrab?.stack.last, keyboard.focus != top { moveKeyboardFocus(to: top) }
            // A restack destroys no node and changes no node's client: the pointer focus
            // surface resolved since the last other change holds at this generation too (the
            // click's release would resolve it again, about 50 instructions).
            let resolvedAt = pointer.focusSurface.treeGeneration
            if resolvedAt != UInt64.max && resolvedAt >= withRouter({ $0.reshapedGeneration }) {
                pointer.focusSurface.treeGeneration = tree.generation
            }
            pickAfterSceneChange()
            return
        }
        refreshLayout()
        // An output went away (or moved) from under the cursor: it goes to the nearest
        // point left on the layout; the re-pick below tells the surface there (enter, or
        // motion when it keeps the focus).
        cursor = clampToLayout(cursor)
        pointer.lastFirstResponder = nil
        prunePopupGrab()
        if let g = pointerGrab as? any InteractiveGrab, !tree.isAlive(g.node) { clearPointerGrab() }
        if gestureTargetGone() { pointer.gestureTarget = .none }
        cancelTouchesOfGoneOwners()
        refocusKeyboardIfNeeded()
        if let f = pointer.focus, !responderCanReceive(f) { setPointerFocus(nil) }
        pickAfterSceneChange()
    }

    /// What every scene change ends with: the pointer and the tablet tools find what is
    /// under them now.
    private func pickAfterSceneChange() {
        if pointer.heldButtonCount == 0 && pointerClaim == nil { repick(time: lastTime, motion: false) }
        constraintSceneDidChange()
        flushPointerFrames()
        // With no tablet, pad or tablet frame there is nothing to follow: the call's loops
        // and the frame list's clear cost about 115 instructions per click's raise.
        if !tablet.tools.isEmpty || !pads.records.isEmpty || !tablet.frameClients.isEmpty { tabletSceneDidChange() }
    }

    func responderCanReceive(_ r: Responder) -> Bool {
        switch r {
        case .node(let n): tree.canReceiveInput(n)
        case .client(let c): router.isAlive(c)
        case .seat: true
        }
    }
}
