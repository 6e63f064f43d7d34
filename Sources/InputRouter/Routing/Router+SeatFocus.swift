extension Router {
    /// Seat `index`'s keyboard first responder, for a server that follows every seat's
    /// focus after each flush: read from another module through `seats` and the seat's own
    /// getter, each seat was retained and released around the call (wayland-bench's key,
    /// about 40 instructions per event); here the read is unchecked and nothing is counted.
    public func keyboardFirstResponder(ofSeat index: Int) -> NodeID? { seats[index].keyboardFirstResponder }
}
