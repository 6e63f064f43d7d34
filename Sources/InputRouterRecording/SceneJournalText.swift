// A flight recorder's scene journal as text (docs/bug-reports.md, "The scene journal
// format"): JSON lines, version 1, beside the snapshot in a bundle. One line per edit or
// handler call, in the order they were made, each saying after how many of the bundle's
// input events it came. Reading is strict: every problem names its line.

import Foundation
import InputRouter

/// Writes and reads scene journal files.
public enum SceneJournalText {
    public static let format = "inputrouter-journal"
    public static let version = 1

    // MARK: Writing

    /// The journal as text: a header, one line per edit, an end line with the count.
    public static func write(_ edits: [SceneEdit]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var out = ""
        func line<T: Encodable>(_ value: T) {
            let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
            out += String(decoding: data, as: UTF8.self) + "\n"
        }
        line(JournalHeader(format: format, version: version))
        for e in edits { line(self.line(e)) }
        line(JournalEnd(end: true, edits: edits.count))
        return out
    }

    static func line(_ e: SceneEdit) -> JournalLine {
        var l = JournalLine(at: e.at, edit: e.op.description)
        let shape = Self.shape(e.op)
        if shape.node { l.node = [e.node.index, e.node.generation] }
        if shape.other { l.other = e.other.map { [$0.index, $0.generation] } }
        if shape.seat { l.seat = e.seat }
        if shape.client { l.client = e.client }
        if shape.values > 0 { l.values = Array([e.a, e.b, e.c, e.d].prefix(shape.values)) }
        if shape.flag { l.flag = e.flag }
        if shape.name { l.name = e.name }
        switch e.op {
        case .createNode: l.kind = e.kind.description
        case .setOpacity: l.opacity = e.opacity
        case .setInputRegion: l.region = e.region.map { $0.rects.map(SceneSnapshot.rect) }
        case .beginMove: l.anchor = e.point.map(SceneSnapshot.point)
        case .call:
            l.callee = ["node", "client", "seat", "beforePress"][Int(e.callee.rawValue)]
            if e.callee == .node || e.callee == .beforePress { l.node = [e.node.index, e.node.generation] }
            if e.callee == .client { l.client = e.client }
        default: break
        }
        return l
    }

    /// The keys each edit has (besides `at` and `edit`).
    struct Shape {
        var node = false
        var other = false
        var seat = false
        var client = false
        var values = 0
        var flag = false
        var name = false
    }

    static func shape(_ op: SceneEdit.Op) -> Shape {
        var s = Shape()
        switch op {
        case .createNode:
            (s.node, s.other, s.client, s.values, s.flag, s.name) = (true, true, true, 4, true, true)
        case .destroy, .detach, .raise, .lower: s.node = true
        case .move, .resize: (s.node, s.values) = (true, 2)
        case .setBuffer: (s.node, s.values) = (true, 3)
        case .setName: (s.node, s.name) = (true, true)
        case .setMapped, .setAcceptsInput, .setClipsChildren, .setFocusable: (s.node, s.flag) = (true, true)
        case .setOpacity, .setInputRegion: s.node = true
        case .setContainmentTest, .setHandler: (s.node, s.name, s.flag) = (true, true, true)
        case .setNextResponder: (s.node, s.other) = (true, true)
        case .setParent: (s.node, s.other, s.flag) = (true, true, true)
        case .placeAbove, .placeBelow: (s.node, s.other) = (true, true)
        case .addClient: s.name = true
        case .removeClient: s.client = true
        case .setClientHandler: (s.client, s.name, s.flag) = (true, true, true)
        case .bind: (s.seat, s.client, s.values, s.flag) = (true, true, 1, true)
        case .keyboardFocus: (s.seat, s.other) = (true, true)
        case .resignKeyboardFocus, .beginMove: (s.seat, s.node) = (true, true)
        case .beginResize: (s.seat, s.node, s.values) = (true, true, 1)
        case .cancelPointerGrab, .dismissPopups: s.seat = true
        case .call: break
        case .answer: s.flag = true
        }
        return s
    }

    // MARK: Reading

    static let ops: [String: SceneEdit.Op] = Dictionary(
        uniqueKeysWithValues: SceneEdit.Op.allCases.map { ($0.description, $0) })
    static let callees: [String: SceneEdit.Callee] = [
        "node": .node, "client": .client, "seat": .seat, "beforePress": .beforePress,
    ]

