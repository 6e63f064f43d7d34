// Versions and error codes.
import CInputRouterAPI

/// The loaded library's version, `(major << 16) | minor`, to compare with the header's.
@_cdecl("ir_version")
public func irVersion() -> UInt32 {
    UInt32(IR_API_VERSION_MAJOR) << 16 | UInt32(IR_API_VERSION_MINOR)
}

/// A constant sentence for each code: static strings, so the pointer stays valid for the
/// life of the process and nothing is allocated per call.
@_cdecl("ir_error_string")
public func irErrorString(_ error: ir_error) -> UnsafePointer<CChar> {
    let text: StaticString =
        switch error {
        case IR_OK: "no error"
        case IR_ERROR_NULL_HANDLE: "the handle is NULL"
        case IR_ERROR_NULL_ARGUMENT: "a required pointer argument is NULL"
        case IR_ERROR_UNKNOWN_NODE: "no node with this id was ever created by this router"
        case IR_ERROR_DESTROYED_NODE: "the node was destroyed"
        case IR_ERROR_UNKNOWN_DEVICE: "the device is not on this seat (never added, or removed)"
        case IR_ERROR_UNKNOWN_SEAT: "no seat with this number was added to this router"
        case IR_ERROR_UNKNOWN_CLIENT: "no such client (never added, or removed)"
        case IR_ERROR_INVALID_ARGUMENT: "an argument is out of range"
        case IR_ERROR_BUSY: "called from inside a callback of the same router"
        case IR_ERROR_KEYMAP: "the keymap could not be built"
        case IR_ERROR_NO_KEYMAP: "the seat has no keymap"
        case IR_ERROR_INVALID_BINDING: "the key binding does not parse"
        case IR_ERROR_RECORDING: "the file is not a readable libinput recording"
        case IR_ERROR_END_OF_RECORDING: "the recording has no more events"
        default: "unknown error code"
        }
    return UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// The router's last error detail.
@_cdecl("ir_router_last_error_text")
public func irRouterLastErrorText(
    _ router: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ length: UnsafeMutablePointer<Int>?
) -> ir_error {
    readingOutsideCallbacks(router) { state in copyOut(state.lastErrorText, buffer, size, length) }
}
