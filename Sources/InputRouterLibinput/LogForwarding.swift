// The Swift ends of the CShim log sinks. libinput's sink finds its source through the
// context's user data; libseat's handler is process-wide, so its target is a global.

import CLibinput
import CLibinputShim
import Synchronization

enum LogForwarding {
    static let libseatLog = Mutex<LogHandler?>(nil)

    static func trimmed(_ text: String) -> String {
        var text = Substring(text)
        while let last = text.last, last == "\n" || last == " " { text.removeLast() }
        return String(text)
    }

    static func priority(_ raw: Int32) -> LogPriority {
        raw >= 30 ? .error : raw >= 20 ? .info : .debug
    }

    /// Routes `context`'s messages to its backing's log handler.
    static func install(on context: OpaquePointer, minimum: LogPriority) {
        libinput_log_set_priority(context, libinput_log_priority(rawValue: UInt32(minimum.rawValue)))
        ir_libinput_set_log_sink(context) { context, priority, message in
            guard let context, let message, let user = libinput_get_user_data(context) else { return }
            let backing = CallbackContext.borrowed(user, as: Backing.self)
            backing.log(
                LogMessage(
                    origin: .libinput, priority: LogForwarding.priority(priority),
                    text: LogForwarding.trimmed(String(cString: message))))
        }
    }
}
