// fcitx5 5.0.21 (Debian 12) with pinyin (fcitx5-chinese-addons) as the seat's input method
// program (InputMethod.swift), under dbus-run-session, typing into a real GTK 3 entry
// through zwp_text_input_v3: the keys go to fcitx5's keyboard grab, its preedit shows in
// the entry, its committed Chinese text arrives; after the focus goes away and comes back
// it still composes; killed mid-preedit, it leaves the entry clean and usable with plain
// keys (the compositor's compose serves again).
import Foundation
import InputRouter
import TestSupport
import Testing

@testable import InputRouterWayland

/// The GTK 3 entry of TextInputRealClientTests, also printing its preedit.
private let gtkPreeditEntryScript = gtkEntryScript.replacingOccurrences(
    of: "entry.connect(\"changed\"",
    with:
        "entry.connect(\"preedit-changed\", lambda e, p: print(\"preedit \" + p, flush=True))\nentry.connect(\"changed\""
)

/// evdev codes of the letters typed.
private let letterCodes: [Character: UInt32] = [
    "n": 49, "i": 23, "h": 35, "a": 30, "o": 24, " ": 57, "\n": 28,
]

@Suite(.serialized) struct FcitxRealClientTests {
    /// A configuration with pinyin as the active input method from the start.
    func fcitxHome() throws -> String {
        let home = runtimeDirectory + "/fcitx-home-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let dir = home + "/.config/fcitx5"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try """
        [Groups/0]
        Name=Default
        Default Layout=us
        DefaultIM=pinyin

        [Groups/0/Items/0]
        Name=keyboard-us
        Layout=

        [Groups/0/Items/1]
        Name=pinyin
        Layout=

        [GroupOrder]
        0=Default

        """.write(toFile: dir + "/profile", atomically: true, encoding: .utf8)
        // Active in every text field from the start, one state shared by all of them.
        try "[Behavior]\nActiveByDefault=True\nShareInputState=All\n".write(
            toFile: dir + "/config", atomically: true, encoding: .utf8)
        return home
    }

    func type(_ h: ServerHarness, _ text: String) {
        for c in text {
            h.key(letterCodes[c]!, .pressed)
            h.key(letterCodes[c]!, .released)
        }
    }

    @Test func pinyinTypedThroughFcitx5ArrivesInAGtkEntryAndSurvivesFocusChangesAndItsDeath() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/fcitx5"), "fcitx5 is not installed (make deps)")
        try #require(
            FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/fcitx5/libpinyin.so"),
            "fcitx5-chinese-addons is not installed (make deps)")
        let h = try ServerHarness()
        let home = try fcitxHome()
        let fcitx = try h.spawn(
            "/usr/bin/dbus-run-session", ["--", "/usr/bin/fcitx5", "--disable=xcb,xim"],
            environment: ["HOME": home, "XDG_CONFIG_HOME": home + "/.config"])
        try #require(
            h.dispatch(until: "fcitx5 to become the seat's input method", timeout: 30) {
                h.server.services(0).textInput.program != nil
            }, "fcitx5 said:\n\(fcitx.lines.joined(separator: "\n"))")

        let script = runtimeDirectory + "/gtk-preedit-entry-\(getpid()).py"
        try gtkPreeditEntryScript.write(toFile: script, atomically: true, encoding: .utf8)
        let entry = try h.spawn(
            "/usr/bin/python3", [script],
            environment: [
                "GDK_BACKEND": "wayland", "GTK_IM_MODULE": "wayland", "NO_AT_BRIDGE": "1",
                "GSETTINGS_BACKEND": "memory",
            ])
        h.wait(for: entry, timeout: 30, awaiting: "'ready'") { $0 == "ready" }
        try #require(
            h.dispatch(until: "fcitx5 to grab the keyboard for the entry", timeout: 20) {
                h.server.textInput.active != nil && h.server.seat.inputMethodKeyboard != nil
            }, "fcitx5 said:\n\(fcitx.lines.joined(separator: "\n"))")

        // nihao, a preedit while typing; space takes the first candidate: 你好.
        type(h, "nihao")
        h.wait(for: entry, awaiting: "a preedit") { $0.hasPrefix("preedit ") && $0 != "preedit " }
        // fcitx5's candidate list: its input popup, mapped on the entry's window just below
        // the text cursor rectangle GTK reported.
        let tree = h.server.router.tree
        var popupNode: NodeID?
        h.dispatch(until: "fcitx5's candidate popup to map", timeout: 20) {
            popupNode = h.server.services(0).textInput.program?.popups.compactMap(\.surface.node).first {
                tree.isMapped($0)
            }
            return popupNode != nil
        }
        let input = try #require(h.server.textInput.activeInput)
        let cursor = try #require(input.current.cursorRectangle)
        let popup = try #require(popupNode)
        #expect(tree.parent(of: popup) == input.focus?.node)
        let at = try #require(tree.frame(of: popup))
        #expect(at.x == cursor.x && at.y == cursor.y + cursor.height, "popup at \(at), cursor \(cursor)")
        type(h, " ")
        h.wait(for: entry, line: "text 你好")

        // The keyboard goes to another window and comes back: fcitx5 is activated again.
        // It releases its keyboard grab when deactivated and grabs again when activated;
        // keys sent to the old grab before it reads the activation are lost (a loaded CI run
        // typed "ni " there), so the test waits for the new grab.
        let grabBefore = h.server.services(0).textInput.program?.keyboardGrab
        let other = try h.mappedProbe(["--toplevel", "other", "100x100"])
        _ = other
        let entryWindow = try #require(h.server.mappedToplevels.first { $0.title == "entry" }?.node)
        h.server.activate(entryWindow)
        try #require(
            h.dispatch(until: "fcitx5 to grab the keyboard again", timeout: 20) {
                let grab = h.server.services(0).textInput.program?.keyboardGrab
                return h.server.textInput.active != nil && grab != nil && grab !== grabBefore
            })
        type(h, "ni ")
        h.wait(for: entry, line: "text 你好你")

        // Killed mid-preedit: the entry's preedit is cleared and plain keys type again.
        type(h, "ni")
        h.wait(for: entry, awaiting: "a preedit") { $0.hasPrefix("preedit ") && $0 != "preedit " }
        let sinceKill = entry.lines.count
        _ = try ChildProcess.run("/usr/bin/pkill", ["-9", "-x", "fcitx5"])
        try #require(
            h.dispatch(until: "the server to see fcitx5 gone", timeout: 20) {
                h.server.services(0).textInput.program == nil
            })
        // Its preedit is cleared (the line may have come while the server saw fcitx5 go).
        h.dispatch(until: "the entry's preedit to be cleared") { entry.lines[sinceKill...].contains("preedit ") }
        type(h, "a")
        h.wait(for: entry, line: "text 你好你a")
    }

    /// The same in foot, whose shell reads the line: the committed 你好, then Return, which
    /// fcitx5 does not compose and types back through its virtual keyboard.
    @Test func pinyinTypedThroughFcitx5ArrivesInFoot() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/fcitx5"), "fcitx5 is not installed (make deps)")
        let h = try ServerHarness()
        let home = try fcitxHome()
        let fcitx = try h.spawn(
            "/usr/bin/dbus-run-session", ["--", "/usr/bin/fcitx5", "--disable=xcb,xim"],
            environment: ["HOME": home, "XDG_CONFIG_HOME": home + "/.config"])
        try #require(
            h.dispatch(until: "fcitx5 to become the seat's input method", timeout: 30) {
                h.server.services(0).textInput.program != nil
            }, "fcitx5 said:\n\(fcitx.lines.joined(separator: "\n"))")
        let foot = try FootReader(h, lines: 1)
        try #require(
            h.dispatch(until: "fcitx5 to grab the keyboard for foot", timeout: 20) {
                h.server.seat.inputMethodKeyboard != nil
            }, "fcitx5 said:\n\(fcitx.lines.joined(separator: "\n"))")
        // Return only once the commit went to foot: fcitx5 answers keys on its own time.
        type(h, "nihao")
        // foot answers each preedit it draws with a commit, and drops the changes of a
        // `done` whose serial is behind its count of commits (docs/wayland.md): the space
        // that commits waits for foot's answer to the whole preedit.
        let input = try #require(h.server.textInput.activeInput)
        var lastPreeditDone: UInt32?
        h.dispatch(until: "foot to answer fcitx5's preedit of nihao") {
            if lastPreeditDone == nil, h.server.textInput.programPreedit.filter({ $0 != " " }) == "nihao" {
                lastPreeditDone = input.doneSerial
            }
            return lastPreeditDone.map { input.commits > $0 } ?? false
        }
        // The preedit may go and come back while fcitx5 works on a key: wait for the commit
        // itself (a loaded run typed Return before it, and foot's line was empty).
        let commitsBefore = h.server.textInput.programCommitStrings
        type(h, " ")
        h.dispatch(until: "fcitx5's commit to foot") {
            h.server.textInput.programCommitStrings > commitsBefore && !h.server.textInput.programPreeditShown
        }
        type(h, "\n")
        let typed = try foot.typed(h)
        #expect(typed == "你好\n", "foot's protocol log:\n\(foot.log)")
    }

    /// The embedder's policy may refuse input methods (`mayCreateVirtualDevice`): fcitx5 is
    /// told `unavailable`, serves nothing, and the entry gets plain keys.
    @Test func aDeniedInputMethodServesNothingAndKeysStayPlain() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/fcitx5"), "fcitx5 is not installed (make deps)")
        let h = try ServerHarness()
        var asked: [VirtualDeviceKind] = []
        h.server.policy.mayCreateVirtualDevice = { _, kind in
            asked.append(kind)
            return kind != .inputMethod
        }
        let home = try fcitxHome()
        let fcitx = try h.spawn(
            "/usr/bin/dbus-run-session", ["--", "/usr/bin/fcitx5", "--disable=xcb,xim"],
            environment: ["HOME": home, "XDG_CONFIG_HOME": home + "/.config"])
        try #require(
            h.dispatch(until: "fcitx5 to ask for the input method", timeout: 30) { asked.contains(.inputMethod) },
            "fcitx5 said:\n\(fcitx.lines.joined(separator: "\n"))")
        #expect(h.server.services(0).textInput.program == nil)
        let script = runtimeDirectory + "/gtk-preedit-entry-denied-\(getpid()).py"
        try gtkPreeditEntryScript.write(toFile: script, atomically: true, encoding: .utf8)
        let entry = try h.spawn(
            "/usr/bin/python3", [script],
            environment: [
                "GDK_BACKEND": "wayland", "GTK_IM_MODULE": "wayland", "NO_AT_BRIDGE": "1",
                "GSETTINGS_BACKEND": "memory",
            ])
        h.wait(for: entry, timeout: 30, awaiting: "'ready'") { $0 == "ready" }
        h.dispatch(until: "the GTK entry to enable its text input") { h.server.textInput.active != nil }
        #expect(h.server.seat.inputMethodKeyboard == nil)
        type(h, "ni")
        h.wait(for: entry, line: "text ni")
        #expect(!entry.lines.contains { $0.hasPrefix("preedit ") && $0 != "preedit " })
    }
}
