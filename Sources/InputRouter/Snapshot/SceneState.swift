// What a scene snapshot holds: everything routing depends on, as plain values. The core
// captures it (`Router.captureScene()`) and rebuilds a router from it
// (`Router(restoring:handlers:)`); reading and writing it as text is done outside the core
// (InputRouterRecording's `SceneSnapshot`), since the core does no I/O. docs/bug-reports.md
// describes the format.
//
// Nodes are named by their slot in the tree: traces print unnamed nodes by slot
// (`toplevel#7`), so a rebuilt tree puts every node back in its slot.

/// The whole scene: the tree, the clients and every seat.
public struct SceneState: Sendable, Equatable {
    /// Nodes more transparent than this are skipped by hit-testing.
    public var opacityThreshold: Float = 0.01
    /// How many slots the tree has (the root's included); slots with no node are free.
    public var slotCount: UInt32 = 1
    /// The free slots in the order the tree reuses them from the end.
    public var freeSlots: [UInt32] = []
    /// Every live node but the root, each after its parent; siblings bottom to top.
    public var nodes: [NodeState] = []
    /// Clients by index from 1 (0 is the compositor).
    public var clients: [ClientState] = []
    public var seats: [SeatState] = []
    /// The router's serial counter (when it makes its own serials).
    public var serialCounter: UInt32 = 0
    public init() {}
}

/// One node of the tree.
public struct NodeState: Sendable, Equatable {
    public var slot: UInt32
    public var generation: UInt32 = 0
    /// The parent's slot (0: the root); nil: detached (alive, in no tree until reparented).
    public var parent: UInt32? = 0
    public var kind: NodeKind
    public var name: String = ""
    public var client: UInt32 = 0
    public var frame: Rect
    public var bufferScale: Int32 = 1
    public var layer: ChildLayer = .above
    public var mapped = true
    public var acceptsInput = true
    public var opacity: Float = 1
    public var clipsChildren = false
    public var canBecomeFirstResponder = false
    /// nil: the infinite default region.
    public var inputRegion: [Rect]?
    /// The names the embedder gave the node's containment test and handler (nil: none).
    public var containmentTest: String?
    public var handler: String?
    /// The slot of the next-responder override.
    public var nextResponder: UInt32?
    public init(slot: UInt32, kind: NodeKind, frame: Rect) {
        self.slot = slot
        self.kind = kind
        self.frame = frame
    }
}

/// A client: its name (traces print it), whether it is still connected, its responder's
/// handler's name.
public struct ClientState: Sendable, Equatable {
    public var name: String
    public var alive = true
    public var handler: String?
    public init(name: String) { self.name = name }
}

/// A responder as a snapshot names it.
public enum ResponderState: Sendable, Equatable {
    case node(UInt32)
    case client(UInt32)
    case seat(UInt32)
}

/// Who gets the release of a held key.
public enum KeyRecipientState: Sendable, Equatable {
    case none
    case client(UInt32)
    case responder(ResponderState)
    case consumed
    case grab
    case inputMethod
}

/// Who owns a touch point.
public enum TouchOwnerState: Sendable, Equatable {
    case client(UInt32)
    case responder(ResponderState)
    case recognizer(Int)
    case grab
    case cancelled
}

/// A grab the snapshot can name. Grabs an embedder wrote itself cannot be rebuilt from
/// a name: they are written as `.other(typeName)` and rebuilding refuses them.
public enum GrabState: Sendable, Equatable {
    /// `xdg_popup.grab`: the client and the popups, bottom first.
    case popup(client: UInt32, stack: [UInt32])
    case move(node: UInt32, offset: Point)
    case resize(node: UInt32, edges: UInt32, start: Point, startFrame: Rect)
    case other(String)
}

