// The router's life, its clients and its tree of nodes.
import CInputRouterAPI
import InputRouter

@_cdecl("ir_router_create")
public func irRouterCreate() -> OpaquePointer? { retainedHandle(RouterState()) }

@_cdecl("ir_router_destroy")
public func irRouterDestroy(_ router: OpaquePointer?) {
    guard let router else { return }
    releaseRouterState(router)
}

@_cdecl("ir_router_add_client")
public func irRouterAddClient(
    _ router: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ client: UnsafeMutablePointer<UInt32>?
) -> ir_error {
    changing(router) { state in
        guard let client else { return IR_ERROR_NULL_ARGUMENT }
        client.pointee = state.router.addClient(name: string(name, or: "client")).index
        return IR_OK
    }
}

@_cdecl("ir_router_remove_client")
public func irRouterRemoveClient(_ router: OpaquePointer?, _ client: UInt32) -> ir_error {
    changing(router) { state in
        let id = ClientID(index: client)
        guard !id.isCompositor, state.router.isAlive(id) else { return IR_ERROR_UNKNOWN_CLIENT }
        state.router.removeClient(id)
        return IR_OK
    }
}

/// The core's kind for a C kind; nil outside the enum.
func nodeKind(_ kind: ir_node_kind) -> NodeKind? {
    switch kind {
    case IR_NODE_OUTPUT: .output
    case IR_NODE_COMPOSITOR: .compositor
    case IR_NODE_TOPLEVEL: .toplevel
    case IR_NODE_SUBSURFACE: .subsurface
    case IR_NODE_POPUP: .popup
    case IR_NODE_LAYER: .layer
    case IR_NODE_LOCK: .lock
    default: nil
    }
}

func childLayer(_ layer: ir_child_layer) -> ChildLayer? {
    switch layer {
    case IR_LAYER_ABOVE: .above
    case IR_LAYER_BELOW: .below
    default: nil
    }
}

func rect(_ r: ir_rect) -> Rect { Rect(r.x, r.y, r.width, r.height) }

@_cdecl("ir_router_create_node")
public func irRouterCreateNode(
    _ router: OpaquePointer?, _ kind: ir_node_kind, _ client: UInt32, _ parent: UInt64, _ layer: ir_child_layer,
    _ frame: ir_rect, _ name: UnsafePointer<CChar>?, _ node: UnsafeMutablePointer<UInt64>?
) -> ir_error {
    changing(router) { state in
        guard let node else { return IR_ERROR_NULL_ARGUMENT }
        guard let kind = nodeKind(kind), let layer = childLayer(layer), frame.width >= 0, frame.height >= 0 else {
            return IR_ERROR_INVALID_ARGUMENT
        }
        let owner = ClientID(index: client)
        guard state.router.isAlive(owner) else { return IR_ERROR_UNKNOWN_CLIENT }
        // Client surfaces belong to a client, the compositor's nodes to the compositor.
        guard kind.isClientSurface != owner.isCompositor else { return IR_ERROR_INVALID_ARGUMENT }
        let parentNode: NodeID
        switch state.resolveNode(parent, rootAllowed: true) {
        case .success(let p): parentNode = p
        case .failure(let e): return e.code
        }
        let created = state.router.tree.createNode(
            kind, name: string(name, or: ""), client: owner, parent: parentNode, frame: rect(frame), layer: layer)
        state.router.tree.setMapped(created, true)
        node.pointee = state.issued(created)
        return IR_OK
    }
}

/// Runs `body` on the live node `id` names, inside a changing call.
@inline(__always) func changingNode(
    _ router: OpaquePointer?, _ id: UInt64, _ body: (RouterState, NodeID) -> ir_error
) -> ir_error {
    changing(router) { state in
        switch state.resolveNode(id) {
        case .success(let node): body(state, node)
        case .failure(let e): e.code
        }
    }
}

@_cdecl("ir_router_destroy_node")
public func irRouterDestroyNode(_ router: OpaquePointer?, _ node: UInt64) -> ir_error {
    changingNode(router, node) { state, n in
        state.router.tree.destroy(n)
        return IR_OK
    }
}

@_cdecl("ir_router_set_frame")
public func irRouterSetFrame(_ router: OpaquePointer?, _ node: UInt64, _ frame: ir_rect) -> ir_error {
    changingNode(router, node) { state, n in
        guard frame.width >= 0, frame.height >= 0 else { return IR_ERROR_INVALID_ARGUMENT }
        state.router.tree.batchUpdates {
            state.router.tree.move(n, to: (frame.x, frame.y))
            state.router.tree.resize(n, width: frame.width, height: frame.height)
        }
        return IR_OK
    }
}

@_cdecl("ir_router_move_node")
public func irRouterMoveNode(_ router: OpaquePointer?, _ node: UInt64, _ x: Int32, _ y: Int32) -> ir_error {
    changingNode(router, node) { state, n in
        state.router.tree.move(n, to: (x, y))
        return IR_OK
    }
}

