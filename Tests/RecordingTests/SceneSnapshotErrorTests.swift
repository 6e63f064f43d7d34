import Foundation
import InputRouter
import InputRouterRecording
import Testing

/// Broken snapshots: each is an error naming its line (docs/bug-reports.md), never a crash.
@Suite struct SceneSnapshotErrorTests {
    /// Output, a client's toplevel with a subsurface, the keyboard on the toplevel:
    /// line 1 header, 2 client, 3 output, 4 toplevel, 5 subsurface, 6 seat, 7 end.
    static func sample() -> String {
        let router = Router()
        let client = router.addClient(name: "term")
        let seat = router.addSeat()
        seat.setBound([.pointer, .keyboard], for: client, true)
        let out = router.tree.createNode(.output, name: "out", frame: Rect(0, 0, 800, 600))
        let top = router.tree.createNode(
            .toplevel, name: "term", client: client, parent: out, frame: Rect(10, 10, 300, 200))
        router.tree.createNode(.subsurface, client: client, parent: top, frame: Rect(0, 0, 50, 50))
        seat.setKeyboardFocus(top)
        return SceneSnapshot.write(router.captureScene())
    }

    static func lines() -> [String] { sample().split(separator: "\n").map(String.init) }

    func error(_ text: String) -> String {
        do {
            let read = try SceneSnapshot.read(text, file: "scene.jsonl")
            _ = try SceneSnapshot.rebuild(read)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func theSampleHasTheDocumentedLines() {
        let l = Self.lines()
        #expect(l.count == 7)
        #expect(l[0].contains("\"format\":\"inputrouter-scene\"") && l[0].contains("\"version\":1"))
        #expect(l[3].contains("\"kind\":\"toplevel\"") && l[3].contains("\"name\":\"term\""))
        #expect(error(Self.sample()) == "no error")
    }

    @Test func anUnknownVersionNamesLineOne() {
        var l = Self.lines()
        l[0] = l[0].replacingOccurrences(of: "\"version\":1", with: "\"version\":2")
        #expect(
            error(l.joined(separator: "\n"))
                == "scene.jsonl:1:1: unknown snapshot version 2 (this reader knows version 1)")
    }

    @Test func aNodeWithAMissingParentNamesItsLine() {
        var l = Self.lines()
        let slot = l[4].components(separatedBy: "\"node\":")[1].prefix { $0.isNumber }
        l[4] = l[4].replacingOccurrences(of: "\"parent\":", with: "\"parent\":99") // "parent":99N
        let parent = l[4].components(separatedBy: "\"parent\":")[1].prefix { $0.isNumber }
        #expect(
            error(l.joined(separator: "\n"))
                == "scene.jsonl:5:1: node \(slot): parent \(parent) is not a node listed before it")
    }

    @Test func aLineCutShortNamesThatLine() {
        var l = Self.lines()
        l[3] = String(l[3].prefix(40))
        #expect(error(l.joined(separator: "\n")) == "scene.jsonl:4:1: not a JSON object (truncated or edited?)")
    }

    @Test func aFileCutAtALineEndSaysSo() {
        let l = Self.lines()
        #expect(
            error(l[0..<5].joined(separator: "\n") + "\n")
                == "scene.jsonl:5:1: the snapshot stops before its end line (cut short?)")
    }

    @Test func anEditedValueOfTheWrongTypeNamesItsKey() {
        var l = Self.lines()
        l[3] = l[3].replacingOccurrences(of: "\"mapped\":true", with: "\"mapped\":\"yes\"")
        #expect(error(l.joined(separator: "\n")) == "scene.jsonl:4:1: 'mapped' is not Bool")
    }

    @Test func aSeatNamingAMissingNodeNamesTheSeatLine() {
        var l = Self.lines()
        let focus = l[5].components(separatedBy: "\"keyboardFocus\":")[1].prefix { $0.isNumber }
        l[5] = l[5].replacingOccurrences(of: "\"keyboardFocus\":\(focus)", with: "\"keyboardFocus\":77")
        #expect(error(l.joined(separator: "\n")) == "scene.jsonl:6:1: seat seat0: keyboard focus 77 is not a node")
    }

    /// Every truncation and thousands of random byte edits: an error or a scene, no crash.
    @Test func truncationsAndRandomEditsNeverCrash() {
        let text = Array(Self.sample().utf8)
        var errors = 0
        for cut in 0..<text.count {
            if error(String(decoding: text[..<cut], as: UTF8.self)) != "no error" { errors += 1 }
        }
        #expect(errors >= text.count - 1) // only the cut of the final newline still reads
        var rng = SplitMix64(seed: 44)
        for _ in 0..<3000 {
            var bytes = text
            for _ in 0..<Int(rng.next() % 4 + 1) {
                let i = Int(rng.next() % UInt64(bytes.count))
                bytes[i] = Array("0123456789{}[],:\"-ax \n".utf8)[Int(rng.next() % 22)]
            }
            _ = error(String(decoding: bytes, as: UTF8.self))
        }
    }
}
