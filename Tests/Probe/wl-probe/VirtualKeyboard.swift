// zwp_virtual_keyboard_v1 in the test client: a typing tool's side. Commands on stdin:
//   vk create                          a virtual keyboard on the probe's seat
//   vk keymap PATH [FORMAT [SIZE]]     send the keymap text in PATH (format 1, xkb_v1, and its
//                                      size with a trailing NUL, unless given)
//   vk key CODE pressed|released       an evdev key of the virtual keyboard (time 0)
//   vk modifiers D L K G               its modifier state
//   vk destroy
// `--keymap-names` adds to each `keyboard.keymap` line the name of the keymap's first layout
// (`layout=English (US)`), so a test sees which keymap a client was sent.
import CProbeShim
import CWaylandClient
import CWaylandProtocolsClient
import Foundation

var virtualKeyboardManager: OpaquePointer?
var virtualKeyboard: OpaquePointer?
var showKeymapNames = false

func runVirtualKeyboardCommand(_ words: [String]) -> Bool {
    guard words.first == "vk", words.count >= 2 else { return false }
    switch words[1] {
    case "create":
        guard let manager = virtualKeyboardManager else { fail("the server lacks zwp_virtual_keyboard_manager_v1") }
        virtualKeyboard = zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(manager, seat)
    case "keymap" where words.count >= 3:
        guard let text = FileManager.default.contents(atPath: words[2]) else { fail("cannot read \(words[2])") }
        let format = words.count > 3 ? UInt32(words[3]) ?? 1 : 1
        let size = words.count > 4 ? UInt32(words[4]) ?? 0 : UInt32(text.count + 1)
        let fd = keymapFile(text)
        zwp_virtual_keyboard_v1_keymap(virtualKeyboard, format, fd, size)
        close(fd)
    case "key" where words.count == 4:
        guard let code = UInt32(words[2]) else { fail("vk key CODE pressed|released") }
        zwp_virtual_keyboard_v1_key(virtualKeyboard, 0, code, words[3] == "pressed" ? 1 : 0)
    case "modifiers" where words.count == 6:
        let m = words[2...].map { UInt32($0) ?? 0 }
        zwp_virtual_keyboard_v1_modifiers(virtualKeyboard, m[0], m[1], m[2], m[3])
    case "destroy":
        zwp_virtual_keyboard_v1_destroy(virtualKeyboard)
        virtualKeyboard = nil
    default: return false
    }
    return true
}

/// An unlinked file holding `text` and a NUL, as typing tools send their keymaps.
private func keymapFile(_ text: Data) -> Int32 {
    var template = Array(
        "\(ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"] ?? "/tmp")/wl-probe-keymap-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { fail("mkstemp failed") }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    let bytes = [UInt8](text) + [0]
    guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress!, $0.count) }) == bytes.count else { fail("write failed") }
    return fd
}

/// The name of the first layout of the keymap in `fd` (" layout=French", " layout=?" when it
/// names none), or "" unless `--keymap-names`. xkbcommon writes every section as "(unnamed)",
/// but keeps the layouts' names.
func keymapNameSuffix(_ fd: Int32, _ size: UInt32) -> String {
    guard showKeymapNames else { return "" }
    var bytes = [UInt8](repeating: 0, count: Int(size))
    let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, Int(size), 0) }
    let text = String(decoding: bytes.prefix(max(n, 0)).prefix { $0 != 0 }, as: UTF8.self)
    guard let start = text.range(of: "name[Group1]=\"") else { return " layout=?" }
    return " layout=" + text[start.upperBound...].prefix { $0 != "\"" }
}
