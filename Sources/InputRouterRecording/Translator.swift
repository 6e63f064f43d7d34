// Turns decoded devices and frames into one event list. Devices are merged by time with
// a k-way merge that keeps each device's own order: time is not assumed monotonic across
// devices (or even within one), and a press is never reordered after its release.

import InputRouter

struct Translator {
    private(set) var warnings: [(SourcePosition, String)] = []
    private var seatSlots = SeatSlotAllocator()

    private enum Unit {
        case added(DeviceCapabilities)
        case frame(RawFrame)
    }

    private struct Stream {
        var device: RecordedDevice
        var units: [(time: UInt64, unit: Unit)]
        var next = 0
        var evdev: EvdevTranslator?
        var libinput: LibinputEntryDecoder
        /// Degrees per wheel detent, learnt from legacy POINTER_AXIS entries.
        var degreesPerDetent = 15.0
        var reportedUnsupported: Set<String> = []
    }

    mutating func translate(_ devices: [RawDevice]) throws(PositionedError) -> [InputEvent] {
        var streams: [Stream] = []
        for device in devices { streams.append(makeStream(device)) }
        var events: [InputEvent] = []
        while true {
            var best: Int?
            for index in streams.indices where streams[index].next < streams[index].units.count {
                let time = streams[index].units[streams[index].next].time
                if let current = best, streams[current].units[streams[current].next].time <= time { continue }
                best = index
            }
            guard let index = best else { return events }
            let (time, unit) = streams[index].units[streams[index].next]
            streams[index].next += 1
            let id = streams[index].device.id
            switch unit {
            case .added(let capabilities):
                events.append(InputEvent(time: time, device: id, .deviceAdded(capabilities)))
            case .frame(let frame):
                for (eventTime, kind) in try translate(frame, time: time, stream: &streams[index]) {
                    events.append(InputEvent(time: eventTime, device: id, kind))
                }
            }
        }
    }

    private mutating func makeStream(_ raw: RawDevice) -> Stream {
        let device = raw.device
        var stream = Stream(device: device, units: [], libinput: LibinputEntryDecoder(device: device))
        // Frames without a time of their own take the next frame's time (DEVICE_ADDED, so
        // a replay does not wait before the device appears), or, with no timed frame after
        // them, the device's last time (DEVICE_REMOVED, which `libinput record` writes
        // without one: at 0 it would be replayed at once, and the releases it causes would
        // carry time 0).
        var next: [UInt64?] = Array(repeating: nil, count: raw.frames.count)
        var following: UInt64?
        for index in raw.frames.indices.reversed() {
            if let time = raw.frames[index].time { following = time }
            next[index] = following
        }
        var times: [UInt64] = []
        times.reserveCapacity(raw.frames.count)
        for time in next { times.append(time ?? times.last ?? 0) }
        if device.hasLibinputEvents {
            stream.units = zip(times, raw.frames).map { ($0, .frame($1)) }
            return stream
        }
        switch device.deviceClass {
        case .keyboard, .mouse, .touchscreen, .switches:
            stream.evdev = EvdevTranslator(device: device)
            stream.units =
                [(times.first ?? 0, .added(DeviceClassifier.capabilities(device)))]
                + zip(times, raw.frames).map { ($0, .frame($1)) }
        case .touchpad, .tablet, .tabletPad, .other:
            if !raw.frames.isEmpty {
                warnings.append((device.position, Self.notReplayable(device, frames: raw.frames.count)))
            }
        }
        return stream
    }

    static func notReplayable(_ device: RecordedDevice, frames: Int) -> String {
        let what: String
        switch device.deviceClass {
        case .touchpad: what = "a touchpad (tapping, palm detection, scrolling and gestures happen inside libinput)"
        case .tablet, .tabletPad: what = "a tablet (tool and pad events are built by libinput)"
        default: what = "not a keyboard, mouse, touchscreen or switch"
        }
        return "device \"\(device.name)\" is \(what) and was recorded without libinput events, so it cannot be "
            + "replayed faithfully without libinput; record it with `libinput record --with-libinput`, or play the "
            + "file into kernel devices with `libinput replay` inside a VM; \(frames) frame(s) skipped"
    }

    private mutating func translate(
        _ frame: RawFrame, time: UInt64,
        stream: inout Stream
    ) throws(PositionedError) -> [(UInt64, InputEvent.Kind)] {
        if var evdev = stream.evdev {
            stream.evdev = nil // keep one reference, so mutating the state does not copy it
            var collected: [(SourcePosition, String)] = []
            let kinds = evdev.translate(frame.evdev, seatSlots: &seatSlots) { collected.append(($0, $1)) }
            stream.evdev = evdev
            warnings.append(contentsOf: collected)
            return kinds.map { (time, $0) }
        }
        var out: [(UInt64, InputEvent.Kind)] = []
        for entry in frame.libinput ?? [] {
            switch try stream.libinput.decode(entry, frameTime: time) {
            case .event(let eventTime, let kind):
                out.append((eventTime, kind))
                // The pad's layout follows its DEVICE_ADDED, as LibinputSource sends it.
                if case .deviceAdded = kind, let layout = stream.device.padLayout {
                    out.append((eventTime, .tabletPadAdded(layout)))
                }
            case .unsupported(let type):
                if stream.reportedUnsupported.insert(type).inserted {
                    warnings.append(
                        (
                            entry.position,
                            "libinput event \(type) has no InputRouter event; skipped (reported once per device)"
                        ))
                }
            }
        }
        applyHiResWheel(frame.evdev, time: time, to: &out, degreesPerDetent: &stream.degreesPerDetent)
        return out
    }

    /// Fills in value120 from the frame's hi-res wheel counts, or adds the axis event that
    /// libinput 1.22's record leaves out for partial detents (its `libinput:` is null).
    private func applyHiResWheel(
        _ evdev: [EvdevEvent], time: UInt64, to out: inout [(UInt64, InputEvent.Kind)],
        degreesPerDetent: inout Double
    ) {
        var vertical: Int64 = 0
        var horizontal: Int64 = 0
        for event in evdev where event.type == EV.rel {
            if event.code == REL.wheelHiRes { vertical -= Int64(event.value) }
            if event.code == REL.hwheelHiRes { horizontal += Int64(event.value) }
        }
        let index = out.firstIndex {
            if case .pointerAxis(.wheel, _, _) = $0.1 { return true }
            return false
        }
        if let index, case .pointerAxis(_, let legacyV, let legacyH) = out[index].1 {
            for legacy in [legacyV, legacyH] {
                if let legacy, legacy.value120 != 0, legacy.value != 0 {
                    degreesPerDetent = abs(legacy.value) * 120 / abs(Double(legacy.value120))
                }
            }
        }
        guard vertical != 0 || horizontal != 0 else { return }
        let derived = WheelScroll.event(
            vertical120: vertical, horizontal120: horizontal, degreesPerDetent: degreesPerDetent)
        guard case .pointerAxis(_, let newV, let newH) = derived else { return }
        if let index, case .pointerAxis(_, let legacyV, let legacyH) = out[index].1 {
            out[index].1 = .pointerAxis(source: .wheel, vertical: newV ?? legacyV, horizontal: newH ?? legacyH)
        } else {
            out.append((time, derived))
        }
    }
}
