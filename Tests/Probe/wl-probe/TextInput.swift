// text-input-v3 in the test client. `--text-input` makes a zwp_text_input_v3 for the seat;
// `--text-input-auto` also enables it on every enter, as a toolkit's focused entry does
// (enable, content type, cursor rectangle, surrounding text, commit). Commands on stdin:
// `text enable`, `text disable`, `text surrounding TEXT CURSOR ANCHOR`, `text content HINT
// PURPOSE`, `text cursor x,y,w,h`, `text commit` (each request alone), `text destroy`, `text create`
// (a text input made late, as a toolkit makes one when an entry appears).
//
// Events print as `text.enter NAME`, `text.leave NAME`, `text.preedit "TEXT" BEGIN END`,
// `text.commit_string "TEXT"`, `text.delete BEFORE AFTER`, and `text.done SERIAL commits=N`,
// N being the commits this client sent so far (the serial must equal it).
import CProbeShim
import CWaylandClient
import CWaylandProtocolsClient
import Foundation

var textInputManager: OpaquePointer?
var wantTextInput = false
var textInputAuto = false
var textInput: OpaquePointer?
var textInputCommits: UInt32 = 0

let textInputListener: UnsafeMutablePointer<zwp_text_input_v3_listener> = {
    let l = UnsafeMutablePointer<zwp_text_input_v3_listener>.allocate(capacity: 1)
    l.initialize(to: zwp_text_input_v3_listener())
    l.pointee.enter = { _, input, surface in
        say("text.enter \(named(surface))")
        if textInputAuto {
            zwp_text_input_v3_enable(input)
            zwp_text_input_v3_set_content_type(
                input, ZWP_TEXT_INPUT_V3_CONTENT_HINT_NONE.rawValue,
                ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_NORMAL.rawValue)
            zwp_text_input_v3_set_cursor_rectangle(input, 10, 10, 1, 16)
            zwp_text_input_v3_set_surrounding_text(input, "", 0, 0)
            textInputCommit()
        }
    }
    l.pointee.leave = { _, _, surface in say("text.leave \(named(surface))") }
    l.pointee.preedit_string = { _, _, text, begin, end in
        say("text.preedit \"\(text.map { String(cString: $0) } ?? "")\" \(begin) \(end)")
    }
    l.pointee.commit_string = { _, _, text in say("text.commit_string \"\(text.map { String(cString: $0) } ?? "")\"") }
    l.pointee.delete_surrounding_text = { _, _, before, after in say("text.delete \(before) \(after)") }
    l.pointee.done = { _, _, serial in say("text.done \(serial) commits=\(textInputCommits)") }
    return l
}()

func createTextInput() {
    guard wantTextInput else { return }
    guard let manager = textInputManager else { fail("the server lacks zwp_text_input_manager_v3") }
    textInput = zwp_text_input_manager_v3_get_text_input(manager, seat)
    zwp_text_input_v3_add_listener(textInput, textInputListener, nil)
}

func textInputCommit() {
    zwp_text_input_v3_commit(textInput)
    textInputCommits += 1
}

/// `text ...` commands; false when the line is not one.
func runTextInputCommand(_ words: [String]) -> Bool {
    guard words.first == "text", words.count >= 2 else { return false }
    if words[1] == "create" { // a text input made late, once the window has the focus
        wantTextInput = true
        if textInput == nil { createTextInput() }
        return true
    }
    guard let input = textInput else { fail("text command without --text-input") }
    switch words[1] {
    case "enable": zwp_text_input_v3_enable(input)
    case "disable": zwp_text_input_v3_disable(input)
    case "commit": textInputCommit()
    case "surrounding" where words.count == 5:
        zwp_text_input_v3_set_surrounding_text(input, words[2], Int32(words[3]) ?? 0, Int32(words[4]) ?? 0)
    case "content" where words.count == 4:
        zwp_text_input_v3_set_content_type(input, UInt32(words[2]) ?? 0, UInt32(words[3]) ?? 0)
    case "cursor" where words.count == 3:
        let r = rect(words[2])
        zwp_text_input_v3_set_cursor_rectangle(input, r.0, r.1, r.2, r.3)
    case "destroy":
        zwp_text_input_v3_destroy(input)
        textInput = nil
    default: say("bad command: \(words.joined(separator: " "))")
    }
    return true
}
