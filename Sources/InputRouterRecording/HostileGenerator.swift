// Broken and unruly recordings for robustness tests. Each starts from a valid synthetic
// log and applies a few mutations: some break the file (truncation, invalid YAML, wrong
// version, unknown event types, absurd numbers, missing SYN_REPORT), some keep it valid
// but break what a device never breaks (a release without a press, an up for a slot that
// is not down). The reader must either read the result or throw a positioned error.

/// One way of breaking a valid recording, from damaging the file to events no device sends.
public enum HostileMutation: String, CaseIterable, Sendable {
    case truncate, deleteLine, duplicateLine, swapLines, garbage, wrongVersion, unknownEventType
    case dropSynReport, hugeNumber, notANumber, deepNesting, releaseWithoutPress, upForUnknownSlot
    case outOfRangeCoordinate, badTime
}

/// Makes broken recordings from a seed, for testing that the reader reads or rejects with a
/// positioned error and never crashes.
public struct HostileGenerator: Sendable {
    /// The seed; one seed always gives the same text and mutations.
    public var seed: UInt64
    /// A generator for one seed.
    public init(seed: UInt64) { self.seed = seed }

    /// The mutated text and the mutations applied, in order.
    public func generate() -> (yaml: String, mutations: [HostileMutation]) {
        var rng = SplitMix64(seed: seed)
        let base = SyntheticGenerator(seed: seed ^ 0x5EED, frames: rng.int(5...40)).generate().yaml
        var lines = base.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var applied: [HostileMutation] = []
        for _ in 0..<rng.int(1...3) {
            let mutation = rng.pick(HostileMutation.allCases)
            applied.append(mutation)
            apply(mutation, to: &lines, rng: &rng)
        }
        return (lines.joined(separator: "\n"), applied)
    }

    private func apply(_ mutation: HostileMutation, to lines: inout [String], rng: inout SplitMix64) {
        guard !lines.isEmpty else { return }
        let at = rng.int(0...lines.count - 1)
        func replaceInEvdevRow(_ transform: ([String]) -> [String]) {
            guard let row = lines.indices.filter({ lines[$0].hasPrefix("    - [") }).randomElement(using: &rng) else {
                return
            }
            let inner = lines[row].dropFirst(7).dropLast()
            lines[row] =
                "    - ["
                + transform(
                    inner.split(separator: ",").map {
                        String($0).trimmingSpaces
                    }
                ).joined(separator: ", ") + "]"
        }
        switch mutation {
        case .truncate:
            let text = lines.joined(separator: "\n")
            let cut = text.utf8.count == 0 ? 0 : rng.int(0...text.utf8.count - 1)
            lines = String(decoding: text.utf8.prefix(cut), as: UTF8.self)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        case .deleteLine: lines.remove(at: at)
        case .duplicateLine: lines.insert(lines[at], at: at)
        case .swapLines: lines.swapAt(at, rng.int(0...lines.count - 1))
        case .garbage:
            let junk = rng.pick(["{", "]", ": :", "\t", "&a *a", "!!binary x", "\u{0}", "- [", "\"", "'", "%YAML 9"])
            var line = lines[at]
            let offset = line.isEmpty ? 0 : rng.int(0...line.count)
            line.insert(contentsOf: junk, at: line.index(line.startIndex, offsetBy: offset))
            lines[at] = line
        case .wrongVersion:
            if let index = lines.firstIndex(of: "version: 1") { lines[index] = "version: \(rng.int(2...99))" }
        case .unknownEventType:
            replaceInEvdevRow { $0.count == 5 ? [$0[0], $0[1], "\(rng.int(32...300))", $0[3], $0[4]] : $0 }
        case .dropSynReport:
            if let index = lines.indices.filter({ lines[$0].hasSuffix(", 0, 0, 0]") }).randomElement(using: &rng) {
                lines.remove(at: index)
            }
        case .hugeNumber:
            replaceInEvdevRow { row in row.indices.map { $0 == rng.int(0...4) ? "99999999999999999999999" : row[$0] } }
        case .notANumber:
            if let index = lines.indices.filter({ lines[$0].contains("delta: [") || lines[$0].contains("point: [") })
                .randomElement(using: &rng)
            {
                lines[index] = lines[index].replacingFirst(
                    "[", with: "[\(rng.pick([".nan", ".inf", "-.inf", "1e999"])), ")
            }
        case .deepNesting:
            let depth = rng.int(10...5000)
            lines.insert(
                "  - evdev: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth), at: at)
        case .releaseWithoutPress:
            if let index = lines.firstIndex(of: "  events:") {
                lines.insert(
                    contentsOf: [
                        "  - evdev:", "    - [0, 1, 1, 30, 0]", "    - [0, 1, 0, 0, 0]", "    libinput:",
                        "    - {time: 0.000001, type: KEYBOARD_KEY, key: 30, state: released}",
                    ], at: index + 1)
            }
        case .upForUnknownSlot:
            if let index = lines.firstIndex(of: "  events:") {
                lines.insert(
                    contentsOf: ["  - libinput:", "    - {time: 0.000002, type: TOUCH_UP, slot: 7, seat_slot: 7}"],
                    at: index + 1)
            }
        case .outOfRangeCoordinate:
            if let index = lines.indices.filter({ lines[$0].contains("point: [") }).randomElement(using: &rng) {
                lines[index] = lines[index].replacingFirst("point: [", with: "point: [-\(rng.int(1...100000)).5, 1")
                    .replacingFirst(", 1", with: "")
            }
        case .badTime:
            if let index = lines.indices.filter({ lines[$0].contains("time: ") }).randomElement(using: &rng) {
                lines[index] = lines[index].replacingFirst(
                    "time: ", with: "time: \(rng.pick(["-", "x", "1e5", "99999999999."]))")
            }
        }
    }
}

extension String {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }

    func replacingFirst(_ target: String, with replacement: String) -> String {
        let text = Array(self)
        let pattern = Array(target)
        guard !pattern.isEmpty, text.count >= pattern.count else { return self }
        for start in 0...(text.count - pattern.count) where Array(text[start..<start + pattern.count]) == pattern {
            return String(text[..<start]) + replacement + String(text[(start + pattern.count)...])
        }
        return self
    }
}
