// A tablet pad's layout in a recording. `libinput record` writes none (its device block
// has only `size` and `capabilities`), so for its files the layout is what libinput
// itself would build without libwacom, from the evdev description: buttons BTN_0..BTN_9,
// BTN_BASE, BTN_BASE2, BTN_A..BTN_Z (six), BTN_LEFT..BTN_TASK (seven), in that order; a
// ring for ABS_WHEEL and a second for ABS_THROTTLE; a strip for ABS_RX and a second for
// ABS_RY; one group holding them all. What libwacom adds shows in the recorded events: a
// group's number of modes is at least one more than the highest `mode:` its events carry,
// its current mode is the first event's (one before it when that event is a mode
// button's press), and a button recorded with `is-toggle: true` switches modes. InputRouter's own writer records the layout libinput reported, as the
// device's `libinput: pad:` key, and that is read as it is:
//
//     pad: {buttons: 9, rings: 1, strips: 1, groups: [{buttons: [0, 1, 2], rings: [0], strips: [], modes: 4, mode: 0, toggles: [0]}]}
//
// The pad's tablet is the device of the file with the tablet-tool capability and the same
// LIBINPUT_DEVICE_GROUP udev property, else the file's only tablet.

import InputRouter

enum PadLayoutReading {
    /// The `pad:` key of a device's `libinput:` block.
    static func decode(_ node: YAMLNode) throws(PositionedError) -> TabletPadLayout {
        _ = try node.mapping("pad")
        func count(_ key: String) throws(PositionedError) -> Int {
            try node[key].map { (n) throws(PositionedError) in Int(try n.integer("pad \(key)", as: UInt8.self)) } ?? 0
        }
        func indices(_ group: YAMLNode, _ key: String) throws(PositionedError) -> [UInt32] {
            guard let list = group[key] else { return [] }
            return try list.optionalSequence("pad group \(key)").map { (item) throws(PositionedError) in
                try item.integer("pad group \(key)", as: UInt32.self)
            }
        }
        var groups: [TabletPadGroup] = []
        if let list = node["groups"] {
            for group in try list.optionalSequence("pad groups") {
                _ = try group.mapping("pad group")
                groups.append(
                    TabletPadGroup(
                        buttons: try indices(group, "buttons"), rings: try indices(group, "rings"),
                        strips: try indices(group, "strips"),
                        modes: try group["modes"]?.integer("pad group modes", as: UInt32.self) ?? 1,
                        mode: try group["mode"]?.integer("pad group mode", as: UInt32.self) ?? 0,
                        toggles: try indices(group, "toggles")))
            }
        }
        return TabletPadLayout(
            buttons: try count("buttons"), rings: try count("rings"), strips: try count("strips"), groups: groups)
    }

    /// The layout as `pad:` writes it (the inverse of `decode`).
    static func yaml(_ layout: TabletPadLayout) -> String {
        func list(_ values: [UInt32]) -> String { "[" + values.map(String.init).joined(separator: ", ") + "]" }
        let groups = layout.groups.map {
            "{buttons: \(list($0.buttons)), rings: \(list($0.rings)), strips: \(list($0.strips)), modes: \($0.modes), "
                + "mode: \($0.mode), toggles: \(list($0.toggles))}"
        }
        return "{buttons: \(layout.buttonCount), rings: \(layout.ringCount), strips: \(layout.stripCount), "
            + "groups: [\(groups.joined(separator: ", "))]}"
    }

    /// The evdev codes libinput makes pad buttons of, in its order (pad_init_buttons_from_kernel).
    static let buttonCodes: [UInt16] =
        Array(0x100..<0x10a) + [0x126, 0x127] + Array(0x130..<0x136) + Array(0x110..<0x117)

    /// libinput's layout for a pad it has no libwacom entry for, refined by what its
    /// recorded events show (modes, the current mode, toggle buttons).
    static func derive(_ device: RecordedDevice, frames: [RawFrame]) -> TabletPadLayout {
        let buttons = buttonCodes.filter { device.supports(type: EV.key, code: $0) }.count
        let rings = device.supports(type: EV.abs, code: 0x08) ? (device.supports(type: EV.abs, code: 0x06) ? 2 : 1) : 0
        let strips = device.supports(type: EV.abs, code: 0x03) ? (device.supports(type: EV.abs, code: 0x04) ? 2 : 1) : 0
        var first: UInt32?
        var firstIsTogglePress = false
        var highest: UInt32 = 0
        var toggles: [UInt32] = []
        for frame in frames {
            for entry in frame.libinput ?? [] {
                guard let type = entry["type"]?.scalarText, type.hasPrefix("TABLET_PAD_"),
                    let text = entry["mode"]?.scalarText, let mode = UInt32(text)
                else { continue }
                let toggle = type == "TABLET_PAD_BUTTON" && entry["is-toggle"]?.scalarText == "true"
                if first == nil {
                    first = mode
                    firstIsTogglePress = toggle && entry["state"]?.scalarText == "pressed"
                }
                highest = max(highest, mode)
                if toggle, let b = entry["button"]?.scalarText.flatMap({ UInt32($0) }), !toggles.contains(b) {
                    toggles.append(b)
                }
            }
        }
        // libinput reports the mode after the event: a toggle's press already carries the
        // next mode, so the pad was in the one before it.
        let modes = highest + 1
        let mode = first.map { firstIsTogglePress ? ($0 + modes - 1) % modes : $0 } ?? 0
        let group = TabletPadGroup(
            buttons: (0..<UInt32(buttons)).map { $0 }, rings: (0..<UInt32(rings)).map { $0 },
            strips: (0..<UInt32(strips)).map { $0 }, modes: modes, mode: mode,
            toggles: toggles.sorted())
        return TabletPadLayout(buttons: buttons, rings: rings, strips: strips, groups: [group])
    }

    /// Binds each pad to its tablet: the same LIBINPUT_DEVICE_GROUP, else the only tablet.
    static func bindTablets(_ devices: inout [RawDevice]) {
        let tablets = devices.filter { isTablet($0.device) }.map(\.device)
        for i in devices.indices {
            guard var layout = devices[i].device.padLayout, layout.tablet == nil else { continue }
            let group = devices[i].device.udevProperty("LIBINPUT_DEVICE_GROUP")
            if let group, let t = tablets.first(where: { $0.udevProperty("LIBINPUT_DEVICE_GROUP") == group }) {
                layout.tablet = t.id
            } else if tablets.count == 1 {
                layout.tablet = tablets[0].id
            }
            devices[i].device.padLayout = layout
        }
    }

    private static func isTablet(_ d: RecordedDevice) -> Bool {
        d.libinputCapabilities?.contains(.tabletTool) ?? (d.deviceClass == .tablet)
    }
}
