// Which clients a tablet tool's events reach, as GTK 4 showed them (TabletGtkTests).
import InputRouter
import Testing

@Suite struct TabletClientTests {
    let pen = DeviceID(5)

    /// A client that bound the tablet and nothing else (GTK on a seat of only a tablet and a
    /// pad has no wl_pointer) gets the whole stroke: the core once sent tool events only to
    /// clients with the pointer bound.
    @Test func aClientWithTheTabletAndNoPointerGetsTheStroke() {
        let h = Harness()
        _ = h.toplevel("A", h.client("a", [.tablet]), Rect(0, 0, 100, 100))
        h.seat.notifyDeviceAdded(pen, capabilities: .tabletTool)
        let tool = TabletTool(type: .pen, serial: 7)
        let at = TabletAxes(x: 0.01, y: 0.01)
        let lines = h.step {
            h.seat.notifyTabletProximity(time: h.tick(), device: pen, tool: tool, inProximity: true, axes: at)
            h.seat.notifyTabletTip(time: h.tick(), device: pen, down: true, axes: at)
            h.seat.notifyTabletTip(time: h.tick(), device: pen, down: false, axes: at)
            h.seat.notifyTabletProximity(time: h.tick(), device: pen, tool: tool, inProximity: false, axes: at)
        }.filter { !$0.contains("tablet.motion") && !$0.contains("tablet.frame") }
        #expect(
            lines == [
                "seat0 tablet.proximity_in \"A\" dev5 pen serial 7", "seat0 tablet.down \"A\" dev5",
                "seat0 tablet.up \"A\" dev5",
                "seat0 tablet.proximity_out \"A\" dev5",
            ])
        h.expectClean()
    }
}
