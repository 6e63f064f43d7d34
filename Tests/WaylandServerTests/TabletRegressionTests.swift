// Tablet bugs a real GTK 4 application found (TabletGtkTests), each pinned with wl-probe
// so that the failing case is small and fast.
import Foundation
import InputRouter
import Testing

@testable import InputRouterRecording
@testable import InputRouterWayland

@Suite(.serialized) struct TabletRegressionTests {
    /// A client that has a tablet seat but no wl_pointer (GTK on a seat whose only devices
    /// are a tablet and a pad has none) gets the tool: the core once sent tool events only
    /// to clients that had bound the pointer.
    @Test func aClientWithoutAPointerGetsTheTool() throws {
        let h = try ServerHarness()
        let c = try h.mappedProbe(["--toplevel", "win", "100x100", "--tablet", "--no-pointer", "--no-touch"])
        try h.server.handle(TabletTests.recording())
        // The tool's stroke without its axes and serials (TabletTests checks those).
        let lines = h.settle(c).map {
            $0.split(separator: " ").filter { !$0.hasPrefix("serial=") }.joined(separator: " ")
        }
        .filter {
            ["tool.proximity_in", "tool.proximity_out", "tool.down", "tool.up", "tool.button"].contains(
                $0.split(separator: " ")[0])
        }
        #expect(
            lines == [
                "tool.proximity_in tool0 win T0", "tool.down tool0", "tool.up tool0",
                "tool.button tool0 331 pressed", "tool.button tool0 331 released", "tool.proximity_out tool0",
            ], "\(lines)")
    }
}

@Suite(.serialized) struct PadRegressionTests {
    /// A pad button in none of the pad's groups (a layout that leaves one out) is not sent:
    /// GTK 4 aborts on it ("tablet_pad_handle_button: assertion failed: (group != NULL)").
    /// The buttons in a group still arrive.
    @Test func aButtonInNoGroupIsNotSent() throws {
        let h = try ServerHarness()
        let c = try h.mappedProbe(["--toplevel", "win", "100x100", "--tablet", "--no-touch"])
        let pen = DeviceID(40)
        let pad = DeviceID(41)
        let layout = TabletPadLayout(buttons: 3, groups: [TabletPadGroup(buttons: [0, 2])], tablet: pen)
        h.server.handle(InputEvent(time: 1000, device: pen, .deviceAdded([.tabletTool])))
        h.server.handle(InputEvent(time: 1000, device: pad, .deviceAdded([.tabletPad])))
        h.server.handle(InputEvent(time: 1000, device: pad, .tabletPadAdded(layout)))
        for (t, button) in [(2000, UInt32(1)), (3000, 2)] {
            h.server.handle(InputEvent(time: UInt64(t), device: pad, .tabletPadButton(button: button, state: .pressed)))
            h.server.handle(
                InputEvent(time: UInt64(t + 100), device: pad, .tabletPadButton(button: button, state: .released)))
        }
        let lines = h.settle(c).filter { $0.hasPrefix("pad.button ") || $0.hasPrefix("group.buttons") }
        #expect(lines == ["group.buttons G0 [0 2]", "pad.button P0 2 pressed", "pad.button P0 2 released"], "\(lines)")
    }
}

