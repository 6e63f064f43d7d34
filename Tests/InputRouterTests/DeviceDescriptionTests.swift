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

/// The catalogue forgets: a description goes once no seat, source or reader refers to it
/// (DeviceDescription.swift). Each test names its devices with a token of its own, so
/// suites running at the same time, with devices of their own, do not count.
@Suite(.serialized) struct DeviceDescriptionForgettingTests {
    static func token() -> String { "t\(UInt64.random(in: 0...UInt64.max))" }
    static func mine(_ token: String) -> [DeviceDescription] { DeviceDescription.catalogued.filter { $0.name.contains(token) } }
    /// Counted, so a failure says how many, not every description.
    static func count(_ token: String) -> Int { mine(token).count }

    /// A long session replugs a tablet 1,000 times, each time under a new sysfs path: the
    /// seat takes each description at deviceAdded and lets it go at deviceRemoved, so the
    /// catalogue ends as it began; while present, the device's description is the seat's.
    @Test func aThousandReplugsUnderNewPathsLeaveTheCatalogueAsItWas() {
        let token = Self.token()
        let router = Router()
        let seat = router.addSeat()
        var references: [DeviceDescription.Reference] = []
        for i in 0..<1000 {
            let pen = DeviceID(UInt32(40 + i % 3))
            let d = DeviceDescription(name: "Replug Pen \(token)", path: "/dev/input/event\(4 + i % 3)",
                                      sysPath: "/sys/devices/usb1/1-1/1-1:1.\(i)/input/input\(100 + i)/event\(4 + i % 3)",
                                      bus: 3, vendor: 0x056a, product: 0x002a)
            let r = d.reference
            references.append(r)
            seat.handle(InputEvent(time: UInt64(i * 10), device: pen, .deviceAdded([.tabletTool], r)))
            #expect(seat.deviceDescription(of: pen) == d)
            seat.handle(InputEvent(time: UInt64(i * 10 + 5), device: pen, .deviceRemoved))
            router.queue.removeAll()
        }
        let kept = Self.count(token)
        #expect(kept == 0, "\(kept) of the replugs' descriptions stayed")
        #expect(references.allSatisfy { $0.resolved == nil })
    }

    /// Events posted and never routed (an embedder that drops them) cost a bounded amount:
    /// past `inFlightLimit` hand-outs, those `inFlightGrace` old go. A device present keeps
    /// its description in the seat's table all the same, and it goes with the device.
    @Test func unroutedDeviceAddedEventsAreBoundedAndAPresentDeviceKeepsItsOwn() async throws {
        let token = Self.token()
        let router = Router()
        let seat = router.addSeat()
        let kept = DeviceDescription(name: "Kept Mouse \(token)", path: "/dev/input/event7")
        seat.handle(InputEvent(time: 1, device: DeviceID(7), .deviceAdded([.pointer], kept.reference)))
        for i in 0..<(DeviceDescription.inFlightLimit + 50) {
            _ = DeviceDescription(name: "Dropped \(token)", sysPath: "/sys/x/input\(i)").reference
        }
        try await Task.sleep(for: DeviceDescription.inFlightGrace + .milliseconds(100))
        _ = DeviceDescription(name: "Dropped \(token)", sysPath: "/sys/x/last").reference  // the old ones make room
        let dropped = Self.mine(token).filter { $0.name.hasPrefix("Dropped") }.count
        #expect(dropped <= DeviceDescription.inFlightLimit, "\(dropped) of \(DeviceDescription.inFlightLimit + 51) kept")
        #expect(seat.deviceDescription(of: DeviceID(7)) == kept)
        let present = Self.mine(token).contains(kept)
        #expect(present)
        seat.handle(InputEvent(time: 2, device: DeviceID(7), .deviceRemoved))
        let after = Self.mine(token).contains(kept)
        #expect(!after, "the removed device's description stayed")
    }

    /// A deviceAdded on its way to a seat keeps its description however many other
    /// hand-outs are made meanwhile (another thread reading files while this one is
    /// preempted): none of them is `inFlightGrace` old.
    @Test func anEventOnItsWayKeepsItsDescriptionThroughAFlood() {
        let token = Self.token()
        let router = Router()
        let seat = router.addSeat()
        let d = DeviceDescription(name: "On Its Way \(token)", path: "/dev/input/event9")
        let r = d.reference
        for i in 0...DeviceDescription.inFlightLimit { _ = DeviceDescription(name: "Flood \(token) \(i)").reference }
        seat.handle(InputEvent(time: 1, device: DeviceID(9), .deviceAdded([.keyboard], r)))
        #expect(seat.deviceDescription(of: DeviceID(9)) == d)
    }

    /// A hold keeps its description while it lives; holds of one description share its
    /// reference, and it goes with the last.
    @Test func aHoldKeepsItsDescriptionUntilItGoes() {
        let d = DeviceDescription(name: "Held Pad \(Self.token())", path: "/dev/input/event5")
        var first: DeviceDescription.Hold? = DeviceDescription.Hold(d)
        let reference = first!.reference
        var second: DeviceDescription.Hold? = DeviceDescription.Hold(reference)
        #expect(reference.resolved == d)
        #expect(DeviceDescription.Hold(d).reference == reference)
        first = nil
        #expect(second?.reference.resolved == d)
        second = nil
        #expect(reference.resolved == nil)
        #expect(DeviceDescription.Hold(reference) == nil)
    }

    /// A seat that goes with devices still present lets their descriptions go.
    @Test func aSeatThatGoesLetsItsDevicesDescriptionsGo() {
        let token = Self.token()
        var router: Router? = Router()
        let r = DeviceDescription(name: "Seat End Keyboard \(token)").reference
        router!.addSeat().handle(InputEvent(time: 1, device: DeviceID(3), .deviceAdded([.keyboard], r)))
        #expect(r.resolved != nil)
        router = nil
        #expect(r.resolved == nil)
    }
}