/// One seat's state.
public struct SeatState: Sendable, Equatable {
    public var name: String
    /// Devices present: id, capabilities.
    public var devices: [(id: UInt32, capabilities: UInt16)] = []
    /// What each client bound, by client index (0 is the compositor).
    public var bound: [UInt8] = []
    public var cursor = Point.zero
    public var pointerFocus: ResponderState?
    /// The surface-local position the focus was last told.
    public var pointerLocal = Point.zero
    /// Buttons held seat-wide: code and how many presses hold it (its release is forwarded
    /// at 0); what each device holds, oldest first (a device's removal releases those); and
    /// the codes whose release is swallowed. The two differ: one device may release what
    /// another pressed.
    public var heldButtons: [(code: UInt32, count: UInt8)] = []
    public var deviceButtons: [(device: UInt32, codes: [UInt32])] = []
    public var consumedButtons: [UInt32] = []
    public var keyboardFocus: UInt32?
    public var keyboardEntered = false
    /// The surfaces that had the focus, the latest last.
    public var focusHistory: [UInt32] = []
    /// Keys held seat-wide in press order: code, presses holding it, who gets the release;
    /// and what each device holds (as for buttons).
    public var heldKeys: [(code: UInt32, count: UInt8, recipient: KeyRecipientState)] = []
    public var deviceKeys: [(device: UInt32, codes: [UInt32])] = []
    public var modifiers = Modifiers.none
    public var touchPoints: [(slot: Int32, device: UInt32, owner: TouchOwnerState, client: UInt32)] = []
    /// The clients owed a `wl_touch.frame` (told something since the last frame).
    public var touchFrameClients: [UInt32] = []
    public var pointerGrab: GrabState?
    /// The keymap's names (rules, model, layout, variant, options), as the embedder gave them.
    public var keymap: [String: String] = [:]
    /// Key bindings in order: keysym, modifier mask, whether they run while locked, name.
    public var bindings: [(keysym: UInt32, modifiers: UInt32, whileLocked: Bool, name: String)] = []
    public var handler: String?
    public var absoluteMapping: Rect?
    public var lastTime: UInt64 = 0
    public init(name: String) { self.name = name }

    public static func == (a: SeatState, b: SeatState) -> Bool {
        a.name == b.name && a.devices.map(\.id) == b.devices.map(\.id)
            && a.devices.map(\.capabilities) == b.devices.map(\.capabilities) && a.bound == b.bound
            && a.cursor == b.cursor && a.pointerFocus == b.pointerFocus && a.pointerLocal == b.pointerLocal
            && a.heldButtons.map(\.code) == b.heldButtons.map(\.code)
            && a.heldButtons.map(\.count) == b.heldButtons.map(\.count)
            && a.deviceButtons.map(\.device) == b.deviceButtons.map(\.device)
            && a.deviceButtons.map(\.codes) == b.deviceButtons.map(\.codes) && a.consumedButtons == b.consumedButtons
            && a.keyboardFocus == b.keyboardFocus && a.keyboardEntered == b.keyboardEntered
            && a.focusHistory == b.focusHistory && a.heldKeys.map(\.count) == b.heldKeys.map(\.count)
            && a.heldKeys.map(\.code) == b.heldKeys.map(\.code)
            && a.deviceKeys.map(\.device) == b.deviceKeys.map(\.device)
            && a.deviceKeys.map(\.codes) == b.deviceKeys.map(\.codes) && a.touchFrameClients == b.touchFrameClients
            && a.heldKeys.map(\.recipient) == b.heldKeys.map(\.recipient) && a.modifiers == b.modifiers
            && a.touchPoints.map(\.slot) == b.touchPoints.map(\.slot)
            && a.touchPoints.map(\.device) == b.touchPoints.map(\.device)
            && a.touchPoints.map(\.owner) == b.touchPoints.map(\.owner)
            && a.touchPoints.map(\.client) == b.touchPoints.map(\.client) && a.pointerGrab == b.pointerGrab
            && a.keymap == b.keymap && a.bindings.map(\.keysym) == b.bindings.map(\.keysym)
            && a.bindings.map(\.modifiers) == b.bindings.map(\.modifiers)
            && a.bindings.map(\.whileLocked) == b.bindings.map(\.whileLocked)
            && a.bindings.map(\.name) == b.bindings.map(\.name) && a.handler == b.handler
            && a.absoluteMapping == b.absoluteMapping && a.lastTime == b.lastTime
    }
}

/// What a rebuilt scene's names stand for: the embedder's handlers, containment tests and
/// binding actions. A name with no entry rebuilds as no handler (nodes, clients, the seat),
/// no containment test, and a binding that does nothing but still takes its key.
public struct SceneHandlers {
    public var nodeHandlers: [String: NodeHandler] = [:]
    /// Made per node: a test usually reads the node's own size.
    public var containmentTests: [String: (SurfaceTree, NodeID) -> (Point) -> Bool] = [:]
    public var bindingActions: [String: () -> Void] = [:]
    /// The handler a name with no entry gets (nil: none). A replay that follows a journal
    /// sets one, since the journal answers for every handler.
    public var fallbackHandler: NodeHandler?
    /// The name of a containment test that contains no point (a container that only
    /// groups its children); every `SceneHandlers` knows it.
    public static let takesNoInput = "takes no input"
    public init() { containmentTests[Self.takesNoInput] = { _, _ in { _ in false } } }
}

/// Why a scene cannot be rebuilt.
public struct SceneRebuildError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The names of handlers, containment tests and bindings, kept beside the closures so a
/// snapshot can say which is which. Off the routing path: read only by a capture.
struct SnapshotNames {
    var handlers: [UInt32: String] = [:]
    var containmentTests: [UInt32: String] = [:]
    mutating func forget(slot: UInt32) {
        handlers[slot] = nil
        containmentTests[slot] = nil
    }
}
