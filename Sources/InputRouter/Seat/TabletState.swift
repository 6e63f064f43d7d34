// The seat's tablet tools: one record per tool in proximity (Seat+Tablet.swift routes
// them), and the clients owed a `zwp_tablet_tool_v2.frame`.
//
// Invariants, checked by `violations()` (InvariantChecker.swift, after each delivery):
// - a tablet has at most one tool in proximity: one active record per device;
// - a tool out of proximity has no focus and owes nothing (no tip up, no button release);
// - a tool that owes a tip up or a button release has a focus to owe it to;
// - a client is owed at most one frame: it is in `frameClients` once.

/// One tool in proximity, one per tablet device. Slots are reused, never removed, so a tool
/// coming and going allocates nothing once the seat has seen it.
struct TabletToolState {
    var active = false
    var device = DeviceID(0)
    var tool = TabletTool(type: .pen)
    var position = Point.zero
    var axes = TabletAxes(x: 0, y: 0)
    /// The responder that took proximity in: a client surface or a compositor responder.
    var focus: Responder?
    /// The focus took the tool as a client surface (its client had bound the tablet on this
    /// seat), not through a handler: its client is told the rest, proximity out included.
    var focusIsClient = false
    /// The first responder of the last pick (skips the chain walk when it did not change).
    var lastFirst: Responder?
    /// The tip is down on the tablet (hardware state).
    var tipDown = false
    /// The focus was told the tip went down: it is owed an up.
    var tipSent = false
    /// Buttons the focus was told were pressed: it is owed their releases.
    var sentButtons: [UInt32] = []
}

/// What the seat knows of its tablet tools.
struct TabletState {
    /// Records are reused, never removed (see `TabletToolState`).
    var tools: [TabletToolState] = []
    /// The clients told something since the last frame, each once.
    var frameClients: [ClientID] = []

    init() {
        tools.reserveCapacity(4)
        frameClients.reserveCapacity(4)
    }

    /// The invariants above that do not hold, each as a sentence (empty when all hold).
    func violations() -> [String] {
        var found: [String] = []
        for i in tools.indices {
            let t = tools[i]
            if t.active, tools[(i + 1)...].contains(where: { $0.active && $0.device == t.device }) {
                found.append("tablet \(t.device) has two tools in proximity")
            }
            if !t.active && (t.focus != nil || t.tipSent || !t.sentButtons.isEmpty) {
                found.append("a tool of tablet \(t.device) out of proximity keeps a focus or owes a release")
            }
            if t.focus == nil && (t.tipSent || !t.sentButtons.isEmpty) {
                found.append("a tool of tablet \(t.device) owes a release with no focus to owe it to")
            }
        }
        for i in frameClients.indices where frameClients[(i + 1)...].contains(frameClients[i]) {
            found.append("client \(frameClients[i].index) is owed two tablet frames")
        }
        return found
    }
}
