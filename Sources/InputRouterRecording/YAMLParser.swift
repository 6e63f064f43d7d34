// Turns YAML text into a YAMLNode tree with libyaml's event API (no hand-written YAML
// parser). The tree is built with an explicit stack rather than recursion, and nesting is
// limited, so hostile input cannot exhaust the call stack.

import CYAML

enum YAMLParser {
    /// Deeper than anything `libinput record` writes (it nests five levels).
    static let maximumDepth = 64

    private struct Open {
        var position: SourcePosition
        var isMapping: Bool
        var items: [YAMLNode] = []
    }

    /// Parses the first document. Throws a PositionedError for invalid YAML, an empty
    /// stream, aliases or excessive nesting.
    static func parse(_ bytes: [UInt8]) throws(PositionedError) -> YAMLNode {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) != 0 else {
            throw PositionedError(SourcePosition(line: 1, column: 1), "cannot initialise the YAML parser")
        }
        defer { yaml_parser_delete(&parser) }
        return try bytes.withUnsafeBufferPointer { (buffer) throws(PositionedError) -> YAMLNode in
            // libyaml reads from the pointer; an empty array still needs a valid address.
            var empty: UInt8 = 0
            let base = buffer.baseAddress ?? withUnsafeMutablePointer(to: &empty) { UnsafePointer($0) }
            yaml_parser_set_input_string(&parser, base, buffer.count)
            return try build(&parser)
        }
    }

    private static func position(_ mark: yaml_mark_t) -> SourcePosition {
        SourcePosition(line: Int(clamping: mark.line) + 1, column: Int(clamping: mark.column) + 1)
    }

    private static func build(_ parser: inout yaml_parser_t) throws(PositionedError) -> YAMLNode {
        var stack: [Open] = []
        var root: YAMLNode?
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) != 0 else {
                let problem = parser.problem.map { String(cString: $0) } ?? "invalid YAML"
                // libyaml's context ("while parsing a block mapping") has its own mark, often
                // lines before the problem: both help to find a missing line.
                var context = ""
                if let text = parser.context {
                    let start = position(parser.context_mark)
                    context = " (\(String(cString: text)) that starts at \(start.line):\(start.column))"
                }
                throw PositionedError(position(parser.problem_mark), "invalid YAML: \(problem)\(context)")
            }
            defer { yaml_event_delete(&event) }
            let here = position(event.start_mark)
            var finished: YAMLNode?
            switch event.type {
            case YAML_STREAM_END_EVENT:
                guard let root else { throw PositionedError(here, "empty file: no YAML document") }
                return root
            case YAML_DOCUMENT_END_EVENT:
                // Only the first document is the recording; later ones are ignored.
                if let root { return root }
            case YAML_ALIAS_EVENT:
                throw PositionedError(here, "YAML aliases are not part of the libinput record format")
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let text =
                    scalar.value.map {
                        String(decoding: UnsafeBufferPointer(start: $0, count: scalar.length), as: UTF8.self)
                    } ?? ""
                finished = YAMLNode(
                    content: .scalar(text, plain: scalar.style == YAML_PLAIN_SCALAR_STYLE),
                    position: here)
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                guard stack.count < maximumDepth else {
                    throw PositionedError(here, "YAML nested deeper than \(maximumDepth) levels")
                }
                stack.append(Open(position: here, isMapping: event.type == YAML_MAPPING_START_EVENT))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let open = stack.popLast() else { break }
                if open.isMapping {
                    var pairs: [(key: YAMLNode, value: YAMLNode)] = []
                    pairs.reserveCapacity(open.items.count / 2)
                    var index = 0
                    while index + 1 < open.items.count {
                        pairs.append((open.items[index], open.items[index + 1]))
                        index += 2
                    }
                    finished = YAMLNode(content: .mapping(pairs), position: open.position)
                } else {
                    finished = YAMLNode(content: .sequence(open.items), position: open.position)
                }
            default:
                break // stream and document start carry nothing we need
            }
            if let node = finished {
                if stack.isEmpty {
                    if root == nil { root = node }
                } else {
                    stack[stack.count - 1].items.append(node)
                }
            }
        }
    }
}
