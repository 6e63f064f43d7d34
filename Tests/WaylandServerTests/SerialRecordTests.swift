// The serials a client sees, end to end: in the order the click that focuses a window sends
// them (the keyboard's enter before the press, so the press is the newest), and each one a
// request may cite found in the seat's record for what it came with (SerialRecord.swift).
// Serials are the display's, the embedder's display too.
import CWaylandServer
import Foundation
import Glibc
import InputRouter
import InputRouterWireClient
import Testing

@testable import InputRouterWayland

@Suite struct SerialRecordTests {
    /// A server (on `display`, or its own) with one wire client bound to the seat's pointer
    /// and keyboard and holding two mapped toplevels, a under b: their surfaces' object ids.
    func twoWindows(display: OpaquePointer? = nil) throws
        -> (
            WaylandServer, WireConnection, WireSession, pointer: UInt32, keyboard: UInt32, a: WireSession.Toplevel,
            b: WireSession.Toplevel
        )
    {
        var config = display == nil ? WaylandServer.Configuration() : .embedded
        config.keyboard = usKeyboard
        config.unresponsiveTimeoutMS = 0
        config.policy.pressed = CompositorPolicy.focusOnClick
        let server =
            try display.map { try WaylandServer(display: $0, configuration: config) }
            ?? WaylandServer(configuration: config)
        server.handle(InputEvent(time: 0, device: DeviceID(1), .deviceAdded(.pointer)))
        server.handle(InputEvent(time: 0, device: DeviceID(2), .deviceAdded(.keyboard)))
        let (client, wire, session) = try server.connectWireClient(binding: [
            ("wl_compositor", 5), ("wl_shm", 1), ("wl_seat", 8), ("xdg_wm_base", 5),
        ])
        let pointer = wire.newID("wl_pointer")
        let keyboard = wire.newID("wl_keyboard")
        wire.send(session.bound["wl_seat"]!, Op.seatGetPointer, [.uint(pointer)])
        wire.send(session.bound["wl_seat"]!, Op.seatGetKeyboard, [.uint(keyboard)])
        let a = try #require(session.mapToplevel(width: 100, height: 80))
        let b = try #require(session.mapToplevel(width: 100, height: 80))
        let nodeA = try #require(server.node(ofSurface: a.surface, client: client))
        let nodeB = try #require(server.node(ofSurface: b.surface, client: client))
        #expect(server.placeWindow(nodeA, x: 0, y: 0))
        #expect(server.placeWindow(nodeB, x: 50, y: 0))
        server.activate(nodeB)
        server.seat.notifyPointerWarp(time: 500, to: Point(x: 60, y: 10)) // b
        server.sendDeliveries()
        #expect(session.roundtrip())
        return (server, wire, session, pointer, keyboard, a, b)
    }

    /// Every serial the client is sent up to a sync's done, as "what serial" in order:
    /// pointer enter, leave and button, keyboard enter, leave, key and modifiers,
    /// xdg_surface configure, xdg_wm_base ping.
    func serialsSent(
        _ session: WireSession, pointer: UInt32, keyboard: UInt32, _ a: WireSession.Toplevel,
        _ b: WireSession.Toplevel
    ) -> [(String, UInt32)] {
        var seen: [(String, UInt32)] = []
        let callback = session.wire.newID("wl_callback")
        session.wire.send(1, Op.displaySync, [.uint(callback)])
        _ = session.waitFor { e in
            let name: String? =
                switch (e.object, e.opcode) {
                case (pointer, 0): "pointer.enter"
                case (pointer, 1): "pointer.leave"
                case (pointer, 3): "pointer.button"
                case (keyboard, 1): "keyboard.enter"
                case (keyboard, 2): "keyboard.leave"
                case (keyboard, 3): "keyboard.key"
                case (keyboard, 4): "keyboard.modifiers"
                case (a.xdgSurface, 0), (b.xdgSurface, 0): "configure"
                case (session.bound["xdg_wm_base"]!, 0): "ping"
                default: nil
                }
            if let name { seen.append((name, e.uint(at: 0))) }
            return e.object == callback && e.opcode == 0
        }
        return seen
    }

