// The scene's edits during a flight recorder's window, in order with its input: what the
// embedder did to the tree, the clients and the seats between (and inside) routed events,
// and what each handler the router called answered. A bundle's snapshot holds the scene when
// the window began; replaying these edits at the same points, and answering each handler
// call as the live handler did, rebuilds every later scene too (docs/bug-reports.md).
//
// Only the embedder's edits are kept: while the router routes an event, what it changes
// itself (a move grab moving its window, a focus that follows a click) follows from the
// input and is redone by the replay. A handler or the `beforePress` hook is the embedder's
// code again: its edits are kept, between the call's entry and its answer.
//
// Recording writes into a preallocated ring and never allocates (an edit's name is a
// String the caller already holds: stored, not copied).

/// One edit, or one handler call's start or answer. Fields an edit does not use are left
/// at their defaults.
public struct SceneEdit: Sendable, Equatable {
    public enum Op: UInt8, Sendable, CaseIterable, CustomStringConvertible {
        case createNode, destroy, move, resize, setBuffer, setName, setMapped, setAcceptsInput, setOpacity
        case setClipsChildren, setFocusable, setInputRegion, setContainmentTest, setHandler, setNextResponder
        case setParent, detach, raise, lower, placeAbove, placeBelow
        case addClient, removeClient, setClientHandler
        case bind, keyboardFocus, resignKeyboardFocus, beginMove, beginResize, cancelPointerGrab, dismissPopups
        /// A handler (or the `beforePress` hook) is called: `callee` says which.
        case call
        /// Its answer: `flag` true for `.handled`.
        case answer

        public var description: String {
            switch self {
            case .createNode: "createNode"
            case .destroy: "destroy"
            case .move: "move"
            case .resize: "resize"
            case .setBuffer: "setBuffer"
            case .setName: "setName"
            case .setMapped: "setMapped"
            case .setAcceptsInput: "setAcceptsInput"
            case .setOpacity: "setOpacity"
            case .setClipsChildren: "setClipsChildren"
            case .setFocusable: "setFocusable"
            case .setInputRegion: "setInputRegion"
            case .setContainmentTest: "setContainmentTest"
            case .setHandler: "setHandler"
            case .setNextResponder: "setNextResponder"
            case .setParent: "setParent"
            case .detach: "detach"
            case .raise: "raise"
            case .lower: "lower"
            case .placeAbove: "placeAbove"
            case .placeBelow: "placeBelow"
            case .addClient: "addClient"
            case .removeClient: "removeClient"
            case .setClientHandler: "setClientHandler"
            case .bind: "bind"
            case .keyboardFocus: "keyboardFocus"
            case .resignKeyboardFocus: "resignKeyboardFocus"
            case .beginMove: "beginMove"
            case .beginResize: "beginResize"
            case .cancelPointerGrab: "cancelPointerGrab"
            case .dismissPopups: "dismissPopups"
            case .call: "call"
            case .answer: "answer"
            }
        }
    }

    /// Who a `.call` calls.
    public enum Callee: UInt8, Sendable {
        case node, client, seat, beforePress
    }

    /// How many events had been recorded when the edit was made: an edit at N is made
    /// after the router was given event N-1 (0-based), before event N.
    public var at: UInt64 = 0
    public var op: Op
    /// The node edited (for `createNode`, the node made).
    public var node = NodeID(index: 0, generation: 0)
    /// The other node: the parent, the sibling, the next responder, the new focus.
    public var other: NodeID?
    public var seat: UInt32 = 0
    public var client: UInt32 = 0
    /// Positions and sizes: `createNode` frame, `move` x y, `resize` w h, `setBuffer` w h
    /// scale, `bind` the device bits, `beginResize` the edges, `createNode` the kind.
    public var a: Int32 = 0
    public var b: Int32 = 0
    public var c: Int32 = 0
    public var d: Int32 = 0
    public var kind: NodeKind = .compositor
    public var opacity: Float = 1
    /// The Bool an edit sets; for `createNode`/`setParent` the layer is below; for a
    /// handler or containment test, that one is set (false: removed).
    public var flag = false
    /// A name: the node's, the client's, the handler's or containment test's.
    public var name = ""
    public var region: Region?
    /// `beginMove`'s anchor.
    public var point: Point?
    public var callee: Callee = .node

