// Xcursor files, the format of the system's cursor themes (/usr/share/icons/*/cursors/*),
// as Xcursor(3) describes it. All numbers are little-endian 32-bit words:
//
//   file header   magic "Xcur", header size (16), version, ntoc
//   ntoc entries  type, subtype, position (a chunk's offset in the file)
//   image chunk   header size (36), type 0xfffd0002, subtype = nominal size, version,
//                 width, height, xhot, yhot, delay, then width × height ARGB pixels,
//                 premultiplied, row by row
//
// A file holds the same cursor at several nominal sizes (Adwaita: 24, 32, 48, 64, 96), and
// an animated cursor several images of one size; the first image of the size nearest the
// one wanted is taken, as libXcursor does. Comment chunks (type 0xfffe0001) are skipped.

/// One image of a cursor theme: its pixels and where the pointer's hotspot is in them.
public struct XCursorImage: Sendable {
    /// Premultiplied ARGB pixels, as the file stores them.
    public var image: SurfaceImage
    /// The hotspot, in pixels from the image's top-left corner.
    public var hotspotX: Int32
    public var hotspotY: Int32
    /// The size the theme files the image under (its nominal size, not always its width).
    public var nominalSize: Int
}

/// The reading of one Xcursor file.
enum XCursorFile {
    static let magic: UInt32 = 0x7275_6358 // "Xcur" read as a little-endian word
    static let imageType: UInt32 = 0xfffd_0002
    /// Xcursor's limit on an image's width and height.
    static let maxDimension: UInt32 = 0x7fff

    /// The first image of the nominal size nearest `size` in an Xcursor file's `bytes`; nil
    /// when they are not one or it is damaged (a table or image running past the end).
    static func image(in bytes: [UInt8], nearestSize size: Int) -> XCursorImage? {
        func word(_ offset: Int) -> UInt32? {
            guard offset >= 0, offset + 4 <= bytes.count else { return nil }
            return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
                | UInt32(bytes[offset + 3]) << 24
        }
        guard word(0) == magic, let headerSize = word(4), let count = word(12), count < 0x10000 else { return nil }
        // The table of contents: the image chunks and their nominal sizes, in file order.
        var images: [(size: Int, position: Int)] = []
        for i in 0..<Int(count) {
            let entry = Int(headerSize) + i * 12
            guard let type = word(entry), let subtype = word(entry + 4), let position = word(entry + 8) else {
                return nil
            }
            if type == imageType { images.append((Int(subtype), Int(position))) }
        }
        guard let best = images.min(by: { abs($0.size - size) < abs($1.size - size) }) else { return nil }
        return chunk(at: best.position, in: bytes, word: word)
    }

    /// The image chunk at `position`.
    private static func chunk(at position: Int, in bytes: [UInt8], word: (Int) -> UInt32?) -> XCursorImage? {
        guard let headerSize = word(position), word(position + 4) == imageType, let nominal = word(position + 8),
            let width = word(position + 16), let height = word(position + 20),
            let xhot = word(position + 24), let yhot = word(position + 28),
            width > 0, height > 0, width <= maxDimension, height <= maxDimension, xhot <= width, yhot <= height
        else { return nil }
        let w = Int(width)
        let h = Int(height)
        let start = position + Int(headerSize)
        guard start >= 0, start + w * h * 4 <= bytes.count else { return nil }
        var pixels = [UInt32](repeating: 0, count: w * h)
        for i in 0..<(w * h) { pixels[i] = word(start + i * 4)! }
        return XCursorImage(
            image: SurfaceImage(width: w, height: h, pixels: pixels),
            hotspotX: Int32(xhot), hotspotY: Int32(yhot), nominalSize: Int(nominal))
    }
}
