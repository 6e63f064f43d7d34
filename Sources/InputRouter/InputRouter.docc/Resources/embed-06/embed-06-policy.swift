// Route input in your own compositor, step 6: the decisions are yours.
import InputRouter
import InputRouterRecording
import InputRouterWayland

let socket = CommandLine.arguments.dropFirst().first ?? "wayland-tutorial"
let display = try WaylandDisplay()
display.offerShm()
try display.addSocket(socket)

var configuration = WaylandServer.Configuration.embedded
configuration.outputWidth = 1280
configuration.outputHeight = 720
configuration.offersShm = false
// Placement is a field of the policy: new windows cascade from the usable area's corner.
var placed: Int32 = 0
configuration.policy.placeToplevel = { _, _, usable in
    placed += 1
    return (usable.x + 40 * placed, usable.y + 40 * placed)
}
let server = try WaylandServer(display: display, configuration: configuration)
let tree = server.router.tree
let seat = server.seat
print("listening on \(socket)")

let desktop = tree.createNode(
    .compositor, name: "desktop", parent: server.outputNode,
    frame: Rect(0, 0, 1280, 720))
tree.lowerToBottom(desktop)
tree.setHandler(desktop) { event in
    switch event {
    case .pointerEnter, .pointerMotion: return .handled
    case .pointerButton(let button, .pressed, let at):
        // A click on no window: nobody has the keyboard, as on most desktops.
        print("desktop took button \(button) at \(Int(at.x)),\(Int(at.y))")
        _ = seat.setKeyboardFocus(nil)
        return .handled
    case .pointerButton(_, .released, _): return .handled
    default: return .notHandled
    }
}
server.warpPointer(to: Point(x: 640, y: 360))

server.deliveryObserver = { delivery, queue in
    print("deliver: " + TraceSink.line(delivery, queue: queue, router: server.router))
}

/// The toplevel a node belongs to: up through subsurfaces and popups.
@MainActor func toplevel(of node: NodeID) -> NodeID? {
    var n: NodeID? = node
    while let c = n, tree.kind(of: c) != .toplevel { n = tree.parent(of: c) }
    return n
}

// Focus follows click, asked in the press's capture phase: the client gets its keyboard
// enter before the press, so the press is the newest serial it saw.
server.beforePress = { node, seat in
    guard case .client(let client) = tree.owner(of: node), let top = toplevel(of: node) else { return }
    if seat.keyboardFirstResponder.flatMap(toplevel(of:)) != top {
        print("focus: client \(client) gets the keyboard")
        server.activate(top, seat: seat)
    }
}

let input = try CommandLine.arguments.dropFirst(2).first.map { try DebugEventsReader.read(path: $0) }
var pending = input?.events ?? []
while let first = pending.first, case .deviceAdded = first.kind {
    server.handle(pending.removeFirst(), description: input?.descriptions[first.device])
}

// Until the input is played and the last window has closed; without input, until killed.
while input == nil || !pending.isEmpty || !server.mappedToplevels.isEmpty {
    display.flushClients()
    display.dispatch(timeoutMS: 10)
    if !server.mappedToplevels.isEmpty, let event = pending.first {
        pending.removeFirst()
        // Where a press goes: the node under the cursor and the chain it would walk.
        if case .pointerButton(_, .pressed) = event.kind, let hit = tree.hitTest(seat.cursor) {
            let chain = server.router.responderChain(from: .node(hit.node), seat: seat.id)
            print(
                "press on \(tree.name(of: hit.node) ?? "?") at \(Int(hit.local.x)),\(Int(hit.local.y)); chain: "
                    + chain.map { if case .node(let n) = $0 { tree.name(of: n) ?? "\(n)" } else { "\($0)" } }.joined(
                        separator: " → "))
        }
        server.handle(event)
    }
    if server.hasWaitingFrameCallbacks { server.sendFrameCallbacks() }
}
