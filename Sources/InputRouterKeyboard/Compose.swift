import CXKBCommon
import Foundation
import InputRouter

/// Owns one `xkb_compose_table`: the sequences of a locale's Compose file (Debian
/// `libx11-data`, /usr/share/X11/locale), plus the user's ~/.XCompose as xkbcommon reads it.
public final class ComposeTable {
    let pointer: OpaquePointer
    /// The locale whose Compose file the table was compiled from.
    public let locale: String

    /// Compiles the locale's compose sequences; throws `noComposeTable` when it has none. Reads
    /// and parses files: call at setup, and share one table between seats.
    public init(context: XKBContext, locale: String) throws {
        guard let pointer = xkb_compose_table_new_from_locale(context.pointer, locale, XKB_COMPOSE_COMPILE_NO_FLAGS)
        else { throw KeyboardError.noComposeTable(locale: locale) }
        self.pointer = pointer
        self.locale = locale
    }

    deinit { xkb_compose_table_unref(pointer) }

    /// The locale compose should follow: LC_ALL, then LC_CTYPE, then LANG. The C and POSIX
    /// locales have no useful sequences (and are what a bare session gets), so they map
    /// to en_US.UTF-8, whose table has the dead-key and Multi_key sequences users expect.
    public static func locale(from environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let chosen = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        guard let chosen, !["C", "POSIX"].contains(chosen) else { return "en_US.UTF-8" }
        return chosen
    }
}

/// Where a compose sequence stands after a key.
public enum ComposeStatus: Hashable, Sendable {
    /// The key was not part of a sequence; its own text stands.
    case none
    /// The key started or continued a sequence; no text yet.
    case composing
    /// The sequence finished: text and keysym are the composed result.
    case composed(text: String, keysym: UInt32)
    /// The key broke a sequence; neither it nor the sequence produce text.
    case cancelled
}

/// Owns one `xkb_compose_state`: a sequence in progress for one seat.
public final class ComposeState {
    private let pointer: OpaquePointer
    /// The sequences this state matches presses against.
    public let table: ComposeTable

    /// A fresh state with no sequence under way, for one seat. Allocates; call at setup.
    public init(table: ComposeTable) {
        self.table = table
        pointer = xkb_compose_state_new(table.pointer, XKB_COMPOSE_STATE_NO_FLAGS)
    }

    deinit { xkb_compose_state_unref(pointer) }

    /// Feeds the keysym of a key press.
    public func feed(_ keysym: UInt32) -> ComposeStatus {
        // Modifier keys are ignored by xkbcommon so Shift can be held mid-sequence.
        guard xkb_compose_state_feed(pointer, keysym) == XKB_COMPOSE_FEED_ACCEPTED else { return .none }
        switch xkb_compose_state_get_status(pointer) {
        case XKB_COMPOSE_COMPOSING: return .composing
        case XKB_COMPOSE_CANCELLED: return .cancelled
        case XKB_COMPOSE_COMPOSED:
            let keysym = xkb_compose_state_get_one_sym(pointer)
            let text = readUTF8 { xkb_compose_state_get_utf8(pointer, $0, $1) }
            return .composed(text: text, keysym: keysym)
        default: return .none
        }
    }

    /// Feeds a press like `feed`, without reading the composed text (`composedText` has it
    /// until the next feed): the seat's hot path, which must not allocate.
    public func feedStep(_ keysym: UInt32) -> ComposeStep {
        guard xkb_compose_state_feed(pointer, keysym) == XKB_COMPOSE_FEED_ACCEPTED else { return .none }
        switch xkb_compose_state_get_status(pointer) {
        case XKB_COMPOSE_COMPOSING: return .composing
        case XKB_COMPOSE_CANCELLED: return .cancelled
        case XKB_COMPOSE_COMPOSED: return .composed
        default: return .none
        }
    }

    /// The text of the sequence just finished ("" when none is).
    public var composedText: String {
        guard xkb_compose_state_get_status(pointer) == XKB_COMPOSE_COMPOSED else { return "" }
        return readUTF8 { xkb_compose_state_get_utf8(pointer, $0, $1) }
    }

    /// Whether a sequence is under way (a dead key waits for its letter).
    public var isComposing: Bool { xkb_compose_state_get_status(pointer) == XKB_COMPOSE_COMPOSING }

    /// Forgets a sequence in progress (focus change, device removal).
    public func reset() { xkb_compose_state_reset(pointer) }
}

/// Reads a string from an xkbcommon snprintf-style getter, growing the buffer as told.
func readUTF8(_ getter: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    var needed = buffer.withUnsafeMutableBufferPointer { getter($0.baseAddress!, $0.count) }
    if needed >= buffer.count {
        buffer = [CChar](repeating: 0, count: Int(needed) + 1)
        needed = buffer.withUnsafeMutableBufferPointer { getter($0.baseAddress!, $0.count) }
    }
    guard needed > 0 else { return "" }
    return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}
