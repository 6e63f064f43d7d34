import InputRouter
import InputRouterRecording

/// Writes bytes in `KeyboardFuzz`'s format (for seeds and regression scripts).
public struct KeyboardScript {
    public private(set) var bytes: [UInt8]
    public init(keymap: Int) { bytes = [UInt8(keymap)] }

    static func key(_ k: UInt32) -> UInt8 {
        if let i = KeyboardFuzz.hotKeys.firstIndex(of: k) { return UInt8(i) }
        return k <= 121 ? UInt8(128 + k) : 0
    }
    public mutating func press(_ k: UInt32, device: UInt8 = 0) { bytes += [device << 6 | 0, Self.key(k)] }
    public mutating func release(_ k: UInt32, device: UInt8 = 0) { bytes += [device << 6 | 1, Self.key(k)] }
    public mutating func tap(_ k: UInt32, device: UInt8 = 0) { bytes += [device << 6 | 24, Self.key(k)] }
    public mutating func type(_ keys: [UInt32]) { for k in keys { tap(k) } }
    public mutating func releaseAll() { bytes.append(40) }
    public mutating func focus(window: UInt8) { bytes.append((window & 1) << 6 | 44) }
    public mutating func removeDevice(_ device: UInt8) { bytes.append(device << 6 | 48) }
    public mutating func addDevice(_ device: UInt8) { bytes.append(device << 6 | 52) }
}

/// A named seed input.
public struct Seed: Sendable {
    public var name: String
    public var bytes: [UInt8]
}

public enum KeyboardSeeds {
    // evdev codes
    static let shift: UInt32 = 42, ctrl: UInt32 = 29, alt: UInt32 = 56, rightAlt: UInt32 = 100, meta: UInt32 = 125
    static let caps: UInt32 = 58, enter: UInt32 = 28, apostrophe: UInt32 = 40, grave: UInt32 = 41, six: UInt32 = 7
    static let hello: [UInt32] = [35, 18, 38, 38, 24, 57, 17, 24, 19, 38, 32]

    public static var all: [Seed] {
        var seeds: [Seed] = []
        for keymap in 0..<KeyboardFuzz.keymapNames.count {
            var s = KeyboardScript(keymap: keymap)
            s.type(hello)
            s.press(shift)
            s.type(hello)
            s.release(shift)
            s.press(caps)
            s.release(caps)
            s.type(hello)
            s.tap(caps)
            seeds.append(Seed(name: "typing-\(keymap)", bytes: s.bytes))

            var l = KeyboardScript(keymap: keymap)
            l.press(alt)
            l.tap(shift)
            l.release(alt)
            l.type(hello) // grp:alt_shift_toggle
            l.tap(caps)
            l.type(hello) // grp:caps_toggle
            l.press(rightAlt)
            l.type([16, 18, 30])
            l.release(rightAlt) // third level
            l.press(ctrl)
            l.press(alt)
            l.tap(20)
            l.release(alt)
            l.release(ctrl) // a binding
            l.press(meta)
            l.tap(enter)
            l.release(meta)
            seeds.append(Seed(name: "layouts-\(keymap)", bytes: l.bytes))

            var c = KeyboardScript(keymap: keymap)
            c.tap(rightAlt)
            c.tap(apostrophe)
            c.tap(18) // compose ' e
            c.tap(apostrophe)
            c.tap(18)
            c.tap(grave)
            c.tap(30) // dead keys on intl
            c.press(shift)
            c.tap(six)
            c.release(shift)
            c.tap(24) // dead circumflex
            c.tap(rightAlt)
            c.tap(rightAlt)
            c.tap(57) // a cancelled sequence
            seeds.append(Seed(name: "compose-\(keymap)", bytes: c.bytes))

            var h = KeyboardScript(keymap: keymap)
            h.press(shift, device: 1)
            h.press(30, device: 1)
            h.press(ctrl, device: 2)
            h.focus(window: 1)
            h.removeDevice(1)
            h.tap(30)
            h.addDevice(1)
            h.press(shift, device: 1)
            h.releaseAll()
            h.removeDevice(2)
            h.focus(window: 0)
            seeds.append(Seed(name: "held-\(keymap)", bytes: h.bytes))
        }
        return seeds
    }
}

public enum RouterSeeds {
    /// Two clients with toplevels, a subsurface below one, a popup and a panel.
    static func scene(_ s: inout RouterScript) {
        s.addClient(bound: 7)
        s.addClient(bound: 3)
        s.create(kind: 0, client: 1, parent: 0, frame: (60, 60, 150, 110)) // #: node 1
        s.create(kind: 0, client: 2, parent: 0, frame: (120, 100, 120, 120)) // node 2
        s.create(kind: 2, client: 1, parent: 1, frame: (20, 20, 40, 40), below: true) // node 3
        s.create(kind: 3, client: 1, parent: 0, frame: (90, 90, 60, 60)) // node 4
        s.create(kind: 4, client: 0, parent: 0, frame: (33, 30, 255, 20)) // node 5: a panel
        s.op(.nextResponder, 4, 1, 0)
        s.focus(node: 1)
    }

