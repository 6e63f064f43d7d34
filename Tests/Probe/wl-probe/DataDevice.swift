// The selections in the test client: --data-device gets a wl_data_device and a
// zwp_primary_selection_device_v1 and prints what they receive:
//
//   data.data_offer / data.offer MIME / data.selection offer|none        the clipboard
//   primary.data_offer / primary.offer MIME / primary.selection offer|none
//   data.send MIME / data.cancelled (and primary.…)                      this client's source
//
// Commands on stdin (each answered with "done COMMAND"):
//   copy clipboard|primary SERIAL TEXT   a new source offering text/plain;charset=utf-8 and
//                                        text/plain with TEXT, set as the selection citing
//                                        SERIAL: key (the last key press), button (the last
//                                        button press), enter (the last keyboard enter),
//                                        forged (a serial the server never sent), zero,
//                                        other-button (the last press of --also-seat-index's pointer)
//   copy-actions clipboard MASK SERIAL   a source with wl_data_source.set_actions(MASK) set as
//                                        the selection (a protocol error: invalid_source)
//   clear clipboard|primary              set_selection(null) citing the last key press
//   destroy-source clipboard|primary     destroy this client's source
//   paste clipboard|primary MIME         receive the offered selection; prints
//                                        "pasted clipboard|primary TEXT" (blocks until the
//                                        source's client closes the pipe: not from itself)
//   finish-offer clipboard               wl_data_offer.finish on the clipboard's offer (a
//                                        protocol error: not a drop)
//   drag NAME SERIAL [nosource] [icon]   start_drag from NAME with a source offering text/plain
//                                        ("dragged text", actions copy and move), citing
//                                        SERIAL (button: the last press; touch: the last
//                                        touch down; forged); icon: a 16×16 magenta icon
//
// Drags: data.enter NAME X Y / data.motion X Y / data.leave / data.drop on the target,
// data.target MIME, data.action N, data.dnd_drop_performed, data.dnd_finished on the source.
// With --accept-drops the target accepts text/plain with copy and move (preferring copy) on
// enter, and on drop reads it ("dropped TEXT") and finishes.
import CProbeShim
import CWaylandClient
import CWaylandProtocolsClient
import Foundation

var wantDataDevice = false
var acceptDrops = false
var dragOffer: OpaquePointer?
var dataDeviceManager: OpaquePointer?
var primaryManager: OpaquePointer?
var dataDevice: OpaquePointer?
var primaryDevice: OpaquePointer?
/// Serials a selection may cite, recorded by the keyboard listeners in main.swift.
var lastKeySerial: UInt32 = 0
var lastKeyboardEnterSerial: UInt32 = 0
var lastTouchSerial: UInt32 = 0

/// The offer each device last announced, with its mime types, and the current selection's.
var pendingOffers: [OpaquePointer: [String]] = [:]
var clipboardOffer: OpaquePointer?
var primaryOffer: OpaquePointer?
/// This client's sources and what they hold.
var sourceTexts: [OpaquePointer: String] = [:]
var clipboardSource: OpaquePointer?
var primarySource: OpaquePointer?

func writeAll(_ text: String, to fd: Int32) {
    let bytes = Array(text.utf8)
    let count = bytes.count
    var done = 0
    while done < count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, count - done) }
        if n <= 0 { break }
        done += n
    }
    close(fd)
}

let dataOfferListener: UnsafeMutablePointer<wl_data_offer_listener> = {
    let l = UnsafeMutablePointer<wl_data_offer_listener>.allocate(capacity: 1)
    l.initialize(to: wl_data_offer_listener())
    l.pointee.offer = { _, offer, mime in
        let m = String(cString: mime!)
        pendingOffers[offer!, default: []].append(m)
        say("data.offer \(m)")
    }
    l.pointee.source_actions = { _, _, actions in say("data.source_actions \(actions)") }
    l.pointee.action = { _, _, action in say("data.action \(action)") }
    return l
}()

