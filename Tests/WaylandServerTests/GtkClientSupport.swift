// What the tests that run real GTK programs (python3-gi) read: the windows they mapped, by
// title, and the protocol GTK printed (WAYLAND_DEBUG=client), so a test can say which
// serial GTK cited in a request and what that serial came with.
import Foundation
import InputRouter
import Testing

@testable import InputRouterWayland

/// GTK on Wayland only, without the accessibility bus or dconf, printing its protocol.
let gtkDebugEnvironment = [
    "GDK_BACKEND": "wayland", "GTK_A11Y": "none", "NO_AT_BRIDGE": "1",
    "GSETTINGS_BACKEND": "memory", "WAYLAND_DEBUG": "client",
]

/// Writes a python3-gi script to the test process's runtime directory; returns its path.
func writeGtkScript(_ name: String, _ text: String) throws -> String {
    let path = runtimeDirectory + "/\(name)-\(getpid()).py"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// One message of a WAYLAND_DEBUG line: `[time]  -> iface@N.request(args)` (sent) or
/// `[time] iface@N.event(args)` (received).
struct ProtocolLine: Equatable {
    var sent: Bool
    var interface: String
    var message: String
    var arguments: [String]

    init?(_ line: String) {
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return nil }
        var rest = line[line.index(after: close)...].drop { $0 == " " }
        sent = rest.hasPrefix("-> ")
        if sent { rest = rest.dropFirst(3) }
        guard let at = rest.firstIndex(of: "@"), let dot = rest[at...].firstIndex(of: "."),
            let open = rest[dot...].firstIndex(of: "("), rest.hasSuffix(")")
        else { return nil }
        interface = String(rest[..<at])
        message = String(rest[rest.index(after: dot)..<open])
        let inside = rest[rest.index(after: open)..<rest.index(before: rest.endIndex)]
        arguments = inside.isEmpty ? [] : inside.components(separatedBy: ", ")
    }

    /// All the messages of `lines`, in order.
    static func all(_ lines: some Sequence<String>) -> [ProtocolLine] { lines.compactMap(ProtocolLine.init) }
}

extension ServerHarness {
    /// The mapped toplevel whose xdg_toplevel title is `title`.
    func toplevel(titled title: String) -> NodeID? {
        let tree = server.router.tree
        return XdgDecorationTests.nodes(self).first {
            tree.kind(of: $0) == .toplevel && tree.isMapped($0) && server.toplevelTitle(of: $0)?.title == title
        }
    }

    /// The layout point at the middle of the toplevel titled `title` (GTK's widget fills it:
    /// the CSD shadow is at the edges).
    func center(ofToplevelTitled title: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (
        Double, Double
    ) {
        let node = try #require(
            toplevel(titled: title), "no mapped toplevel titled \(title)", sourceLocation: sourceLocation)
        let tree = server.router.tree
        let frame = try #require(tree.frame(of: node), sourceLocation: sourceLocation)
        let at = try #require(tree.layoutPosition(of: node), sourceLocation: sourceLocation)
        return (at.x + Double(frame.width) / 2, at.y + Double(frame.height) / 2)
    }

    /// The mapped xdg_popup surfaces, wherever they are in the tree.
    func mappedPopups() -> [NodeID] {
        let tree = server.router.tree
        return XdgDecorationTests.nodes(self).filter { tree.kind(of: $0) == .popup && tree.isMapped($0) }
    }

    /// A key pressed and released.
    func tap(_ key: UInt32) {
        self.key(key, .pressed)
        self.key(key, .released)
    }
}

/// Evdev codes of the keys the GTK tests type (linux/input-event-codes.h).
enum EvdevKey {
    static let enter: UInt32 = 28, space: UInt32 = 57, down: UInt32 = 108
}
