// A named cursor (cursor-shape-v1) on the picture: ir-compositor's screenshot of wl-probe
// asking for `text` shows the cursor theme's I-beam with its hotspot at the pointer. The
// expected pixels are read from the theme's file by this test's own reading of the Xcursor
// format (Xcursor(3)), not by the renderer's.
import Foundation
import InputRouter
import InputRouterWayland
import TestSupport
import Testing

@testable import InputRouterRendering

/// The first image of nominal size `size` in an Xcursor file, read plainly: the header's
/// table of contents, then the image chunk's width, height, hotspot and ARGB words.
struct PlainXcursor {
    var width = 0, height = 0, xhot = 0, yhot = 0
    var argb: [UInt32] = []

    init(path: String, size: Int) throws {
        struct Bad: Error, CustomStringConvertible { let description: String }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        func le(_ i: Int) -> Int {
            Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16 | Int(bytes[i + 3]) << 24
        }
        guard Array(bytes[0..<4]) == Array("Xcur".utf8) else {
            throw Bad(description: "\(path) is not an Xcursor file")
        }
        let tocStart = le(4)
        let entries = le(12)
        let chunk =
            try (0..<entries).lazy.map { tocStart + $0 * 12 }
            .first { le($0) == 0xfffd_0002 && le($0 + 4) == size }
            .map { le($0 + 8) } ?? { throw Bad(description: "no image of size \(size) in \(path)") }()
        width = le(chunk + 16)
        height = le(chunk + 20)
        xhot = le(chunk + 24)
        yhot = le(chunk + 28)
        argb = (0..<(width * height)).map { UInt32(le(chunk + 36 + $0 * 4)) }
    }
}

@Suite(.serialized) struct CursorShapeRenderingTests {
    /// Debian's cursor theme (adwaita-icon-theme), which /usr/share/icons/default inherits.
    static let textCursor = "/usr/share/icons/Adwaita/cursors/text"

    @Test func theScreenshotShowsTheThemesIBeamAtThePointer() throws {
        try #require(
            FileManager.default.fileExists(atPath: Self.textCursor), "adwaita-icon-theme is missing: make deps")
        let expected = try PlainXcursor(path: Self.textCursor, size: 24)
        // The I-beam is a narrow shape: most of its pixels are see-through.
        let opaque = (0..<expected.argb.count).filter { expected.argb[$0] >> 24 == 0xff }
        try #require(opaque.count >= 20, "too few opaque pixels in \(Self.textCursor)")

        // ir-compositor and wl-probe sit next to the test bundle (or in .build/debug).
        var bin = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .path
        if !FileManager.default.fileExists(atPath: bin + "/ir-compositor") {
            bin =
                URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../.build/debug")
                .standardized.path
        }
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("ir-cursor-\(getpid())").path
        try FileManager.default.createDirectory(
            atPath: runtime, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let shot = runtime + "/cursor-shape.png"
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../RecordingTests/Fixtures").standardized.path

        // A maximized window (at 0, 0) under the whole output: its pointer.motion lines are
        // layout coordinates, wherever the replayed mouse leaves the pointer.
        let arguments = [
            "--socket", "ir-cursor-\(getpid())", "--size", "320x200", "--speed", "0", "--exit-after-replay",
            "--input", "replay:\(fixtures)/mouse.yml", "--screenshot", shot,
            "--", bin + "/wl-probe", "--toplevel", "win", "320x200", "--maximized", "--cursor-shape-on-enter", "text",
        ]
        // The system's theme as a user without settings has it ("default", size 24).
        let environment: [String: String?] = [
            "XDG_RUNTIME_DIR": runtime, "HOME": runtime, "XCURSOR_THEME": nil, "XCURSOR_SIZE": nil,
            "XCURSOR_PATH": nil,
        ]
        let process = try ChildProcess(
            bin + "/ir-compositor", arguments, environment: environment, nonBlockingOutput: false)
        let out = String(decoding: process.readToEnd().output, as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(out)")
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.contains("client 1 | cursor-shape text"), "\(out)")
        let motion = try #require(lines.last { $0.hasPrefix("client 1 | pointer.motion ") }, "\(out)")
        let xy = motion.split(separator: " ").suffix(2).compactMap { Double($0) }
        try #require(xy.count == 2)
        let (px, py) = (Int(xy[0].rounded(.down)), Int(xy[1].rounded(.down)))

        let png = try DecodedPNG([UInt8](Data(contentsOf: URL(fileURLWithPath: shot))))
        #expect(png.width == 320 && png.height == 200)
        // Each opaque pixel of the I-beam, its hotspot at the pointer.
        var compared = 0
        for i in opaque {
            let x = px - expected.xhot + i % expected.width
            let y = py - expected.yhot + i / expected.width
            guard x >= 0, y >= 0, x < png.width, y < png.height else { continue }
            let o = (y * png.width + x) * 4
            let argb =
                UInt32(png.rgba[o + 3]) << 24 | UInt32(png.rgba[o]) << 16 | UInt32(png.rgba[o + 1]) << 8
                | UInt32(png.rgba[o + 2])
            #expect(argb == expected.argb[i], "(\(x), \(y)): \(hex(argb)), the theme has \(hex(expected.argb[i]))")
            compared += 1
        }
        #expect(compared >= opaque.count / 2, "the cursor at (\(px), \(py)) is mostly off the picture")
    }

    /// `none` draws nothing; a shape no theme file has is drawn as the built-in arrow.
    @Test func noneDrawsNothingAndAMissingThemeDrawsTheArrow() {
        let tree = SurfaceTree()
        let output = tree.createNode(.output, name: "out", frame: Rect(0, 0, 40, 30))
        var renderer = OutputRenderer(background: 0xff00_0000)
        renderer.cursorTheme = XCursorTheme(name: "no-such-theme", size: 24, searchPath: ["/nonexistent"])
        func render(_ shape: OutputRenderer.Cursor.Shape) -> SurfaceImage {
            renderer.render(
                tree: tree, output: output, images: { _ in nil }, cursor: .init(position: Point(10, 10), shape: shape))
        }
        let none = render(.named(.none))
        #expect(none.pixels.allSatisfy { $0 == 0xff00_0000 })
        let missing = render(.named(.text))
        let arrow = render(.arrow)
        #expect(missing.pixels == arrow.pixels)
        #expect(missing[10, 10] == 0xff00_0000 && missing[11, 12] == 0xffff_ffff)
    }

    /// A damaged file is no cursor: a table or an image running past the end, a bad magic.
    @Test func aDamagedXcursorFileIsRefused() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.textCursor)))
        #expect(XCursorFile.image(in: bytes, nearestSize: 24)?.nominalSize == 24)
        #expect(XCursorFile.image(in: bytes, nearestSize: 30)?.nominalSize == 32)
        #expect(XCursorFile.image(in: Array(bytes.prefix(bytes.count / 2)), nearestSize: 96) == nil)
        #expect(XCursorFile.image(in: Array(bytes.prefix(40)), nearestSize: 24) == nil)
        #expect(XCursorFile.image(in: [0x58, 0x63, 0x75, 0x73] + bytes.dropFirst(4), nearestSize: 24) == nil)
    }
}
