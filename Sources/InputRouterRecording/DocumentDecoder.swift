// Decodes the YAML tree of a `libinput record` file (version 1) into device
// descriptions and raw event entries. Unknown keys are ignored (newer libinput versions
// add some); missing optional keys take their defaults; null `quirks`/`events` are empty.

import InputRouter

/// One evdev event `[sec, usec, type, code, value]`.
struct EvdevEvent {
    var time: UInt64
    var type: UInt16
    var code: UInt16
    var value: Int32
    var position: SourcePosition
}

/// One entry of a device's `events:` list, split at SYN_REPORT.
struct RawFrame {
    var evdev: [EvdevEvent]
    /// The `libinput:` entries; nil when the key is absent, empty when its value is null.
    var libinput: [YAMLNode]?
    var position: SourcePosition
    /// The time of the SYN_REPORT, or of the first libinput entry; nil for DEVICE_ADDED.
    var time: UInt64?
}

struct RawDevice {
    var device: RecordedDevice
    var frames: [RawFrame]
}

struct DocumentDecoder {
    var warnings: [(SourcePosition, String)] = []
    let deviceIDBase: UInt32

    init(deviceIDBase: UInt32) { self.deviceIDBase = deviceIDBase }

    mutating func decode(_ root: YAMLNode) throws(PositionedError) -> (libinputVersion: String?, devices: [RawDevice]) {
        _ = try root.mapping("the recording")
        let versionNode = try root.required("version", in: "the recording")
        let version = try versionNode.integer("version")
        guard version == 1 else {
            throw versionNode.fail("unsupported recording version \(version); this reader understands version 1")
        }
        let libinputVersion = root["libinput"]?["version"]?.scalarText
        let deviceNodes = try root.required("devices", in: "the recording").optionalSequence("devices")
        if let declared = root["ndevices"] {
            let count = try declared.integer("ndevices")
            guard count == Int64(deviceNodes.count) else {
                throw declared.fail(
                    "ndevices is \(count) but the file lists \(deviceNodes.count) device(s); truncated file?")
            }
        }
        var devices: [RawDevice] = []
        for (index, node) in deviceNodes.enumerated() {
            let (id, overflow) = deviceIDBase.addingReportingOverflow(UInt32(truncatingIfNeeded: index))
            guard !overflow else { throw node.fail("device id out of range") }
            devices.append(try decodeDevice(node, id: DeviceID(id)))
        }
        PadLayoutReading.bindTablets(&devices)
        return (libinputVersion, devices)
    }

