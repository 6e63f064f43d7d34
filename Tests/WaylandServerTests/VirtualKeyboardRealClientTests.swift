// wtype 0.4 (Debian's) typing through zwp_virtual_keyboard_v1 into real clients: foot and a
// GTK 3 entry. The seat's keyboard is German (QWERTZ: the key where US has Y types z), so a
// physical key read with any other keymap (wtype's, or US) shows. What the clients show is
// read back: the line foot's shell read, the text GTK's entry holds.
import Foundation
import InputRouter
import InputRouterKeyboard
import Testing

@testable import InputRouterWayland

/// The seat's keyboard in these tests: German, without compose.
let germanKeyboard = KeyboardConfiguration(keymap: .names(RuleNames(layout: "de")), compose: false)

/// wtype reads its text argument in the locale's encoding (mbstowcs): UTF-8, whatever the
/// test process runs in.
let utf8Locale = ["LC_ALL": "C.UTF-8"]

/// Evdev codes the tests press on the German keyboard (linux/input-event-codes.h).
private enum GermanKey {
    /// KEY_Y: z on QWERTZ.
    static let z: UInt32 = 21
    static let x: UInt32 = 45
    static let enter: UInt32 = 28
}

/// A foot window whose shell reads `lines` lines and writes them to a file, and the
/// harness waiting for it.
struct FootReader {
    let foot: ClientProcess
    let outFile: String

    init(_ h: ServerHarness, lines: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        outFile = runtimeDirectory + "/foot-vk-\(getpid())-\(h.socket).txt"
        let readyFile = outFile + ".ready"
        unlink(outFile)
        unlink(readyFile)
        // The lines are written aside and renamed, so the file appears whole.
        let reads = (1...lines).map { "read l\($0)" }.joined(separator: "; ")
        let prints = (1...lines).map { "\"$l\($0)\"" }.joined(separator: " ")
        let script =
            "touch \(readyFile); \(reads); printf '%s\\n' \(prints) > \(outFile).tmp; mv \(outFile).tmp \(outFile)"
        foot = try h.spawn("/usr/bin/foot", ["--", "/bin/sh", "-c", script], environment: ["WAYLAND_DEBUG": "1"])
        _ = try #require(h.mappedToplevel(timeout: 30), "foot never mapped:\n\(log)", sourceLocation: sourceLocation)
        // Ready for keys once foot enabled its text input on our enter (its keyboard enter
        // and keymap came before) and its shell runs (FootTests).
        try #require(
            h.dispatch(until: "foot to enable its text input and its shell to run", timeout: 20) {
                let focus = h.server.seat.keyboardFirstResponder.flatMap { h.server.surface(for: $0) }
                return focus != nil && FileManager.default.fileExists(atPath: readyFile)
                    && h.server.textInput.inputs.contains { $0.focus === focus && $0.current.enabled }
            }, "\(log)", sourceLocation: sourceLocation)
    }

    /// foot's protocol log, for a failure.
    var log: String {
        foot.poll()
        return foot.lines.suffix(200).joined(separator: "\n")
    }

    /// What the shell read, once it wrote it.
    func typed(_ h: ServerHarness, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try #require(
            h.dispatch(until: "foot's shell to write \(outFile)", timeout: 20) {
                FileManager.default.fileExists(atPath: outFile)
            }, "\(log)", sourceLocation: sourceLocation)
        return try String(contentsOfFile: outFile, encoding: .utf8)
    }
}

extension ServerHarness {
    /// Counts the key releases sent to clients from now on.
    func countReleases() -> () -> Int {
        var count = 0
        server.deliveryObserver = { d, _ in if case .key(_, _, _, _, .released, _) = d { count += 1 } }
        return { count }
    }
}

