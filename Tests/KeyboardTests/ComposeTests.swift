import InputRouter
import Testing

@testable import InputRouterKeyboard

struct ComposeTests {
    /// Dead keys on layouts that have them, then a letter: the dead key types nothing,
    /// the letter types the composed character.
    struct DeadCase: Sendable, CustomStringConvertible {
        var layout: String, variant: String
        var dead: [UInt32] // dead key with its modifiers, dead key last
        var deadName: String
        var letter: UInt32
        var expected: String
        var description: String { "\(layout)(\(variant)) \(deadName)" }
    }

    static let deadCases: [DeadCase] = [
        DeadCase(
            layout: "us", variant: "intl", dead: [K.apostrophe], deadName: "dead_acute", letter: K.e, expected: "é"),
        DeadCase(
            layout: "us", variant: "intl", dead: [K.leftShift, K.digits[5]], deadName: "dead_circumflex", letter: K.o,
            expected: "ô"),
        DeadCase(layout: "de", variant: "", dead: [K.equal], deadName: "dead_acute", letter: K.e, expected: "é"),
        DeadCase(layout: "de", variant: "", dead: [K.grave], deadName: "dead_circumflex", letter: K.a, expected: "â"),
        DeadCase(
            layout: "fr", variant: "", dead: [K.leftBrace], deadName: "dead_circumflex", letter: K.e, expected: "ê"),
        DeadCase(
            layout: "fr", variant: "", dead: [K.leftShift, K.leftBrace], deadName: "dead_diaeresis", letter: K.i,
            expected: "ï"),
    ]

    @Test(arguments: deadCases)
    func deadKeys(_ c: DeadCase) throws {
        let state = try makeState(c.layout, variant: c.variant, compose: true)
        let dead = state.tap(c.dead.last!, holding: Array(c.dead.dropLast()))
        #expect(Keysym.name(of: dead.keysym) == c.deadName)
        #expect(dead.text == "")
        #expect(dead.compose == .composing)
        let letter = state.tap(c.letter)
        #expect(letter.text == c.expected)
        guard case .composed(let text, let keysym) = letter.compose else {
            Issue.record("not composed: \(letter.compose)")
            return
        }
        #expect(text == c.expected)
        #expect(Keysym.name(of: keysym) != "NoSymbol")
        // The sequence is over: the next key types itself.
        #expect(state.tap(c.letter).compose == .none)
    }

    /// Without compose, a dead key is just a keysym with no text: the client composes.
    @Test func deadKeyWithoutComposeTypesNothing() throws {
        let state = try makeState("us", variant: "intl")
        let dead = state.tap(K.apostrophe)
        #expect(Keysym.name(of: dead.keysym) == "dead_acute")
        #expect(dead.text == "")
        #expect(state.tap(K.e).text == "e")
    }

    /// A key that continues no sequence cancels it and types nothing.
    @Test func cancelledSequence() throws {
        let state = try makeState("us", variant: "intl", compose: true)
        state.tap(K.apostrophe)
        let broken = state.tap(K.digits[0]) // dead_acute 1 is no sequence
        #expect(broken.compose == .cancelled)
        #expect(broken.text == "")
        #expect(state.tap(K.e).text == "e")
    }

    /// Shift held in the middle of a sequence does not break it.
    @Test func shiftInsideSequence() throws {
        let state = try makeState("us", variant: "intl", compose: true)
        state.tap(K.apostrophe)
        #expect(state.tap(K.e, holding: [K.leftShift]).text == "É")
    }

    /// Focus change and device removal drop a half-typed sequence.
    @Test(arguments: [true, false])
    func resetDropsSequence(_ byFocus: Bool) throws {
        let state = try makeState("us", variant: "intl", compose: true)
        state.tap(K.apostrophe)
        if byFocus { state.focusChanged() } else { _ = state.releaseAll() }
        #expect(state.tap(K.e).text == "e")
    }

    @Test(
        arguments: [
            ([:], "en_US.UTF-8"),
            (["LANG": "C"], "en_US.UTF-8"),
            (["LANG": "POSIX"], "en_US.UTF-8"),
            (["LANG": "de_DE.UTF-8"], "de_DE.UTF-8"),
            (["LANG": "de_DE.UTF-8", "LC_CTYPE": "fr_FR.UTF-8"], "fr_FR.UTF-8"),
            (["LANG": "de_DE.UTF-8", "LC_CTYPE": "fr_FR.UTF-8", "LC_ALL": "pt_BR.UTF-8"], "pt_BR.UTF-8"),
            (["LC_ALL": "", "LANG": "el_GR.UTF-8"], "el_GR.UTF-8"),
        ] as [([String: String], String)])
    func localeFromEnvironment(_ environment: [String: String], _ expected: String) {
        #expect(ComposeTable.locale(from: environment) == expected)
    }

    @Test func unknownLocaleIsAnError() throws {
        let context = try XKBContext()
        #expect {
            _ = try ComposeTable(context: context, locale: "xx_YY")
        } throws: { error in
            "\(error)" == #"no compose table for locale "xx_YY" (is libx11-data installed?)"#
        }
    }
}
