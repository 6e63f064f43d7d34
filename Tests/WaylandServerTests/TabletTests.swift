// zwp_tablet_manager_v2 as a real client (wl-probe --tablet) sees it: a tablet recording,
// written with the project's RecordWriter and read back by RecordingReader as any
// `libinput record` file, is replayed into the server; the probe prints every event.
// (The synthetic generator makes no tablet devices, so no fixture recorded by real
// libinput exists for tablets yet.)
import Foundation
import InputRouter
import Testing

@testable import InputRouterRecording
@testable import InputRouterWayland

@Suite(.serialized) struct TabletTests {
    /// A pen with pressure and tilt, 1023×511 units at 8 per mm, over the window's
    /// surface-local (40, 50) and (80, 50) on the 1280×720 output (the window at (40, 40)).
    static func recording() throws -> Recording {
        var device = SyntheticDevices.device(.touchscreen, index: 0)
        device.name = "Test Pen Tablet"
        device.absinfo[ABS.x] = AbsInfo(minimum: 0, maximum: 1023, resolution: 8)
        device.absinfo[ABS.y] = AbsInfo(minimum: 0, maximum: 511, resolution: 8)
        device.libinputCapabilities = [.tabletTool]
        var writer = RecordWriter(libinputVersion: "1.22.1")
        let index = writer.addDevice(device)
        let pen = TabletTool(type: .pen, serial: 1234, capabilities: [.pressure, .tilt])
        func at(_ x: Double, _ pressure: Double) -> TabletAxes {
            TabletAxes(x: x / 1280, y: 90.0 / 720, pressure: pressure, tiltX: 5, tiltY: -3)
        }
        let kinds: [InputEvent.Kind] = [
            .tabletToolProximity(pen, inProximity: true, at(80, 0)),
            .tabletToolTip(down: true, at(80, 0.5)),
            .tabletToolAxis(at(120, 0.25)),
            .tabletToolTip(down: false, at(120, 0)),
            .tabletToolButton(button: 0x14b, state: .pressed),
            .tabletToolButton(button: 0x14b, state: .released),
            .tabletToolProximity(pen, inProximity: false, at(120, 0)),
        ]
        for (i, kind) in kinds.enumerated() {
            let event = InputEvent(time: UInt64(i + 1) * 10_000, device: DeviceID(0), kind)
            writer.append(
                device: index, evdev: [EvdevRecord(time: event.time, type: 0, code: 0, value: 0)], libinput: [event])
        }
        return try RecordingReader.parse(writer.yaml(), file: "tablet.yml")
    }

    @Test func aReplayedPenReachesTheSurfaceUnderItWithItsCapabilitiesAndSerials() throws {
        let h = try ServerHarness()
        let c = try h.mappedProbe(["--toplevel", "win", "100x100", "--tablet", "--no-touch"])
        let recording = try Self.recording()
        #expect(recording.warnings.map(\.description) == [])
        try h.server.handle(recording)
        let lines = h.settle(c).filter { $0.hasPrefix("tablet.") || $0.hasPrefix("tool.") }
        // Serials are the display's: the test checks each is one the server gave out for
        // input, then compares the lines without them.
        var serials: [UInt32] = []
        let plain = lines.map { line -> String in
            guard let r = line.range(of: " serial=") else { return line }
            serials.append(UInt32(line[r.upperBound...])!)
            return String(line[..<r.lowerBound])
        }
        #expect(
            plain == [
                "tablet.added T0", "tablet.done T0",
                // The first proximity of a tool announces it, before its events.
                "tool.added tool0", "tool.type tool0 pen", "tool.serial tool0 1234",
                "tool.capability tool0 tilt", "tool.capability tool0 pressure", "tool.done tool0",
                // The axes come before the motion they go with (GTK reads them at `motion`).
                "tool.proximity_in tool0 win T0", "tool.pressure tool0 0", "tool.tilt tool0 5.00 -3.00",
                "tool.motion tool0 40.00 50.00", "tool.frame tool0",
                "tool.pressure tool0 32768", "tool.tilt tool0 5.00 -3.00", "tool.motion tool0 40.00 50.00",
                "tool.down tool0", "tool.frame tool0",
                "tool.pressure tool0 16384", "tool.tilt tool0 5.00 -3.00", "tool.motion tool0 80.00 50.00",
                "tool.frame tool0",
                "tool.pressure tool0 0", "tool.tilt tool0 5.00 -3.00", "tool.motion tool0 80.00 50.00", "tool.up tool0",
                "tool.frame tool0",
                "tool.button tool0 331 pressed", "tool.frame tool0",
                "tool.button tool0 331 released", "tool.frame tool0",
                "tool.proximity_out tool0", "tool.frame tool0",
            ], "\(lines)")
        #expect(serials.count == 4) // proximity_in, down, two buttons
        #expect(serials == serials.sorted() && Set(serials).count == 4)
    }

    @Test func aClientWithoutATabletSeatGetsNothingAndTheToolPassesThrough() throws {
        let h = try ServerHarness()
        let c = try h.mappedProbe(["--toplevel", "win", "100x100", "--no-touch"])
        try h.server.handle(Self.recording())
        #expect(!h.settle(c).contains { $0.hasPrefix("tool.") || $0.hasPrefix("tablet.") })
        #expect(h.server.seat.tabletToolsInProximity == 0)
    }
}
