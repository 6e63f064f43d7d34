// Every problem the reader reports carries the file, line and column it comes from, so a
// user can open the recording at the exact spot. Lines and columns are 1-based.

/// A position in a recording file.
public struct SourcePosition: Hashable, Sendable {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) { self.line = line; self.column = column }
}

/// A recording that cannot be read: `file:line:column: message`.
public struct RecordingError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var position: SourcePosition
    public var message: String
    public init(file: String, position: SourcePosition, message: String) {
        self.file = file; self.position = position; self.message = message
    }
    public var line: Int { position.line }
    public var column: Int { position.column }
    public var description: String { "\(file):\(position.line):\(position.column): \(message)" }
}

/// Something a real recording can legitimately contain that the reader skipped or could
/// not replay faithfully: `file:line:column: warning: message`.
public struct RecordingWarning: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var position: SourcePosition
    public var message: String
    public init(file: String, position: SourcePosition, message: String) {
        self.file = file; self.position = position; self.message = message
    }
    public var description: String { "\(file):\(position.line):\(position.column): warning: \(message)" }
}

/// Internal error before the file name is attached; the reader adds it at the top.
struct PositionedError: Error {
    var position: SourcePosition
    var message: String
    init(_ position: SourcePosition, _ message: String) { self.position = position; self.message = message }
}