    /// Reads a journal file.
    public static func read(path: String) throws -> [SceneEdit] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RecordingError(
                file: path, position: SourcePosition(line: 1, column: 1), message: "cannot read the file")
        }
        return try read(String(decoding: data, as: UTF8.self), file: path)
    }

    /// Reads a journal from its text. Throws `RecordingError` at the first bad line.
    public static func read(_ text: String, file: String = "journal.jsonl") throws -> [SceneEdit] {
        let decoder = JSONDecoder()
        func error(_ line: Int, _ message: String) -> RecordingError {
            RecordingError(file: file, position: SourcePosition(line: line, column: 1), message: message)
        }
        func decode<T: Decodable>(_ type: T.Type, _ text: Substring, line: Int) throws -> T {
            do {
                return try decoder.decode(type, from: Data(text.utf8))
            } catch let e as DecodingError {
                throw error(line, SceneSnapshot.describe(e))
            }
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var edits: [SceneEdit] = []
        var header = false
        var ended = false
        var calls = 0
        for (i, raw) in lines.enumerated() {
            let number = i + 1
            if raw.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) {
                if i == lines.count - 1 { break }
                throw error(number, "an empty line inside the journal")
            }
            if ended { throw error(number, "text after the end line") }
            if !header {
                let h = try decode(JournalHeader.self, raw, line: number)
                guard h.format == format else { throw error(number, "not a scene journal (format '\(h.format)')") }
                guard h.version == version else {
                    throw error(number, "unknown journal version \(h.version) (this reader knows version \(version))")
                }
                header = true
                continue
            }
            if let end = try? decoder.decode(JournalEnd.self, from: Data(raw.utf8)) {
                guard end.end, end.edits == edits.count else {
                    throw error(number, "the end line counts \(end.edits) edits, the journal has \(edits.count)")
                }
                ended = true
                continue
            }
            let l = try decode(JournalLine.self, raw, line: number)
            guard let op = ops[l.edit] else { throw error(number, "unknown edit '\(l.edit)'") }
            if let last = edits.last, l.at < last.at {
                throw error(number, "'at' \(l.at) goes back (the line before is at \(last.at))")
            }
            var e = SceneEdit(op)
            e.at = l.at
            let shape = Self.shape(op)
            func need<T>(_ v: T?, _ key: String) throws -> T {
                guard let v else { throw error(number, "\(l.edit): missing key '\(key)'") }
                return v
            }
            func node(_ v: [UInt32], _ key: String) throws -> NodeID {
                guard v.count == 2 else { throw error(number, "\(key): expected [slot, generation]") }
                return NodeID(index: v[0], generation: v[1])
            }
            if shape.node { e.node = try node(try need(l.node, "node"), "node") }
            if shape.other { e.other = try l.other.map { try node($0, "other") } }
            if shape.seat { e.seat = try need(l.seat, "seat") }
            if shape.client { e.client = try need(l.client, "client") }
            if shape.values > 0 {
                let v = try need(l.values, "values")
                guard v.count == shape.values else {
                    throw error(number, "\(l.edit): 'values' has \(v.count) numbers, expected \(shape.values)")
                }
                (e.a, e.b, e.c, e.d) = (v[0], v.count > 1 ? v[1] : 0, v.count > 2 ? v[2] : 0, v.count > 3 ? v[3] : 0)
            }
            if shape.flag { e.flag = try need(l.flag, "flag") }
            if shape.name { e.name = try need(l.name, "name") }
            switch op {
            case .createNode:
                let k = try need(l.kind, "kind")
                guard let kind = SceneSnapshot.kinds[k], kind != .root else {
                    throw error(number, "createNode: unknown kind '\(k)'")
                }
                e.kind = kind
            case .setOpacity:
                let o = try need(l.opacity, "opacity")
                guard o.isFinite else { throw error(number, "setOpacity: 'opacity' is not a number") }
                e.opacity = o
            case .setInputRegion:
                if let rects = l.region {
                    e.region = Region(
                        try rects.map {
                            guard $0.count == 4 else { throw error(number, "region: expected [x, y, width, height]") }
                            return Rect($0[0], $0[1], $0[2], $0[3])
                        })
                }
            case .beginMove:
                if let p = l.anchor {
                    guard p.count == 2, p[0].isFinite, p[1].isFinite else {
                        throw error(number, "anchor: expected [x, y]")
                    }
                    e.point = Point(p[0], p[1])
                }
            case .call:
                let c = try need(l.callee, "callee")
                guard let callee = callees[c] else { throw error(number, "call: unknown callee '\(c)'") }
                e.callee = callee
                if callee == .node || callee == .beforePress { e.node = try node(try need(l.node, "node"), "node") }
                if callee == .client { e.client = try need(l.client, "client") }
                calls += 1
            case .answer:
                guard calls > 0 else { throw error(number, "an answer with no call before it") }
                calls -= 1
            default: break
            }
            edits.append(e)
        }
        guard header else { throw error(1, "empty file: not a scene journal") }
        guard ended else {
            throw error(
                max(lines.count - (lines.last?.isEmpty == true ? 1 : 0), 1),
                "the journal stops before its end line (cut short?)")
        }
        return edits
    }
}

/// Line 1.
struct JournalHeader: Codable {
    var format: String
    var version: Int
}

/// The last line: the edits counted, so a file cut at a line's end is caught.
struct JournalEnd: Codable {
    var end: Bool
    var edits: Int
}

/// One edit. `node` and `other` are `[slot, generation]`.
struct JournalLine: Codable {
    var at: UInt64
    var edit: String
    var node: [UInt32]?
    var other: [UInt32]?
    var seat: UInt32?
    var client: UInt32?
    var values: [Int32]?
    var kind: String?
    var opacity: Float?
    var flag: Bool?
    var name: String?
    var region: [RectValue]?
    var anchor: PointValue?
    var callee: String?
    init(at: UInt64, edit: String) {
        self.at = at
        self.edit = edit
    }
}
