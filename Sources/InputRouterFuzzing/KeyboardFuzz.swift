import Foundation
import InputRouter
import InputRouterKeyboard

/// The keyboard layer fuzz target: bytes pick a keymap (several layouts, layout-switch
/// options, dead keys and a compose key) and a sequence of key transitions, releases of
/// everything, focus changes and device removals.
///
/// Two consumers see the same sequence: a bare `KeyboardState`, fed every transition as
/// it comes (unbalanced ones included), and a seat whose keyboard layer is another
/// `KeyboardState`, routing to two clients under the invariant checker. Checked: after
/// `releaseAll()` no modifier is depressed or latched and the locks are kept; at the end,
/// with every device gone, the seat holds no modifier and no client believes a key is down.
public enum KeyboardFuzz {
    public static let keymapNames: [RuleNames] = [
        RuleNames(layout: "us", options: "compose:ralt"),
        RuleNames(layout: "de"),
        RuleNames(layout: "us,ru", options: "grp:alt_shift_toggle"),
        RuleNames(layout: "fr,us", options: "grp:caps_toggle,lv3:ralt_switch"),
        RuleNames(layout: "us", variant: "intl"),
    ]

    /// Built once per process: compiling a keymap takes milliseconds, a state microseconds.
    /// xkbcommon keymaps and compose tables are immutable, but their reference counts are
    /// plain integers: `xkb_state_new` and `xkb_state_unref` on two threads at once can free
    /// a keymap still in use (ASan caught it under `swift test --parallel`). So one run at a
    /// time touches them, behind `sharedLock`.
    nonisolated(unsafe) static let shared: (keymaps: [Keymap], compose: ComposeTable)? = {
        guard let context = try? XKBContext() else { return nil }
        let keymaps = keymapNames.compactMap { try? Keymap(context: context, names: $0) }
        guard keymaps.count == keymapNames.count, let table = try? ComposeTable(context: context, locale: "en_US.UTF-8")
        else { return nil }
        return (keymaps, table)
    }()

    /// Keys that matter to layouts and compose: modifiers, group switches, dead keys
    /// (`'`, `` ` ``, `^`, `6` on us-intl and de), letters and the compose key (Right Alt).
    static let hotKeys: [UInt32] = [
        42, 54, 29, 97, 56, 100, 125, 58, 69, 70, 40, 41, 7, 13, 26, 27, 43, 30, 18, 22, 24, 16, 57, 28, 14, 1, 86,
    ]

    static let sharedLock = NSLock()

    public static func run(_ bytes: [UInt8], mode: InvariantChecker<ClientModel<NullSink>>.Mode = .collect) -> [String]
    {
        // The states made from the shared keymap are released inside `runAlone`, so their
        // last unref also happens under the lock.
        sharedLock.withLock { runAlone(bytes, mode: mode) }
    }

    private static func runAlone(_ bytes: [UInt8], mode: InvariantChecker<ClientModel<NullSink>>.Mode) -> [String] {
        guard let shared else { return ["no keymaps: xkb-data or libx11-data missing"] }
        var r = ByteReader(bytes)
        let keymap = shared.keymaps[r.index(shared.keymaps.count)]
        let bare = KeyboardState(keymap: keymap, compose: shared.compose)
        let routed = KeyboardState(keymap: keymap, compose: shared.compose)

        let router = Router()
        let seat = router.addSeat()
        seat.keyTranslator = routed
        seat.addBinding(KeyBinding(keysym: 0xff0d, modifiers: .superKey)) {} // Super+Return
        seat.addBinding(KeyBinding(keysym: 0x74, modifiers: [.control, .alt])) {} // Ctrl+Alt+t
        let output = router.tree.createNode(.output, frame: Rect(0, 0, 800, 600))
        var windows: [NodeID] = []
        for i in 0..<2 {
            let c = router.addClient(name: "c\(i)")
            seat.setBound(.keyboard, for: c, true)
            windows.append(
                router.tree.createNode(.toplevel, client: c, parent: output, frame: Rect(Int32(i) * 400, 0, 400, 600)))
        }
        seat.setKeyboardFocus(windows[0])
        var sink = InvariantChecker(
            wrapping: ClientModel(wrapping: NullSink(), router: router), router: router, mode: mode)
        router.flush(into: &sink)
        var problems: [String] = []
        var time: UInt64 = 0
        var steps = 0

        while !r.isAtEnd && steps < 4096 {
            steps += 1
            time += 1000
            let op = r.byte()
            let device = DeviceID(UInt32(op >> 6)) // four keyboards
            func key() -> UInt32 {
                let b = r.byte()
                return b < 128
                    ? hotKeys[Int(b) % hotKeys.count]
                    : (b < 250 ? UInt32(b - 128) : FuzzValues.keys[Int(b) % FuzzValues.keys.count])
            }
            switch op & 0x3f {
            case 0..<24:
                let k = key()
                let state: KeyState = op & 1 == 0 ? .pressed : .released
                _ = bare.process(key: k, state: state)
                seat.notifyKey(time: time, key: k, state: state, device: device)
            case 24..<40:
                let k = key()
                _ = bare.process(key: k, state: .pressed)
                _ = bare.process(key: k, state: .released)
                seat.notifyKey(time: time, key: k, state: .pressed, device: device)
                seat.notifyKey(time: time, key: k, state: .released, device: device)
            case 40..<44:
                let locked = bare.modifiers.locked
                let after = bare.releaseAll()
                if after.depressed != 0 || after.latched != 0 || after.locked != locked {
                    problems.append("releaseAll left modifiers \(after) (locked before: \(locked))")
                }
            case 44..<48:
                bare.focusChanged()
                routed.focusChanged()
                seat.setKeyboardFocus(windows[Int(op >> 6) & 1])
            case 48..<52:
                seat.notifyDeviceRemoved(device, time: time)
            case 52..<56:
                seat.notifyDeviceAdded(device, capabilities: .keyboard)
            default:
                // A burst of one key, the way a stuck or bouncing switch sends it.
                let k = key()
                for i in 0..<Int(r.byte() % 8) {
                    _ = bare.process(key: k, state: i & 1 == 0 ? .pressed : .released)
                    seat.notifyKey(time: time, key: k, state: .pressed, device: device)
                }
            }
            router.flush(into: &sink)
        }
        for d in 0..<4 as Range<UInt32> {
            seat.notifyDeviceAdded(DeviceID(d), capabilities: .keyboard) // harmless if present
        }
        router.flush(into: &sink)
        for d in 0..<4 as Range<UInt32> { seat.notifyDeviceRemoved(DeviceID(d), time: time + 1) }
        router.flush(into: &sink)
        if seat.modifiers.depressed != 0 || seat.modifiers.latched != 0 {
            problems.append("modifiers \(seat.modifiers) stay in effect with every keyboard gone")
        }
        return problems + sink.violations + sink.inner.stuck()
    }
}