@_cdecl("ir_router_raise_node")
public func irRouterRaiseNode(_ router: OpaquePointer?, _ node: UInt64) -> ir_error {
    changingNode(router, node) { state, n in
        state.router.tree.raiseToTop(n)
        return IR_OK
    }
}

@_cdecl("ir_router_lower_node")
public func irRouterLowerNode(_ router: OpaquePointer?, _ node: UInt64) -> ir_error {
    changingNode(router, node) { state, n in
        state.router.tree.lowerToBottom(n)
        return IR_OK
    }
}

@_cdecl("ir_router_set_parent")
public func irRouterSetParent(_ router: OpaquePointer?, _ node: UInt64, _ parent: UInt64, _ layer: ir_child_layer)
    -> ir_error
{
    changingNode(router, node) { state, n in
        guard let layer = childLayer(layer) else { return IR_ERROR_INVALID_ARGUMENT }
        switch state.resolveNode(parent, rootAllowed: true) {
        case .success(let p):
            // The core refuses a cycle (the node itself or one of its descendants).
            return state.router.tree.setParent(n, p, layer: layer) ? IR_OK : IR_ERROR_INVALID_ARGUMENT
        case .failure(let e): return e.code
        }
    }
}

@_cdecl("ir_router_set_mapped")
public func irRouterSetMapped(_ router: OpaquePointer?, _ node: UInt64, _ mapped: Bool) -> ir_error {
    changingNode(router, node) { state, n in
        state.router.tree.setMapped(n, mapped)
        return IR_OK
    }
}

@_cdecl("ir_router_set_input_region")
public func irRouterSetInputRegion(
    _ router: OpaquePointer?, _ node: UInt64, _ rects: UnsafePointer<ir_rect>?, _ count: Int
) -> ir_error {
    changingNode(router, node) { state, n in
        guard let rects else {
            guard count == 0 else { return IR_ERROR_NULL_ARGUMENT }
            state.router.tree.setInputRegion(n, nil)
            return IR_OK
        }
        guard count >= 0 else { return IR_ERROR_INVALID_ARGUMENT }
        let region = Region(UnsafeBufferPointer(start: rects, count: count).map(rect))
        state.router.tree.setInputRegion(n, region)
        return IR_OK
    }
}

@_cdecl("ir_router_set_clips_children")
public func irRouterSetClipsChildren(_ router: OpaquePointer?, _ node: UInt64, _ clips: Bool) -> ir_error {
    changingNode(router, node) { state, n in
        state.router.tree.setClipsChildren(n, clips)
        return IR_OK
    }
}

@_cdecl("ir_router_set_accepts_input")
public func irRouterSetAcceptsInput(_ router: OpaquePointer?, _ node: UInt64, _ accepts: Bool) -> ir_error {
    changingNode(router, node) { state, n in
        state.router.tree.setAcceptsInput(n, accepts)
        return IR_OK
    }
}

@_cdecl("ir_router_node_client")
public func irRouterNodeClient(_ router: OpaquePointer?, _ node: UInt64, _ client: UnsafeMutablePointer<UInt32>?)
    -> ir_error
{
    reading(router) { state in
        guard let client else { return IR_ERROR_NULL_ARGUMENT }
        switch state.resolveNode(node) {
        case .success(let n):
            client.pointee = state.router.tree.client(of: n)?.index ?? UInt32.max // IR_CLIENT_NONE
            return IR_OK
        case .failure(let e): return e.code
        }
    }
}

@_cdecl("ir_router_node_alive")
public func irRouterNodeAlive(_ router: OpaquePointer?, _ node: UInt64, _ alive: UnsafeMutablePointer<Bool>?)
    -> ir_error
{
    reading(router) { state in
        guard let alive else { return IR_ERROR_NULL_ARGUMENT }
        switch state.resolveNode(node) {
        case .success: alive.pointee = true
        case .failure(let e) where e.code == IR_ERROR_DESTROYED_NODE: alive.pointee = false
        case .failure(let e): return e.code
        }
        return IR_OK
    }
}

@_cdecl("ir_router_hit_test")
public func irRouterHitTest(
    _ router: OpaquePointer?, _ x: Double, _ y: Double, _ node: UnsafeMutablePointer<UInt64>?,
    _ localX: UnsafeMutablePointer<Double>?, _ localY: UnsafeMutablePointer<Double>?
) -> ir_error {
    reading(router) { state in
        guard let node, let localX, let localY else { return IR_ERROR_NULL_ARGUMENT }
        guard x.isFinite, y.isFinite else { return IR_ERROR_INVALID_ARGUMENT }
        if let hit = state.router.tree.hitTest(Point(x, y)) {
            node.pointee = state.issued(hit.node)
            localX.pointee = hit.local.x
            localY.pointee = hit.local.y
        } else {
            node.pointee = 0 // IR_NODE_NONE
            localX.pointee = 0
            localY.pointee = 0
        }
        return IR_OK
    }
}
