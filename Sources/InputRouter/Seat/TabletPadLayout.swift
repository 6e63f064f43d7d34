// A tablet pad's layout: how many buttons, rings and strips it has, and how libinput
// divides them into mode groups (each with its number of modes, its current mode and the
// buttons that switch modes). What zwp_tablet_pad_v2 announces before any pad event.
//
// A trivial value, so the event that carries it (`InputEvent.Kind.tabletPadAdded`) keeps
// `InputEvent` trivial: the groups' members are bit masks, not arrays. That bounds a pad
// to 64 buttons, 8 rings, 8 strips and 4 groups, beyond every pad libinput and libwacom
// describe (the largest have 18 buttons and 2 groups); `init` keeps what fits.

/// One mode group of a pad (`libinput_tablet_pad_mode_group`, `zwp_tablet_pad_group_v2`).
public struct TabletPadGroup: Hashable, Sendable {
    /// The buttons in the group, by index (libinput's button numbers).
    public var buttons: [UInt32]
    /// The rings in the group, by index.
    public var rings: [UInt32]
    /// The strips in the group, by index.
    public var strips: [UInt32]
    /// How many modes the group has (at least 1).
    public var modes: UInt32
    /// The mode the group is in (0 based).
    public var mode: UInt32
    /// The buttons that switch the group's mode (`libinput_tablet_pad_mode_group_button_is_toggle`).
    public var toggles: [UInt32]

    /// A group; one mode and no mode buttons unless said.
    public init(
        buttons: [UInt32], rings: [UInt32] = [], strips: [UInt32] = [], modes: UInt32 = 1, mode: UInt32 = 0,
        toggles: [UInt32] = []
    ) {
        self.buttons = buttons
        self.rings = rings
        self.strips = strips
        self.modes = max(1, modes)
        self.mode = mode
        self.toggles = toggles
    }
}

/// A pad's buttons, rings, strips and mode groups, and the tablet it belongs to.
public struct TabletPadLayout: Hashable, Sendable {
    /// The most of each a layout holds.
    public static let maxButtons = 64, maxRings = 8, maxStrips = 8, maxGroups = 4

    // Widest first, so the value packs into 64 bytes (no larger than a tool's proximity).
    private var toggleMask: UInt64 = 0
    private var b0: UInt64 = 0, b1: UInt64 = 0, b2: UInt64 = 0, b3: UInt64 = 0
    // Per group, one byte each: ring mask, strip mask, number of modes, current mode.
    private var ringMasks: UInt32 = 0, stripMasks: UInt32 = 0, modeCounts: UInt32 = 0, modes: UInt32 = 0
    private var tabletIndex: UInt32 = .max
    /// How many buttons the pad has.
    public private(set) var buttonCount: UInt8
    /// How many rings the pad has.
    public private(set) var ringCount: UInt8
    /// How many strips the pad has.
    public private(set) var stripCount: UInt8
    /// How many mode groups (at least 1).
    public private(set) var groupCount: UInt8

    /// The tablet (the device with the tablet-tool capability) the pad is part of; nil when
    /// the source could not tell. A pad without a tablet never gets a Wayland enter (the
    /// protocol's enter names the tablet).
    public var tablet: DeviceID? {
        get { tabletIndex == .max ? nil : DeviceID(tabletIndex) }
        set { tabletIndex = newValue?.index ?? .max }
    }

