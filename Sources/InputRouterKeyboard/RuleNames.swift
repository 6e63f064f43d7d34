import Foundation

/// The RMLVO names a keymap is built from (rules, model, layout, variant, options), as
/// in `setxkbmap`. Layouts, variants and options are comma-separated lists.
public struct RuleNames: Hashable, Sendable, CustomStringConvertible {
    /// The rules file that maps the other names to keymap parts ("evdev" on Linux).
    public var rules: String
    /// The keyboard model ("pc105").
    public var model: String
    /// The layouts, one per group ("us,ru").
    public var layout: String
    /// The variant of each layout, in the same order ("" for the basic one).
    public var variant: String
    /// Extra options such as "ctrl:nocaps,grp:alt_shift_toggle".
    public var options: String

    /// The names; by default a US layout on a pc105 keyboard with the evdev rules.
    public init(
        rules: String = "evdev", model: String = "pc105", layout: String = "us",
        variant: String = "", options: String = ""
    ) {
        self.rules = rules
        self.model = model
        self.layout = layout
        self.variant = variant
        self.options = options
    }

    /// The names from `XKB_DEFAULT_RULES/MODEL/LAYOUT/VARIANT/OPTIONS`; an unset or empty
    /// variable keeps the default above. Read here rather than by xkbcommon so the
    /// result is visible and testable.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> RuleNames {
        func value(_ suffix: String, _ fallback: String) -> String {
            guard let set = environment["XKB_DEFAULT_" + suffix], !set.isEmpty else { return fallback }
            return set
        }
        let defaults = RuleNames()
        return RuleNames(
            rules: value("RULES", defaults.rules), model: value("MODEL", defaults.model),
            layout: value("LAYOUT", defaults.layout), variant: value("VARIANT", defaults.variant),
            options: value("OPTIONS", defaults.options))
    }

    /// All five names, for error messages.
    public var description: String {
        "layout \"\(layout)\" variant \"\(variant)\" options \"\(options)\" (rules \"\(rules)\", model \"\(model)\")"
    }
}