let dataDeviceListener: UnsafeMutablePointer<wl_data_device_listener> = {
    let l = UnsafeMutablePointer<wl_data_device_listener>.allocate(capacity: 1)
    l.initialize(to: wl_data_device_listener())
    l.pointee.data_offer = { _, _, offer in
        say("data.data_offer")
        pendingOffers[offer!] = []
        wl_data_offer_add_listener(offer, dataOfferListener, nil)
    }
    l.pointee.selection = { _, _, offer in
        if let old = clipboardOffer, old != offer {
            pendingOffers[old] = nil
            wl_data_offer_destroy(old)
        }
        clipboardOffer = offer
        say("data.selection \(offer == nil ? "none" : "offer")")
    }
    l.pointee.enter = { _, _, serial, surface, x, y, offer in
        say("data.enter \(named(surface)) \(fixed(x)) \(fixed(y))")
        dragOffer = offer
        if acceptDrops, let offer {
            wl_data_offer_accept(offer, serial, "text/plain")
            wl_data_offer_set_actions(offer, 3, 1)
        }
    }
    l.pointee.leave = { _, _ in
        say("data.leave")
        if let offer = dragOffer {
            dragOffer = nil
            pendingOffers[offer] = nil
            wl_data_offer_destroy(offer)
        }
    }
    l.pointee.motion = { _, _, _, x, y in say("data.motion \(fixed(x)) \(fixed(y))") }
    l.pointee.drop = { _, _ in
        say("data.drop")
        guard acceptDrops, let offer = dragOffer else { return }
        say("dropped \(receiveText { wl_data_offer_receive(offer, "text/plain", $0) })")
        wl_data_offer_finish(offer)
        dragOffer = nil
        pendingOffers[offer] = nil
        wl_data_offer_destroy(offer)
    }
    return l
}()

let dataSourceListener: UnsafeMutablePointer<wl_data_source_listener> = {
    let l = UnsafeMutablePointer<wl_data_source_listener>.allocate(capacity: 1)
    l.initialize(to: wl_data_source_listener())
    l.pointee.send = { _, source, mime, fd in
        say("data.send \(String(cString: mime!))")
        writeAll(sourceTexts[source!] ?? "", to: fd)
    }
    l.pointee.cancelled = { _, source in
        say("data.cancelled")
        sourceTexts[source!] = nil
        if clipboardSource == source { clipboardSource = nil }
        wl_data_source_destroy(source)
    }
    l.pointee.target = { _, _, mime in say("data.target \(mime.map { String(cString: $0) } ?? "none")") }
    l.pointee.action = { _, _, action in say("data.source.action \(action)") }
    l.pointee.dnd_drop_performed = { _, _ in say("data.dnd_drop_performed") }
    l.pointee.dnd_finished = { _, source in
        say("data.dnd_finished")
        wl_data_source_destroy(source)
    }
    return l
}()

let primaryOfferListener: UnsafeMutablePointer<zwp_primary_selection_offer_v1_listener> = {
    let l = UnsafeMutablePointer<zwp_primary_selection_offer_v1_listener>.allocate(capacity: 1)
    l.initialize(to: zwp_primary_selection_offer_v1_listener())
    l.pointee.offer = { _, _, mime in say("primary.offer \(String(cString: mime!))") }
    return l
}()

let primaryDeviceListener: UnsafeMutablePointer<zwp_primary_selection_device_v1_listener> = {
    let l = UnsafeMutablePointer<zwp_primary_selection_device_v1_listener>.allocate(capacity: 1)
    l.initialize(to: zwp_primary_selection_device_v1_listener())
    l.pointee.data_offer = { _, _, offer in
        say("primary.data_offer")
        zwp_primary_selection_offer_v1_add_listener(offer, primaryOfferListener, nil)
    }
    l.pointee.selection = { _, _, offer in
        if let old = primaryOffer, old != offer { zwp_primary_selection_offer_v1_destroy(old) }
        primaryOffer = offer
        say("primary.selection \(offer == nil ? "none" : "offer")")
    }
    return l
}()

let primarySourceListener: UnsafeMutablePointer<zwp_primary_selection_source_v1_listener> = {
    let l = UnsafeMutablePointer<zwp_primary_selection_source_v1_listener>.allocate(capacity: 1)
    l.initialize(to: zwp_primary_selection_source_v1_listener())
    l.pointee.send = { _, source, mime, fd in
        say("primary.send \(String(cString: mime!))")
        writeAll(sourceTexts[source!] ?? "", to: fd)
    }
    l.pointee.cancelled = { _, source in
        say("primary.cancelled")
        sourceTexts[source!] = nil
        if primarySource == source { primarySource = nil }
        zwp_primary_selection_source_v1_destroy(source)
    }
    return l
}()

/// Binds both devices once the registry named the managers (after the first roundtrip).
func createDataDevices() {
    guard wantDataDevice else { return }
    guard let dataDeviceManager, let primaryManager else {
        fail("the server lacks wl_data_device_manager or zwp_primary_selection_device_manager_v1")
    }
    dataDevice = wl_data_device_manager_get_data_device(dataDeviceManager, seat)
    wl_data_device_add_listener(dataDevice, dataDeviceListener, nil)
    primaryDevice = zwp_primary_selection_device_manager_v1_get_device(primaryManager, seat)
    zwp_primary_selection_device_v1_add_listener(primaryDevice, primaryDeviceListener, nil)
}

func citedSerial(_ kind: String) -> UInt32 {
    switch kind {
    case "key": return lastKeySerial
    case "button": return lastPressSerial
    case "enter": return lastKeyboardEnterSerial
    case "touch": return lastTouchSerial
    case "other-button": return otherPressSerial // the second seat's pointer (SecondSeat.swift)
    case "forged": return max(lastKeySerial, lastPressSerial, lastKeyboardEnterSerial) &+ 1000
    case "zero": return 0
    default: fail("unknown serial kind \(kind)")
    }
}