    private mutating func decodeDevice(_ node: YAMLNode, id: DeviceID) throws(PositionedError) -> RawDevice {
        _ = try node.mapping("device")
        let evdev = try node.required("evdev", in: "device")
        _ = try evdev.mapping("evdev")
        var device = RecordedDevice(
            id: id, node: node["node"]?.scalarText, name: try evdev["name"]?.string("name") ?? "",
            identity: nil, codes: [:], absinfo: [:], properties: [], udevProperties: [], quirks: [], hid: [],
            libinputCapabilities: nil, libinputSize: nil, hasLibinputEvents: false, deviceClass: .other,
            position: node.position)
        if let idNode = evdev["id"], !idNode.isNull {
            let items = try idNode.sequence("id")
            guard items.count == 4 else { throw idNode.fail("id: expected [bus, vendor, product, version]") }
            device.identity = DeviceIdentity(
                bus: try items[0].integer("id", as: UInt32.self), vendor: try items[1].integer("id", as: UInt32.self),
                product: try items[2].integer("id", as: UInt32.self),
                version: try items[3].integer("id", as: UInt32.self))
        }
        if let codes = evdev["codes"], !codes.isNull {
            for (key, value) in try codes.mapping("codes") {
                let type = try key.integer("event type", as: UInt16.self)
                guard type <= EV.max else { throw key.fail("codes: unknown event type \(type)") }
                device.codes[type] = try value.optionalSequence("codes").map { (item) throws(PositionedError) in
                    try item.integer("event code", as: UInt16.self)
                }
            }
        }
        if let absinfo = evdev["absinfo"], !absinfo.isNull {
            for (key, value) in try absinfo.mapping("absinfo") {
                let code = try key.integer("absinfo code", as: UInt16.self)
                let row = try value.sequence("absinfo")
                guard row.count == 5 else { throw value.fail("absinfo: expected [min, max, fuzz, flat, resolution]") }
                var numbers: [Int32] = []
                for item in row { numbers.append(try item.integer("absinfo", as: Int32.self)) }
                guard numbers[0] <= numbers[1] else {
                    throw value.fail("absinfo: minimum \(numbers[0]) is greater than maximum \(numbers[1])")
                }
                device.absinfo[code] = AbsInfo(
                    minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2],
                    flat: numbers[3], resolution: numbers[4])
            }
        }
        if let properties = evdev["properties"] {
            device.properties = try properties.optionalSequence("properties").map { (item) throws(PositionedError) in
                try item.integer("property", as: UInt16.self)
            }
        }
        if let hid = node["hid"] {
            device.hid = try hid.optionalSequence("hid").map { (item) throws(PositionedError) in
                try item.integer("hid", as: UInt8.self)
            }
        }
        if let udev = node["udev"], let properties = udev["properties"] {
            device.udevProperties = try properties.optionalSequence("udev properties").map {
                (item) throws(PositionedError) in try item.string("udev property")
            }
        }
        if let quirks = node["quirks"] {
            device.quirks = try quirks.optionalSequence("quirks").map { (item) throws(PositionedError) in
                try item.string("quirk")
            }
        }
        var padNode: YAMLNode?
        if let block = node["libinput"], !block.isNull {
            device.libinputCapabilities = try decodeCapabilities(block["capabilities"])
            padNode = block["pad"]
            if let size = block["size"], !size.isNull {
                let (w, h) = try size.pair("size")
                device.libinputSize = [w, h]
            }
        }
        device.deviceClass = DeviceClassifier.classify(device)
        var frames: [RawFrame] = []
        if let events = node["events"] {
            for entry in try events.optionalSequence("events") {
                frames.append(contentsOf: try decodeEntry(entry, device: device.name))
            }
        }
        device.hasLibinputEvents = frames.contains { $0.libinput != nil }
        if let padNode {
            device.padLayout = try PadLayoutReading.decode(padNode)
        } else if device.libinputCapabilities?.contains(.tabletPad) ?? (device.deviceClass == .tabletPad) {
            device.padLayout = PadLayoutReading.derive(device, frames: frames)
        }
        return RawDevice(device: device, frames: frames)
    }

    private func decodeCapabilities(_ node: YAMLNode?) throws(PositionedError) -> DeviceCapabilities {
        var capabilities: DeviceCapabilities = []
        guard let node else { return capabilities }
        for item in try node.optionalSequence("capabilities") {
            switch try item.string("capability") {
            case "keyboard": capabilities.insert(.keyboard)
            case "pointer": capabilities.insert(.pointer)
            case "touch": capabilities.insert(.touch)
            case "tablet", "tablet-tool": capabilities.insert(.tabletTool)
            case "pad", "tablet-pad": capabilities.insert(.tabletPad)
            case "gesture": capabilities.insert(.gesture)
            case "switch": capabilities.insert(.switch)
            default: break // a capability newer than this reader: nothing to route
            }
        }
        return capabilities
    }

    /// One `- evdev: [...]  libinput: [...]` entry. Several SYN_REPORTs in one list make
    /// several frames (the libinput entries go with the last).
    private mutating func decodeEntry(_ entry: YAMLNode, device: String) throws(PositionedError) -> [RawFrame] {
        _ = try entry.mapping("event entry")
        var libinput: [YAMLNode]?
        if let node = entry["libinput"] { libinput = try node.optionalSequence("libinput events") }
        var frames: [RawFrame] = []
        var pending: [EvdevEvent] = []
        var sawDropped = false
        if let evdev = entry["evdev"] {
            for row in try evdev.optionalSequence("evdev events") {
                let event = try decodeEvdev(row)
                if event.type == EV.syn && event.code == SYN.dropped { sawDropped = true }
                pending.append(event)
                if event.type == EV.syn && event.code == SYN.report {
                    frames.append(
                        RawFrame(evdev: pending, libinput: nil, position: pending[0].position, time: event.time))
                    pending = []
                }
            }
        }
        if sawDropped {
            warnings.append(
                (entry.position, "SYN_DROPPED: the kernel lost events here; state after it may be inconsistent"))
        }
        if let first = pending.first {
            warnings.append(
                (first.position, "evdev frame does not end in SYN_REPORT; \(pending.count) event(s) skipped"))
        }
        let libinputTime = try libinput?.first?["time"]?.microseconds("time")
        if frames.isEmpty {
            return [RawFrame(evdev: [], libinput: libinput, position: entry.position, time: libinputTime)]
        }
        frames[frames.count - 1].libinput = libinput
        return frames
    }

    private func decodeEvdev(_ row: YAMLNode) throws(PositionedError) -> EvdevEvent {
        let items = try row.sequence("evdev event")
        guard items.count == 5 else {
            throw row.fail("evdev event: expected [sec, usec, type, code, value], found \(items.count) number(s)")
        }
        let seconds = try items[0].integer("seconds")
        guard seconds >= 0, UInt64(seconds) <= YAMLNode.maximumSeconds else {
            throw items[0].fail("seconds: \(seconds) is out of range")
        }
        let micros = try items[1].integer("microseconds")
        guard (0..<1_000_000).contains(micros) else { throw items[1].fail("microseconds: \(micros) is out of range") }
        let type = try items[2].integer("event type")
        guard (0...Int64(EV.max)).contains(type) else { throw items[2].fail("unknown event type \(type)") }
        let code = try items[3].integer("event code")
        guard (0...Int64(EV.codeMax)).contains(code) else { throw items[3].fail("event code \(code) is out of range") }
        let value = try items[4].integer("event value")
        guard let value32 = Int32(exactly: value) else { throw items[4].fail("event value \(value) is out of range") }
        return EvdevEvent(
            time: UInt64(seconds) * 1_000_000 + UInt64(micros), type: UInt16(type), code: UInt16(code),
            value: value32, position: row.position)
    }
}
