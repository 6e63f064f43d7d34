import Glibc
import Testing

@testable import InputRouterKeyboard

struct ConfigurationTests {
    @Test func defaults() {
        let configuration = KeyboardConfiguration()
        #expect(configuration.keymap == .environment)
        #expect(configuration.repeatInfo == RepeatInfo(rate: 25, delay: 600))
        #expect(configuration.compose)
    }

    /// Each source gives the layout it names; compose follows the environment's locale.
    @Test(
        arguments: [
            (KeyboardConfiguration.KeymapSource.environment, ["XKB_DEFAULT_LAYOUT": "fr", "LANG": "C"], "French"),
            (.names(RuleNames(layout: "ru")), ["XKB_DEFAULT_LAYOUT": "fr"], "Russian"),
            (.environment, [:], "English (US)"),
        ] as [(KeyboardConfiguration.KeymapSource, [String: String], String)])
    func sources(_ source: KeyboardConfiguration.KeymapSource, _ environment: [String: String], _ layout: String) throws
    {
        let state = try KeyboardConfiguration(keymap: source).makeState(environment: environment)
        #expect(state.keymap.layoutNames == [layout])
        #expect(state.compose?.table.locale == "en_US.UTF-8")
    }

    @Test func fileSourceAndNoCompose() throws {
        let path = try ErrorTests.temporaryFile(try makeState("de").keymap.asString())
        defer { unlink(path) }
        let state = try KeyboardConfiguration(keymap: .file(path), compose: false).makeState()
        #expect(state.compose == nil)
        #expect(state.tap(K.y).text == "z")
    }

    @Test func badComposeLocaleIsAnError() {
        #expect(throws: KeyboardError.noComposeTable(locale: "xx_YY")) {
            _ = try KeyboardConfiguration(keymap: .names(RuleNames()), composeLocale: "xx_YY").makeState()
        }
    }

    /// A user layout in an include path wins over the system one and is found by name.
    @Test func userLayoutFromIncludePath() throws {
        var template = Array("/tmp/keyboard-xkb-XXXXXX".utf8CString)
        try #require(mkdtemp(&template) != nil)
        let root = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        try #require(mkdir(root + "/symbols", 0o755) == 0)
        let symbols = """
            default partial alphanumeric_keys
            xkb_symbols "basic" {
                include "us(basic)"
                name[Group1] = "Keyboard test";
                key <AD01> { [ x, X ] };
            };

            """
        let file = fopen(root + "/symbols/kbtest", "w")
        try #require(file != nil)
        fputs(symbols, file)
        fclose(file)
        defer {
            unlink(root + "/symbols/kbtest")
            rmdir(root + "/symbols")
            rmdir(root)
        }

        let state = try KeyboardConfiguration(
            keymap: .names(RuleNames(layout: "kbtest")), compose: false,
            includePaths: [root]
        ).makeState()
        #expect(state.keymap.layoutNames == ["Keyboard test"])
        #expect(state.tap(K.q).text == "x")
        #expect(state.tap(K.w).text == "w")
        // Without the path the same name is an error.
        #expect(throws: KeyboardError.self) {
            _ = try KeyboardConfiguration(keymap: .names(RuleNames(layout: "kbtest"))).makeState()
        }
    }
}
