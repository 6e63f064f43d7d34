// Steps through a recording's events in order and says when each is due on the caller's
// clock. It never sleeps and never reads a clock itself: a compositor arms a timer for
// `delay(now:)` and calls `due(now:)` when it fires; tests call `next()`.

import InputRouter

/// Plays a recording back on the compositor's clock: says when the next event is due and
/// hands out the due ones, never sleeping or reading a clock.
public struct Replayer: Sendable {
    /// How fast recorded time passes on the replay clock.
    public enum Speed: Hashable, Sendable {
        /// Gaps between events as recorded.
        case recorded
        /// Recorded gaps divided by the factor (2 = twice as fast). Must be finite and > 0.
        case multiple(Double)
        /// Every event is due at once.
        case asFastAsPossible
    }

    /// A `.multiple` factor that is not finite or not above 0.
    public struct InvalidSpeed: Error, Hashable, Sendable, CustomStringConvertible {
        /// The factor given.
        public var factor: Double
        /// The rule the factor broke, and the factor.
        public var description: String { "replay speed multiple must be finite and greater than 0, got \(factor)" }
    }

    /// The events to play, in the order they are handed out.
    public let events: [InputEvent]
    /// What the source said of each device its `deviceAdded` events add (a recording's
    /// `descriptions`): handed to the seat with that event (`description(of:)`).
    public let descriptions: [DeviceID: DeviceDescription]
    /// The speed they are played at.
    public let speed: Speed
    /// How many events have been handed out (since the last `start(at:)`, if any).
    public private(set) var index = 0
    private var startClock: UInt64 = 0
    /// Due time (on the recording's clock, µs since the first event) of the last event
    /// handed out: a later event recorded with an earlier time is due no earlier.
    private var lastOffset: UInt64 = 0

    /// When the recording ends, on the events' clock (µs): never before its last event.
    public let endTime: UInt64

    /// A replay of `events` that ends at `endTime` (µs, the events' clock; nil or earlier:
    /// at the last event), its devices described by `descriptions`; throws for a bad
    /// `.multiple` factor. `start(at:)` sets the clock the first event is due at.
    public init(
        events: [InputEvent], descriptions: [DeviceID: DeviceDescription] = [:], speed: Speed = .recorded,
        endTime: UInt64? = nil
    ) throws(InvalidSpeed) {
        if case .multiple(let factor) = speed, !(factor.isFinite && factor > 0) { throw InvalidSpeed(factor: factor) }
        self.events = events
        self.descriptions = descriptions
        self.speed = speed
        self.endTime = max(endTime ?? 0, events.lazy.map(\.time).max() ?? 0)
    }

    /// A replay of `recording`'s events, its devices described as the file describes them,
    /// that lasts until its end (`Recording.endTime`), so the quiet time after its last
    /// event is played too.
    public init(_ recording: Recording, speed: Speed = .recorded) throws(InvalidSpeed) {
        try self.init(
            events: recording.events, descriptions: recording.descriptions, speed: speed,
            endTime: recording.endTime)
    }

    /// What to hand the seat with `event`: for a `deviceAdded`, its device's description;
    /// nil for any other event, with no lookup (cheap enough to ask for every event).
    ///
    ///     while let event = replayer.next() { server.handle(event, description: replayer.description(of: event)) }
    public func description(of event: InputEvent) -> DeviceDescription? {
        guard case .deviceAdded = event.kind else { return nil }
        return descriptions[event.device]
    }

    /// Starts (or restarts) the replay: the first event is due at `clock` (µs).
    public mutating func start(at clock: UInt64) {
        startClock = clock
        index = 0
        lastOffset = 0
    }

    /// Whether every event has been handed out.
    public var isFinished: Bool { index >= events.count }

    /// The next event regardless of time (for tests and for `.asFastAsPossible`).
    public mutating func next() -> InputEvent? {
        guard index < events.count else { return nil }
        lastOffset = offset(of: index)
        index += 1
        return events[index - 1]
    }

    /// The clock value (µs) at which the next event is due, nil when finished.
    public func dueTime() -> UInt64? {
        guard index < events.count else { return nil }
        let (sum, overflow) = startClock.addingReportingOverflow(offset(of: index))
        return overflow ? UInt64.max : sum
    }

    /// How long the caller's timer should wait from `now` (0 if already due), nil when finished.
    public func delay(now: UInt64) -> UInt64? {
        dueTime().map { $0 > now ? $0 - now : 0 }
    }

    /// The clock value (µs) at which the recording ends: its end time, scaled by the speed
    /// like the events' times, so never before the last event is due.
    public func endDueTime() -> UInt64 {
        let (sum, overflow) = startClock.addingReportingOverflow(scaled(recordedOffset(endTime)))
        return overflow ? UInt64.max : sum
    }

    /// Whether every event has been handed out and the recording's end has come at `now`:
    /// the replay is over, and the next one may begin.
    public func isOver(now: UInt64) -> Bool { isFinished && endDueTime() <= now }

    /// The next event if it is due at `now`.
    public mutating func nextDue(now: UInt64) -> InputEvent? {
        guard let due = dueTime(), due <= now else { return nil }
        return next()
    }

    /// All events due at `now`, in order.
    public mutating func due(now: UInt64) -> [InputEvent] {
        var out: [InputEvent] = []
        while let event = nextDue(now: now) { out.append(event) }
        return out
    }

    /// Offset of event `i` from the start, scaled by the speed and never before the
    /// previous event's (times may go backwards between devices).
    private func offset(of i: Int) -> UInt64 {
        max(scaled(recordedOffset(events[i].time)), lastOffset)
    }

    /// `time` (the events' clock) as µs after the first event; 0 for earlier times.
    private func recordedOffset(_ time: UInt64) -> UInt64 {
        guard let first = events.first else { return 0 }
        return time > first.time ? time - first.time : 0
    }

    /// A recorded span of time as it passes at the replay's speed.
    private func scaled(_ recorded: UInt64) -> UInt64 {
        switch speed {
        case .recorded: return recorded
        case .asFastAsPossible: return 0
        case .multiple(let factor):
            let value = (Double(recorded) / factor).rounded()
            return value >= 1.8e19 ? UInt64.max : UInt64(max(0, value))
        }
    }
}
