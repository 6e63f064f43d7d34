// Reading a scene snapshot back (SceneSnapshot.swift): line by line, each checked as it
// comes, so an error names the line it is on.

import Foundation
import InputRouter

/// A snapshot read from text, with where each seat came from (rebuild errors name it).
public struct ReadSnapshot: Sendable {
    public var scene: SceneState
    /// The file's name, as the caller gave it.
    public var file: String
    /// The line of each seat, in `scene.seats` order; of each node, by slot.
    public var seatLines: [Int]
    public var nodeLines: [UInt32: Int]
}

extension SceneSnapshot {
    /// Reads a snapshot file.
    public static func read(path: String) throws -> ReadSnapshot {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RecordingError(
                file: path, position: SourcePosition(line: 1, column: 1), message: "cannot read the file")
        }
        return try read(String(decoding: data, as: UTF8.self), file: path)
    }

    /// Reads a snapshot from its text. Throws `RecordingError` at the first bad line.
    public static func read(_ text: String, file: String = "scene.jsonl") throws -> ReadSnapshot {
        var reader = LineReader(file: file)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (i, raw) in lines.enumerated() {
            let number = i + 1
            if raw.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) {
                if i == lines.count - 1 { break } // the newline after the end line
                if reader.ended { continue }
                throw reader.error(number, "an empty line inside the snapshot")
            }
            try reader.take(String(raw), line: number)
        }
        guard reader.header != nil else { throw reader.error(1, "empty file: not a scene snapshot") }
        guard reader.ended else {
            throw reader.error(
                max(lines.count - (lines.last?.isEmpty == true ? 1 : 0), 1),
                "the snapshot stops before its end line (cut short?)")
        }
        return ReadSnapshot(scene: reader.scene, file: file, seatLines: reader.seatLines, nodeLines: reader.nodeLines)
    }

    /// Rebuilds a router from a read snapshot; a rebuild error names the seat's or node's line.
    public static func rebuild(
        _ snapshot: ReadSnapshot, handlers: SceneHandlers = SceneHandlers(),
        keyTranslator: (SeatState) throws -> KeyTranslator? = { _ in nil }
    ) throws -> Router {
        do {
            return try Router(restoring: snapshot.scene, handlers: handlers, keyTranslator: keyTranslator)
        } catch let e as SceneRebuildError {
            var line = 1
            for (i, s) in snapshot.scene.seats.enumerated() where e.message.hasPrefix("seat \(s.name):") {
                line = snapshot.seatLines[i]
            }
            if e.message.hasPrefix("node "),
                let slot = UInt32(e.message.dropFirst(5).prefix { $0.isNumber }), let l = snapshot.nodeLines[slot]
            {
                line = l
            }
            throw RecordingError(
                file: snapshot.file, position: SourcePosition(line: line, column: 1), message: e.message)
        }
    }
}

/// Which kind of line a line is: the key it has.
private struct LineKind: Decodable {
    var format: String?
    var client: UInt32?
    var node: UInt32?
    var seat: String?
    var end: Bool?
}

private struct LineReader {
    let file: String
    var scene = SceneState()
    var header: SnapshotHeader?
    var ended = false
    var seatLines: [Int] = []
    var nodeLines: [UInt32: Int] = [:]
    var seen: Set<UInt32> = [0]
    let decoder = JSONDecoder()

    init(file: String) { self.file = file }

    func error(_ line: Int, _ message: String) -> RecordingError {
        RecordingError(file: file, position: SourcePosition(line: line, column: 1), message: message)
    }

    func decode<T: Decodable>(_ type: T.Type, _ text: String, line: Int) throws -> T {
        do {
            return try decoder.decode(type, from: Data(text.utf8))
        } catch let e as DecodingError {
            throw error(line, Self.describe(e))
        }
    }