    public static var all: [Seed] {
        var seeds: [Seed] = []
        let kinds: [[SyntheticDeviceKind]] = [
            [.mouse], [.keyboard], [.touchscreen], [.switches], SyntheticDeviceKind.allCases,
        ]
        for (i, devices) in kinds.enumerated() {
            var s = RouterScript()
            scene(&s)
            let log = SyntheticGenerator(seed: UInt64(40 + i), devices: devices, frames: 120).generate()
            for (j, e) in log.events.enumerated() {
                s.event(e, seat: i == 4 ? j % 2 : 0)
                if j % 25 == 24 { s.op(.move, UInt8(1 + j % 4), 0, UInt8(j % 200), UInt8(j % 150), 0, 0) }
            }
            seeds.append(Seed(name: "synthetic-\(devices.map(\.rawValue).joined(separator: "-"))", bytes: s.bytes))
        }
        // A tablet: a client that bound the tablet seat, a tool coming in over its window,
        // tip down, moving with pressure and tilt, a stylus button, tip up, out; pad
        // buttons, ring and strip with the keyboard focus on that window; the tablet
        // going away with the tip down.
        var t = RouterScript()
        scene(&t)
        t.addClient(bound: 15)
        t.create(kind: 0, client: 3, parent: 0, frame: (100, 100, 200, 150)) // node 6: 200,140 390x290
        t.focus(node: 6)
        t.op(.tabletProximity, device: 3, 0, 1, 1, 112, 112, 0b0111, 200, 60, 130)
        t.op(.tabletTip, device: 3, 1, 112, 112, 1, 180)
        t.op(.tabletAxis, device: 3, 116, 114, 0b1101, 220, 125, 118)
        t.op(.tabletButton, device: 3, 0, 1)
        t.op(.tabletButton, device: 3, 0, 0)
        t.op(.tabletTip, device: 3, 0, 116, 114, 0)
        t.op(.tabletProximity, device: 3, 0, 1, 0, 116, 114, 0)
        t.op(.padButton, device: 2, 1, 1)
        t.op(.padButton, device: 2, 1, 0)
        t.op(.padRing, device: 2, 0, 150, 1)
        t.op(.padStrip, device: 2, 1, 100, 1)
        t.op(.tabletProximity, device: 3, 1, 2, 1, 112, 112, 0)
        t.op(.tabletTip, device: 3, 1, 112, 112, 0)
        t.op(.deviceRemoved, device: 3)
        seeds.append(Seed(name: "tablet", bytes: t.bytes))

        // Scene churn under held input.
        var c = RouterScript()
        scene(&c)
        c.op(.motionAbsolute, 0, 100, 100)
        c.op(.button, device: 1, 0, 1)
        c.op(.key, device: 2, 0, 1)
        c.op(.touchDown, device: 3, 0, 90, 90)
        c.op(.map, 1, 0)
        c.op(.map, 1, 1)
        c.op(.restack, 2, 1)
        c.op(.reparent, 3, 2, 1)
        c.op(.inputRegion, 1, 0b11, 0, 0, 50, 50)
        c.op(.popupGrab, 4)
        c.op(.deviceRemoved, device: 1)
        c.op(.destroy, 2)
        c.op(.removeClient, 1)
        c.op(.deviceRemoved, device: 2)
        seeds.append(Seed(name: "churn", bytes: c.bytes))
        seeds.append(Seed(name: "snapshot-title-bars", bytes: snapshotSeed()))
        return seeds
    }

    /// A snapshot seed (`RouterFuzz.sceneSeed`): the scene a compositor with server-side
    /// title bars makes (a window container that takes no input, a title bar with its
    /// handler, the client's toplevel below it; a second window), then clicks and keys.
    public static func snapshotSeed() -> [UInt8] {
        let router = Router()
        let one = router.addClient(name: "one")
        let two = router.addClient(name: "two")
        let seat = router.addSeat(name: "seat0")
        seat.notifyDeviceAdded(DeviceID(0), capabilities: [.pointer, .keyboard, .touch])
        seat.setBound([.pointer, .keyboard, .touch], for: one, true)
        seat.setBound([.pointer, .keyboard], for: two, true)
        let tree = router.tree
        let out = tree.createNode(.output, name: "out0", frame: Rect(0, 0, 640, 480))
        for (i, client) in [one, two].enumerated() {
            let x = Int32(40 + 120 * i)
            let container = tree.createNode(.compositor, name: "window", parent: out, frame: Rect(x, 40, 0, 0))
            tree.setClipsChildren(container, false)
            tree.setContainmentTest(container, name: SceneHandlers.takesNoInput) { _ in false }
            let bar = tree.createNode(.compositor, name: "title bar", parent: container, frame: Rect(0, 0, 200, 24))
            tree.setHandler(bar, name: "title bar") { _ in .handled }
            let top = tree.createNode(
                .toplevel, name: "window \(i)", client: client, parent: container, frame: Rect(0, 24, 200, 150))
            tree.setNextResponder(top, bar)
        }
        var s = RouterScript()
        // (units of 1/239 of the output): 80,50 on the first title bar, 300,150 in the second window.
        s.op(.motionAbsolute, 30, 25)
        s.op(.button, 0, 1)
        s.op(.button, 0, 0)
        s.op(.motionAbsolute, 112, 75)
        s.op(.button, 0, 1)
        s.op(.key, 0, 1)
        s.op(.key, 0, 0)
        s.op(.button, 0, 0)
        s.op(.destroy, 2)
        s.op(.removeClient, 1)
        return RouterFuzz.sceneSeed(router.captureScene(), steps: s.bytes)
    }
}
