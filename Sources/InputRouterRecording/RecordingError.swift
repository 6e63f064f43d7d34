// Every problem the reader reports carries the file, line and column it comes from, so a
// user can open the recording at the exact spot. Lines and columns are 1-based.

/// A position in a recording file.
public struct SourcePosition: Hashable, Sendable {
    /// 1-based line.
    public var line: Int
    /// 1-based column.
    public var column: Int
    /// A position; both numbers start at 1.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// A recording that cannot be read: `file:line:column: message`.
public struct RecordingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file the recording came from, as the caller named it.
    public var file: String
    /// Where in the file reading stopped.
    public var position: SourcePosition
    /// What is wrong there, in words for the user.
    public var message: String
    /// An error at `position` in `file`.
    public init(file: String, position: SourcePosition, message: String) {
        self.file = file
        self.position = position
        self.message = message
    }
    /// The line of `position`.
    public var line: Int { position.line }
    /// The column of `position`.
    public var column: Int { position.column }
    /// `file:line:column: message`, the form editors and compilers use.
    public var description: String { "\(file):\(position.line):\(position.column): \(message)" }
}

/// Something a real recording can legitimately contain that the reader skipped or could
/// not replay faithfully: `file:line:column: warning: message`.
public struct RecordingWarning: Hashable, Sendable, CustomStringConvertible {
    /// The file the recording came from, as the caller named it.
    public var file: String
    /// Where the skipped or unfaithful part is.
    public var position: SourcePosition
    /// What was skipped, or what replay will not reproduce.
    public var message: String
    /// A warning at `position` in `file`.
    public init(file: String, position: SourcePosition, message: String) {
        self.file = file
        self.position = position
        self.message = message
    }
    /// `file:line:column: warning: message`, the form editors and compilers use.
    public var description: String { "\(file):\(position.line):\(position.column): warning: \(message)" }
}

/// Internal error before the file name is attached; the reader adds it at the top.
struct PositionedError: Error {
    var position: SourcePosition
    var message: String
    init(_ position: SourcePosition, _ message: String) {
        self.position = position
        self.message = message
    }
}
