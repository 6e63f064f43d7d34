import InputRouter

/// What clients believe, rebuilt from nothing but the deliveries they were sent, as a
/// Wayland client's toolkit would: which keys, buttons and touch points it thinks are
/// down. Wraps another sink, like the invariant checker.
///
/// A client forgets keys on `keyboard.leave`, buttons on `pointer.leave`, touch points on
/// `touch.up` and `touch.cancel`. A surface the client destroyed (or a client that went
/// away) takes what was held on it along, as toolkits do when they destroy a surface.
public struct ClientModel<Inner: DeliverySink>: DeliverySink {
    public var inner: Inner
    public let router: Router

    struct Belief {
        var keyboardSurface: NodeID?
        var keys: Set<UInt32> = []
        var buttons: [NodeID: Set<UInt32>] = [:]
        var touches: [Int32: NodeID] = [:]
    }
    /// Per seat and client.
    private var beliefs: [SeatID: [ClientID: Belief]] = [:]

    public init(wrapping inner: Inner, router: Router) {
        self.inner = inner
        self.router = router
    }

    public mutating func deliver(_ d: Delivery, from queue: DeliveryQueue) {
        apply(d, queue)
        inner.deliver(d, from: queue)
    }

    private mutating func apply(_ d: Delivery, _ queue: DeliveryQueue) {
        let tree = router.tree
        func client(_ n: NodeID) -> ClientID? { tree.client(of: n) }
        func edit(_ c: ClientID, _ body: (inout Belief) -> Void) {
            body(&beliefs[d.seat, default: [:]][c, default: Belief()])
        }
        switch d {
        case .keyboardEnter(_, let n, let keys, _):
            if let c = client(n) {
                edit(c) {
                    $0.keyboardSurface = n
                    $0.keys = Set(queue.keys(keys))
                }
            }
        case .keyboardLeave(_, let n, _):
            if let c = client(n) {
                edit(c) {
                    $0.keyboardSurface = nil
                    $0.keys = []
                }
            }
        case .key(_, let n, _, let k, let state, _):
            if let c = client(n) {
                edit(c) { if state == .pressed { $0.keys.insert(k) } else { $0.keys.remove(k) } }
            }
        case .pointerLeave(_, let n, _):
            if let c = client(n) { edit(c) { $0.buttons[n] = nil } }
        case .pointerButton(_, let n, _, let b, let state, _):
            if let c = client(n) {
                edit(c) {
                    if state == .pressed { $0.buttons[n, default: []].insert(b) } else { $0.buttons[n]?.remove(b) }
                }
            }
        case .touchDown(_, let n, _, let slot, _, _):
            if let c = client(n) { edit(c) { $0.touches[slot] = n } }
        case .touchUp(_, let n, _, let slot, _):
            if let c = client(n) { edit(c) { $0.touches[slot] = nil } }
        case .touchCancel(_, let c):
            edit(c) { $0.touches = [:] }
        case .touchReleased(_, let c, _, let slot, _):
            edit(c) { $0.touches[slot] = nil }
        default:
            break
        }
    }

    /// Drops the beliefs of clients that are gone (`stuck()` skips them anyway), so a model
    /// kept for hours does not grow with every client ever connected. Not per delivery.
    public mutating func forgetGone() {
        for (seat, clients) in beliefs { beliefs[seat] = clients.filter { router.isAlive($0.key) } }
    }

    /// What live clients still believe is held, one line each; empty when nothing is.
    public func stuck() -> [String] {
        let tree = router.tree
        var out: [String] = []
        for (seat, clients) in beliefs.sorted(by: { $0.key.index < $1.key.index }) {
            for (c, b) in clients.sorted(by: { $0.key.index < $1.key.index }) where router.isAlive(c) {
                if let s = b.keyboardSurface, tree.isAlive(s), !b.keys.isEmpty {
                    out.append("\(seat) \(c) believes keys \(b.keys.sorted()) are down on \(s)")
                }
                for (n, held) in b.buttons where tree.isAlive(n) && !held.isEmpty {
                    out.append("\(seat) \(c) believes buttons \(held.sorted()) are down on \(n)")
                }
                for (slot, n) in b.touches where tree.isAlive(n) {
                    out.append("\(seat) \(c) believes touch point \(slot) is down on \(n)")
                }
            }
        }
        return out
    }
}
