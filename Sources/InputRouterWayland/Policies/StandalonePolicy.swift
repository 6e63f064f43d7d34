// The defaults of a standalone compositor, together: windows cascade from the usable
// area's corner, a press on a window focuses and raises it, a press on a title bar also
// moves the window, clients that ask for server-side decorations get a title bar (when
// the compositor gives a style), and frame callbacks are answered at 60 Hz. `ir-compositor`
// runs on these; `Configuration()` starts from them.
import InputRouter

extension CompositorPolicy {
    /// Cascade placement, focus on click, moves from the title bar, title bars in `decorations`
    /// for the clients that ask for them (nil: none), frame callbacks on a 60 Hz timer.
    public static func standalone(decorations: DecorationStyle? = nil) -> CompositorPolicy {
        var policy = CompositorPolicy(framePacing: .timer(milliseconds: 16))
        policy.placeToplevel = MapOrderPlacement.cascade().place
        policy.pressed = focusOnClick
        policy.decorationStyle = decorations
        return policy
    }

    /// Focus on click: a press on a window gives it the seat's keyboard and raises it; a
    /// press on its title bar also begins a move, unless it is maximized or fullscreen
    /// (refused, as weston does).
    public static func focusOnClick(_ server: WaylandServer, _ press: PressContext) -> PressActions {
        switch press.target {
        case .clientSurface:
            return .activate
        case .titleBar(let toplevel):
            guard let info = server.toplevelInfo(of: toplevel), !info.maximized, !info.fullscreen else {
                return .activate
            }
            return [.activate, .beginMove]
        }
    }
}

/// Placement by the order toplevels first map: the n-th (counted from 0, every toplevel
/// that ever mapped) goes to `offset(n)` from the usable area's top-left corner. The
/// cascade is one; a test places its first windows apart with another.
public final class MapOrderPlacement {
    private var mapped = 0
    private let offset: (_ index: Int) -> (x: Int32, y: Int32)

    /// Places the n-th toplevel at `offset(n)` within the usable area.
    public init(_ offset: @escaping (_ index: Int) -> (x: Int32, y: Int32)) { self.offset = offset }

    /// The cascade: from (40, 40) in steps of 32 pixels, wrapping every 10 windows.
    public static func cascade() -> MapOrderPlacement {
        MapOrderPlacement { n in
            let step = Int32(n % 10) * 32
            return (40 + step, 40 + step)
        }
    }

    /// For `CompositorPolicy.placeToplevel`.
    public func place(_ server: WaylandServer, _ toplevel: ToplevelInfo, _ usableArea: Rect) -> (x: Int32, y: Int32)? {
        let o = offset(mapped)
        mapped += 1
        return (o.x &+ usableArea.x, o.y &+ usableArea.y)
    }
}
