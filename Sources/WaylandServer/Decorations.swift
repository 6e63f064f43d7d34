// Server-side decorations as compositor nodes: each toplevel sits in a window container
// under a title bar with a close button. The title bar is the toplevel's next responder,
// so what the client's surfaces do not take travels up to it; a press on it moves the
// window, a press on the close button asks the client to close.
import CXdgShellServer
import InputRouter

public struct DecorationStyle: Sendable {
    public var titleHeight: Int32 = 24
    public init(titleHeight: Int32 = 24) { self.titleHeight = titleHeight }
}

/// What a decoration node is, for a renderer.
public enum DecorationPart: Sendable, Equatable {
    case titleBar(title: String, active: Bool)
    case closeButton
}

/// The compositor nodes around one toplevel.
final class WindowFrame {
    let container: NodeID
    let titleBar: NodeID
    let closeButton: NodeID
    init(container: NodeID, titleBar: NodeID, closeButton: NodeID) {
        self.container = container; self.titleBar = titleBar; self.closeButton = closeButton
    }
}

extension WaylandServer {
    /// Creates the container, title bar and close button for a new toplevel; the toplevel
    /// node goes inside the container, below the title bar.
    func makeWindowFrame(for toplevel: XdgToplevel, style: DecorationStyle) -> WindowFrame {
        let tree = router.tree
        let t = style.titleHeight
        let container = tree.createNode(.compositor, name: "window", parent: outputNode)
        tree.setClipsChildren(container, false)
        tree.setMapped(container, false)
        // The container only groups: its own area takes no input, so an input-region hole
        // in the window shows what is below it.
        tree.setContainmentTest(container) { _ in false }
        let titleBar = tree.createNode(.compositor, name: "title bar", parent: container, frame: Rect(0, 0, 0, t))
        let close = tree.createNode(.compositor, name: "close button", parent: titleBar, frame: Rect(0, 0, t, t))
        let frame = WindowFrame(container: container, titleBar: titleBar, closeButton: close)
        tree.setHandler(titleBar) { [unowned(unsafe) self, weak toplevel] event in
            // Taking the enter makes the title bar the pointer focus, so buttons reach it.
            if case .pointerEnter = event { return .handled }
            if case .pointerMotion = event { return .handled }
            guard case .pointerButton(0x110, .pressed, _) = event, let toplevel else { return .notHandled }
            // Not from inside the seat's dispatch: after the deliveries are sent.
            self.afterDeliveries.append {
                if let node = toplevel.node { self.activate(node) }
                self.seat.beginMove(container)
            }
            return .handled
        }
        tree.setHandler(close) { [weak toplevel] event in
            if case .pointerEnter = event { return .handled }
            if case .pointerMotion = event { return .handled }
            guard case .pointerButton(0x110, .pressed, _) = event, let toplevel else { return .notHandled }
            xdg_toplevel_send_close(toplevel.resource)
            return .handled
        }
        return frame
    }

    /// Keeps the frame around the toplevel's current size and mapping.
    func layoutWindowFrame(_ frame: WindowFrame, toplevel node: NodeID, style: DecorationStyle) {
        let tree = router.tree
        let size = tree.frame(of: node) ?? Rect(0, 0, 0, 0)
        let t = style.titleHeight
        tree.move(node, to: (0, t))
        tree.resize(frame.container, width: size.width, height: size.height + t)
        tree.resize(frame.titleBar, width: size.width, height: t)
        tree.move(frame.closeButton, to: (max(size.width - t, 0), 0))
        tree.setMapped(frame.container, tree.isMapped(node))
    }

    /// What `node` is if it is part of a window's decoration.
    public func decorationPart(of node: NodeID) -> DecorationPart? {
        for top in toplevels {
            guard let frame = top.frame else { continue }
            if frame.titleBar == node {
                return .titleBar(title: top.title, active: top.node != nil && seat.keyboardFirstResponder == top.node)
            }
            if frame.closeButton == node { return .closeButton }
        }
        return nil
    }
}
