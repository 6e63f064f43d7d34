import InputRouter
import Testing

/// A device's description is handed to the seat with its `deviceAdded` and owned by that
/// seat's device table until its `deviceRemoved` (Seat+DeviceDescriptions.swift): nothing
/// else keeps it, so nothing is left behind and no clock decides.
struct DeviceDescriptionTests {
    static let pen = DeviceDescription(
        name: "Wacom Intuos5 M Pen", path: "/dev/input/event4", bus: 3,
        vendor: 0x056a, product: 0x002a)

    /// The description travels beside the event: `deviceAdded` carries its capabilities
    /// only, so every event stays a trivial value of at most 89 bytes (stride 96), and
    /// routing one copies bytes and retains nothing.
    @Test func theEventStaysTrivialAndSmall() {
        #expect(_isPOD(InputEvent.self))
        #expect(MemoryLayout<InputEvent>.size <= 89)
        #expect(MemoryLayout<InputEvent>.stride <= 96)
    }

    /// From the `deviceAdded` routed with it until the device's `deviceRemoved`, the seat
    /// answers the description; other events of the device leave it; after the removal,
    /// and for a device added again without one, the answer is nil (never a stale one).
    @Test func aDescriptionIsTheSeatsFromDeviceAddedUntilDeviceRemoved() {
        let router = Router()
        let seat = router.addSeat()
        let device = DeviceID(4)
        #expect(seat.deviceDescription(of: device) == nil)
        seat.handle(InputEvent(time: 1, device: device, .deviceAdded([.tabletTool])), description: Self.pen)
        #expect(seat.deviceDescription(of: device) == Self.pen)
        seat.handle(InputEvent(time: 2, device: device, .tabletToolAxis(TabletAxes(x: 0.5, y: 0.5))))
        // Any event may go through the describing call: only a deviceAdded takes the description.
        seat.handle(
            InputEvent(time: 3, device: device, .tabletToolAxis(TabletAxes(x: 0.6, y: 0.5))),
            description: DeviceDescription(name: "not a device arrival"))
        #expect(seat.deviceDescription(of: device) == Self.pen)
        #expect(seat.describedDevices == [device])
        seat.handle(InputEvent(time: 4, device: device, .deviceRemoved))
        #expect(seat.deviceDescription(of: device) == nil)
        #expect(seat.describedDevices.isEmpty)
        seat.handle(InputEvent(time: 5, device: device, .deviceAdded([.tabletTool])))
        #expect(seat.deviceDescription(of: device) == nil)
        // The wlroots-style verb says the same.
        seat.notifyDeviceAdded(device, capabilities: [.tabletTool], description: Self.pen)
        #expect(seat.deviceDescription(of: device) == Self.pen)
        seat.notifyDeviceRemoved(device, time: 6)
        #expect(seat.deviceDescription(of: device) == nil)
    }

    /// A device added again without a removal between (a source that lost track) is
    /// described by its newest `deviceAdded`, not its first.
    @Test func aSecondDeviceAddedReplacesTheDescription() {
        let router = Router()
        let seat = router.addSeat()
        let device = DeviceID(4)
        let moved = DeviceDescription(
            name: Self.pen.name, path: "/dev/input/event9",
            sysPath: "/sys/devices/usb2/input9/event9")
        seat.handle(InputEvent(time: 1, device: device, .deviceAdded([.tabletTool])), description: Self.pen)
        seat.handle(InputEvent(time: 2, device: device, .deviceAdded([.tabletTool])), description: moved)
        #expect(seat.deviceDescription(of: device) == moved)
        seat.handle(InputEvent(time: 3, device: device, .deviceAdded([.tabletTool])), description: nil)
        #expect(seat.deviceDescription(of: device) == nil)
        #expect(seat.describedDevices.isEmpty)
    }

    /// A long session replugs three tablets 1,000 times in all, each time under a new sysfs
    /// path, while a keyboard stays: while plugged, each has its own plug's description;
    /// at the end the seat's table holds the keyboard's alone.
    @Test func aThousandReplugsUnderNewPathsLeaveNothingBehindInTheSeatsTable() {
        let router = Router()
        let seat = router.addSeat()
        let keyboard = DeviceID(1)
        let keyboardDescription = DeviceDescription(name: "AT Translated Set 2 keyboard", path: "/dev/input/event2")
        seat.handle(InputEvent(time: 0, device: keyboard, .deviceAdded(.keyboard)), description: keyboardDescription)
        var wrong = 0
        for i in 0..<1000 {
            let pen = DeviceID(UInt32(40 + i % 3))
            let d = DeviceDescription(
                name: "Replug Pen", path: "/dev/input/event\(4 + i % 3)",
                sysPath: "/sys/devices/usb1/1-1/1-1:1.\(i)/input/input\(100 + i)/event\(4 + i % 3)",
                bus: 3, vendor: 0x056a, product: 0x002a)
            seat.handle(InputEvent(time: UInt64(i * 10), device: pen, .deviceAdded([.tabletTool])), description: d)
            if seat.deviceDescription(of: pen) != d { wrong += 1 }
            seat.handle(InputEvent(time: UInt64(i * 10 + 5), device: pen, .deviceRemoved))
            if seat.deviceDescription(of: pen) != nil { wrong += 1 }
            router.queue.removeAll()
        }
        #expect(wrong == 0, "\(wrong) answers of 2,000 were not the plug's own")
        #expect(seat.describedDevices == [keyboard])
        #expect(seat.deviceDescription(of: keyboard) == keyboardDescription)
    }

    /// Two seats with a device of the same number, described differently: each answers its
    /// own, and a removal on one leaves the other's.
    @Test func twoSeatsEachOwnTheirDescriptions() {
        let router = Router()
        let first = router.addSeat(name: "seat0")
        let second = router.addSeat(name: "seat1")
        let device = DeviceID(40)
        let a = DeviceDescription(name: "A Pen", path: "/dev/input/event4")
        let b = DeviceDescription(name: "B Pen", path: "/dev/input/event14")
        first.handle(InputEvent(time: 1, device: device, .deviceAdded([.tabletTool])), description: a)
        second.handle(InputEvent(time: 1, device: device, .deviceAdded([.tabletTool])), description: b)
        #expect(first.deviceDescription(of: device) == a)
        #expect(second.deviceDescription(of: device) == b)
        first.handle(InputEvent(time: 2, device: device, .deviceRemoved))
        #expect(first.deviceDescription(of: device) == nil)
        #expect(second.deviceDescription(of: device) == b)
    }
}
