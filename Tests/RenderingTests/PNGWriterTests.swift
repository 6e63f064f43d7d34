import Foundation
import InputRouter
import InputRouterWayland
import Testing

@testable import InputRouterRendering

@Suite struct PNGWriterTests {
    @Test func roundTripThroughZlibInflate() throws {
        // Opaque colours, transparent, and premultiplied half-transparent pixels.
        let w = 7
        let h = 5
        var pixels: [UInt32] = []
        for y in 0..<h {
            for x in 0..<w {
                let a = UInt32([255, 0, 128, 255, 64, 255, 200][x])
                let straight = a << 24 | UInt32(x * 36) << 16 | UInt32(y * 60) << 8 | UInt32((x + y) * 20)
                pixels.append(premultiplied(straight))
            }
        }
        let image = SurfaceImage(width: w, height: h, pixels: pixels)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("png-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("a.png").path
        try PNGWriter.write(image, to: path)
        let png = try DecodedPNG([UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(png.chunkTypes == ["IHDR", "IDAT", "IEND"])
        #expect(png.width == w && png.height == h)
        for y in 0..<h {
            for x in 0..<w {
                let p = pixels[y * w + x]
                let a = p >> 24
                let got = png.pixel(x, y)
                #expect(got >> 24 == a)
                if a == 0 {
                    #expect(got == 0)
                    continue
                }
                // Un-premultiplied, then premultiplied again, it gives back the stored pixel.
                #expect(premultiplied(got) == p, "(\(x),\(y)) \(hex(got)) from \(hex(p))")
                if a == 255 { #expect(got == p) }
            }
        }
    }

    @Test func hitMapRoundTrip() throws {
        let map = HitMap(router: ExampleScene.router(), output: ExampleScene.output)
        let png = try DecodedPNG(PNGWriter.encode(map.image))
        #expect(png.width == map.image.width && png.height == map.image.height)
        #expect(
            (0..<png.height).allSatisfy { y in (0..<png.width).allSatisfy { x in png.pixel(x, y) == map.image[x, y] } })
    }

    @Test func failureNamesThePath() {
        let path = "/nonexistent-dir-\(getpid())/x.png"
        do {
            try PNGWriter.write(solid(2, 2, 0xff00_0000), to: path)
            Issue.record("wrote to \(path)")
        } catch let e as PNGError {
            #expect(e.path == path)
            #expect(e.description.hasPrefix(path + ": "))
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(throws: PNGError.self) { try PNGWriter.encode(SurfaceImage(width: 0, height: 3, pixels: [])) }
    }
}
