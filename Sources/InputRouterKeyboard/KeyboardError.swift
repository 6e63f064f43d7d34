import Glibc

// Every way the keyboard layer can fail, with text a user can act on: which layout,
// which file, and what xkbcommon said about it. Nothing here ever falls back silently.

/// Why a keymap, compose table, client keymap file or binding could not be made; the
/// `description` is a message to show the user as is.
public enum KeyboardError: Error, Equatable, CustomStringConvertible {
    /// xkb_context_new failed (out of memory or unusable include paths).
    case contextUnavailable
    /// The RMLVO names did not compile, or compiled only by ignoring part of them.
    case invalidNames(RuleNames, messages: [String])
    /// A keymap file could not be read.
    case unreadableKeymapFile(path: String, errno: Int32)
    /// A keymap file (or string, path "<string>") did not compile.
    case invalidKeymap(path: String, messages: [String])
    /// No compose table exists for this locale.
    case noComposeTable(locale: String)
    /// A system call while preparing the client keymap file failed.
    case keymapFileFailed(step: String, errno: Int32)
    /// A binding spec that does not parse.
    case invalidBinding(spec: String, reason: String)

    /// One line saying what failed and why, with xkbcommon's own messages or the errno's text.
    public var description: String {
        switch self {
        case .contextUnavailable:
            return "cannot create an xkbcommon context"
        case .invalidNames(let names, let messages):
            return "cannot build a keymap for \(names): " + Self.joined(messages)
        case .unreadableKeymapFile(let path, let code):
            return "cannot read keymap file \"\(path)\": \(Self.errnoText(code))"
        case .invalidKeymap(let path, let messages):
            return "broken keymap file \"\(path)\": " + Self.joined(messages)
        case .noComposeTable(let locale):
            return "no compose table for locale \"\(locale)\" (is libx11-data installed?)"
        case .keymapFileFailed(let step, let code):
            return "cannot prepare the client keymap file: \(step) failed: \(Self.errnoText(code))"
        case .invalidBinding(let spec, let reason):
            return "invalid key binding \"\(spec)\": \(reason)"
        }
    }

    private static func joined(_ messages: [String]) -> String {
        messages.isEmpty ? "xkbcommon gave no reason" : messages.joined(separator: "; ")
    }

    static func errnoText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}
