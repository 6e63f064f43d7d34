// The seat's touch points: one record per slot from its down until its up or cancel, and
// the clients owed a `wl_touch.frame` (Seat+Touch.swift routes them; a recognizer's claim
// on the touches is the capture phase's, kept by the seat).
//
// Invariants, checked by `violations()` (InvariantChecker.swift, after each delivery):
// - a slot is down at most once: no two points share a slot (a second down on a live slot
//   is dropped);
// - a point owned by a client surface names a client: its up, motion and cancel go there;
// - a client is owed at most one frame: it is in `frameClients` once.

/// One point down: who owns it from its down to its up or cancel.
struct TouchPoint {
    enum Owner: Equatable {
        case client(NodeID)
        case responder(Responder)
        case recognizer(Int)
        /// A touch grab kept the down: motion and up go to the grab while it lasts.
        case grab
        /// The client was sent `cancel`, or nobody took the touch: its events go nowhere.
        case cancelled
    }
    var slot: Int32
    var device: DeviceID
    var owner: Owner
    var client: ClientID
    /// The owner's layout origin, valid while the tree's `sceneGeneration` is still
    /// `originGeneration` (every move, reparent, restack or destroy changes it): each
    /// motion then subtracts it instead of walking the owner's parents (`localPoint`).
    var origin = Point.zero
    var originGeneration = UInt64.max
}

/// What the seat knows of its touch points.
struct TouchState {
    /// The points down, in the order they went down.
    var points: [TouchPoint] = []
    /// The clients told something since the last frame, each once.
    var frameClients: [ClientID] = []

    init() {
        points.reserveCapacity(16)
        frameClients.reserveCapacity(8)
    }

    /// The invariants above that do not hold, each as a sentence (empty when all hold).
    func violations() -> [String] {
        var found: [String] = []
        for i in points.indices {
            for j in points.indices where j > i && points[j].slot == points[i].slot {
                found.append("touch slot \(points[i].slot) is down twice")
            }
            if case .client = points[i].owner, points[i].client.isCompositor {
                found.append("touch slot \(points[i].slot) is owned by a client surface with no client")
            }
        }
        for i in frameClients.indices where frameClients[(i + 1)...].contains(frameClients[i]) {
            found.append("client \(frameClients[i].index) is owed two touch frames")
        }
        return found
    }
}
