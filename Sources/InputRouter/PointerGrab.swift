/// An explicit pointer grab the seat holds (wlroots' grab interface as a value). `.none`
/// is the default behaviour: hit-test, implicit grab while a button is held.
enum PointerGrab: Equatable {
    case none
    /// `xdg_popup.grab`: only the popup client's surfaces get pointer events; a press
    /// anywhere else dismisses the popups.
    case popup(ClientID)
    /// An interactive move: the node follows the cursor, keeping `offset` from it.
    case move(NodeID, offset: Point)
    /// An interactive resize from `edges` (xdg_toplevel resize_edge bits).
    case resize(NodeID, edges: ResizeEdges, start: Point, startSize: Rect)

    var allowsRepick: Bool {
        switch self {
        case .none, .popup: true
        case .move, .resize: false
        }
    }
}

/// `xdg_toplevel.resize_edge` as bits: top 1, bottom 2, left 4, right 8.
public struct ResizeEdges: OptionSet, Hashable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let top = ResizeEdges(rawValue: 1)
    public static let bottom = ResizeEdges(rawValue: 2)
    public static let left = ResizeEdges(rawValue: 4)
    public static let right = ResizeEdges(rawValue: 8)
}
