// What a toplevel calls itself, for decorations, task lists and debugging pictures.
import Foundation
import InputRouter

extension WaylandServer {
    /// The client's program name (`/proc/PID/comm`): the same for the same programs on
    /// every run, unlike the pid, so traces stay byte for byte comparable.
    static func programName(pid: pid_t) -> String {
        guard pid > 0, let text = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8) else {
            return "client"
        }
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return name.isEmpty ? "client" : name
    }

    /// Names a toplevel's node for traces: `client1 foot: APP_ID` (the title when there
    /// is no app id, `toplevel` when neither was set). Its subsurfaces and popups stay
    /// unnamed and print as `subsurface#9 in "client1 foot: foot"` (docs/trace.md).
    func nameToplevelNode(_ t: XdgToplevel) {
        guard let node = t.node else { return }
        let what = !t.appID.isEmpty ? t.appID : !t.title.isEmpty ? t.title : "toplevel"
        router.tree.setName(node, "\(t.owner.id) \(router.name(of: t.owner.id)): \(what)")
    }

    /// The title and app id the toplevel of `node` set (`xdg_toplevel.set_title`,
    /// `set_app_id`; empty until it does); nil when `node` is not an xdg toplevel.
    public func toplevelTitle(of node: NodeID) -> (title: String, appID: String)? {
        guard let s = surface(for: node), case .xdg(let xdg) = s.role, case .toplevel(let t) = xdg.roleObject else {
            return nil
        }
        return (t.title, t.appID)
    }
}