    public init(_ op: Op) { self.op = op }
}

/// The journal a flight recorder keeps (`FlightRecorder.journal`), or the one a replay
/// follows (`SceneJournal(replaying:)`).
public final class SceneJournal {
    public let capacity: Int
    private var ring: ContiguousArray<SceneEdit>
    private var head = 0
    private var count = 0
    /// The ring filled up: the recorder starts a new window at its next event.
    public private(set) var overflowed = false
    /// Events recorded so far: what the next edit's `at` is.
    public internal(set) var position: UInt64 = 0
    /// Whether edits are kept (a recorder's journal); a replaying journal keeps none.
    public var isRecording = true
    /// More than 0 while the router routes an event: its own edits are not the embedder's.
    @usableFromInline var routingDepth = 0

    /// Replaying: the edits to redo and where the replay stands.
    private var script: [SceneEdit] = []
    private var cursor = 0
    public private(set) var isReplaying = false
    /// What a replayed `setHandler` installs: the journal answers for it.
    var placeholder: NodeHandler = { _ in .notHandled }
    /// Where replayed edits go.
    weak var replayRouter: Router?

    public init(capacity: Int = 65_536) {
        self.capacity = max(capacity, 1)
        ring = ContiguousArray(repeating: SceneEdit(.answer), count: self.capacity)
    }

    /// A journal that replays `edits` (their `at` counted from the first replayed event).
    public init(replaying edits: [SceneEdit]) {
        capacity = 1
        ring = []
        script = edits
        isRecording = false
        isReplaying = true
    }

    // MARK: Recording

    /// Whether an edit made now is the embedder's and is kept.
    @inline(__always) var accepts: Bool { isRecording && routingDepth == 0 }

    @inline(__always) func append(_ edit: SceneEdit) {
        guard count < capacity else {
            overflowed = true
            return
        }
        var e = edit
        e.at = position
        ring[(head + count) % capacity] = e
        count += 1
    }

    /// Keeps `edit` if it is the embedder's.
    @inline(__always) func note(_ edit: @autoclosure () -> SceneEdit) {
        if accepts { append(edit()) }
    }

    /// Forgets every edit.
    public func clear() {
        for i in 0..<count { ring[(head + i) % capacity] = SceneEdit(.answer) }
        head = 0
        count = 0
        overflowed = false
    }

    /// Forgets the edits made at or before `position` (the scene captured then holds them).
    public func drop(through position: UInt64) {
        while count > 0, ring[head].at <= position {
            ring[head] = SceneEdit(.answer)
            head = (head + 1) % capacity
            count -= 1
        }
    }

    /// The edits made after `position`, oldest first (a copy).
    public func edits(after position: UInt64) -> [SceneEdit] {
        (0..<count).map { ring[(head + $0) % capacity] }.filter { $0.at > position }
    }

    /// Calls a handler: recorded, its edits are kept between the call and its answer;
    /// replayed, the recorded answer is given and the handler's edits redone.
    @inline(__always) func call(
        _ callee: SceneEdit.Callee, node: NodeID = NodeID(index: 0, generation: 0), client: UInt32 = 0,
        _ body: () -> Disposition
    ) -> Disposition {
        if isReplaying { return replayCall(callee, node: node, client: client) }
        guard isRecording else { return body() }
        var start = SceneEdit(.call)
        start.callee = callee
        start.node = node
        start.client = client
        append(start)
        let depth = routingDepth
        routingDepth = 0
        let result = body()
        routingDepth = depth
        var answer = SceneEdit(.answer)
        answer.flag = result == .handled
        append(answer)
        return result
    }

    // MARK: Replaying

    /// Redoes the edits made before event `index` (counted from the first replayed event),
    /// skipping handler calls recorded for an earlier event that the replay did not make.
    public func applyEdits(before index: UInt64) {
        while cursor < script.count, script[cursor].at <= index {
            if script[cursor].op == .call {
                skipCall()
            } else if script[cursor].op == .answer {
                cursor += 1
            } else {
                let e = script[cursor]
                cursor += 1
                apply(e)
            }
        }
    }

