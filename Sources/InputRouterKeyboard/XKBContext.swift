import CXKBCommon

/// Owns one `xkb_context`: the include paths and the log every keymap compile reports to.
public final class XKBContext {
    let pointer: OpaquePointer
    let log = XKBLog()

    /// Environment names are resolved in Swift (`RuleNames.fromEnvironment`), so the C
    /// library never reads `XKB_DEFAULT_*` behind our back.
    /// - Parameter includePaths: extra directories searched before the system ones.
    public init(includePaths: [String] = []) throws {
        let flags = XKB_CONTEXT_NO_ENVIRONMENT_NAMES.rawValue | XKB_CONTEXT_NO_DEFAULT_INCLUDES.rawValue
        guard let pointer = xkb_context_new(xkb_context_flags(rawValue: flags)) else {
            throw KeyboardError.contextUnavailable
        }
        self.pointer = pointer
        log.install(on: pointer)
        // Caller paths first so they win over ~/.config/xkb and /usr/share/X11/xkb; a
        // missing directory is skipped, as xkbcommon does for its own defaults.
        for path in includePaths { _ = xkb_context_include_path_append(pointer, path) }
        _ = xkb_context_include_path_append_default(pointer)
    }

    deinit { xkb_context_unref(pointer) }

    /// Runs one compile and returns what it logged at error level.
    func capturingErrors<T>(_ body: () -> T) -> (T, [String]) {
        log.reset()
        let result = body()
        let errors = log.errors
        log.reset()
        return (result, errors)
    }
}
