// PNG files of rendered images: 8-bit RGBA (colour type 6), straight alpha, rows filtered
// with PNG's "Up" filter and deflated by zlib. zlib also supplies the chunks' CRC-32.
import CZlib
import Foundation
import InputRouterWayland

/// Writing a PNG failed; `path` is the file (empty when encoding in memory).
public struct PNGError: Error, CustomStringConvertible {
    /// The file it was writing, empty when encoding in memory.
    public let path: String
    /// What failed (zlib, the file system, an empty image).
    public let reason: String
    /// `path: reason`, for a person.
    public var description: String { path.isEmpty ? "PNG: \(reason)" : "\(path): \(reason)" }
}

/// PNG files of `SurfaceImage`s: 8-bit RGBA, straight alpha, zlib (a screenshot, a hit map).
public enum PNGWriter {
    /// The PNG bytes of `image` (premultiplied ARGB8888, un-premultiplied here).
    public static func encode(_ image: SurfaceImage) throws -> [UInt8] {
        let w = image.width
        let h = image.height
        guard w > 0, h > 0, w < 1 << 24, h < 1 << 24, image.pixels.count == w * h else {
            throw PNGError(path: "", reason: "cannot encode a \(w)x\(h) image of \(image.pixels.count) pixels")
        }
        // Scanlines: a filter byte, then RGBA. Filter 2 (Up) stores each byte minus the one
        // above it: flat areas and vertical edges become runs of zeros.
        let rowBytes = 1 + w * 4
        var raw = [UInt8](repeating: 0, count: rowBytes * h)
        var previous = [UInt8](repeating: 0, count: w * 4)
        var current = [UInt8](repeating: 0, count: w * 4)
        for y in 0..<h {
            for x in 0..<w {
                let (r, g, b, a) = straight(image.pixels[y * w + x])
                current[x * 4] = r
                current[x * 4 + 1] = g
                current[x * 4 + 2] = b
                current[x * 4 + 3] = a
            }
            raw[y * rowBytes] = 2
            for i in 0..<(w * 4) { raw[y * rowBytes + 1 + i] = current[i] &- previous[i] }
            swap(&previous, &current)
        }
        var compressed = [UInt8](repeating: 0, count: Int(compressBound(uLong(raw.count))))
        var length = uLong(compressed.count)
        let status = compressed.withUnsafeMutableBufferPointer { out in
            raw.withUnsafeBufferPointer { compress2(out.baseAddress, &length, $0.baseAddress, uLong(raw.count), 9) }
        }
        guard status == Z_OK else { throw PNGError(path: "", reason: "zlib compress2 failed (\(status))") }
        compressed.removeSubrange(Int(length)...)

        var png: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(w))
        header.appendBigEndian(UInt32(h))
        header += [8, 6, 0, 0, 0] // 8 bits, RGBA, deflate, adaptive filtering, no interlace
        png.appendChunk("IHDR", header)
        png.appendChunk("IDAT", compressed)
        png.appendChunk("IEND", [])
        return png
    }

    /// Writes `image` to `path` as a PNG file, replacing it.
    public static func write(_ image: SurfaceImage, to path: String) throws {
        let bytes: [UInt8]
        do { bytes = try encode(image) } catch let e as PNGError { throw PNGError(path: path, reason: e.reason) }
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        } catch {
            throw PNGError(path: path, reason: "cannot write: \((error as NSError).localizedDescription)")
        }
    }

    /// Straight-alpha RGBA of a premultiplied ARGB pixel.
    static func straight(_ p: UInt32) -> (UInt8, UInt8, UInt8, UInt8) {
        let a = p >> 24
        if a == 0 { return (0, 0, 0, 0) }
        func ch(_ shift: UInt32) -> UInt8 {
            let c = p >> shift & 0xff
            return a == 255 ? UInt8(c) : UInt8(min(255, (c * 255 + a / 2) / a))
        }
        return (ch(16), ch(8), ch(0), UInt8(a))
    }
}

extension [UInt8] {
    fileprivate mutating func appendBigEndian(_ v: UInt32) {
        append(UInt8(v >> 24))
        append(UInt8(v >> 16 & 0xff))
        append(UInt8(v >> 8 & 0xff))
        append(UInt8(v & 0xff))
    }

    /// Length, type, data, CRC-32 of type and data.
    fileprivate mutating func appendChunk(_ type: String, _ data: [UInt8]) {
        appendBigEndian(UInt32(data.count))
        let typed = Array(type.utf8) + data
        append(contentsOf: typed)
        let crc = typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        appendBigEndian(UInt32(crc))
    }
}
