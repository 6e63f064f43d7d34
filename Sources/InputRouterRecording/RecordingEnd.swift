// When a recording ends, which can be after its last event. `libinput record` writes
// frames that make no libinput event (a lone SYN_REPORT, an MSC_TIMESTAMP, a `libinput:`
// left null), and, run with --autorestart, closes the file once no event came for that
// long and says so at the end of each device's events: `# Closing after 2s inactivity`
// (tools/libinput-record.c, mainloop). What a client does in that quiet time (a tooltip
// shown, a drag finished) is part of what was recorded, so a replay lasts until the end.

import InputRouter

enum RecordingEnd {
    /// The end on the events' clock (µs): the last event's or timed frame's time, plus the
    /// quiet time of the file's closing comment when it has one.
    static func time(events: [InputEvent], devices: [RawDevice], bytes: [UInt8]) -> UInt64 {
        var last = events.lazy.map(\.time).max() ?? 0
        for device in devices {
            for frame in device.frames { if let time = frame.time, time > last { last = time } }
        }
        let (end, overflow) = last.addingReportingOverflow(closingQuiet(in: bytes) ?? 0)
        return overflow ? UInt64.max : end
    }

    private static let closing = Array("# Closing after ".utf8)
    private static let inactivity = Array("s inactivity".utf8)

    /// The quiet time (µs) the last `# Closing after Ns inactivity` comment names; nil when
    /// the file has none. libinput writes it without a newline, so it may end the file.
    static func closingQuiet(in bytes: [UInt8]) -> UInt64? {
        guard bytes.count >= closing.count else { return nil }
        var start = bytes.count - closing.count
        while start >= 0 {
            if bytes[start] == closing[0], bytes[start..<(start + closing.count)].elementsEqual(closing),
                let seconds = seconds(in: bytes, from: start + closing.count)
            {
                return seconds.multipliedReportingOverflow(by: 1_000_000).overflow ? UInt64.max : seconds * 1_000_000
            }
            start -= 1
        }
        return nil
    }

    /// The digits at `index` when `s inactivity` follows them.
    private static func seconds(in bytes: [UInt8], from index: Int) -> UInt64? {
        var value: UInt64 = 0
        var i = index
        while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(bytes[i] - UInt8(ascii: "0")))
            guard !o1, !o2 else { return nil }
            value = sum
            i += 1
        }
        guard i > index, i + inactivity.count <= bytes.count,
            bytes[i..<(i + inactivity.count)].elementsEqual(inactivity)
        else { return nil }
        return value
    }
}
