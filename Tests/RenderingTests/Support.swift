import CZlib
import InputRouter
import InputRouterWayland
import Testing

@testable import InputRouterRendering

/// A solid image of `width` x `height` premultiplied pixels.
func solid(_ width: Int, _ height: Int, _ color: UInt32) -> SurfaceImage {
    SurfaceImage(width: width, height: height, pixels: [UInt32](repeating: color, count: width * height))
}

extension SurfaceImage {
    subscript(x: Int, y: Int) -> UInt32 { pixels[y * width + x] }
}

func hex(_ v: UInt32) -> String { "0x" + String(v, radix: 16) }

/// A PNG decoded by the test itself: chunks checked with zlib's CRC-32, IDAT inflated with
/// zlib, filters undone. Only what PNGWriter writes (8-bit RGBA, no interlace) is accepted.
struct DecodedPNG {
    var width = 0, height = 0
    /// Straight RGBA bytes, row by row.
    var rgba: [UInt8] = []
    var chunkTypes: [String] = []

    init(_ bytes: [UInt8]) throws {
        struct Bad: Error, CustomStringConvertible { let description: String }
        guard bytes.starts(with: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) else {
            throw Bad(description: "signature")
        }
        func be(_ i: Int) -> Int {
            Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
        }
        var i = 8
        var idat: [UInt8] = []
        var bitDepth = 0
        var colorType = 0
        var interlace = 0
        while i < bytes.count {
            let length = be(i)
            let typed = Array(bytes[(i + 4)..<(i + 8 + length)])
            let type = String(decoding: typed[0..<4], as: UTF8.self)
            let crc = typed.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
            guard crc == UInt32(be(i + 8 + length)) else { throw Bad(description: "CRC of \(type)") }
            chunkTypes.append(type)
            let data = Array(typed[4...])
            if type == "IHDR" {
                width = Int(data[0]) << 24 | Int(data[1]) << 16 | Int(data[2]) << 8 | Int(data[3])
                height = Int(data[4]) << 24 | Int(data[5]) << 16 | Int(data[6]) << 8 | Int(data[7])
                bitDepth = Int(data[8])
                colorType = Int(data[9])
                interlace = Int(data[12])
            }
            if type == "IDAT" { idat += data }
            i += 12 + length
        }
        guard bitDepth == 8, colorType == 6, interlace == 0 else {
            throw Bad(description: "format \(bitDepth)/\(colorType)")
        }
        let rowBytes = 1 + width * 4
        var raw = [UInt8](repeating: 0, count: rowBytes * height)
        var length = uLong(raw.count)
        let status = raw.withUnsafeMutableBufferPointer { out in
            idat.withUnsafeBufferPointer { uncompress(out.baseAddress, &length, $0.baseAddress, uLong($0.count)) }
        }
        guard status == Z_OK, Int(length) == raw.count else { throw Bad(description: "inflate \(status)") }
        rgba = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            let filter = raw[y * rowBytes]
            for x in 0..<(width * 4) {
                let v = raw[y * rowBytes + 1 + x]
                let left = x >= 4 ? rgba[y * width * 4 + x - 4] : 0
                let up = y > 0 ? rgba[(y - 1) * width * 4 + x] : 0
                let upLeft = (x >= 4 && y > 0) ? rgba[(y - 1) * width * 4 + x - 4] : 0
                let predicted: UInt8
                switch filter {
                case 0: predicted = 0
                case 1: predicted = left
                case 2: predicted = up
                case 3: predicted = UInt8((Int(left) + Int(up)) / 2)
                case 4:
                    let p = Int(left) + Int(up) - Int(upLeft)
                    let pa = abs(p - Int(left))
                    let pb = abs(p - Int(up))
                    let pc = abs(p - Int(upLeft))
                    predicted = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft
                default: throw Bad(description: "filter \(filter)")
                }
                rgba[y * width * 4 + x] = v &+ predicted
            }
        }
    }

    /// Straight-alpha 0xAARRGGBB at (x, y).
    func pixel(_ x: Int, _ y: Int) -> UInt32 {
        let i = (y * width + x) * 4
        return UInt32(rgba[i + 3]) << 24 | UInt32(rgba[i]) << 16 | UInt32(rgba[i + 1]) << 8 | UInt32(rgba[i + 2])
    }
}
