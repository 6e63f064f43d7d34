// Devices a server makes itself (virtual pointers and keyboards) take ids from
// `DeviceID.firstServerMade` (2³¹) up, next to a source's ids from 0 up: each is a device
// of its own to the seat, with its own presses, released when it goes.
import InputRouter
import Testing

@Suite struct ServerMadeDeviceTests {
    /// Source devices 0...3 and server-made devices 2³¹...2³¹ + 3 each hold a button of their
    /// own; removing any one of them releases that device's button and nothing else, and
    /// the seat's capabilities follow the server-made pointer as they follow a mouse.
    @Test func serverMadeDevicesAreDevicesOfTheirOwn() {
        let h = Harness()
        let a = h.client("a")
        h.toplevel("A", a, Rect(0, 0, 100, 100))
        _ = h.warp(10, 10)
        let sources = (0...3 as ClosedRange<UInt32>).map { DeviceID($0) }
        let made = (0...3 as ClosedRange<UInt32>).map { DeviceID(DeviceID.firstServerMade + $0) }
        #expect(made.allSatisfy(\.isServerMade) && !sources.contains(where: \.isServerMade))
        #expect(h.seat.presentCapabilities == [])
        h.seat.notifyDeviceAdded(made[2], capabilities: .pointer)
        #expect(h.seat.presentCapabilities == .pointer)
        // Linux code 0x110 + n for source n, 0x114 + n for server-made n, as the trace names them.
        let names = ["BTN_LEFT", "BTN_RIGHT", "BTN_MIDDLE", "BTN_SIDE", "BTN_EXTRA", "0x115", "0x116", "0x117"]
        for (n, d) in (sources + made).enumerated() {
            #expect(
                h.button(.pressed, 0x110 + UInt32(n), device: d).first
                    == "seat0 pointer.button \"A\" \(names[n]) pressed")
        }
        // Interleaved, so that a shared record would show: 2³¹ + 1, then 1, then 2³¹, then 0...
        for n in [5, 1, 4, 0, 7, 3, 6, 2] {
            let device = (sources + made)[n]
            let released = h.step { h.seat.notifyDeviceRemoved(device, time: h.tick()) }
            #expect(released.first == "seat0 pointer.button \"A\" \(names[n]) released", "device \(device)")
            #expect(released.filter { $0.contains("pointer.button") }.count == 1, "device \(device)")
        }
        #expect(h.seat.presentCapabilities == [])
        h.expectClean()
    }
}
