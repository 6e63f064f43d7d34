// Router.flush(into:) hands over the queue moved out, with a spare emptied by the last
// flush in its place (no copy counted per flush): what the sinks see, in order, and what a
// sink that routes an event while it is handed one gets.
import InputRouter
import Testing

@Suite struct FlushTests {
    /// A sink that warps the pointer when it sees the first motion: routing from inside a
    /// flush (the Wayland layer defers it, an embedder's sink might not).
    struct RoutingSink: DeliverySink {
        let seat: Seat
        var seen: [Delivery] = []
        var routed = false
        mutating func deliver(_ d: Delivery, from queue: DeliveryQueue) {
            seen.append(d)
            if case .pointerMotion = d, !routed {
                routed = true
                seat.notifyPointerWarp(time: 9000, to: Point(60, 60))
            }
        }
    }

    @Test func everyDeliveryOnceInOrderAndTheQueueEmptyAfter() {
        let h = Harness()
        let a = h.client("a")
        let top = h.toplevel("A", a, Rect(0, 0, 100, 100))
        // Two flushes in a row use both queues: each hands over only its own deliveries.
        for x in [10.0, 20.0, 30.0] {
            h.seat.notifyPointerWarp(time: h.tick(), to: Point(x, 10))
            let queued = Array(h.router.queue.deliveries)
            var sink = RecordingSink()
            h.router.flush(into: &sink)
            #expect(sink.deliveries == queued)
            #expect(sink.deliveries.contains(.pointerMotion(h.seat.id, top, time: h.time, Point(x, 10))))
            #expect(!h.router.hasDeliveries)
        }
        // The keys of a keyboard enter are read from the queue handed over.
        let other = h.toplevel("B", a, Rect(200, 0, 100, 100))
        h.seat.setKeyboardFocus(top)
        _ = h.flush()
        h.seat.notifyKey(time: h.tick(), key: 30, state: .pressed, device: DeviceID(0))
        h.seat.setKeyboardFocus(other)
        var sink = RecordingSink()
        h.router.flush(into: &sink)
        #expect(sink.enterKeys == [[30]])
        h.router.flush(into: &sink)
        #expect(sink.enterKeys == [[30]])  // nothing handed over twice
    }

    @Test func whatASinkRoutesDuringAFlushComesWithTheNext() {
        let h = Harness()
        let a = h.client("a")
        let top = h.toplevel("A", a, Rect(0, 0, 100, 100))
        h.seat.notifyPointerWarp(time: h.tick(), to: Point(10, 10))
        var sink = RoutingSink(seat: h.seat)
        h.router.flush(into: &sink)
        #expect(sink.routed)
        // The warp routed during the flush is still queued, not cleared with the flushed ones.
        #expect(h.router.queue.deliveries.contains(.pointerMotion(h.seat.id, top, time: 9000, Point(60, 60))))
        var next = RecordingSink()
        h.router.flush(into: &next)
        #expect(next.deliveries.contains(.pointerMotion(h.seat.id, top, time: 9000, Point(60, 60))))
        #expect(!h.router.hasDeliveries)
    }
}
