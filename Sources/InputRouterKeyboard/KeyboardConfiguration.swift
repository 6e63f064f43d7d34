import Foundation

/// What a user can configure about the keyboard, in one value a compositor reads from
/// its settings and turns into a seat's keyboard state. See docs/keyboard.md.
public struct KeyboardConfiguration: Hashable, Sendable {
    /// How a keymap is named: by the environment, by RMLVO names, or by a keymap file.
    public enum KeymapSource: Hashable, Sendable {
        /// `XKB_DEFAULT_RULES/MODEL/LAYOUT/VARIANT/OPTIONS`, else evdev/pc105/us.
        case environment
        case names(RuleNames)
        /// A keymap in xkbcomp text format (`xkbcomp -xkb $DISPLAY out.xkb`).
        case file(String)
    }

    /// Where the keymap comes from; the default reads `XKB_DEFAULT_*`.
    public var keymap: KeymapSource
    /// Repeat delay and rate, sent to every client as `wl_keyboard.repeat_info`.
    public var repeatInfo: RepeatInfo
    /// Whether the compositor composes (dead keys and Multi_key sequences give text in
    /// traces and bindings). Clients always receive raw keys and compose themselves.
    public var compose: Bool
    /// The locale whose compose table is used; nil follows LC_ALL/LC_CTYPE/LANG.
    public var composeLocale: String?
    /// Directories searched for layouts before the system ones.
    public var includePaths: [String]

    /// Every setting has a default: the environment's keymap, 25 repeats/s after 600 ms,
    /// compose on in the environment's locale, system layouts only.
    public init(
        keymap: KeymapSource = .environment, repeatInfo: RepeatInfo = .default,
        compose: Bool = true, composeLocale: String? = nil, includePaths: [String] = []
    ) {
        self.keymap = keymap
        self.repeatInfo = repeatInfo
        self.compose = compose
        self.composeLocale = composeLocale
        self.includePaths = includePaths
    }

    /// Builds the keymap and a fresh state; every failure is thrown with its reason.
    public func makeState(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> KeyboardState {
        let context = try XKBContext(includePaths: includePaths)
        let built: Keymap
        switch keymap {
        case .environment: built = try Keymap(context: context, names: .fromEnvironment(environment))
        case .names(let names): built = try Keymap(context: context, names: names)
        case .file(let path): built = try Keymap(context: context, file: path)
        }
        let table =
            compose
            ? try ComposeTable(context: context, locale: composeLocale ?? ComposeTable.locale(from: environment))
            : nil
        return KeyboardState(keymap: built, compose: table)
    }
}
