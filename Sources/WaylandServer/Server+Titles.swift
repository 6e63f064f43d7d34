// What a toplevel calls itself, for decorations, task lists and debugging pictures.
import InputRouter

extension WaylandServer {
    /// The title and app id the toplevel of `node` set (`xdg_toplevel.set_title`,
    /// `set_app_id`; empty until it does); nil when `node` is not an xdg toplevel.
    public func toplevelTitle(of node: NodeID) -> (title: String, appID: String)? {
        guard let s = surface(for: node), case .xdg(let xdg) = s.role, case .toplevel(let t) = xdg.roleObject else {
            return nil
        }
        return (t.title, t.appID)
    }
}
