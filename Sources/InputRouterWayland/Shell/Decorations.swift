// Server-side decorations as compositor nodes, for the toplevels in server-side mode
// (XdgDecoration.swift): the toplevel sits in a window container under a title bar with a
// close button. The title bar is the toplevel's next responder, so what the client's
// surfaces do not take travels up to it. What a press on the title bar does, or one that
// only bubbled up from the content, is the policy's (`CompositorPolicy.pressed`; the
// standalone one moves the window from its title bar unless it is maximized or fullscreen,
// as weston does). A press on the close button asks the client to close.
import CWaylandProtocolsServer
import InputRouter

/// The look of server-side decorations (`CompositorPolicy.decorationStyle`): what the title bar adds
/// around a toplevel. Read when a frame is made or laid out, never per event.
public struct DecorationStyle: Sendable {
    /// Height of the title bar in logical pixels; the close button is a square of this size.
    public var titleHeight: Int32 = 24
    /// A style with a title bar `titleHeight` pixels high.
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
        self.container = container
        self.titleBar = titleBar
        self.closeButton = closeButton
    }
}

extension WaylandServer {
    /// Creates the container, title bar and close button for a toplevel; the toplevel node
    /// goes inside the container, beside the title bar and above it.
    func makeWindowFrame(for toplevel: XdgToplevel, style: DecorationStyle) -> WindowFrame {
        let tree = router.tree
        let t = style.titleHeight
        let container = tree.createNode(.compositor, name: "window", parent: outputNode)
        tree.setClipsChildren(container, false)
        tree.setMapped(container, false)
        // The container only groups: its own area takes no input, so an input-region hole
        // in the window shows what is below it.
        tree.setContainmentTest(container, name: SceneHandlers.takesNoInput) { _ in false }
        let titleBar = tree.createNode(.compositor, name: "title bar", parent: container, frame: Rect(0, 0, 0, t))
        let close = tree.createNode(.compositor, name: "close button", parent: titleBar, frame: Rect(0, 0, t, t))
        let frame = WindowFrame(container: container, titleBar: titleBar, closeButton: close)
        tree.setHandler(titleBar, name: "title bar") { [unowned self, weak toplevel] event in
            // Taking the enter makes the title bar the pointer focus, so buttons reach it.
            if case .pointerEnter = event { return .handled }
            if case .pointerMotion = event { return .handled }
            guard case .pointerButton(0x110, .pressed, _) = event, let toplevel else { return .notHandled }
            // What is under the cursor tells a press on the bar from one that bubbled up
            // from a client surface that did not take it.
            let onTitleBar = tree.hitTest(self.seat.cursor)?.node == titleBar
            guard let node = toplevel.node else { return .notHandled }
            let actions = self.askPressActions(
                PressContext(
                    node: onTitleBar ? titleBar : node, seat: self.seat,
                    target: onTitleBar ? .titleBar(toplevel: node) : .clientSurface))
            guard !actions.isEmpty else { return .notHandled }
            // Not from inside the seat's dispatch: after the deliveries are sent.
            self.afterDeliveries.append {
                if actions.contains(.activate), let node = toplevel.node { self.activate(node) }
                if actions.contains(.beginMove) { self.seat.beginMove(container) }
            }
            return .handled
        }
        tree.setHandler(close, name: "close button") { [weak toplevel] event in
            if case .pointerEnter = event { return .handled }
            if case .pointerMotion = event { return .handled }
            guard case .pointerButton(0x110, .pressed, _) = event, let toplevel else { return .notHandled }
            xdg_toplevel_send_close(toplevel.resource)
            return .handled
        }
        return frame
    }

    /// Puts `toplevel` into a new window frame (server-side mode) or takes it out of its
    /// frame (client-side), keeping its content where it is on the output (at the origin
    /// when it fills the output) and its place in the stacking order.
    func setServerDecorated(_ toplevel: XdgToplevel, _ on: Bool) {
        guard let node = toplevel.node else { return }
        let tree = router.tree
        let fills = toplevel.maximized || toplevel.fullscreen
        if on, toplevel.frame == nil, let style = decorationStyle {
            let t = style.titleHeight
            let at = tree.frame(of: node) ?? Rect(0, 0, 0, 0)
            let frame = makeWindowFrame(for: toplevel, style: style)
            tree.batchUpdates {
                tree.move(frame.container, to: fills ? (0, 0) : (at.x, at.y - t))
                tree.place(frame.container, above: node)
                // Topmost in the container: its popups and the subsurfaces that stick out
                // stay above the title bar.
                tree.setParent(node, frame.container)
                tree.setNextResponder(node, frame.titleBar)
                toplevel.frame = frame
                layoutWindowFrame(frame, toplevel: node, style: style)
            }
        } else if !on, let frame = toplevel.frame {
            let at = tree.layoutPosition(of: node) ?? .zero
            tree.batchUpdates {
                tree.setParent(node, outputNode)
                tree.place(node, above: frame.container)
                tree.move(node, to: fills ? (0, 0) : (Int32(at.x), Int32(at.y)))
                tree.setNextResponder(node, nil)
                toplevel.frame = nil
                tree.destroy(frame.container)
            }
        }
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
                return .titleBar(title: top.title, active: top.node.map(isActivated) ?? false)
            }
            if frame.closeButton == node { return .closeButton }
        }
        return nil
    }
}
