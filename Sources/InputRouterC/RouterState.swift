// The state behind one `struct ir_router *`, and the helpers every C entry point shares.
import CInputRouterAPI
import InputRouter

/// What one `struct ir_router *` stands for: the core's router and what the C face keeps
/// beside it. Nothing here is global: every C call reaches only the state of its handle.
final class RouterState {
    let router = Router()
    /// Per node slot, one more than the newest generation handed out to C (0: none yet),
    /// so an id never issued is told apart from a destroyed one (`resolveNode`).
    var issuedGenerations: [UInt32] = [1] // the root, generation 0, is "issued"
    /// Per seat, the devices added and not removed: a short list searched in order (a
    /// seat has a handful of devices; no hashing per event).
    var presentDevices: [[UInt32]] = []
    /// The drained deliveries go through the invariant checker, then to the C callback and
    /// the trace (`DeliveryForwarder`). Taken out while a drain runs.
    var checker: InvariantChecker<DeliveryForwarder>?
    /// Whether drains pass through the checker or straight to its inner forwarder.
    var checksInvariants = true
    /// Set while a call that changes the router runs: a callback from inside it (a node
    /// handler, a binding, the drain's callback) that calls a changing function gets
    /// IR_ERROR_BUSY instead of re-entering the core mid-change.
    var busy = false
    /// The detail of the last error that has one (a keymap's or a binding's reason).
    var lastErrorText = ""

    init() {
        checker = InvariantChecker(wrapping: DeliveryForwarder(router: router), router: router, mode: .collect)
    }
}

/// Runs `body` with the router state, or returns the error that stops it: a null handle,
/// or a call from inside one of this router's callbacks.
@inline(__always) func changing(_ handle: OpaquePointer?, _ body: (RouterState) -> ir_error) -> ir_error {
    guard let state = routerState(handle) else { return IR_ERROR_NULL_HANDLE }
    guard !state.busy else { return IR_ERROR_BUSY }
    state.busy = true
    defer { state.busy = false }
    return body(state)
}

/// Runs `body` with the router state for a call that only reads the tree and seats,
/// allowed inside callbacks too.
@inline(__always) func reading(_ handle: OpaquePointer?, _ body: (RouterState) -> ir_error) -> ir_error {
    guard let state = routerState(handle) else { return IR_ERROR_NULL_HANDLE }
    return body(state)
}

/// Runs `body` with the state for a call that reads what a callback may be changing (the
/// trace, the checker, the keymap): refused inside callbacks, like a change.
@inline(__always) func readingOutsideCallbacks(_ handle: OpaquePointer?, _ body: (RouterState) -> ir_error)
    -> ir_error
{
    guard let state = routerState(handle) else { return IR_ERROR_NULL_HANDLE }
    guard !state.busy else { return IR_ERROR_BUSY }
    return body(state)
}

extension RouterState {
    /// The C id of a node: its generation in the high half, its slot in the low half.
    func cID(_ node: NodeID) -> UInt64 { UInt64(node.generation) << 32 | UInt64(node.index) }

    /// Records that `node` was handed to C.
    func issued(_ node: NodeID) -> UInt64 {
        let slot = Int(node.index)
        while issuedGenerations.count <= slot { issuedGenerations.append(0) }
        issuedGenerations[slot] = max(issuedGenerations[slot], node.generation &+ 1)
        return cID(node)
    }

    /// The live node a C id names, or why there is none. The root (id 0) only when
    /// `rootAllowed` (as a parent).
    func resolveNode(_ id: UInt64, rootAllowed: Bool = false) -> Result<NodeID, CError> {
        let node = NodeID(index: UInt32(truncatingIfNeeded: id), generation: UInt32(truncatingIfNeeded: id >> 32))
        if node == router.tree.root {
            return rootAllowed ? .success(node) : .failure(CError(IR_ERROR_INVALID_ARGUMENT))
        }
        let slot = Int(node.index)
        guard slot < issuedGenerations.count, node.generation < issuedGenerations[slot] else {
            return .failure(CError(IR_ERROR_UNKNOWN_NODE))
        }
        guard router.tree.isAlive(node) else { return .failure(CError(IR_ERROR_DESTROYED_NODE)) }
        return .success(node)
    }

    /// The seat a C seat number names.
    func resolveSeat(_ seat: UInt32) -> Seat? {
        Int(seat) < router.seats.count ? router.seats[Int(seat)] : nil
    }

    func isPresent(_ device: UInt32, seat: UInt32) -> Bool { presentDevices[Int(seat)].contains(device) }
}

/// An error code as a Swift error, for `Result`.
struct CError: Error {
    var code: ir_error
    init(_ code: ir_error) { self.code = code }
}

/// Writes `text` snprintf's way: at most `size` bytes with the NUL into `buffer`, the whole
/// length (without the NUL) into `length`.
func copyOut(_ text: String, _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ length: UnsafeMutablePointer<Int>?)
    -> ir_error
{
    if size > 0, buffer == nil { return IR_ERROR_NULL_ARGUMENT }
    let bytes = Array(text.utf8)
    if let buffer, size > 0 {
        let n = min(bytes.count, size - 1)
        for i in 0..<n { buffer[i] = CChar(bitPattern: bytes[i]) }
        buffer[n] = 0
    }
    length?.pointee = bytes.count
    return IR_OK
}

/// A C string as a Swift one; nil or empty gives `fallback`.
func string(_ text: UnsafePointer<CChar>?, or fallback: String) -> String {
    guard let text else { return fallback }
    let s = String(cString: text)
    return s.isEmpty ? fallback : s
}
