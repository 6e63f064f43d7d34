// InputRouter's hit-test and wlr_scene_node_at on identical trees and points, in one run:
// the C harness (benchmarks/wlr-bench, built by `make bench`) reads the same description.
import Foundation
import InputRouter

struct HitTestResult {
    var name: String
    var surfaces: Int
    var inputRouter: Double // ns per query
    var wlroots: Double? // nil when the harness is not built
    var agree: Bool? // both hit the same surface at every point
}

/// Sum over points i of (hit index + 1) * (i + 1): the harness prints the same.
func checksum(_ tree: SurfaceTree, _ indexOfSlot: [Int], _ points: [Point]) -> (hits: Int, sum: UInt64) {
    var hits = 0
    var sum: UInt64 = 0
    for (i, p) in points.enumerated() {
        var index = -1
        if let hit = tree.hitTest(p) {
            hits += 1
            index = indexOfSlot[Int(hit.node.index)]
        }
        sum &+= UInt64(index + 1) &* UInt64(i + 1)
    }
    return (hits, sum)
}

/// Runs the wlroots harness on `scene`: (ns per query, hits, checksum), nil if absent.
func runWlroots(_ scene: SceneDescription, harness: String) -> (Double, Int, UInt64)? {
    guard FileManager.default.isExecutableFile(atPath: harness) else { return nil }
    let file = NSTemporaryDirectory() + "core-bench-scene-\(getpid()).txt"
    defer { try? FileManager.default.removeItem(atPath: file) }
    guard (try? scene.text.write(toFile: file, atomically: false, encoding: .utf8)) != nil else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: harness)
    process.arguments = [file]
    let pipe = Pipe()
    process.standardOutput = pipe
    guard (try? process.run()) != nil else { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
    guard process.terminationStatus == 0, fields.count == 3, let t = Double(fields[0]), let h = Int(fields[1]),
        let c = UInt64(fields[2])
    else { return nil }
    return (t, h, c)
}

func compare(_ scene: SceneDescription, harness: String) -> HitTestResult {
    let (tree, indexOfSlot, _) = scene.build()
    let points = scene.points
    let mine = checksum(tree, indexOfSlot, points)
    var sink = 0
    let t = measure(count: points.count) { i in if tree.hitTest(points[i]) != nil { sink &+= 1 } }
    if sink == -1 { print("") }
    var result = HitTestResult(name: scene.name, surfaces: scene.surfaces, inputRouter: t)
    if let (wt, hits, sum) = runWlroots(scene, harness: harness) {
        result.wlroots = wt
        result.agree = hits == mine.hits && sum == mine.sum
    }
    return result
}
