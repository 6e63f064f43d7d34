// zwlr_virtual_pointer_manager_v1 end to end: one wl-probe drives a virtual pointer (as a
// remote desktop does), another shows a window, and the window's wl_pointer events are
// asserted as the client printed them. The expected events are wl_pointer's (wayland.xml)
// for what the virtual pointer asked, nothing before its `frame` (wlr-virtual-pointer:
// `frame` "indicates the set of events that logically belong together").
import Foundation
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct VirtualPointerTests {
    /// A window at (40, 40) with the seat's own pointer over it at (50, 50), and a sender
    /// with a virtual pointer on the first seat (a null seat).
    static func windowAndSender(_ h: ServerHarness, windowArguments: [String] = []) throws -> (
        ClientProcess, ClientProcess
    ) {
        let window = try h.mappedProbe(["--toplevel", "win", "200x100"] + windowArguments)
        h.warp(50, 50)
        #expect(h.settle(window) == ["pointer.enter win 10.00 10.00", "pointer.motion 10.00 10.00", "pointer.frame"])
        let sender = try h.probe(["--no-pointer", "--no-keyboard", "--no-touch"])
        h.wait(for: sender, line: "ready")
        h.command(sender, "vpointer create")
        return (window, sender)
    }

    @Test func relativeMotionWaitsForTheFrameThenMovesTheSeatsCursor() throws {
        let h = try ServerHarness()
        let (window, sender) = try Self.windowAndSender(h)
        h.command(sender, "vpointer motion 5 7")
        h.command(sender, "vpointer motion 1.5 -2")
        #expect(h.settle(window) == []) // no frame yet
        h.command(sender, "vpointer frame")
        #expect(
            h.settle(window) == [
                "pointer.motion 15.00 17.00", "pointer.frame", "pointer.motion 16.50 15.00", "pointer.frame",
            ])
        #expect(h.server.seat.cursor == Point(56.5, 55))
    }

    /// Two 800×600 outputs side by side, the window on the second at (900, 100). A pointer
    /// made for the second output maps its extent onto that output; one made for none maps
    /// it across both.
    @Test func absoluteMotionMapsOntoTheOutputItWasMadeForOrTheWholeLayout() throws {
        var config = WaylandServer.Configuration()
        config.outputs = [OutputConfiguration(width: 800, height: 600), OutputConfiguration(width: 800, height: 600)]
        config.policy.placeToplevel = MapOrderPlacement { _ in (900, 100) }.place
        let h = try ServerHarness(configuration: config)
        let window = try h.mappedProbe(["--toplevel", "win", "200x100"])
        let sender = try h.probe(["--outputs", "--no-pointer", "--no-keyboard", "--no-touch"])
        h.wait(for: sender, line: "ready")
        h.command(sender, "vpointer create output o2")
        // 250/800, 150/600 of the second output: layout (1050, 150), the window's (150, 50).
        h.command(sender, "vpointer absolute 250 150 800 600")
        #expect(h.settle(window) == [])
        h.command(sender, "vpointer frame")
        #expect(h.settle(window) == ["pointer.enter win 150.00 50.00", "pointer.motion 150.00 50.00", "pointer.frame"])
        // Twice the extent, the same place.
        h.command(sender, "vpointer absolute 520 310 1600 1200")
        h.command(sender, "vpointer frame")
        #expect(h.settle(window) == ["pointer.motion 160.00 55.00", "pointer.frame"])
        // The same numbers from a pointer made for no output: (250/800 × 1600, 150) = (500, 150),
        // on the first output, off the window.
        h.command(sender, "vpointer destroy")
        h.command(sender, "vpointer create")
        h.command(sender, "vpointer absolute 250 150 800 600")
        h.command(sender, "vpointer frame")
        #expect(h.settle(window) == ["pointer.leave win", "pointer.frame"])
        #expect(h.server.seat.cursor == Point(500, 150))
        // Across the layout's 1600×600: layout (1070, 160), the window's (170, 60).
        h.command(sender, "vpointer absolute 1070 160 1600 600")
        h.command(sender, "vpointer frame")
        #expect(h.settle(window) == ["pointer.enter win 170.00 60.00", "pointer.motion 170.00 60.00", "pointer.frame"])
    }

    /// A press and a release, then a wheel step of one detent (15 pixels): wl_pointer version
    /// 8 gets `axis_value120` 120, versions 5 to 7 `axis_discrete` 1, each before its `axis`
    /// and after the frame's `axis_source` (wheel, 0).
    @Test(arguments: [8, 7])
    func buttonsAndADiscreteWheelStepInTheirFrames(version: Int) throws {
        let h = try ServerHarness()
        let (window, sender) = try Self.windowAndSender(h, windowArguments: ["--seat-version", "\(version)"])
        h.command(sender, "vpointer button 272 pressed")
        #expect(h.settle(window) == [])
        h.command(sender, "vpointer frame")
        #expect(h.settle(window) == ["pointer.button 272 pressed", "pointer.frame"])
        h.command(sender, "vpointer button 272 released")
        h.command(sender, "vpointer frame")
        #expect(h.settle(window) == ["pointer.button 272 released", "pointer.frame"])
        h.command(sender, "vpointer discrete 0 15 1")
        #expect(h.settle(window) == [])
        h.command(sender, "vpointer frame")
        let step = version >= 8 ? "pointer.axis_value120 0 120" : "pointer.axis_discrete 0 1"
        #expect(h.settle(window) == ["pointer.axis_source 0", step, "pointer.axis 0 15.00", "pointer.frame"])
    }

    /// Finger scrolling on both axes in one frame, then its stop: one frame each, the stop as
    /// `axis_stop` (wl_pointer: sent for finger scrolling when the fingers lift).
    @Test func fingerScrollAndItsStop() throws {
        let h = try ServerHarness()
        let (window, sender) = try Self.windowAndSender(h)
        for line in [
            "vpointer axis 0 3", "vpointer axis 1 -2", "vpointer source 1", "vpointer axis 0 1.5", "vpointer frame",
        ] {
            h.command(sender, line)
        }
        #expect(
            h.settle(window) == [
                "pointer.axis_source 1", "pointer.axis 0 4.50", "pointer.axis 1 -2.00", "pointer.frame",
            ])
        h.command(sender, "vpointer stop 0")
        h.command(sender, "vpointer frame")
        #expect(h.settle(window) == ["pointer.axis_stop 0", "pointer.frame"])
    }

    /// A client that never frames: its 1024th held event routes what it sent, so the
    /// server never holds more than that for it.
    @Test func nothingHeldPastTheLimit() throws {
        let h = try ServerHarness()
        let (window, sender) = try Self.windowAndSender(h)
        h.command(sender, "vpointer motion 0.0625 0 \(VirtualPointerObject.pendingLimit - 1)")
        #expect(h.settle(window) == [])
        h.command(sender, "vpointer motion 0.0625 0")
        let lines = h.settle(window)
        #expect(lines.count == 2 * VirtualPointerObject.pendingLimit)
        #expect(
            lines.suffix(4) == [
                "pointer.motion 73.94 10.00", "pointer.frame", "pointer.motion 74.00 10.00", "pointer.frame",
            ])
    }

    /// A virtual pointer destroyed with a button down: the window gets the release, and the
    /// seat's own mouse clicks normally afterwards (a stuck press would swallow its press,
    /// one button held on two devices being sent once).
    @Test func destroyedWhileHoldingAButtonReleasesIt() throws {
        let h = try ServerHarness()
        let (window, sender) = try Self.windowAndSender(h)
        h.command(sender, "vpointer button 272 pressed")
        h.command(sender, "vpointer frame")
        #expect(h.settle(window) == ["pointer.button 272 pressed", "pointer.frame"])
        h.command(sender, "vpointer destroy")
        #expect(h.settle(window) == ["pointer.button 272 released", "pointer.frame"])
        Self.expectNothingHeld(h, window)
    }

    @Test func killedWhileHoldingAButtonReleasesIt() throws {
        let h = try ServerHarness()
        let (window, sender) = try Self.windowAndSender(h)
        h.command(sender, "vpointer button 273 pressed")
        h.command(sender, "vpointer frame")
        #expect(h.settle(window) == ["pointer.button 273 pressed", "pointer.frame"])
        kill(sender.process.processIdentifier, SIGKILL)
        h.dispatch(until: "the server to see the sender gone") { h.server.clientsByPointer.count == 1 }
        #expect(h.settle(window) == ["pointer.button 273 released", "pointer.frame"])
        #expect(h.server.virtualDeviceIDs.count == 0)
        Self.expectNothingHeld(h, window)
    }

    /// The seat's mouse presses and releases on the window, then leaves it: no implicit grab
    /// is left, no press is swallowed.
    static func expectNothingHeld(
        _ h: ServerHarness, _ window: ClientProcess, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        h.button(.pressed, 0x111)
        h.button(.released, 0x111)
        h.button(.pressed, 0x110)
        h.button(.released, 0x110)
        h.warp(600, 600)
        #expect(
            h.settle(window) == [
                "pointer.button 273 pressed", "pointer.frame", "pointer.button 273 released", "pointer.frame",
                "pointer.button 272 pressed", "pointer.frame", "pointer.button 272 released", "pointer.frame",
                "pointer.leave win", "pointer.frame",
            ], sourceLocation: sourceLocation)
    }

    /// A virtual pointer made for a second seat is a device of that seat: its `wl_seat`
    /// gains the pointer capability, a window on that seat gets its motion, the first seat's
    /// cursor stays; when it goes, the capability goes.
    @Test func aVirtualPointerOfASecondSeatIsThatSeatsDevice() throws {
        let h = try ServerHarness()
        try h.server.addSeat(name: "seat1")
        let window = try h.mappedProbe(["--seat-index", "1", "--toplevel", "win", "200x100"])
        let sender = try h.probe(["--seat-index", "1", "--no-pointer", "--no-keyboard", "--no-touch"])
        h.wait(for: sender, line: "ready")
        let firstCursor = h.server.seat.cursor
        h.command(sender, "vpointer create seat")
        #expect(h.settle(window) + h.settle(window) == ["seat.capabilities 1"]) // then its wl_pointer is bound
        h.command(sender, "vpointer absolute 60 60 1280 720")
        h.command(sender, "vpointer frame")
        #expect(h.settle(window) == ["pointer.enter win 20.00 20.00", "pointer.motion 20.00 20.00", "pointer.frame"])
        #expect(h.server.seats[1].cursor == Point(60, 60))
        #expect(h.server.seat.cursor == firstCursor)
        h.command(sender, "vpointer destroy")
        #expect(h.settle(window) == ["seat.capabilities 0"])
    }

    /// The policy sees who asks and for what; the refused client is disconnected with error
    /// 0 on the manager (the protocol names none), the allowed one's pointer works.
    @Test func aClientThePolicyRefusesGetsTheError() throws {
        let h = try ServerHarness()
        let (window, allowed) = try Self.windowAndSender(h)
        let refused = try h.probe(["--no-pointer", "--no-keyboard", "--no-touch"])
        h.wait(for: refused, line: "ready")
        var asked: [VirtualDeviceClient] = []
        let refusedPID = refused.process.processIdentifier
        h.server.policy.mayCreateVirtualDevice = { client, kind in
            #expect(kind == .pointer)
            asked.append(client)
            return client.pid != refusedPID
        }
        refused.send("vpointer create")
        var error = ""
        h.wait(for: refused, awaiting: "the refused client's protocol error") { line in
            if line.hasPrefix("protocol-error") {
                error = line
                return true
            }
            return false
        }
        #expect(error.hasPrefix("protocol-error zwlr_virtual_pointer_manager_v1@") && error.hasSuffix(" code=0"))
        #expect(asked.map(\.pid) == [refusedPID])
        #expect(asked.map(\.program) == ["wl-probe"])
        #expect(h.server.virtualDeviceIDs.count == 1) // the allowed client's, made before the policy
        // The allowed client makes another and moves it.
        h.command(allowed, "vpointer create")
        h.command(allowed, "vpointer motion 1 1")
        h.command(allowed, "vpointer frame")
        #expect(h.settle(window) == ["pointer.motion 11.00 11.00", "pointer.frame"])
        #expect(asked.map(\.pid) == [refusedPID, allowed.process.processIdentifier])
    }

    /// wlr-virtual-pointer's errors, and `wl_display.invalid_method` for a button state that
    /// is none (the protocol names no error for it).
    @Test(arguments: [
        ("vpointer axis 2 1", "zwlr_virtual_pointer_v1@", "code=0"), // invalid_axis
        ("vpointer discrete 3 1 1", "zwlr_virtual_pointer_v1@", "code=0"),
        ("vpointer stop 2", "zwlr_virtual_pointer_v1@", "code=0"),
        ("vpointer source 4", "zwlr_virtual_pointer_v1@", "code=1"), // invalid_axis_source
        ("vpointer button 272 2", "wl_display@1", "code=1"),
    ])
    func invalidRequestsGetTheirErrors(request: String, object: String, code: String) throws {
        let h = try ServerHarness()
        let (window, sender) = try Self.windowAndSender(h)
        h.command(sender, "vpointer button 272 pressed")
        h.command(sender, "vpointer frame")
        _ = h.settle(window)
        sender.send(request)
        var error = ""
        h.wait(for: sender, awaiting: "the protocol error") { line in
            if line.hasPrefix("protocol-error") {
                error = line
                return true
            }
            return false
        }
        #expect(error.hasPrefix("protocol-error \(object)") && error.hasSuffix(" \(code)"))
        // Disconnected with its button down: released.
        h.dispatch(until: "the server to see the sender gone") { h.server.clientsByPointer.count == 1 }
        #expect(h.settle(window) == ["pointer.button 272 released", "pointer.frame"])
    }
}
