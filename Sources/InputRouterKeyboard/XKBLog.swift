import CXKBCommon
import Glibc

/// Collects what xkbcommon logs, so a failed compile can name its reason in the thrown
/// error instead of printing to stderr where a compositor's user may never look.
final class XKBLog {
    private(set) var errors: [String] = []

    func reset() { errors.removeAll() }

    func append(_ level: xkb_log_level, _ line: String) {
        // Warnings are routine in stock keymaps; only errors explain a failure.
        guard level.rawValue <= XKB_LOG_LEVEL_ERROR.rawValue else { return }
        let trimmed = line.trimmingWhitespace()
        if !trimmed.isEmpty { errors.append(trimmed) }
    }

    /// Installs the collector as the context's log handler. The context keeps only an
    /// unretained pointer; `XKBContext` owns the collector for as long as the context lives.
    func install(on context: OpaquePointer) {
        xkb_context_set_user_data(context, CallbackContext.unretained(self))
        xkb_context_set_log_level(context, XKB_LOG_LEVEL_ERROR)
        xkb_context_set_log_fn(context) { context, level, format, arguments in
            guard let context, let format, let arguments, let user = xkb_context_get_user_data(context) else { return }
            var buffer = [CChar](repeating: 0, count: 1024)
            _ = vsnprintf(&buffer, buffer.count, format, arguments)
            let line = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            CallbackContext.borrowed(user, as: XKBLog.self).append(level, line)
        }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
