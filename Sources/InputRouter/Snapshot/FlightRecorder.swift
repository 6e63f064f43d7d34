// The flight recorder: the last stretch of input a router's first seat was given and the
// scene when that stretch began, kept so a bug report can carry both (docs/bug-reports.md).
// The text of a bundle is written outside the core (InputRouterRecording's
// `FlightRecorder.bundle`), which does I/O.
//
// Two generations: the stretch since `startScene`, and within it the events since a newer
// scene captured at most `window` µs ago. When an event comes `window` after the newer
// scene, the older generation is dropped and a new one begins. So the kept stretch is
// between one and two windows long, and a scene is captured once a window, never per event.
//
// Beside the input, `journal` keeps the embedder's scene edits and its handlers' answers
// (SceneJournal.swift), each at its place among the events.

/// Keeps the last `window` µs (to twice that) of input and the scene when it began.
public final class FlightRecorder {
    public let router: Router
    /// The shortest stretch kept, in µs of the events' own times.
    public let window: UInt64
    /// Events kept at most; a window that fills the ring starts a new one early.
    public let capacity: Int
    /// Where the embedder's trace stood (a byte offset, a line count): asked when a scene
    /// is captured, so the trace since `startScene` can be cut from the embedder's own.
    public var traceMark: () -> UInt64 = { 0 }
    /// The scene's edits since `startScene`, in order with the events.
    public let journal: SceneJournal

    /// The ring, preallocated: recording writes in place and never allocates.
    private var ring: ContiguousArray<InputEvent>
    private var head = 0
    private var count = 0
    /// How many of the kept events came before `newer` began.
    private var olderCount = 0

    /// The scene when the kept stretch began, and the trace's mark then.
    public private(set) var startScene: SceneState
    public private(set) var startTraceMark: UInt64
    private var newer: (scene: SceneState, time: UInt64, mark: UInt64)?
    /// The time of the first event of the current generation.
    private var generationStart: UInt64?

    /// A recorder of `router`'s input; the scene is captured now.
    public init(router: Router, window: UInt64 = 10_000_000, capacity: Int = 65_536, journalCapacity: Int = 65_536) {
        self.router = router
        journal = SceneJournal(capacity: journalCapacity)
        router.tree.journal = journal
        self.window = max(window, 1)
        self.capacity = max(capacity, 1)
        ring = ContiguousArray(repeating: InputEvent(time: 0, device: DeviceID(0), .touchFrame), count: self.capacity)
        startScene = router.captureScene()
        startTraceMark = 0
    }

    /// Starts over: no events; the window begins at the next event, with the scene then.
    public func restart() {
        startScene = router.captureScene()
        startTraceMark = traceMark()
        newer = nil
        generationStart = nil
        head = 0
        count = 0
        olderCount = 0
        journal.clear()
    }

    /// Records `event`; call it before the event is routed. Allocates nothing, but once a
    /// window, when it captures the scene.
    @inline(__always) public func record(_ event: InputEvent) {
        if let start = generationStart, event.time &- start >= window || event.time < start {
            rotate(at: event.time)
        } else if generationStart == nil {
            // The first event since a restart: the window begins here, with the scene as it
            // is now (clients may have changed it since the recorder was made).
            firstEvent(at: event.time)
        }
        if count == capacity { rotate(at: event.time) }
        if count == capacity || journal.overflowed { restartKeeping(at: event.time) }
        ring[(head + count) % capacity] = event
        count += 1
        journal.position &+= 1
    }

    /// Drops the older generation and captures the scene for a new one.
    @inline(never) private func rotate(at time: UInt64) {
        if let n = newer {
            head = (head + olderCount) % capacity
            count -= olderCount
            startScene = n.scene
            startTraceMark = n.mark
            // The edits made before the new start are in its scene.
            journal.drop(through: journal.position &- UInt64(count))
        }
        olderCount = count
        newer = (router.captureScene(), time, traceMark())
        generationStart = time
    }

    @inline(never) private func firstEvent(at time: UInt64) {
        journal.clear()
        startScene = router.captureScene()
        startTraceMark = traceMark()
        generationStart = time
    }

    /// One generation filled the ring: the window starts here.
    @inline(never) private func restartKeeping(at time: UInt64) {
        restart()
        firstEvent(at: time)
    }

    /// The edits since `startScene`, oldest first, each `at` counted from the first of
    /// `events` (an edit at N came after event N-1 and before event N).
    public var edits: [SceneEdit] {
        let first = journal.position &- UInt64(count)
        return journal.edits(after: first).map {
            var e = $0
            e.at = $0.at &- first
            return e
        }
    }

    /// The events since `startScene`, oldest first (a copy).
    public var events: [InputEvent] {
        (0..<count).map { ring[(head + $0) % capacity] }
    }
}
