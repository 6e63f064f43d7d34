// The router fuzzer started from a scene snapshot (RouterFuzz.sceneSeed): the world is the
// snapshot's scene, its named handlers answer, and the steps run on it under the
// invariant checker. Seeds that are not quiet scenes are uninteresting inputs, not crashes.

import Foundation
import InputRouter
import InputRouterFuzzing
import InputRouterRecording
import Testing

@Suite struct SceneSnapshotFuzzSeedTests {
    @Test func aSnapshotSeedStartsFromItsScene() {
        var log: [String] = []
        let problems = RouterFuzz.run(RouterSeeds.snapshotSeed(), log: { log.append($0) })
        #expect(problems == [])
        // The press at 80,50 lands on the first window's title bar, from the snapshot.
        #expect(log.contains { $0.contains("handled pointer.button by \"title bar\"") }, "\(log)")
        #expect(log.contains { $0.contains("pointer.button \"window 1\"") }, "\(log)")
    }

    @Test func everyCutAndEditOfASnapshotSeedIsHarmless() {
        let seed = RouterSeeds.snapshotSeed()
        for cut in stride(from: 0, to: seed.count, by: 37) { _ = RouterFuzz.run(Array(seed[..<cut])) }
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var bytes = seed
            let i = Int.random(in: 0..<bytes.count, using: &rng)
            bytes[i] = UInt8.random(in: 0...255, using: &rng)
            _ = RouterFuzz.run(bytes)
        }
    }

    @Test func aSceneThatIsNotQuietIsNotAStart() {
        let router = Router()
        let c = router.addClient(name: "c")
        let seat = router.addSeat(name: "seat0")
        seat.setBound([.keyboard], for: c, true)
        let top = router.tree.createNode(.toplevel, client: c, frame: Rect(0, 0, 50, 50))
        seat.setKeyboardFocus(top)
        var log: [String] = []
        let bytes = RouterFuzz.sceneSeed(router.captureScene(), steps: [0, 0, 1, 1])
        #expect(RouterFuzz.run(bytes, log: { log.append($0) }) == [])
        #expect(log.isEmpty)
    }
}