@Suite(.serialized) struct VirtualKeyboardRealClientTests {
    @Test func wtypeTypesIntoFootAndTheNextPhysicalKeyIsGerman() throws {
        let h = try ServerHarness(keyboard: germanKeyboard)
        let reader = try FootReader(h, lines: 2)
        let releases = h.countReleases()
        // wtype stays (asleep) while the physical keys come: its keyboard is still there.
        let wtype = try h.spawn(
            "/usr/bin/wtype", ["héllo wörld ✓", "-k", "Return", "-s", "30000"], environment: utf8Locale)
        // Thirteen characters and Return, each pressed and released.
        h.dispatch(until: "wtype's 14 keys to be released to foot", timeout: 20) { releases() == 14 }
        h.tap(GermanKey.z)
        h.tap(GermanKey.enter)
        #expect(try reader.typed(h) == "héllo wörld ✓\nz\n", "wtype: \(wtype.lines)\n\(reader.log)")
    }

    @Test func wtypeKilledWhileHoldingShiftAndAKeyLeavesNothingHeldInFoot() throws {
        let h = try ServerHarness(keyboard: germanKeyboard)
        let reader = try FootReader(h, lines: 1)
        // Shift and a held, then asleep: killed there, it never lets them go itself.
        let wtype = try h.spawn("/usr/bin/wtype", ["-M", "shift", "-P", "a", "-s", "30000"], environment: utf8Locale)
        try #require(
            h.dispatch(until: "wtype's key to reach foot", timeout: 20) { h.server.seat.activeKeyboard != nil })
        // Held for a second: foot repeats it, as it would a stuck key.
        let held = Date().addingTimeInterval(1)
        h.dispatch(until: "a second of the key held") { Date() >= held }
        kill(wtype.process.processIdentifier, SIGKILL)
        try #require(h.dispatch(until: "the server to see wtype go") { h.server.services(0).virtualKeyboards.isEmpty })
        h.tap(GermanKey.x)
        // Were the a still held, foot would go on repeating it after the x.
        let until = Date().addingTimeInterval(1)
        h.dispatch(until: "a second after the x") { Date() >= until }
        h.tap(GermanKey.enter)
        let line = try reader.typed(h)
        // Its a (shifted or not: wtype's keymap gives the key one level), repeated while held,
        // then the physical x, unshifted, and nothing after it.
        #expect(
            line.hasSuffix("x\n") && line.dropLast(2).allSatisfy { $0 == "a" || $0 == "A" } && line.count >= 3,
            "typed \(line.debugDescription)\n\(reader.log)")
    }

    @Test func wtypeTypesIntoAGtkEntryAndTheNextPhysicalKeyIsGerman() throws {
        let h = try ServerHarness(keyboard: germanKeyboard)
        let script = try writeGtkScript("gtk-entry-vk", gtkEntryScript)
        let client = try h.spawn(
            "/usr/bin/python3", [script],
            environment: [
                "GDK_BACKEND": "wayland", "GTK_IM_MODULE": "wayland", "NO_AT_BRIDGE": "1",
                "GSETTINGS_BACKEND": "memory",
            ])
        h.wait(for: client, timeout: 30, awaiting: "'ready'") { $0 == "ready" }
        h.dispatch(until: "the GTK entry to enable its text input") { h.server.textInput.active != nil }
        // wtype types and exits: its keyboard goes, and the seat's keymap comes back with it.
        let wtype = try h.spawn("/usr/bin/wtype", ["héllo wörld ✓"], environment: utf8Locale)
        h.wait(for: client, timeout: 20, awaiting: "the whole text in the entry") { $0 == "text héllo wörld ✓" }
        h.dispatch(until: "wtype to exit", timeout: 20) {
            !wtype.process.isRunning && h.server.services(0).virtualKeyboards.isEmpty
        }
        h.tap(GermanKey.z)
        h.wait(for: client, line: "text héllo wörld ✓z")
        #expect(client.lines.filter { $0.hasPrefix("text ") }.last == "text héllo wörld ✓z", "\(client.lines)")
    }
}
