// The protocol as the server dispatches it: libwayland's own interface tables (the
// `wl_interface` structs the server registers its globals and resources with), read once
// into Swift values. The wire fuzzer builds requests from these, so every interface the
// server offers, today's and those added later, is fuzzed with the exact signatures
// libwayland checks, without a hand-kept list of opcodes.
import CWaylandInterfaces
import CWaylandServer
import Foundation

/// One argument of a request or event: its wire type, whether null is allowed, and for
/// objects and new ids the interface it must be (nil: any, e.g. `wl_registry.bind`).
struct WireArgumentSpec {
    enum Kind: Character {
        case int = "i"
        case uint = "u"
        case fixed = "f"
        case string = "s"
        case object = "o"
        case newID = "n"
        case array = "a"
        case fd = "h"
    }
    let kind: Kind
    let nullable: Bool
    let interface: UnsafePointer<wl_interface>?
}

struct WireMessageSpec {
    let name: String
    /// The interface version that introduced it.
    let since: UInt32
    let arguments: [WireArgumentSpec]

    /// Whether the request destroys its object. libwayland's tables do not say; every
    /// destructor of the protocols served is named one of these (their XML's
    /// `type="destructor"`), and no other request is.
    var isDestructor: Bool { ["destroy", "release", "unlock_and_destroy"].contains(name) }
}

/// An interface: its requests (opcode = index) and events.
final class WireInterfaceSpec {
    let name: String
    let version: UInt32
    let requests: [WireMessageSpec]
    let events: [WireMessageSpec]
    let pointer: UnsafePointer<wl_interface>

    init(_ p: UnsafePointer<wl_interface>) {
        pointer = p
        name = String(cString: p.pointee.name)
        version = UInt32(max(p.pointee.version, 1))
        func messages(_ m: UnsafePointer<wl_message>?, _ count: Int32) -> [WireMessageSpec] {
            guard let m else { return [] }
            return (0..<Int(count)).map { WireInterfaceSpec.message(m[$0]) }
        }
        requests = messages(p.pointee.methods, p.pointee.method_count)
        events = messages(p.pointee.events, p.pointee.event_count)
    }

    /// Parses a libwayland signature ("2u?o": since version 2, a uint, a nullable object).
    static func message(_ m: wl_message) -> WireMessageSpec {
        let signature = Array(String(cString: m.signature))
        var since: UInt32 = 0
        var arguments: [WireArgumentSpec] = []
        var nullable = false
        for c in signature {
            if let digit = c.wholeNumberValue {
                since = since * 10 + UInt32(digit)
                continue
            }
            if c == "?" {
                nullable = true
                continue
            }
            guard let kind = WireArgumentSpec.Kind(rawValue: c) else { continue }
            // `types` has one entry per argument (NULL for those that are not objects).
            let type = m.types?[arguments.count]
            arguments.append(WireArgumentSpec(kind: kind, nullable: nullable, interface: type))
            nullable = false
        }
        return WireMessageSpec(name: String(cString: m.name), since: max(since, 1), arguments: arguments)
    }
}

/// The interfaces met so far, by name (every client and every run shares them). Runs
/// on several threads (`swift test --parallel`) fill it at once, so it is read and
/// written under `byNameLock` (ThreadSanitizer found the unguarded dictionary).
enum WireProtocol {
    nonisolated(unsafe) private static var byName: [String: WireInterfaceSpec] = [:]
    private static let byNameLock = NSLock()

    private static func known(_ name: String) -> WireInterfaceSpec? {
        byNameLock.withLock { byName[name] }
    }

    static func spec(_ p: UnsafePointer<wl_interface>) -> WireInterfaceSpec {
        let name = String(cString: p.pointee.name)
        if let known = known(name) { return known }
        let spec = WireInterfaceSpec(p)
        // Another thread may have made it meanwhile: keep the first, so every caller
        // shares one instance.
        return byNameLock.withLock {
            if let first = byName[name] { return first }
            byName[name] = spec
            return spec
        }
    }

    /// The interface a global announces by this name, if the server knows it.
    static func spec(named name: String) -> WireInterfaceSpec? {
        if let known = known(name) { return known }
        if let p = interfaceTable(named: name) { return spec(p) }
        // Interfaces the server does not register itself (libwayland's wl_shm) are
        // found by their symbol, `<name>_interface`, in the libraries linked in.
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
            let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "\(name)_interface")
        else { return nil }
        return spec(symbol.assumingMemoryBound(to: wl_interface.self))
    }

    /// The table of an interface of wayland.xml or protocols/ (CWaylandInterfaces), by the
    /// name written in it.
    private static func interfaceTable(named name: String) -> UnsafePointer<wl_interface>? {
        var count: UInt32 = 0
        let all = ir_all_interfaces(&count)
        return (0..<Int(count)).lazy.compactMap { all[$0] }.first { String(cString: $0.pointee.name) == name }
    }

    static var display: WireInterfaceSpec { spec(named: "wl_display")! }

    /// The order in which the decoder's interface byte picks interfaces. The names are
    /// fixed so that a seed keeps meaning the same request as the server grows; an
    /// interface not listed here is picked by the modulo of a larger byte.
    static let order: [String] = [
        "wl_display", "wl_registry", "wl_callback", "wl_compositor", "wl_surface", "wl_region", "wl_subcompositor",
        "wl_subsurface", "wl_output", "wl_seat", "wl_pointer", "wl_keyboard", "wl_touch", "wl_shm", "wl_shm_pool",
        "wl_buffer", "wl_data_device_manager", "wl_data_device", "wl_data_source", "wl_data_offer", "xdg_wm_base",
        "xdg_positioner", "xdg_surface", "xdg_toplevel", "xdg_popup",
        // Added with this round's globals (after the old ones, so old seeds keep their meaning).
        "zwlr_layer_shell_v1", "zwlr_layer_surface_v1", "ext_session_lock_manager_v1", "ext_session_lock_v1",
        "ext_session_lock_surface_v1", "zxdg_output_manager_v1", "zxdg_output_v1", "zwp_input_method_manager_v2",
        "zwp_input_method_v2", "zwp_input_popup_surface_v2", "zwp_input_method_keyboard_grab_v2",
        "zwp_virtual_keyboard_manager_v1", "zwp_virtual_keyboard_v1", "wp_cursor_shape_manager_v1",
        "wp_cursor_shape_device_v1", "zwp_text_input_manager_v3", "zwp_text_input_v3", "zwp_tablet_manager_v2",
        "zwp_tablet_seat_v2", "zwp_tablet_tool_v2",
    ]
}