@Suite(.serialized) struct TabletNameTests {
    /// An embedder routes a tablet's deviceAdded with its description, and nothing else: a
    /// real client is told the name, id and node before the tablet's `done` (GTK names its
    /// tablet and pad devices after the name: "(null)" without it).
    @Test func aTabletIsAnnouncedWithTheNameAndIdsItsDeviceAddedDescribes() throws {
        let h = try ServerHarness()
        let c = try h.mappedProbe(["--toplevel", "win", "100x100", "--tablet", "--no-touch"])
        let pen = DeviceID(40)
        let description = DeviceDescription(
            name: "Wacom Intuos5 M Pen", path: "/dev/input/event4", bus: 3,
            vendor: 0x056a, product: 0x002a)
        h.server.handle(InputEvent(time: 1000, device: pen, .deviceAdded([.tabletTool])), description: description)
        #expect(h.server.seat.deviceDescription(of: pen) == description)
        let lines = h.settle(c).filter { $0.hasPrefix("tablet.") }
        #expect(
            lines == [
                "tablet.added T0", "tablet.name T0 Wacom Intuos5 M Pen", "tablet.id T0 1386 42",
                "tablet.path T0 /dev/input/event4", "tablet.done T0",
            ], "\(lines)")
    }

    /// Without a description the tablet is announced bare, and a description of another
    /// device number, or of a device since removed, is not used for it.
    @Test func aTabletWithoutADescriptionIsAnnouncedBare() throws {
        let h = try ServerHarness()
        let c = try h.mappedProbe(["--toplevel", "win", "100x100", "--tablet", "--no-touch"])
        let named = DeviceDescription(name: "Named Pen", path: "/dev/input/event9", vendor: 1, product: 2)
        h.server.handle(InputEvent(time: 1000, device: DeviceID(41), .deviceAdded([.tabletTool])), description: named)
        h.server.handle(InputEvent(time: 2000, device: DeviceID(41), .deviceRemoved))
        h.server.handle(InputEvent(time: 3000, device: DeviceID(42), .deviceAdded([.keyboard])), description: named)
        h.server.handle(InputEvent(time: 4000, device: DeviceID(41), .deviceAdded([.tabletTool])))
        let lines = h.settle(c).filter { $0.hasPrefix("tablet.") }
        #expect(
            lines == [
                "tablet.added T0", "tablet.name T0 Named Pen", "tablet.id T0 1 2", "tablet.path T0 /dev/input/event9",
                "tablet.done T0", "tablet.removed T0", "tablet.added T1", "tablet.done T1",
            ], "\(lines)")
    }

    /// A tablet replugged 1,000 times, under a new sysfs path and node each time: the client
    /// is told each plug's name and node, and the seat's device table ends as it began (the
    /// seat lets each description go at deviceRemoved).
    @Test func aThousandReplugsAreEachAnnouncedAndLeaveTheSeatsTableAsItWas() throws {
        let h = try ServerHarness()
        let c = try h.mappedProbe(["--toplevel", "win", "100x100", "--tablet", "--no-touch"])
        let before = h.server.seat.describedDevices
        var paths: [String] = []
        for i in 0..<1000 {
            let d = DeviceDescription(
                name: "Replug Pen", path: "/dev/input/event\(100 + i)",
                sysPath: "/sys/devices/pci0000:00/usb1/1-1/input/input\(200 + i)/event\(100 + i)",
                bus: 3, vendor: 0x056a, product: 0x002a)
            h.server.handle(
                InputEvent(time: UInt64(1000 + 10 * i), device: DeviceID(40), .deviceAdded([.tabletTool])),
                description: d)
            h.server.handle(InputEvent(time: UInt64(1005 + 10 * i), device: DeviceID(40), .deviceRemoved))
            // Read as it goes: a client reading nothing of 1,000 tablets would fill its socket.
            if i % 25 == 24 { paths += h.settle(c).filter { $0.hasPrefix("tablet.path ") } }
        }
        #expect(paths.count == 1000)
        #expect(paths.last?.hasSuffix(" /dev/input/event1099") == true, "\(paths.last ?? "")")
        #expect(h.server.seat.describedDevices == before)
        #expect(h.server.seat.deviceDescription(of: DeviceID(40)) == nil)
    }

    /// Two seats each have a tablet of the same device number, described differently: each
    /// seat's client is told its own seat's name (descriptions are kept per seat).
    @Test func twoSeatsTabletsOfOneDeviceNumberKeepTheirOwnNames() throws {
        let (h, second, a, b) = try TabletSeatTests.twoSeats(bAbove: true)
        let pen = DeviceID(40)
        let added = InputEvent(time: 1000, device: pen, .deviceAdded([.tabletTool]))
        h.server.handle(added, description: DeviceDescription(name: "A Pen"))
        h.server.handle(added, description: DeviceDescription(name: "B Pen"), seat: second)
        #expect(
            h.settle(a).filter { $0.hasPrefix("tablet.") } == [
                "tablet.added T0", "tablet.name T0 A Pen", "tablet.done T0",
            ])
        #expect(
            h.settle(b).filter { $0.hasPrefix("tablet.") } == [
                "tablet.added T0", "tablet.name T0 B Pen", "tablet.done T0",
            ])
    }
}