    /// A layout from libinput's description. No group: one group with everything in one
    /// mode, as libinput does for a pad it knows nothing more of. Indices beyond the
    /// limits are left out.
    public init(buttons: Int, rings: Int = 0, strips: Int = 0, groups: [TabletPadGroup] = [], tablet: DeviceID? = nil) {
        buttonCount = UInt8(min(max(buttons, 0), Self.maxButtons))
        ringCount = UInt8(min(max(rings, 0), Self.maxRings))
        stripCount = UInt8(min(max(strips, 0), Self.maxStrips))
        groupCount = 0
        self.tablet = tablet
        let groups =
            groups.isEmpty
            ? [
                TabletPadGroup(
                    buttons: (0..<UInt32(buttonCount)).map { $0 }, rings: (0..<UInt32(ringCount)).map { $0 },
                    strips: (0..<UInt32(stripCount)).map { $0 })
            ]
            : Array(groups.prefix(Self.maxGroups))
        groupCount = UInt8(groups.count)
        for (g, group) in groups.enumerated() {
            var mask: UInt64 = 0
            for b in group.buttons where b < buttonCount { mask |= 1 << b }
            setButtonMask(g, mask)
            for b in group.toggles where b < buttonCount { toggleMask |= 1 << b }
            var r: UInt32 = 0
            var s: UInt32 = 0
            for i in group.rings where i < ringCount { r |= 1 << i }
            for i in group.strips where i < stripCount { s |= 1 << i }
            setByte(&ringMasks, g, r)
            setByte(&stripMasks, g, s)
            setByte(&modeCounts, g, min(max(group.modes, 1), 255))
            setByte(&self.modes, g, min(group.mode, 254))
        }
    }

    /// The groups, with arrays: allocates, for announcing the pad, not per event.
    public var groups: [TabletPadGroup] {
        (0..<Int(groupCount)).map { g in
            let mask = buttonMask(g)
            let buttons = (0..<UInt32(buttonCount)).filter { mask & (1 << $0) != 0 }
            return TabletPadGroup(
                buttons: buttons,
                rings: (0..<UInt32(ringCount)).filter { byte(ringMasks, g) & (1 << $0) != 0 },
                strips: (0..<UInt32(stripCount)).filter { byte(stripMasks, g) & (1 << $0) != 0 },
                modes: byte(modeCounts, g), mode: byte(modes, g),
                toggles: buttons.filter { toggleMask & (1 << $0) != 0 })
        }
    }

    /// The group a button belongs to; nil for a button in none. No allocation.
    public func group(ofButton button: UInt32) -> Int? {
        guard button < 64 else { return nil }
        for g in 0..<Int(groupCount) where buttonMask(g) & (1 << button) != 0 { return g }
        return nil
    }

    /// The group a ring belongs to; nil for a ring in none. No allocation.
    public func group(ofRing ring: UInt32) -> Int? { memberGroup(ring, ringMasks) }
    /// The group a strip belongs to; nil for a strip in none. No allocation.
    public func group(ofStrip strip: UInt32) -> Int? { memberGroup(strip, stripMasks) }

    /// The current mode of group `g` as described (the seat tracks later switches).
    public func mode(ofGroup g: Int) -> UInt32 { g < Int(groupCount) ? byte(modes, g) : 0 }
    /// How many modes group `g` has.
    public func modeCount(ofGroup g: Int) -> UInt32 { g < Int(groupCount) ? byte(modeCounts, g) : 1 }
    /// Whether pressing `button` switches its group's mode.
    public func isToggle(_ button: UInt32) -> Bool { button < 64 && toggleMask & (1 << button) != 0 }

    private func memberGroup(_ i: UInt32, _ masks: UInt32) -> Int? {
        guard i < 8 else { return nil }
        for g in 0..<Int(groupCount) where byte(masks, g) & (1 << i) != 0 { return g }
        return nil
    }

    private func buttonMask(_ g: Int) -> UInt64 {
        switch g {
        case 0: b0
        case 1: b1
        case 2: b2
        default: b3
        }
    }

    private mutating func setButtonMask(_ g: Int, _ m: UInt64) {
        switch g {
        case 0: b0 = m
        case 1: b1 = m
        case 2: b2 = m
        default: b3 = m
        }
    }

    private func byte(_ word: UInt32, _ g: Int) -> UInt32 { (word >> (8 * UInt32(g))) & 0xff }
    private func setByte(_ word: inout UInt32, _ g: Int, _ v: UInt32) {
        word = (word & ~(0xff << (8 * UInt32(g)))) | ((v & 0xff) << (8 * UInt32(g)))
    }
}
