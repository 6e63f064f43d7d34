// The entry point: bytes or a file in, devices, events and warnings out. All errors leave
// as RecordingError with the file name attached.

import InputRouter

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `libinput record` file, read and translated.
public struct Recording: Sendable {
    /// The file name errors and warnings cite.
    public var file: String
    /// The libinput version that made the recording, when the file says.
    public var libinputVersion: String?
    /// The devices described, in file order (their index plus `deviceIDBase` is their id).
    public var devices: [RecordedDevice]
    /// All devices' events merged by time (each device's own order kept).
    public var events: [InputEvent]
    /// What was skipped or cannot be replayed faithfully, in file order per kind.
    public var warnings: [RecordingWarning]
    /// When the recording ends, on its events' clock (µs): its last frame (which may make
    /// no event), or, in a file `libinput record --autorestart` closed after a quiet time
    /// (`# Closing after 2s inactivity`), that long after it (RecordingEnd.swift). 0 for a
    /// file without events.
    public var endTime: UInt64 = 0
    /// From its first event to its end (µs): how long a replay at the recorded speed lasts
    /// (a Replayer's clock starts at the first event).
    public var duration: UInt64 {
        guard let first = events.first?.time else { return 0 }
        return endTime > first ? endTime - first : 0
    }
    /// What the file says of each device (its name, node and ids): what a replay hands the
    /// seat with the device's `deviceAdded` (`Replayer.description(of:)`).
    /// Made on each read: keep it rather than read it per event.
    public var descriptions: [DeviceID: DeviceDescription] {
        Dictionary(devices.map { ($0.id, $0.deviceDescription) }, uniquingKeysWith: { first, _ in first })
    }
}

/// Reads `libinput record` files into events a seat can replay. Parses and translates
/// the whole file at once: call it at load time, never per event.
public enum RecordingReader {
    /// Reads a recording. `deviceIDBase` is added to each device's index in the file to
    /// make its DeviceID, so several recordings can feed one seat.
    public static func parse(_ bytes: [UInt8], file: String, deviceIDBase: UInt32 = 0) throws(RecordingError)
        -> Recording
    {
        func positioned(_ error: PositionedError) -> RecordingError {
            RecordingError(file: file, position: error.position, message: error.message)
        }
        do {
            let root = try YAMLParser.parse(MultiDeviceRepair.repair(bytes)) // libinput 1.22's multi-device files
            var decoder = DocumentDecoder(deviceIDBase: deviceIDBase)
            let (version, raw) = try decoder.decode(root)
            var translator = Translator()
            let events = try translator.translate(raw)
            let warnings = (decoder.warnings + translator.warnings).map {
                RecordingWarning(file: file, position: $0.0, message: $0.1)
            }
            return Recording(
                file: file, libinputVersion: version, devices: raw.map(\.device), events: events,
                warnings: warnings, endTime: RecordingEnd.time(events: events, devices: raw, bytes: bytes))
        } catch {
            throw positioned(error)
        }
    }

    /// Reads a recording held as text; as `parse(_:file:deviceIDBase:)` with its UTF-8 bytes.
    public static func parse(_ text: String, file: String, deviceIDBase: UInt32 = 0) throws(RecordingError) -> Recording
    {
        try parse(Array(text.utf8), file: file, deviceIDBase: deviceIDBase)
    }

    /// Reads the file at `path`; the error for an unreadable file points at 1:1.
    public static func read(path: String, deviceIDBase: UInt32 = 0) throws(RecordingError) -> Recording {
        guard let bytes = readFile(path) else {
            throw RecordingError(
                file: path, position: SourcePosition(line: 1, column: 1), message: "cannot read the file")
        }
        return try parse(bytes, file: path, deviceIDBase: deviceIDBase)
    }

    static func readFile(_ path: String) -> [UInt8]? {
        guard let handle = fopen(path, "rb") else { return nil }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, handle) }
            bytes.append(contentsOf: chunk[0..<count])
            if count < chunk.count { return ferror(handle) == 0 ? bytes : nil }
        }
    }
}
