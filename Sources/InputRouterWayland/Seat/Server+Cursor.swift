// Placing the cursor from the compositor: at start-up (it begins at the layout origin),
// after an output is removed, to centre it on a new window. Not on the routing hot path.
import Foundation
import InputRouter

extension WaylandServer {
    /// Moves `seat`'s cursor (nil: the first seat's) to `point` in layout space, as an
    /// absolute motion would: the pointer focus follows, and the leave, enter and motion
    /// go out to the clients now. `time` in microseconds (nil: now, on `CLOCK_MONOTONIC` as libinput's).
    /// A locked pointer (pointer constraints) stays where it is.
    public func warpPointer(to point: Point, seat: Seat? = nil, time: UInt64? = nil) {
        let seat = seat ?? self.seat
        seat.notifyPointerWarp(time: time ?? Self.monotonicMicroseconds(), to: point)
        sendDeliveries()
    }

    private static func monotonicMicroseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000 &+ UInt64(ts.tv_nsec / 1000)
    }
}
