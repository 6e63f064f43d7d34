// Writes `libinput record` version 1 files: device descriptions, evdev frames and
// `libinput:` event entries. The synthetic generator writes through it, and a live
// backend can use it to record what it sees. Numbers are written in Swift's shortest
// round-trip form, so the reader gets back exactly the values written.

import InputRouter

/// One evdev event to write.
public struct EvdevRecord: Hashable, Sendable {
    /// Microseconds, written as the `[sec, usec, ...]` pair of the evdev row.
    public var time: UInt64
    /// The evdev event type (`EV_KEY`, `EV_SYN`, ...).
    public var type: UInt16
    /// The code within the type (`KEY_A`, `SYN_REPORT`, ...).
    public var code: UInt16
    /// The value (1 press, 0 release, a position or a delta).
    public var value: Int32
    /// One row: time in µs, type, code, value.
    public init(time: UInt64, type: UInt16, code: UInt16, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }
}

/// Builds a `libinput record` file in memory, device by device and entry by entry, so the
/// reader can replay it. Every append grows its storage: a recorder, not a hot-path sink.
public struct RecordWriter: Sendable {
    private struct Entry: Sendable {
        var evdev: [EvdevRecord]
        var libinput: [InputEvent]?
    }
    private var devices: [(device: RecordedDevice, entries: [Entry])] = []
    private var buttonCounts: [UInt32: Int] = [:]
    /// Written as the file's `libinput: version:` (the live recorder names itself there).
    public var libinputVersion: String

    /// An empty file; `libinputVersion` says what made it ("synthetic" by default).
    public init(libinputVersion: String = "synthetic") { self.libinputVersion = libinputVersion }

    /// Adds a device; its index in the file is the returned value.
    public mutating func addDevice(_ device: RecordedDevice) -> Int {
        devices.append((device, []))
        return devices.count - 1
    }

    /// Appends one entry to a device's events. `evdev` should end in SYN_REPORT. `libinput`
    /// nil writes no `libinput` key, an empty array writes `libinput:` with a null value
    /// (what libinput 1.22 prints for events it does not record). Touch and absolute
    /// positions are written in mm of the device's size, as libinput does.
    public mutating func append(device: Int, evdev: [EvdevRecord], libinput: [InputEvent]?) {
        guard devices.indices.contains(device) else { return }
        devices[device].entries.append(Entry(evdev: evdev, libinput: libinput))
    }

    /// The whole file as text, every device with the entries appended so far. The buttons'
    /// seat counts are counted from the file's start on each call, so the same entries give
    /// the same text (`LiveRecorder` renders once for `yaml()` and again for `write`).
    public mutating func yaml() -> String {
        buttonCounts = [:]
        var out = "# libinput record\nversion: 1\nndevices: \(devices.count)\nlibinput:\n"
        out += "  version: \(quoted(libinputVersion))\n  git: \"unknown\"\nsystem:\n  os: \"synthetic\"\n"
        out += "  kernel: \"synthetic\"\n  dmi: \"unknown\"\ndevices:\n"
        for index in devices.indices { writeDevice(index, to: &out) }
        return out
    }

    private mutating func writeDevice(_ index: Int, to out: inout String) {
        let device = devices[index].device
        out += "- node: \(device.node ?? "/dev/input/event\(index)")\n  evdev:\n    name: \(quoted(device.name))\n"
        if let id = device.identity { out += "    id: [\(id.bus), \(id.vendor), \(id.product), \(id.version)]\n" }
        out += "    codes:\n"
        for type in device.codes.keys.sorted() {
            out += "      \(type): [\((device.codes[type] ?? []).map(String.init).joined(separator: ", "))]\n"
        }
        if !device.absinfo.isEmpty {
            out += "    absinfo:\n"
            for code in device.absinfo.keys.sorted() {
                guard let a = device.absinfo[code] else { continue }
                out += "      \(code): [\(a.minimum), \(a.maximum), \(a.fuzz), \(a.flat), \(a.resolution)]\n"
            }
        }
        out += "    properties: [\(device.properties.map(String.init).joined(separator: ", "))]\n"
        // Quoted: udev values may contain ": " or "#", which YAML would read otherwise.
        out += "  udev:\n    properties:\n" + device.udevProperties.map { "    - \(quoted($0))\n" }.joined()
        out += device.quirks.isEmpty ? "  quirks:\n" : "  quirks:\n" + device.quirks.map { "  - \($0)\n" }.joined()
        if let capabilities = device.libinputCapabilities {
            out += "  libinput:\n"
            if let size = device.libinputSize, size.count == 2 { out += "    size: [\(size[0]), \(size[1])]\n" }
            out += "    capabilities: \(EventText.names(capabilities))\n"
            if let pad = device.padLayout { out += "    pad: \(PadLayoutReading.yaml(pad))\n" }
        }
        out += "  events:\n"
        let formatter = EntryFormatter(device: device)
        for entry in devices[index].entries {
            if !entry.evdev.isEmpty {
                out += "  - evdev:\n"
                for e in entry.evdev {
                    out += "    - [\(e.time / 1_000_000), \(e.time % 1_000_000), \(e.type), \(e.code), \(e.value)]\n"
                }
            }
            guard let events = entry.libinput else { continue }
            out += entry.evdev.isEmpty ? "  - libinput:" : "    libinput:"
            if events.isEmpty {
                out += "\n"
                continue
            }
            out += "\n"
            for event in events {
                if let line = formatter.format(event, buttonCounts: &buttonCounts) { out += "    - \(line)\n" }
            }
        }
    }
}

/// Quotes a YAML string with the escapes YAML's double-quoted style needs.
func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7f {
                let hex = String(scalar.value, radix: 16)
                out += "\\x" + (hex.count < 2 ? "0" : "") + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}
