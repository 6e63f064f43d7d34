/// An interactive resize (`xdg_toplevel.resize`) from `edges`, on the open grab protocol:
/// each motion asks the node's owner for a size (`resizeRequest`) until the last button is
/// released. Nobody has the pointer meanwhile; buttons and scroll go nowhere.
final class ResizeGrab: InteractiveGrab {
    let node: NodeID
    let edges: ResizeEdges
    let start: Point
    let startSize: Rect

    init(node: NodeID, edges: ResizeEdges, start: Point, startSize: Rect) {
        self.node = node
        self.edges = edges
        self.start = start
        self.startSize = startSize
    }

    func enter(_ seat: Seat, hit: Hit?, time: UInt64) {}

    func motion(_ seat: Seat, time: UInt64) {
        seat.resizeGrabbed(node, edges: edges, start: start, startSize: startSize)
    }

    func button(_ seat: Seat, time: UInt64, button: UInt32, state: ButtonState) {}

    func axis(_ seat: Seat, time: UInt64, source: AxisSource, vertical: AxisValue?, horizontal: AxisValue?) {}
}
