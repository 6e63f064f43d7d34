import InputRouter
import Testing

struct DeviceDescriptionTests {
    /// The description rides on `deviceAdded` as a catalogue number: the event stays a
    /// trivial value no bigger than it was without it (89 bytes, stride 96), so routing one
    /// copies bytes and retains nothing.
    @Test func anEventCarryingADescriptionStaysTrivialAndKeepsItsSize() {
        #expect(_isPOD(InputEvent.self))
        #expect(MemoryLayout<InputEvent>.size <= 89)
        #expect(MemoryLayout<InputEvent>.stride <= 96)
        let d = DeviceDescription(name: "Wacom Intuos5 M Pen", path: "/dev/input/event4", vendor: 0x056a, product: 0x002a)
        let e = InputEvent(time: 1, device: DeviceID(4), .deviceAdded([.tabletTool], d.reference))
        #expect(e.deviceDescription == d)
        #expect(InputEvent(time: 1, device: DeviceID(4), .deviceAdded([.tabletTool])).deviceDescription == nil)
        #expect(InputEvent(time: 1, device: DeviceID(4), .deviceRemoved).deviceDescription == nil)
    }

    /// Equal descriptions get one number, so a device plugged in again does not grow the
    /// catalogue, and two events describing one device compare equal.
    @Test func equalDescriptionsShareOneReference() {
        let a = DeviceDescription(name: "USB Mouse", path: "/dev/input/event7", bus: 3, vendor: 0x046d, product: 0xc077)
        var b = a
        #expect(a.reference == b.reference)
        b.product = 0xc078
        #expect(a.reference != b.reference)
        #expect(b.reference.resolved == b)
        #expect(DeviceDescription.Reference.none.resolved == nil)
    }
}
