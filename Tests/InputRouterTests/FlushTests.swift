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

    /// Takes a motion and the delivery after it in one step, as the Wayland layer's sender
    /// takes a motion and its frame.
    struct PairingSink: DeliverySink {
        var seen: [Delivery] = []
        var steps = 0
        mutating func deliver(_ d: Delivery, from queue: DeliveryQueue) { seen.append(d) }
        mutating func deliver(_ slots: UnsafeBufferPointer<Delivery>, from queue: DeliveryQueue) -> Int {
            steps += 1
            if case .pointerMotion = slots[0], slots.count > 1 {
                seen.append(contentsOf: slots[0..<2])
                return 2
            }
            seen.append(slots[0])
            return 1
        }
    }

    @Test func aSinkThatTakesTwoSlotsAtOnceGetsEachDeliveryOnceInOrder() {
        let h = Harness()
        let a = h.client("a")
        let b = h.client("b")
        _ = h.toplevel("A", a, Rect(0, 0, 100, 100))
        _ = h.toplevel("B", b, Rect(200, 0, 100, 100))
        for x in [10.0, 20.0, 250.0, 30.0] {
            h.seat.notifyPointerWarp(time: h.tick(), to: Point(x, 10))
            let queued = Array(h.router.queue.deliveries)
            var sink = PairingSink()
            h.router.flush(into: &sink)
            #expect(sink.seen == queued)
            let motions = queued.filter { if case .pointerMotion = $0 { true } else { false } }.count
            #expect(sink.steps == queued.count - motions)
            #expect(!h.router.hasDeliveries)
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
        #expect(sink.enterKeys == [[30]]) // nothing handed over twice
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

    /// A flush empties the queue by resetting its counts; the slots keep what the last
    /// flush held. A shorter flush after a longer one must hand over only its own
    /// deliveries, and keys and axes written over the old ones, never the stale slots.
    @Test func aShorterFlushAfterALongerOneHandsOverOnlyItsOwn() {
        let h = Harness()
        let a = h.client("a", [.pointer, .keyboard, .touch, .tablet])
        let top = h.toplevel("A", a, Rect(0, 0, 100, 100))
        let other = h.toplevel("B", a, Rect(200, 0, 100, 100))
        let pen = DeviceID(5)
        h.seat.notifyDeviceAdded(pen, capabilities: .tabletTool)
        _ = h.flush()
        // A long flush: three held keys entered, a tablet stroke with two axes records.
        h.seat.setKeyboardFocus(top)
        _ = h.flush()
        for k: UInt32 in [30, 31, 32] { h.seat.notifyKey(time: h.tick(), key: k, state: .pressed, device: DeviceID(0)) }
        h.seat.setKeyboardFocus(other)
        h.seat.notifyTabletProximity(
            time: h.tick(), device: pen, tool: TabletTool(type: .pen, serial: 7),
            inProximity: true, axes: TabletAxes(x: 0.01, y: 0.01))
        h.seat.notifyTabletAxis(time: h.tick(), device: pen, axes: TabletAxes(x: 0.02, y: 0.02, pressure: 0.5))
        var long = RecordingSink()
        h.router.flush(into: &long)
        #expect(long.enterKeys == [[30, 31, 32]])
        #expect(long.tabletAxes.count == 2)
        // A short one: one key held, one axes record.
        for k: UInt32 in [30, 31, 32] {
            h.seat.notifyKey(time: h.tick(), key: k, state: .released, device: DeviceID(0))
        }
        h.seat.notifyKey(time: h.tick(), key: 40, state: .pressed, device: DeviceID(0))
        _ = h.flush()
        h.seat.setKeyboardFocus(top)
        h.seat.notifyTabletAxis(time: h.tick(), device: pen, axes: TabletAxes(x: 0.03, y: 0.04))
        let queued = Array(h.router.queue.deliveries)
        #expect(queued.count < long.deliveries.count)
        #expect(h.router.queue.count == queued.count)
        var short = RecordingSink()
        h.router.flush(into: &short)
        #expect(short.deliveries == queued)
        #expect(short.enterKeys == [[40]])
        #expect(short.tabletAxes == [TabletAxes(x: 0.03, y: 0.04)])
        #expect(!h.router.hasDeliveries && h.router.queue.deliveries.isEmpty)
        var none = RecordingSink()
        h.router.flush(into: &none)
        #expect(none.deliveries.isEmpty)
    }
}
