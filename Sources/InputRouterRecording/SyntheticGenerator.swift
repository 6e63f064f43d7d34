// A seeded generator of `libinput record` files with `libinput:` entries and the evdev
// frames a real device would have produced for them. It returns the events it meant
// alongside the text, so a test can check that reading the text gives them back exactly.

import InputRouter

/// A generated recording and the events it encodes, as the reader should return them.
public struct SyntheticLog: Sendable {
    /// The `libinput record` file, as text.
    public var yaml: String
    /// The devices the file describes, in file order.
    public var devices: [RecordedDevice]
    /// The events reading `yaml` must give back, exactly.
    public var events: [InputEvent]
    /// What the file says of each device (its name, node and ids), as the reader gives it
    /// back in `Recording.descriptions`.
    /// Made on each read: keep it rather than read it per event.
    public var descriptions: [DeviceID: DeviceDescription] {
        Dictionary(devices.map { ($0.id, $0.deviceDescription) }, uniquingKeysWith: { first, _ in first })
    }
}

/// Makes valid recordings from a seed, with the events they encode, for round-trip tests
/// and fuzzing seeds.
public struct SyntheticGenerator: Sendable {
    /// The seed; one seed always gives the same recording.
    public var seed: UInt64
    /// The devices the recording has: one per entry, in this order.
    public var devices: [SyntheticDeviceKind]
    /// Number of input frames (device additions come on top).
    public var frames: Int

    /// A generator for `seed`; by default every device kind and 200 frames (negative counts as 0).
    public init(seed: UInt64, devices: [SyntheticDeviceKind] = SyntheticDeviceKind.allCases, frames: Int = 200) {
        self.seed = seed
        self.devices = devices
        self.frames = max(0, frames)
    }

    /// What one generated frame writes and means.
    struct Frame {
        var evdev: [EvdevRecord] = []
        /// nil: no `libinput` key; empty: a null one (an event libinput 1.22 does not print).
        var libinput: [InputEvent]? = []
        var expected: [InputEvent.Kind] = []
    }

    /// Writes the recording and the events it encodes; the same generator always gives the same log.
    public func generate() -> SyntheticLog {
        var rng = SplitMix64(seed: seed)
        var writer = RecordWriter()
        var states: [DeviceState] = []
        var recorded: [RecordedDevice] = []
        for (index, kind) in devices.enumerated() {
            let device = SyntheticDevices.device(kind, index: index)
            recorded.append(device)
            _ = writer.addDevice(device)
            states.append(DeviceState(kind: kind))
        }
        var seatSlots = SeatSlotAllocator()
        var expected: [InputEvent] = []
        var started = Set<Int>()
        // Strictly increasing times across all devices: the reader's merge by time then
        // reproduces the generation order exactly.
        var time = UInt64(rng.int(1000...5000))
        if !devices.isEmpty {
            for _ in 0..<frames {
                let index = rng.int(0...devices.count - 1)
                time += UInt64(rng.int(1000...40000))
                let id = DeviceID(UInt32(index))
                if started.insert(index).inserted {
                    let added = InputEvent(
                        time: time, device: id, .deviceAdded(recorded[index].libinputCapabilities ?? []))
                    writer.append(device: index, evdev: [], libinput: [added])
                    expected.append(added)
                }
                let frame = states[index].frame(at: time, rng: &rng, seatSlots: &seatSlots)
                writer.append(
                    device: index, evdev: frame.evdev,
                    libinput: frame.libinput.map { $0.map { InputEvent(time: time, device: id, $0.kind) } })
                expected += frame.expected.map { InputEvent(time: time, device: id, $0) }
            }
        }
        return SyntheticLog(yaml: writer.yaml(), devices: recorded, events: expected)
    }
}