    /// What each serial the client saw may be cited for, as docs/routing.md's table says
    /// (written from it, not from the code): "-" where nothing may cite it.
    static let citableFor: [String: String] = [
        "pointer.enter": "setCursor", // the newest enter, and the pointer is still there
        "pointer.leave": "-",
        "pointer.button pressed": "move resize drag popupGrab selection activation", // still held
        "pointer.button released": "popupGrab selection activation",
        "keyboard.enter": "popupGrab selection", // the focus it still holds
        "keyboard.leave": "-",
        "keyboard.modifiers": "selection",
        "keyboard.key pressed": "popupGrab selection activation",
        "configure": "-", "ping": "-",
    ]

    func citable(_ server: WaylandServer, _ serial: UInt32, client: ClientID) -> String {
        let requests = SerialRequest.allCases.filter { server.seat.serialEntry(serial, client: client, for: $0) != nil }
        return requests.isEmpty ? "-" : requests.map { "\($0)" }.joined(separator: " ")
    }

    /// A click into the window below (it raises it and moves the keyboard there), a key,
    /// and a barrier's ping. The keyboard's leave, enter and modifiers come before the
    /// button (focus on click is decided before the press is delivered, as weston and sway
    /// do), so the press is the newest serial the client saw; the activated configures
    /// follow. Each serial is the display's next, and may be cited for what the table says.
    @Test(arguments: [false, true])
    func theClickThatFocusesSendsItsPressLastAndEverySerialIsCitableAsDocumented(embedded: Bool) throws {
        let display = embedded ? try #require(wl_display_create()) : nil
        defer { if let display { wl_display_destroy(display) } }
        do {
            let (server, _, session, pointer, keyboard, a, b) = try twoWindows(display: display)
            let before = wl_display_get_serial(server.display)
            server.seat.notifyPointerWarp(time: 2000, to: Point(x: 20, y: 10)) // a, below b
            server.seat.notifyPointerButton(time: 3000, button: 0x110, state: .pressed)
            server.sendDeliveries()
            let pressed = serialsSent(session, pointer: pointer, keyboard: keyboard, a, b)
            #expect(
                pressed.map(\.0) == [
                    "pointer.leave", "pointer.enter",
                    "keyboard.leave", "keyboard.enter", "keyboard.modifiers", "pointer.button",
                    "configure", "configure",
                ])
            let focus = try #require(server.seat.keyboardFirstResponder)
            let client = try #require(server.router.tree.client(of: focus))
            let names = [
                "pointer.leave", "pointer.enter", "keyboard.leave", "keyboard.enter", "keyboard.modifiers",
                "pointer.button pressed", "configure", "configure",
            ]
            for (name, (_, serial)) in zip(names, pressed) {
                #expect(citable(server, serial, client: client) == Self.citableFor[name], "\(name) \(serial)")
            }
            server.seat.notifyPointerButton(time: 4000, button: 0x110, state: .released)
            server.seat.notifyKey(time: 5000, key: 30, state: .pressed)
            server.sendDeliveries()
            _ = server.barrier()
            let rest = serialsSent(session, pointer: pointer, keyboard: keyboard, a, b)
            #expect(rest.map(\.0) == ["pointer.button", "keyboard.key", "ping"])
            for (name, (_, serial)) in zip(["pointer.button released", "keyboard.key pressed", "ping"], rest) {
                #expect(citable(server, serial, client: client) == Self.citableFor[name], "\(name) \(serial)")
            }
            // Nothing else took a serial: they are the display's, one after the other.
            let sent = pressed + rest
            #expect(sent.map(\.1) == (1...UInt32(sent.count)).map { before &+ $0 })
        }
    }

    /// An embedder's own serials (its display's, taken without the server) are not the
    /// seat's: no request may cite one, and the router's go on from the display's sequence.
    @Test func anEmbeddersOwnSerialIsCitableForNothing() throws {
        let display = try #require(wl_display_create())
        defer { wl_display_destroy(display) }
        do {
            let (server, _, session, pointer, keyboard, a, b) = try twoWindows(display: display)
            let own = wl_display_next_serial(display)
            server.seat.notifyPointerWarp(time: 1000, to: Point(x: 20, y: 10))
            server.sendDeliveries()
            let sent = serialsSent(session, pointer: pointer, keyboard: keyboard, a, b)
            #expect(sent.map(\.0) == ["pointer.leave", "pointer.enter"])
            #expect(sent.map(\.1) == [own &+ 1, own &+ 2])
            let focus = try #require(server.seat.keyboardFirstResponder)
            let client = try #require(server.router.tree.client(of: focus))
            #expect(citable(server, own, client: client) == "-")
            #expect(citable(server, own &+ 2, client: client) == "setCursor")
        }
    }
}
