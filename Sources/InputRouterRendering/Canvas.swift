// Plain pixel drawing on a premultiplied ARGB8888 buffer: rectangles, outlines and text,
// for what pixman has no primitive for (glyphs) and for the hit map's flat colours.
import InputRouter

/// Colours are written 0xAARRGGBB. `premultiplied` turns a straight-alpha colour into the
/// premultiplied form the images hold.
@inlinable
public func premultiplied(_ argb: UInt32) -> UInt32 {
    let a = argb >> 24
    if a == 255 { return argb }
    func channel(_ shift: UInt32) -> UInt32 { ((argb >> shift & 0xff) * a + 127) / 255 }
    return a << 24 | channel(16) << 16 | channel(8) << 8 | channel(0)
}

/// A rectangle in pixels of an image: x, y, width, height, half-open.
struct PixelRect {
    var x0: Int, y0: Int, x1: Int, y1: Int
    init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
    }
    init(x: Int, y: Int, width: Int, height: Int) { self.init(x0: x, y0: y, x1: x + width, y1: y + height) }
    var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
    var width: Int { x1 - x0 }
    var height: Int { y1 - y0 }
    func intersection(_ o: PixelRect) -> PixelRect {
        PixelRect(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
    }
}

/// Draws into pixels owned by someone else (an image's array, also wrapped by pixman).
struct Canvas {
    let pixels: UnsafeMutableBufferPointer<UInt32>
    let width: Int
    let height: Int
    var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// Source-over of one premultiplied colour onto one pixel.
    @inline(__always)
    func blend(_ x: Int, _ y: Int, _ color: UInt32) {
        let a = color >> 24
        let i = y * width + x
        if a == 255 {
            pixels[i] = color
            return
        }
        if a == 0 { return }
        let d = pixels[i]
        let k = 255 - a
        func mix(_ shift: UInt32) -> UInt32 {
            min(255, (color >> shift & 0xff) + ((d >> shift & 0xff) * k + 127) / 255) << shift
        }
        pixels[i] = mix(24) | mix(16) | mix(8) | mix(0)
    }

    func fill(_ rect: PixelRect, _ color: UInt32, clip: PixelRect? = nil) {
        let r = rect.intersection(clip ?? bounds).intersection(bounds)
        guard !r.isEmpty else { return }
        for y in r.y0..<r.y1 { for x in r.x0..<r.x1 { blend(x, y, color) } }
    }

    /// A one-pixel frame just inside `rect`.
    func outline(_ rect: PixelRect, _ color: UInt32, clip: PixelRect? = nil) {
        guard !rect.isEmpty else { return }
        fill(PixelRect(x0: rect.x0, y0: rect.y0, x1: rect.x1, y1: rect.y0 + 1), color, clip: clip)
        fill(PixelRect(x0: rect.x0, y0: rect.y1 - 1, x1: rect.x1, y1: rect.y1), color, clip: clip)
        fill(PixelRect(x0: rect.x0, y0: rect.y0 + 1, x1: rect.x0 + 1, y1: rect.y1 - 1), color, clip: clip)
        fill(PixelRect(x0: rect.x1 - 1, y0: rect.y0 + 1, x1: rect.x1, y1: rect.y1 - 1), color, clip: clip)
    }

    /// Draws `text` with its top-left corner at (x, y) in the built-in font.
    func text(_ text: String, x: Int, y: Int, _ color: UInt32, scale: Int = 1, clip: PixelRect? = nil) {
        let c = (clip ?? bounds).intersection(bounds)
        var penX = x
        for scalar in text.unicodeScalars {
            let rows = BitmapFont.rows(of: scalar)
            for (row, bits) in rows.enumerated() where bits != 0 {
                for col in 0..<BitmapFont.glyphWidth where bits & (0x10 >> UInt8(col)) != 0 {
                    fill(
                        PixelRect(x: penX + col * scale, y: y + row * scale, width: scale, height: scale), color,
                        clip: c)
                }
            }
            penX += BitmapFont.advance * scale
        }
    }
}
