import InputRouter
import Testing

@testable import InputRouterKeyboard

/// A sentence typed on the German layout with Shift, AltGr and a dead key, recorded per
/// key transition and compared with the expected text exactly.
struct GoldenTests {
    enum Step {
        case down(UInt32)
        case up(UInt32)
        case tap(UInt32)
    }

    /// "Café @ Größe!" — C with Shift, é by dead_acute then e, @ by AltGr+q, G with Shift,
    /// ö and ß on their own keys, ! by Shift+1.
    static let sentence: [Step] = [
        .down(K.leftShift), .tap(K.c), .up(K.leftShift), .tap(K.a), .tap(K.f),
        .tap(K.equal), .tap(K.e), .tap(K.space),
        .down(K.rightAlt), .tap(K.q), .up(K.rightAlt), .tap(K.space),
        .down(K.leftShift), .tap(K.g), .up(K.leftShift), .tap(K.r), .tap(K.semicolon), .tap(K.minus), .tap(K.e),
        .down(K.rightShift), .tap(K.digits[0]), .up(K.rightShift),
    ]

    static func record(_ state: KeyboardState, _ steps: [Step]) -> (log: String, text: String) {
        var lines: [String] = []
        var typed = ""
        func apply(_ key: UInt32, _ direction: KeyState) {
            let r = state.process(key: key, state: direction)
            typed += r.text
            let arrow = direction == .pressed ? "down" : "up"
            let text = r.text.isEmpty ? "" : " \"\(r.text)\""
            let mods = r.modifiersChanged ? " mods \(r.modifiers)" : ""
            let compose: String
            switch r.compose {
            case .none: compose = ""
            case .composing: compose = " composing"
            case .composed(_, let keysym): compose = " composed \(Keysym.name(of: keysym))"
            case .cancelled: compose = " cancelled"
            }
            lines.append("\(arrow) \(key) \(Keysym.name(of: r.keysym))\(text)\(compose)\(mods)")
        }
        for step in steps {
            switch step {
            case .down(let key): apply(key, .pressed)
            case .up(let key): apply(key, .released)
            case .tap(let key):
                apply(key, .pressed)
                apply(key, .released)
            }
        }
        return (lines.joined(separator: "\n"), typed)
    }

    @Test func germanSentence() throws {
        let state = try makeState("de", compose: true)
        let (log, typed) = Self.record(state, Self.sentence)
        #expect(typed == "Café @ Größe!")
        #expect(log == Self.expected)
        #expect(state.modifiers == .none)
    }

    /// Per transition: direction, evdev code, keysym, typed text, compose progress, and
    /// the modifiers (depressed,latched,locked,group) when they changed.
    static let expected = """
        down 42 Shift_L mods 1,0,0,0
        down 46 C "C"
        up 46 C
        up 42 Shift_L mods 0,0,0,0
        down 30 a "a"
        up 30 a
        down 33 f "f"
        up 33 f
        down 13 dead_acute composing
        up 13 dead_acute
        down 18 e "é" composed eacute
        up 18 e
        down 57 space " "
        up 57 space
        down 100 ISO_Level3_Shift mods 128,0,0,0
        down 16 at "@"
        up 16 at
        up 100 ISO_Level3_Shift mods 0,0,0,0
        down 57 space " "
        up 57 space
        down 42 Shift_L mods 1,0,0,0
        down 34 G "G"
        up 34 G
        up 42 Shift_L mods 0,0,0,0
        down 19 r "r"
        up 19 r
        down 39 odiaeresis "ö"
        up 39 odiaeresis
        down 12 ssharp "ß"
        up 12 ssharp
        down 18 e "e"
        up 18 e
        down 54 Shift_R mods 1,0,0,0
        down 2 exclam "!"
        up 2 exclam
        up 54 Shift_R mods 0,0,0,0
        """
}