/// Runs a selection command; false when `words` is not one.
func runSelectionCommand(_ words: [String]) -> Bool {
    guard words.count >= 2, wantDataDevice else { return false }
    let primary = words[1] == "primary"
    switch words[0] {
    case "copy" where words.count >= 4:
        let text = words[3...].joined(separator: " ")
        let serial = citedSerial(words[2])
        if primary {
            let source = zwp_primary_selection_device_manager_v1_create_source(primaryManager)!
            zwp_primary_selection_source_v1_add_listener(source, primarySourceListener, nil)
            zwp_primary_selection_source_v1_offer(source, "text/plain;charset=utf-8")
            zwp_primary_selection_source_v1_offer(source, "text/plain")
            sourceTexts[source] = text
            primarySource = source
            zwp_primary_selection_device_v1_set_selection(primaryDevice, source, serial)
        } else {
            let source = wl_data_device_manager_create_data_source(dataDeviceManager)!
            wl_data_source_add_listener(source, dataSourceListener, nil)
            wl_data_source_offer(source, "text/plain;charset=utf-8")
            wl_data_source_offer(source, "text/plain")
            sourceTexts[source] = text
            clipboardSource = source
            wl_data_device_set_selection(dataDevice, source, serial)
        }
    case "copy-actions" where words.count == 4:
        let source = wl_data_device_manager_create_data_source(dataDeviceManager)!
        wl_data_source_add_listener(source, dataSourceListener, nil)
        wl_data_source_offer(source, "text/plain")
        wl_data_source_set_actions(source, UInt32(words[2]) ?? 0)
        wl_data_device_set_selection(dataDevice, source, citedSerial(words[3]))
    case "clear":
        if primary {
            zwp_primary_selection_device_v1_set_selection(primaryDevice, nil, lastKeySerial)
        } else {
            wl_data_device_set_selection(dataDevice, nil, lastKeySerial)
        }
    case "destroy-source":
        if primary, let s = primarySource {
            zwp_primary_selection_source_v1_destroy(s)
            primarySource = nil
            sourceTexts[s] = nil
        } else if !primary, let s = clipboardSource {
            wl_data_source_destroy(s)
            clipboardSource = nil
            sourceTexts[s] = nil
        }
    case "paste" where words.count == 3:
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { fail("pipe failed") }
        if primary {
            guard let offer = primaryOffer else {
                say("paste: no primary selection")
                close(fds[0])
                close(fds[1])
                return true
            }
            zwp_primary_selection_offer_v1_receive(offer, words[2], fds[1])
        } else {
            guard let offer = clipboardOffer else {
                say("paste: no selection")
                close(fds[0])
                close(fds[1])
                return true
            }
            wl_data_offer_receive(offer, words[2], fds[1])
        }
        close(fds[1])
        wl_display_flush(display)
        var data = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fds[0], &chunk, chunk.count)
            if n <= 0 { break }
            data += chunk[0..<n]
        }
        close(fds[0])
        say("pasted \(words[1]) \(String(decoding: data, as: UTF8.self))")
    case "drag" where words.count >= 3:
        guard let p = probe(words[1]) else { return false }
        var source: OpaquePointer?
        if words.count < 4 || words[3] != "nosource" {
            source = wl_data_device_manager_create_data_source(dataDeviceManager)!
            wl_data_source_add_listener(source, dataSourceListener, nil)
            wl_data_source_offer(source, "text/plain")
            wl_data_source_set_actions(source, 3)
            sourceTexts[source!] = "dragged text"
        }
        var icon: OpaquePointer?
        if words.contains("icon") {
            icon = wl_compositor_create_surface(compositor)
            wl_surface_attach(icon, makeBuffer(width: 16, height: 16, colour: 0xffff_00ff), 0, 0)
            wl_surface_commit(icon)
        }
        wl_data_device_start_drag(dataDevice, source, p.surface, icon, citedSerial(words[2]))
    case "finish-offer":
        guard let offer = clipboardOffer else { return false }
        wl_data_offer_finish(offer)
    default: return false
    }
    return true
}

/// Reads what the source writes into a pipe whose write end `receive` hands over. Blocks
/// until the source's client closes it (so never for this client's own source).
func receiveText(_ receive: (Int32) -> Void) -> String {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { fail("pipe failed") }
    receive(fds[1])
    close(fds[1])
    wl_display_flush(display)
    var data = [UInt8]()
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = read(fds[0], &chunk, chunk.count)
        if n <= 0 { break }
        data += chunk[0..<n]
    }
    close(fds[0])
    return String(decoding: data, as: UTF8.self)
}
