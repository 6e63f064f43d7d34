// A small YAML node tree: just what the record format needs (scalars, sequences,
// mappings) with the position of each node, so the typed decoder can point at the value
// that is wrong. Tags and anchors are not part of the record format and are not kept.

struct YAMLNode {
    enum Content {
        /// `plain` is false for quoted and block scalars: only plain scalars may be null,
        /// booleans or numbers in YAML 1.1's sense.
        case scalar(String, plain: Bool)
        case sequence([YAMLNode])
        case mapping([(key: YAMLNode, value: YAMLNode)])
    }
    var content: Content
    var position: SourcePosition

    /// YAML 1.1 null: an empty plain scalar, `~` or `null`.
    var isNull: Bool {
        guard case .scalar(let text, plain: true) = content else { return false }
        return text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL"
    }

    var scalarText: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }

    /// The value for `key` in a mapping; keys are compared as scalar text, so the integer
    /// keys of `codes: {0: [...]}` are looked up as "0".
    subscript(key: String) -> YAMLNode? {
        guard case .mapping(let pairs) = content else { return nil }
        for pair in pairs where pair.key.scalarText == key { return pair.value }
        return nil
    }

    var kindName: String {
        switch content {
        case .scalar: return isNull ? "null" : "a scalar"
        case .sequence: return "a sequence"
        case .mapping: return "a mapping"
        }
    }
}