    static func describe(_ e: DecodingError) -> String {
        func path(_ p: [any CodingKey]) -> String {
            p.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch e {
        case .keyNotFound(let key, let c): return "missing key '\(path(c.codingPath + [key]).dropFirst())'"
        case .typeMismatch(let t, let c): return "'\(path(c.codingPath).dropFirst())' is not \(t)"
        case .valueNotFound(let t, let c): return "'\(path(c.codingPath).dropFirst())' is null, expected \(t)"
        case .dataCorrupted(let c):
            return c.codingPath.isEmpty
                ? "not a JSON object (truncated or edited?)"
                : "'\(path(c.codingPath).dropFirst())': \(c.debugDescription)"
        @unknown default: return "cannot be read"
        }
    }

    mutating func take(_ text: String, line: Int) throws {
        if ended { throw error(line, "text after the end line") }
        let kind = try decode(LineKind.self, text, line: line)
        if header == nil {
            guard let format = kind.format else {
                throw error(line, "not a scene snapshot: line 1 has no 'format'")
            }
            let h = try decode(SnapshotHeader.self, text, line: line)
            guard format == SceneSnapshot.format else {
                throw error(line, "not a scene snapshot: format '\(format)', expected '\(SceneSnapshot.format)'")
            }
            guard h.version == SceneSnapshot.version else {
                throw error(
                    line, "unknown snapshot version \(h.version) (this reader knows version \(SceneSnapshot.version))")
            }
            guard h.slots >= 1, h.slots <= 1 << 24 else { throw error(line, "slot count \(h.slots) is out of range") }
            guard h.opacityThreshold.isFinite else { throw error(line, "opacityThreshold is not a number") }
            header = h
            scene.slotCount = h.slots
            scene.freeSlots = h.free
            scene.opacityThreshold = h.opacityThreshold
            scene.serialCounter = h.serial
            return
        }
        if kind.format != nil { throw error(line, "a second header") }
        // A node line names its client too: `node` decides first.
        if kind.node != nil { return try takeNode(text, line: line) }
        if kind.seat != nil { return try takeSeat(text, line: line) }
        if kind.client != nil { return try takeClient(text, line: line) }
        if kind.end != nil {
            let end = try decode(EndLine.self, text, line: line)
            guard end.nodes == scene.nodes.count, end.clients == scene.clients.count, end.seats == scene.seats.count
            else {
                throw error(
                    line,
                    "the end line counts \(end.nodes) nodes, \(end.clients) clients, \(end.seats) seats; "
                        + "the file has \(scene.nodes.count), \(scene.clients.count), \(scene.seats.count)")
            }
            ended = true
            return
        }
        throw error(line, "a line that is none of client, node, seat or end")
    }

    mutating func takeClient(_ text: String, line: Int) throws {
        let c = try decode(ClientLine.self, text, line: line)
        guard scene.nodes.isEmpty, scene.seats.isEmpty else { throw error(line, "clients come before nodes and seats") }
        guard c.client == UInt32(scene.clients.count + 1) else {
            throw error(line, "client \(c.client) out of order: expected client \(scene.clients.count + 1)")
        }
        var state = ClientState(name: c.name)
        state.alive = c.alive
        state.handler = c.handler
        scene.clients.append(state)
    }

    mutating func takeNode(_ text: String, line: Int) throws {
        let n = try decode(NodeLine.self, text, line: line)
        guard scene.seats.isEmpty else { throw error(line, "nodes come before seats") }
        guard n.node != 0, n.node < scene.slotCount else {
            throw error(line, "node \(n.node): slot out of range (the header says \(scene.slotCount) slots)")
        }
        guard !seen.contains(n.node) else { throw error(line, "node \(n.node) listed twice") }
        if let p = n.parent, !seen.contains(p) {
            throw error(line, "node \(n.node): parent \(p) is not a node listed before it")
        }
        guard let kind = SceneSnapshot.kinds[n.kind], kind != .root else {
            throw error(line, "node \(n.node): unknown kind '\(n.kind)'")
        }
        guard n.layer == "above" || n.layer == "below" else {
            throw error(line, "node \(n.node): layer '\(n.layer)' is neither 'above' nor 'below'")
        }
        guard n.client <= UInt32(scene.clients.count) else {
            throw error(line, "node \(n.node): client \(n.client) is not listed")
        }
        guard n.opacity.isFinite else { throw error(line, "node \(n.node): opacity is not a number") }
        var s = NodeState(slot: n.node, kind: kind, frame: try rect(n.frame, "frame", line: line))
        s.generation = n.generation
        s.parent = n.parent
        s.name = n.name
        s.client = n.client
        s.bufferScale = n.bufferScale
        s.layer = n.layer == "above" ? .above : .below
        s.mapped = n.mapped
        s.acceptsInput = n.acceptsInput
        s.opacity = n.opacity
        s.clipsChildren = n.clipsChildren
        s.canBecomeFirstResponder = n.focusable
        s.inputRegion = try n.inputRegion?.map { try rect($0, "inputRegion", line: line) }
        s.containmentTest = n.containmentTest
        s.handler = n.handler
        s.nextResponder = n.nextResponder
        seen.insert(n.node)
        nodeLines[n.node] = line
        scene.nodes.append(s)
    }

    func rect(_ v: RectValue, _ what: String, line: Int) throws -> Rect {
        guard v.count == 4 else { throw error(line, "\(what): expected [x, y, width, height]") }
        return Rect(v[0], v[1], v[2], v[3])
    }

    func point(_ v: PointValue, _ what: String, line: Int) throws -> Point {
        guard v.count == 2, v[0].isFinite, v[1].isFinite else { throw error(line, "\(what): expected [x, y]") }
        return Point(v[0], v[1])
    }

    func responder(_ v: ResponderValue, line: Int) throws -> ResponderState {
        switch (v.node, v.client, v.seat) {
        case (let n?, nil, nil): return .node(n)
        case (nil, let c?, nil): return .client(c)
        case (nil, nil, let s?): return .seat(s)
        default: throw error(line, "a responder is one of {\"node\": n}, {\"client\": n}, {\"seat\": n}")
        }
    }

    mutating func takeSeat(_ text: String, line: Int) throws {
        let v = try decode(SeatLine.self, text, line: line)
        var s = SeatState(name: v.seat)
        s.devices = v.devices.map { ($0.id, $0.capabilities) }
        guard v.bound.count <= scene.clients.count + 1 else {
            throw error(
                line,
                "seat \(v.seat): 'bound' lists \(v.bound.count) clients, the snapshot has \(scene.clients.count + 1)")
        }
        s.bound = v.bound
        s.cursor = try point(v.cursor, "cursor", line: line)
        s.pointerFocus = try v.pointerFocus.map { try responder($0, line: line) }
        s.pointerLocal = try point(v.pointerLocal, "pointerLocal", line: line)
        s.heldButtons = v.heldButtons.map { ($0.code, $0.count) }
        s.deviceButtons = v.deviceButtons.map { ($0.device, $0.codes) }
        s.deviceKeys = v.deviceKeys.map { ($0.device, $0.codes) }
        s.touchFrameClients = v.touchFrameClients
        s.consumedButtons = v.consumedButtons
        s.keyboardFocus = v.keyboardFocus
        s.keyboardEntered = v.keyboardEntered
        s.focusHistory = v.focusHistory
        for k in v.heldKeys {
            let r: KeyRecipientState
            switch k.recipient ?? "none" {
            case "none": r = .none
            case "consumed": r = .consumed
            case "grab": r = .grab
            case "inputMethod": r = .inputMethod
            case "client":
                guard let c = k.client else { throw error(line, "key \(k.code): recipient 'client' without 'client'") }
                r = .client(c)
            case "responder":
                guard let x = k.responder else {
                    throw error(line, "key \(k.code): recipient 'responder' without 'responder'")
                }
                r = .responder(try responder(x, line: line))
            case let other: throw error(line, "key \(k.code): unknown recipient '\(other)'")
            }
            s.heldKeys.append((k.code, k.count, r))
        }
        guard v.modifiers.count == 4 else {
            throw error(line, "modifiers: expected [depressed, latched, locked, group]")
        }
        s.modifiers = Modifiers(
            depressed: v.modifiers[0], latched: v.modifiers[1], locked: v.modifiers[2], group: v.modifiers[3])
        for t in v.touchPoints {
            let owner: TouchOwnerState
            switch t.owner {
            case "client":
                guard let n = t.node else { throw error(line, "touch slot \(t.slot): owner 'client' without 'node'") }
                owner = .client(n)
            case "responder":
                guard let x = t.responder else {
                    throw error(line, "touch slot \(t.slot): owner 'responder' without 'responder'")
                }
                owner = .responder(try responder(x, line: line))
            case "recognizer": owner = .recognizer(t.recognizer ?? 0)
            case "grab": owner = .grab
            case "cancelled": owner = .cancelled
            default: throw error(line, "touch slot \(t.slot): unknown owner '\(t.owner)'")
            }
            s.touchPoints.append((t.slot, t.device, owner, t.client))
        }
        if let g = v.grab {
            switch g.kind {
            case "popup":
                guard let c = g.client, let stack = g.stack else {
                    throw error(line, "popup grab: needs 'client' and 'stack'")
                }
                s.pointerGrab = .popup(client: c, stack: stack)
            case "move":
                guard let n = g.node, let o = g.offset else {
                    throw error(line, "move grab: needs 'node' and 'offset'")
                }
                s.pointerGrab = .move(node: n, offset: try point(o, "offset", line: line))
            case "resize":
                guard let n = g.node, let e = g.edges, let st = g.start, let f = g.startFrame else {
                    throw error(line, "resize grab: needs 'node', 'edges', 'start' and 'startFrame'")
                }
                s.pointerGrab = .resize(
                    node: n, edges: e, start: try point(st, "start", line: line),
                    startFrame: try rect(f, "startFrame", line: line))
            case let other where other.hasPrefix("other:"): s.pointerGrab = .other(String(other.dropFirst(6)))
            default: throw error(line, "unknown grab kind '\(g.kind)'")
            }
        }
        s.keymap = v.keymap
        s.bindings = v.bindings.map { ($0.keysym, $0.modifiers, $0.whileLocked, $0.name) }
        s.handler = v.handler
        s.absoluteMapping = try v.absoluteMapping.map { try rect($0, "absoluteMapping", line: line) }
        s.lastTime = v.lastTime
        seatLines.append(line)
        scene.seats.append(s)
    }
}

extension SceneSnapshot {
    /// Node kinds by the names traces use.
    static let kinds: [String: NodeKind] = [
        "root": .root, "output": .output, "node": .compositor, "toplevel": .toplevel, "subsurface": .subsurface,
        "popup": .popup, "layer": .layer, "lock": .lock,
    ]
}

extension SceneSnapshot {
    /// A decoding error as a line's message (the journal's reader says the same).
    static func describe(_ e: DecodingError) -> String { LineReader.describe(e) }
}