    private func skipCall() {
        var depth = 0
        repeat {
            if script[cursor].op == .call { depth += 1 }
            if script[cursor].op == .answer { depth -= 1 }
            cursor += 1
        } while depth > 0 && cursor < script.count
    }

    private func replayCall(_ callee: SceneEdit.Callee, node: NodeID, client: UInt32) -> Disposition {
        guard cursor < script.count, script[cursor].op == .call, script[cursor].callee == callee,
            script[cursor].node == node, script[cursor].client == client
        else { return .notHandled }
        cursor += 1
        while cursor < script.count {
            let e = script[cursor]
            cursor += 1
            switch e.op {
            case .answer: return e.flag ? .handled : .notHandled
            case .call:
                // A call its edits did not make here: skip it.
                cursor -= 1
                skipCall()
            default: apply(e)
            }
        }
        return .notHandled
    }

    /// Redoes one edit on the replay's router.
    func apply(_ e: SceneEdit) {
        guard let router = replayRouter else { return }
        let tree = router.tree
        func seat() -> Seat? { Int(e.seat) < router.seats.count ? router.seats[Int(e.seat)] : nil }
        switch e.op {
        case .createNode:
            tree.createNode(
                e.kind, name: e.name, client: ClientID(index: e.client), parent: e.other,
                frame: Rect(e.a, e.b, e.c, e.d), layer: e.flag ? .below : .above)
        case .destroy: tree.destroy(e.node)
        case .move: tree.move(e.node, to: (e.a, e.b))
        case .resize: tree.resize(e.node, width: e.a, height: e.b)
        case .setBuffer: tree.setBuffer(e.node, width: e.a, height: e.b, scale: e.c)
        case .setName: tree.setName(e.node, e.name)
        case .setMapped: tree.setMapped(e.node, e.flag)
        case .setAcceptsInput: tree.setAcceptsInput(e.node, e.flag)
        case .setOpacity: tree.setOpacity(e.node, e.opacity)
        case .setClipsChildren: tree.setClipsChildren(e.node, e.flag)
        case .setFocusable: tree.setCanBecomeFirstResponder(e.node, e.flag)
        case .setInputRegion: tree.setInputRegion(e.node, e.region)
        case .setContainmentTest:
            let make = e.flag ? replayContainmentTests[e.name] : nil
            tree.setContainmentTest(e.node, name: e.name, make.map { $0(tree, e.node) })
        case .setHandler: tree.setHandler(e.node, name: e.name, e.flag ? placeholder : nil)
        case .setNextResponder: tree.setNextResponder(e.node, e.other)
        case .setParent: tree.setParent(e.node, e.other, layer: e.flag ? .below : .above)
        case .detach: tree.detach(e.node)
        case .raise: tree.raiseToTop(e.node)
        case .lower: tree.lowerToBottom(e.node)
        case .placeAbove: if let o = e.other { tree.place(e.node, above: o) }
        case .placeBelow: if let o = e.other { tree.place(e.node, below: o) }
        case .addClient: _ = router.addClient(name: e.name)
        case .removeClient: router.removeClient(ClientID(index: e.client))
        case .setClientHandler:
            router.setHandler(for: ClientID(index: e.client), name: e.name, e.flag ? placeholder : nil)
        case .bind:
            seat()?.setBound(
                BoundDevices(rawValue: UInt8(truncatingIfNeeded: e.a)), for: ClientID(index: e.client), e.flag)
        case .keyboardFocus: _ = seat()?.setKeyboardFocus(e.other)
        case .resignKeyboardFocus: seat()?.resignKeyboardFocus(e.node)
        case .beginMove: _ = seat()?.beginMove(e.node, anchor: e.point)
        case .beginResize: _ = seat()?.beginResize(e.node, edges: ResizeEdges(rawValue: UInt32(bitPattern: e.a)))
        case .cancelPointerGrab: seat()?.cancelPointerGrab()
        case .dismissPopups: seat()?.dismissPopups()
        case .call, .answer: break
        }
    }

    /// Containment tests by name, for replayed `setContainmentTest` edits.
    public var replayContainmentTests: [String: (SurfaceTree, NodeID) -> (Point) -> Bool] = [:]
}
