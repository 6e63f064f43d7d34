import Glibc
import Testing

@testable import InputRouterKeyboard

/// Unknown names and broken files are errors that say what is wrong, never a fallback.
struct ErrorTests {
    @Test(
        arguments: [
            (RuleNames(layout: "zz"), #"Couldn't find file "symbols/zz""#),
            (RuleNames(layout: "us,zz"), #"Couldn't find file "symbols/zz""#),
            (RuleNames(layout: "us", variant: "nosuchvariant"), #"us(nosuchvariant)"#),
            (RuleNames(layout: "us", options: "grp:nosuchoption"), #"grp:nosuchoption"#),
            (RuleNames(rules: "nosuchrules"), #"nosuchrules"#),
        ] as [(RuleNames, String)])
    func unknownNames(_ names: RuleNames, _ reason: String) throws {
        let context = try XKBContext()
        #expect {
            _ = try Keymap(context: context, names: names)
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("cannot build a keymap for \(names): ") && text.contains(reason)
        }
    }

    @Test func unknownLayoutFullText() throws {
        let context = try XKBContext()
        let error = #expect(throws: KeyboardError.self) {
            _ = try Keymap(context: context, names: RuleNames(layout: "zz"))
        }
        let text = try #require(error).description
        #expect(
            text.hasPrefix(
                #"cannot build a keymap for layout "zz" variant "" options "" (rules "evdev", model "pc105"): Couldn't find file "symbols/zz" in include paths"#
            ))
    }

    /// After a failure the context compiles good keymaps with a clean log.
    @Test func contextRecovers() throws {
        let context = try XKBContext()
        #expect(throws: KeyboardError.self) { _ = try Keymap(context: context, names: RuleNames(layout: "zz")) }
        #expect(try Keymap(context: context, names: RuleNames(layout: "de")).layoutNames == ["German"])
    }

    @Test func brokenKeymapFile() throws {
        let path = try Self.temporaryFile("xkb_keymap {\n  xkb_keycodes { <A> = 38 ;\n  this is not xkb\n};\n")
        defer { unlink(path) }
        let context = try XKBContext()
        #expect {
            _ = try Keymap(context: context, file: path)
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("broken keymap file \"\(path)\": ") && text.contains("syntax error")
        }
    }

    @Test func emptyKeymapString() throws {
        let context = try XKBContext()
        #expect {
            _ = try Keymap(context: context, string: "")
        } throws: { error in
            "\(error)".hasPrefix(#"broken keymap file "<string>": "#)
        }
    }

    @Test func missingKeymapFile() throws {
        let context = try XKBContext()
        #expect {
            _ = try Keymap(context: context, file: "/nonexistent/keymap.xkb")
        } throws: { error in
            "\(error)" == #"cannot read keymap file "/nonexistent/keymap.xkb": No such file or directory"#
        }
    }

    /// A keymap file written from a good keymap loads and behaves the same.
    @Test func goodKeymapFile() throws {
        let original = try makeState("de").keymap
        let path = try Self.temporaryFile(original.asString())
        defer { unlink(path) }
        let keymap = try Keymap(context: try XKBContext(), file: path)
        let state = KeyboardState(keymap: keymap)
        #expect(state.tap(K.y).text == "z")
    }

    @Test(
        arguments: [
            ([:], RuleNames()),
            (
                ["XKB_DEFAULT_LAYOUT": "de", "XKB_DEFAULT_VARIANT": "nodeadkeys"],
                RuleNames(layout: "de", variant: "nodeadkeys")
            ),
            (
                [
                    "XKB_DEFAULT_LAYOUT": "us,ru", "XKB_DEFAULT_OPTIONS": "grp:alt_shift_toggle",
                    "XKB_DEFAULT_MODEL": "pc104",
                    "XKB_DEFAULT_RULES": "evdev",
                ],
                RuleNames(model: "pc104", layout: "us,ru", options: "grp:alt_shift_toggle")
            ),
            (["XKB_DEFAULT_LAYOUT": ""], RuleNames()),
        ] as [([String: String], RuleNames)])
    func namesFromEnvironment(_ environment: [String: String], _ expected: RuleNames) throws {
        let names = RuleNames.fromEnvironment(environment)
        #expect(names == expected)
        _ = try Keymap(context: try XKBContext(), names: names)
    }

    static func temporaryFile(_ contents: String) throws -> String {
        var template = Array("/tmp/keyboard-test-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        try #require(fd >= 0)
        defer { close(fd) }
        let bytes = Array(contents.utf8)
        try #require(write(fd, bytes, bytes.count) == bytes.count)
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
