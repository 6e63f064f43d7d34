// Typed reads of YAML nodes. Every conversion is checked: numbers out of range, NaN and
// infinities become positioned errors instead of traps or silent garbage.

extension YAMLNode {
    /// Largest magnitude accepted for a floating-point value (deltas, mm, scroll values).
    /// Real devices stay far below; anything above is a broken or hostile file.
    static let maximumMagnitude = 1.0e7

    func fail(_ message: String) -> PositionedError { PositionedError(position, message) }

    func string(_ what: String) throws(PositionedError) -> String {
        guard let text = scalarText, !isNull else { throw fail("\(what): expected a string, found \(kindName)") }
        return text
    }

    func sequence(_ what: String) throws(PositionedError) -> [YAMLNode] {
        guard case .sequence(let items) = content else {
            throw fail("\(what): expected a sequence, found \(kindName)")
        }
        return items
    }

    /// A sequence, or nothing for a null or missing value (`quirks:` and `events:` may be null).
    func optionalSequence(_ what: String) throws(PositionedError) -> [YAMLNode] {
        if isNull { return [] }
        return try sequence(what)
    }

    func mapping(_ what: String) throws(PositionedError) -> [(key: YAMLNode, value: YAMLNode)] {
        guard case .mapping(let pairs) = content else { throw fail("\(what): expected a mapping, found \(kindName)") }
        return pairs
    }

    func required(_ key: String, in what: String) throws(PositionedError) -> YAMLNode {
        guard let value = self[key] else { throw fail("\(what): missing key '\(key)'") }
        return value
    }

    /// An integer: decimal or 0x-hexadecimal (libinput prints `hid` bytes in hex), with sign.
    func integer(_ what: String) throws(PositionedError) -> Int64 {
        guard let text = scalarText, !isNull else { throw fail("\(what): expected an integer, found \(kindName)") }
        guard let value = Self.parseInteger(text) else {
            throw fail("\(what): '\(Self.abbreviate(text))' is not an integer in range")
        }
        return value
    }

    func integer<T: FixedWidthInteger>(_ what: String, as type: T.Type) throws(PositionedError) -> T {
        let wide = try integer(what)
        guard let value = T(exactly: wide) else { throw fail("\(what): \(wide) is out of range") }
        return value
    }

    static func parseInteger(_ text: String) -> Int64? {
        var body = Substring(text)
        var negative = false
        if body.hasPrefix("-") {
            negative = true
            body = body.dropFirst()
        } else if body.hasPrefix("+") {
            body = body.dropFirst()
        }
        var radix = 10
        if body.hasPrefix("0x") || body.hasPrefix("0X") {
            radix = 16
            body = body.dropFirst(2)
        }
        guard !body.isEmpty, body.allSatisfy({ $0.isHexDigit }), let magnitude = UInt64(body, radix: radix) else {
            return nil
        }
        if negative { return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil }
        return Int64(exactly: magnitude)
    }

    /// A finite number no larger than `maximumMagnitude`.
    func double(_ what: String) throws(PositionedError) -> Double {
        guard let text = scalarText, !isNull else { throw fail("\(what): expected a number, found \(kindName)") }
        // YAML spells NaN and infinity `.nan` and `.inf`; they are as absurd here as `nan`.
        let yamlSpecial = [".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "-.inf", "-.Inf", "+.Inf"]
        guard !yamlSpecial.contains(text) else { throw fail("\(what): '\(text)' is not a finite number") }
        guard let value = Double(text) ?? Self.parseInteger(text).map(Double.init) else {
            throw fail("\(what): '\(Self.abbreviate(text))' is not a number")
        }
        guard value.isFinite else { throw fail("\(what): '\(Self.abbreviate(text))' is not a finite number") }
        guard abs(value) <= Self.maximumMagnitude else {
            throw fail("\(what): \(Self.abbreviate(text)) is out of range")
        }
        return value
    }

    /// YAML 1.1 booleans as libinput writes them (`state: on`), plus 0 and 1.
    func bool(_ what: String) throws(PositionedError) -> Bool {
        switch scalarText {
        case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON", "1": return true
        case "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF", "0": return false
        default: throw fail("\(what): expected a boolean (on/off, yes/no, true/false), found \(abbreviatedText)")
        }
    }

    /// libinput's `time: 1.234567` (seconds with microseconds) as microseconds, read from
    /// the text so that no binary rounding changes the value.
    func microseconds(_ what: String) throws(PositionedError) -> UInt64 {
        guard let text = scalarText, !isNull else {
            throw fail("\(what): expected a time in seconds, found \(kindName)")
        }
        guard let value = Self.parseSeconds(text) else {
            throw fail("\(what): '\(Self.abbreviate(text))' is not a time in seconds (0 to \(Self.maximumSeconds))")
        }
        return value
    }

    /// About 31 years: longer than any uptime, small enough that nothing overflows later.
    static let maximumSeconds: UInt64 = 1_000_000_000

    static func parseSeconds(_ text: String) -> UInt64? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy({ $0.isASCII && $0.isNumber }),
            let seconds = UInt64(whole), seconds <= maximumSeconds
        else { return nil }
        var micros: UInt64 = 0
        if parts.count == 2 {
            let fraction = parts[1]
            guard !fraction.isEmpty, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            // Digits past the microsecond are dropped: libinput never prints them.
            let kept = fraction.prefix(6)
            let digits = String(kept) + String(repeating: "0", count: 6 - kept.count)
            guard let parsed = UInt64(digits) else { return nil }
            micros = parsed
        }
        return seconds * 1_000_000 + micros
    }

    var abbreviatedText: String {
        guard let text = scalarText else { return kindName }
        return isNull ? "null" : "'\(Self.abbreviate(text))'"
    }

    /// Keeps messages one line and short even for hostile multi-kilobyte scalars.
    static func abbreviate(_ text: String) -> String {
        let oneLine = String(text.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
        return oneLine.count > 40 ? String(oneLine.prefix(40)) + "…" : oneLine
    }

    /// Two numbers, `[x, y]`.
    func pair(_ what: String) throws(PositionedError) -> (Double, Double) {
        let items = try sequence(what)
        guard items.count == 2 else { throw fail("\(what): expected two numbers, found \(items.count)") }
        return (try items[0].double(what), try items[1].double(what))
    }
}
