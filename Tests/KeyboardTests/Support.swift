import InputRouter

@testable import InputRouterKeyboard

/// Linux evdev key codes (linux/input-event-codes.h) the tests type with.
enum K {
    static let esc: UInt32 = 1
    static let digits: [UInt32] = Array(2...11) // 1 2 ... 9 0
    static let minus: UInt32 = 12, equal: UInt32 = 13
    static let q: UInt32 = 16, w: UInt32 = 17, e: UInt32 = 18, r: UInt32 = 19, t: UInt32 = 20
    static let y: UInt32 = 21, u: UInt32 = 22, i: UInt32 = 23, o: UInt32 = 24, p: UInt32 = 25
    static let leftBrace: UInt32 = 26, enter: UInt32 = 28, leftCtrl: UInt32 = 29
    static let a: UInt32 = 30, s: UInt32 = 31, d: UInt32 = 32, f: UInt32 = 33, g: UInt32 = 34
    static let h: UInt32 = 35, j: UInt32 = 36, k: UInt32 = 37, l: UInt32 = 38
    static let semicolon: UInt32 = 39, apostrophe: UInt32 = 40, grave: UInt32 = 41
    static let leftShift: UInt32 = 42, z: UInt32 = 44, x: UInt32 = 45, c: UInt32 = 46
    static let v: UInt32 = 47, b: UInt32 = 48, n: UInt32 = 49, m: UInt32 = 50, comma: UInt32 = 51
    static let rightShift: UInt32 = 54, leftAlt: UInt32 = 56, space: UInt32 = 57
    static let capsLock: UInt32 = 58, f2: UInt32 = 60, numLock: UInt32 = 69
    static let kp7: UInt32 = 71, kp8: UInt32 = 72, kp4: UInt32 = 75, kp5: UInt32 = 76
    static let kp1: UInt32 = 79, kp0: UInt32 = 82, kpDot: UInt32 = 83
    static let rightAlt: UInt32 = 100, leftMeta: UInt32 = 125
}

/// A fresh context, keymap and state for one test (xkb objects are not shared between
/// the tests, which run in parallel).
func makeState(
    _ layout: String, variant: String = "", options: String = "",
    compose: Bool = false
) throws -> KeyboardState {
    let context = try XKBContext()
    let keymap = try Keymap(context: context, names: RuleNames(layout: layout, variant: variant, options: options))
    let table = compose ? try ComposeTable(context: context, locale: "en_US.UTF-8") : nil
    return KeyboardState(keymap: keymap, compose: table)
}

extension KeyboardState {
    /// Press and release one key while `held` keys are down; returns the press's result.
    @discardableResult
    func tap(_ key: UInt32, holding held: [UInt32] = []) -> KeyResult {
        for modifier in held { _ = process(key: modifier, state: .pressed) }
        let result = process(key: key, state: .pressed)
        _ = process(key: key, state: .released)
        for modifier in held.reversed() { _ = process(key: modifier, state: .released) }
        return result
    }
}

func sym(_ name: String) -> UInt32 { Keysym.named(name) ?? 0 }
