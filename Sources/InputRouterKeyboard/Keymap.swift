import CXKBCommon
import Glibc

/// Owns one compiled `xkb_keymap`. Immutable once built (its key classes are probed on
/// first use), so states and the client keymap file can share it, on one thread:
/// xkbcommon counts references with plain integers, so states made from one keymap must
/// not be created or released on two threads at once.
public final class Keymap {
    let pointer: OpaquePointer
    /// The context it was compiled in (its include paths and log).
    public let context: XKBContext
    /// The indices of the named real modifiers in this keymap, for binding masks.
    let modifierIndices: ModifierIndices
    private var cachedClientFile: KeymapFile?
    /// Which keys can change a state (`KeyClasses`): probed when the first state is made.
    private(set) lazy var keyClasses = KeyClasses(keymap: pointer)

    private init(context: XKBContext, pointer: OpaquePointer) {
        self.context = context
        self.pointer = pointer
        self.modifierIndices = ModifierIndices(keymap: pointer)
    }

    deinit { xkb_keymap_unref(pointer) }

    /// Builds from RMLVO names; nil means the `XKB_DEFAULT_*` environment. Throws when a
    /// layout, variant or option is unknown: xkbcommon fails for unknown layouts and
    /// variants but only logs and ignores unknown options, and both are errors here.
    public convenience init(context: XKBContext, names: RuleNames? = nil) throws {
        let names = names ?? RuleNames.fromEnvironment()
        let (compiled, errors) = context.capturingErrors { () -> OpaquePointer? in
            names.rules.withCString { rules in
                names.model.withCString { model in
                    names.layout.withCString { layout in
                        names.variant.withCString { variant in
                            names.options.withCString { options in
                                var raw = xkb_rule_names(
                                    rules: rules, model: model, layout: layout,
                                    variant: variant, options: options)
                                return xkb_keymap_new_from_names(context.pointer, &raw, XKB_KEYMAP_COMPILE_NO_FLAGS)
                            }
                        }
                    }
                }
            }
        }
        guard let compiled, errors.isEmpty else {
            if let compiled { xkb_keymap_unref(compiled) }
            throw KeyboardError.invalidNames(names, messages: errors)
        }
        self.init(context: context, pointer: compiled)
    }

    /// Builds from a keymap in xkbcomp text format (as `xkbcomp -xkb` or a client gets it).
    public convenience init(context: XKBContext, string: String) throws {
        try self.init(context: context, text: string, origin: "<string>")
    }

    /// Builds from a keymap file in xkbcomp text format.
    public convenience init(context: XKBContext, file path: String) throws {
        guard let stream = fopen(path, "r") else {
            throw KeyboardError.unreadableKeymapFile(path: path, errno: errno)
        }
        defer { fclose(stream) }
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&chunk, 1, chunk.count, stream)
            text.append(contentsOf: chunk[0..<count])
            if count < chunk.count { break }
        }
        if ferror(stream) != 0 { throw KeyboardError.unreadableKeymapFile(path: path, errno: errno) }
        try self.init(context: context, text: String(decoding: text, as: UTF8.self), origin: path)
    }

    private convenience init(context: XKBContext, text: String, origin: String) throws {
        let (compiled, errors) = context.capturingErrors {
            xkb_keymap_new_from_string(
                context.pointer, text, XKB_KEYMAP_FORMAT_TEXT_V1,
                XKB_KEYMAP_COMPILE_NO_FLAGS)
        }
        guard let compiled else { throw KeyboardError.invalidKeymap(path: origin, messages: errors) }
        self.init(context: context, pointer: compiled)
    }

    /// The keymap in text format, as `wl_keyboard.keymap` serves it.
    public func asString() -> String {
        guard let raw = xkb_keymap_get_as_string(pointer, XKB_KEYMAP_FORMAT_TEXT_V1) else { return "" }
        defer { free(raw) }
        return String(cString: raw)
    }

    /// The sealed memfd every client of this keymap receives. Made on first use and
    /// shared afterwards: one serialization per keymap.
    public func clientFile() throws -> KeymapFile {
        if let cachedClientFile { return cachedClientFile }
        let file = try KeymapFile(contents: asString())
        cachedClientFile = file
        return file
    }

    /// Human-readable layout names, one per group ("English (US)", "Russian").
    public var layoutNames: [String] {
        (0..<xkb_keymap_num_layouts(pointer)).map { index in
            xkb_keymap_layout_get_name(pointer, index).map { String(cString: $0) } ?? ""
        }
    }

    /// The keysyms of an evdev key at one layout and shift level, regardless of state.
    public func keysyms(key: UInt32, layout: UInt32, level: UInt32) -> [UInt32] {
        var syms: UnsafePointer<xkb_keysym_t>?
        let count = xkb_keymap_key_get_syms_by_level(pointer, key &+ evdevOffset, layout, level, &syms)
        guard count > 0, let syms else { return [] }
        return Array(UnsafeBufferPointer(start: syms, count: Int(count)))
    }

    /// Whether the keymap says this evdev key repeats when held.
    public func keyRepeats(key: UInt32) -> Bool {
        xkb_keymap_key_repeats(pointer, key &+ evdevOffset) == 1 // any code a client sent: xkb refuses the wrapped ones
    }
}

/// xkb keycodes are evdev codes plus 8, a relic of the X11 protocol's minimum keycode.
let evdevOffset: UInt32 = 8
