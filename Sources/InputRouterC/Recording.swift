// `libinput record` files read whole at open, handed out one C event at a time.
import CInputRouterAPI
import InputRouter
import InputRouterRecording

/// What one `struct ir_recording *` stands for.
final class RecordingState {
    /// The events the header describes, in the file's order.
    let events: [ir_event]
    let skipped: Int
    var next = 0

    init(_ recording: Recording) {
        let described = recording.events.compactMap(cEvent)
        events = described
        skipped = recording.events.count - described.count
    }
}

@_cdecl("ir_recording_open")
public func irRecordingOpen(_ path: UnsafePointer<CChar>?, _ error: UnsafeMutablePointer<ir_error>?) -> OpaquePointer? {
    irRecordingOpenMessage(path, error, nil, 0)
}

@_cdecl("ir_recording_open_message")
public func irRecordingOpenMessage(
    _ path: UnsafePointer<CChar>?, _ error: UnsafeMutablePointer<ir_error>?, _ message: UnsafeMutablePointer<CChar>?,
    _ size: Int
) -> OpaquePointer? {
    guard let path else {
        error?.pointee = IR_ERROR_NULL_ARGUMENT
        _ = copyOut("no path", message, size, nil)
        return nil
    }
    do {
        let recording = try RecordingReader.read(path: String(cString: path))
        error?.pointee = IR_OK
        _ = copyOut("", message, size, nil)
        return retainedHandle(RecordingState(recording))
    } catch let failure {
        error?.pointee = IR_ERROR_RECORDING
        _ = copyOut(failure.description, message, size, nil)
        return nil
    }
}

@_cdecl("ir_recording_next")
public func irRecordingNext(_ recording: OpaquePointer?, _ event: UnsafeMutablePointer<ir_event>?) -> ir_error {
    guard let state = recordingState(recording) else { return IR_ERROR_NULL_HANDLE }
    guard let event else { return IR_ERROR_NULL_ARGUMENT }
    guard state.next < state.events.count else { return IR_ERROR_END_OF_RECORDING }
    event.pointee = state.events[state.next]
    state.next += 1
    return IR_OK
}

@_cdecl("ir_recording_counts")
public func irRecordingCounts(
    _ recording: OpaquePointer?, _ events: UnsafeMutablePointer<Int>?, _ skipped: UnsafeMutablePointer<Int>?
) -> ir_error {
    guard let state = recordingState(recording) else { return IR_ERROR_NULL_HANDLE }
    events?.pointee = state.events.count
    skipped?.pointee = state.skipped
    return IR_OK
}

@_cdecl("ir_recording_close")
public func irRecordingClose(_ recording: OpaquePointer?) {
    guard let recording else { return }
    releaseRecordingState(recording)
}
