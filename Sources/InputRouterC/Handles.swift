// Unsafe idioms, and why: the C API hands out its router and recording objects as opaque
// pointers (`struct ir_router *`, `struct ir_recording *`), so each is retained once with
// `Unmanaged` when created and released when the caller destroys it; every other call
// borrows it with `takeUnretainedValue`. This file is the only one that converts.
import CInputRouterAPI
import InputRouter

/// Turns the C handle into the router's state: nil for a null pointer.
@inline(__always) func routerState(_ handle: OpaquePointer?) -> RouterState? {
    guard let handle else { return nil }
    return Unmanaged<RouterState>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
}

/// The handle a new router state is known by in C, retained until `releaseRouterState`.
func retainedHandle(_ state: RouterState) -> OpaquePointer {
    OpaquePointer(Unmanaged.passRetained(state).toOpaque())
}

func releaseRouterState(_ handle: OpaquePointer) {
    Unmanaged<RouterState>.fromOpaque(UnsafeRawPointer(handle)).release()
}

/// Turns a recording's C handle into its state: nil for a null pointer.
@inline(__always) func recordingState(_ handle: OpaquePointer?) -> RecordingState? {
    guard let handle else { return nil }
    return Unmanaged<RecordingState>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
}

func retainedHandle(_ state: RecordingState) -> OpaquePointer {
    OpaquePointer(Unmanaged.passRetained(state).toOpaque())
}

func releaseRecordingState(_ handle: OpaquePointer) {
    Unmanaged<RecordingState>.fromOpaque(UnsafeRawPointer(handle)).release()
}
