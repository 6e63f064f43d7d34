// libinput 1.22's `libinput record` with several devices writes the DEVICE_ADDED of every
// device after the first without its `- libinput:` line: the entry lands under the
// device's `events:` one level too deep, which is not YAML. (It prints the header into
// the first device's file and the entry into the device's own; see tools/libinput-record.c,
// handle_libinput_events.) Such an entry is rewritten on its own line as the frame it was
// meant to be, `  - libinput: [{type: DEVICE_ADDED, ...}]`, so line numbers stay those of
// the file. Tests/RecordingTests/Fixtures/tablet.yml, recorded by libinput 1.22, has one.

enum MultiDeviceRepair {
    static let broken = Array("\n  events:\n".utf8)
    static let entry = Array("    - {type: DEVICE_ADDED".utf8)

    /// The bytes with every such entry rewritten; the same bytes when there is none.
    static func repair(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count > broken.count, contains(bytes, entry) else { return bytes }
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
        var changed = false
        var previous: [UInt8]? // the last line that is not a comment
        for i in lines.indices {
            let line = lines[i]
            if line.starts(with: entry), previous == Array("  events:".utf8), line.last == UInt8(ascii: "}") {
                lines[i] = Array("  - libinput: [".utf8) + line.dropFirst(6) + Array("]".utf8)
                changed = true
            }
            if !line.drop(while: { $0 == UInt8(ascii: " ") }).starts(with: [UInt8(ascii: "#")]) { previous = line }
        }
        guard changed else { return bytes }
        return Array(lines.joined(separator: [UInt8(ascii: "\n")]))
    }

    private static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        var i = 0
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0], bytes[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }
}
