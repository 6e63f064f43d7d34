// Running the source on an event loop, in one call. Doing it by hand takes three steps
// an embedder can each get wrong without any symptom but silence (ir-compositor got two
// of them wrong, issue 12): keep libinput's fd watch alive, keep libseat's fd watch
// alive, and dispatch once at once. The last is easy to miss: libinput queues
// DEVICE_ADDED for every device already present while the seat is assigned, inside the
// context, so its fd does not become readable for them; until the first input event
// nobody hears of those devices, and clients see a seat without capabilities.

import InputRouter

extension LibinputSource {
    /// What a loop's "watch this fd" call returns: the watch lasts as long as the object.
    public typealias WatchReadable = (_ fd: Int32, _ onReadable: @escaping () -> Void) -> AnyObject

    /// Puts the source on an event loop and delivers, before returning, the devices
    /// already present (and whatever else libinput has queued) to `sink`.
    ///
    ///     try source.start(watching: server.watchReadable) { server.handle($0, description: $1) }
    ///
    /// `watch` adds an fd to the loop (`WaylandServer.watchReadable(fd:_:)` does); the
    /// source keeps what it returns, so the fds stay watched as long as the source lives
    /// and nothing is left for the caller to hold. Later dispatch errors go to the
    /// source's log handler. Calling it again replaces the earlier watches.
    public func start(watching watch: WatchReadable, sink: @escaping Sink) throws(LibinputError) {
        watches.removeAll()
        startedSink = sink
        watches.append(watch(fd) { [weak self] in self?.dispatchLogging(sink) })
        if let seatFD {
            watches.append(watch(seatFD) { [weak self] in self?.dispatchSeatLogging() })
        }
        try dispatch(sink)
    }

    func dispatchLogging(_ sink: Sink) {
        do { try dispatch(sink) } catch { log(error: error) }
    }

    private func dispatchSeatLogging() {
        do { try dispatchSeat() } catch { log(error: error) }
    }
}
