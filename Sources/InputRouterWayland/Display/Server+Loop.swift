// Timers and the window list, for the program that embeds the server.
import CWaylandProtocolsServer
import CWaylandServer
import InputRouter

/// A repeating or one-shot timer on the server's event loop.
public final class LoopTimer {
    fileprivate var source: OpaquePointer?
    fileprivate let body: () -> Int32?
    fileprivate init(body: @escaping () -> Int32?) { self.body = body }

    /// Stops the timer for good.
    public func cancel() {
        if let source { wl_event_source_remove(source) }
        source = nil
    }
}

private let loopTimerFired: wl_event_loop_timer_func_t = { data in
    let timer = CallbackContext.borrowed(data!, as: LoopTimer.self)
    if let again = timer.body(), let source = timer.source {
        wl_event_source_timer_update(source, max(again, 1))
    }
    return 0
}

extension WaylandServer {
    /// Runs `body` after `ms`; it returns the delay until its next run, or nil to stop.
    @discardableResult
    public func schedule(afterMS ms: Int32, _ body: @escaping () -> Int32?) -> LoopTimer {
        let timer = LoopTimer(body: body)
        keepAlive.append(timer)
        timer.source = wl_event_loop_add_timer(eventLoop, loopTimerFired, CallbackContext.unretained(timer))
        wl_event_source_timer_update(timer.source, max(ms, 1))
        return timer
    }

    /// Toplevels mapped now, bottom to top, with their titles.
    public var mappedToplevels: [(node: NodeID, title: String)] {
        toplevels.compactMap { t in
            guard let n = t.node, router.tree.isVisible(n) else { return nil }
            return (n, t.title)
        }
    }

    /// The process id of the client whose toplevel `node` is (its socket's peer, as
    /// `wl_client_get_credentials` reads it); nil when `node` is no toplevel. A program that
    /// starts clients tells by it which of them mapped a window.
    public func clientPID(ofToplevel node: NodeID) -> Int32? {
        guard let t = toplevels.first(where: { $0.node == node }) else { return nil }
        var pid: pid_t = 0
        wl_client_get_credentials(t.owner.client, &pid, nil, nil)
        return pid
    }

    /// Gives the output a new size (a nested window was resized): the tree, the seat's
    /// absolute mapping if it followed the output, maximized windows and every `wl_output`.
    public func resizeOutput(width: Int32, height: Int32) {
        guard width > 0, height > 0 else { return }
        configuration.outputWidth = width
        configuration.outputHeight = height
        if let first = servedOutputs.first { resizeOutput(first.node, width: width, height: height) }
    }

    /// Asks the toplevel of `node` to close (`xdg_toplevel.close`).
    public func close(_ node: NodeID) {
        for t in toplevels where t.node == node { xdg_toplevel_send_close(t.resource) }
    }
}
