// The system's cursor theme, where a named cursor (cursor-shape-v1's shapes) is drawn from.
// Found as libXcursor finds it: the theme named by XCURSOR_THEME (else "default", which on
// Debian inherits the theme chosen as x-cursor-theme, Adwaita), at XCURSOR_SIZE (else 24),
// in the directories of XCURSOR_PATH (else ~/.local/share/icons, ~/.icons, /usr/share/icons,
// /usr/share/pixmaps); a theme without a cursor looks in the themes its index.theme
// `Inherits`. A shape is looked up by its CSS name, then by the older X names themes also
// carry (Adwaita 43 has both; older themes only the X names).
import Foundation
import InputRouterWayland

/// A cursor theme on disk, read on first use of each cursor and kept.
public final class XCursorTheme {
    /// The theme's directory name under an icon directory (`Adwaita`, `default`).
    public let name: String
    /// The nominal size wanted; a file's nearest size is taken.
    public let size: Int
    /// The icon directories searched, in order.
    public let searchPath: [String]
    private var loaded: [CursorShape: XCursorImage?] = [:]

    /// The theme `name` at `size` in `searchPath`; each nil is read from the environment
    /// as libXcursor does (XCURSOR_THEME, XCURSOR_SIZE, XCURSOR_PATH), else its default.
    public init(name: String? = nil, size: Int? = nil, searchPath: [String]? = nil) {
        let env = ProcessInfo.processInfo.environment
        self.name = name ?? env["XCURSOR_THEME"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        self.size = size ?? env["XCURSOR_SIZE"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 24
        self.searchPath = searchPath ?? XCursorTheme.defaultSearchPath(env)
    }

    static func defaultSearchPath(_ env: [String: String]) -> [String] {
        if let path = env["XCURSOR_PATH"], !path.isEmpty { return path.split(separator: ":").map(String.init) }
        let home = env["HOME"] ?? NSHomeDirectory()
        let data = env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/share"
        return [data + "/icons", home + "/.icons", "/usr/share/icons", "/usr/share/pixmaps"]
    }

    /// The image of `shape`: nil for `none`, and when neither the theme nor the themes it
    /// inherits have it under any of its names. `auto` is `default`.
    public func image(for shape: CursorShape) -> XCursorImage? {
        if let known = loaded[shape] { return known }
        let image = XCursorTheme.names(of: shape).lazy.compactMap { self.image(named: $0) }.first
        loaded[shape] = image
        return image
    }

    /// The cursor file `cursor` of this theme or the themes it inherits, read at `size`.
    public func image(named cursor: String) -> XCursorImage? {
        file(named: cursor).flatMap { path in
            FileManager.default.contents(atPath: path).flatMap { XCursorFile.image(in: [UInt8]($0), nearestSize: size) }
        }
    }

    /// The path of cursor file `cursor` in this theme or the themes it inherits (breadth
    /// first, each theme once).
    public func file(named cursor: String) -> String? {
        var queue = [name]
        var seen: Set<String> = []
        while !queue.isEmpty {
            let theme = queue.removeFirst()
            guard seen.insert(theme).inserted else { continue }
            for dir in searchPath {
                let path = "\(dir)/\(theme)/cursors/\(cursor)"
                if FileManager.default.isReadableFile(atPath: path) { return path }
            }
            queue += inherited(by: theme)
        }
        return nil
    }

    /// The `Inherits=` themes of the first index.theme of `theme` in the search path.
    private func inherited(by theme: String) -> [String] {
        for dir in searchPath {
            guard let text = try? String(contentsOfFile: "\(dir)/\(theme)/index.theme", encoding: .utf8) else {
                continue
            }
            for line in text.split(whereSeparator: \.isNewline) {
                let l = line.trimmingCharacters(in: .whitespaces)
                guard l.hasPrefix("Inherits"), let eq = l.firstIndex(of: "="),
                    l[l.startIndex..<eq].trimmingCharacters(in: .whitespaces) == "Inherits"
                else { continue }
                return l[l.index(after: eq)...].split(whereSeparator: { $0 == "," || $0 == ";" || $0 == " " }).map(
                    String.init)
            }
            return []
        }
        return []
    }

    /// The file names a shape may have in a theme: its CSS name, then the X names themes
    /// made before the CSS names carry, then the default arrow's.
    static func names(of shape: CursorShape) -> [String] {
        let older: [String] =
            switch shape {
            case .none, .auto, .default, .contextMenu, .verticalText: []
            case .help: ["question_arrow", "left_ptr_help", "whats_this"]
            case .pointer: ["hand2", "hand1", "hand"]
            case .progress: ["left_ptr_watch", "half-busy"]
            case .wait: ["watch"]
            case .cell: ["plus"]
            case .crosshair: ["cross", "tcross"]
            case .text: ["xterm", "ibeam"]
            case .alias: ["dnd-link", "link"]
            case .copy: ["dnd-copy"]
            case .move: ["dnd-move"]
            case .noDrop: ["dnd-no-drop"]
            case .notAllowed: ["crossed_circle", "forbidden"]
            case .grab: ["openhand", "hand1"]
            case .grabbing: ["closedhand", "dnd-none"]
            case .eResize: ["right_side"]
            case .nResize: ["top_side"]
            case .neResize: ["top_right_corner"]
            case .nwResize: ["top_left_corner"]
            case .sResize: ["bottom_side"]
            case .seResize: ["bottom_right_corner"]
            case .swResize: ["bottom_left_corner"]
            case .wResize: ["left_side"]
            case .ewResize: ["sb_h_double_arrow", "h_double_arrow", "size_hor"]
            case .nsResize: ["sb_v_double_arrow", "v_double_arrow", "size_ver"]
            case .neswResize: ["fd_double_arrow", "size_bdiag"]
            case .nwseResize: ["bd_double_arrow", "size_fdiag"]
            case .colResize: ["sb_h_double_arrow", "split_h"]
            case .rowResize: ["sb_v_double_arrow", "split_v"]
            case .allScroll: ["fleur", "size_all"]
            case .zoomIn: ["zoom_in"]
            case .zoomOut: ["zoom_out"]
            }
        if shape == .none { return [] }
        let css = shape == .auto ? "default" : shape.cssName
        return css == "default" ? ["default", "left_ptr"] : [css] + older + ["default", "left_ptr"]
    }
}
