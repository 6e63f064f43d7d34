/// An interactive move (`xdg_toplevel.move`, or a compositor binding), on the open grab
/// protocol: the node follows the cursor, keeping `offset` from it, until the last button
/// is released. Nobody has the pointer meanwhile; buttons and scroll go nowhere.
final class MoveGrab: InteractiveGrab {
    let node: NodeID
    let offset: Point

    init(node: NodeID, offset: Point) {
        self.node = node
        self.offset = offset
    }

    func enter(_ seat: Seat, hit: Hit?, time: UInt64) {}

    func motion(_ seat: Seat, time: UInt64) {
        seat.moveGrabbed(node, offset: offset)
    }

    func button(_ seat: Seat, time: UInt64, button: UInt32, state: ButtonState) {}

    func axis(_ seat: Seat, time: UInt64, source: AxisSource, vertical: AxisValue?, horizontal: AxisValue?) {}
}

/// Move and resize: grabs of one node that end with the button sequence (the seat ends
/// them at the last release, even one a recognizer consumed) and when the node goes.
protocol InteractiveGrab: PointerGrab {
    var node: NodeID { get }
}
