// cursor-shape-v1 in the test client. `--cursor-shape VERSION` binds
// wp_cursor_shape_manager_v1 at that version; the commands
//   shape SHAPE         set_shape on the main wl_pointer's device, citing the last enter
//   shape SHAPE stale   the same, citing the enter before it
//   tool-shape SHAPE [stale]   set_shape on tool0's device, citing tool0's last proximity_in
//                      (or the one before it)
// take SHAPE as a CSS name of the protocol's enum (`text`, `ew-resize`) or a number (any
// value, to provoke `invalid_shape`). `--cursor-shape-on-enter SHAPE` sets SHAPE citing
// every enter as it comes (for clients connected through WAYLAND_SOCKET, which read no
// commands), and prints `cursor-shape SHAPE` once the server has seen the request.
// Devices are made on first use.
import CProbeShim
import CWaylandClient
import CWaylandProtocolsClient
import Foundation

var cursorShapeVersion: UInt32 = 0
var cursorShapeManager: OpaquePointer?
var pointerShapeDevice: OpaquePointer?
var toolShapeDevices: [OpaquePointer: OpaquePointer] = [:]
var shapeOnEnter: UInt32?
/// The enter before the last one (`lastEnterSerial`, SecondSeat.swift).
var previousEnterSerial: UInt32 = 0
/// Each tool's last two `proximity_in` serials, the newest last (Tablet.swift).
var proximitySerials: [OpaquePointer: [UInt32]] = [:]

/// The protocol's shape names, by wire value.
let shapeNames = [
    "auto", "default", "context-menu", "help", "pointer", "progress", "wait", "cell", "crosshair", "text",
    "vertical-text", "alias", "copy", "move", "no-drop", "not-allowed", "grab", "grabbing", "e-resize", "n-resize",
    "ne-resize", "nw-resize", "s-resize", "se-resize", "sw-resize", "w-resize", "ew-resize", "ns-resize",
    "nesw-resize", "nwse-resize", "col-resize", "row-resize", "all-scroll", "zoom-in", "zoom-out", "none",
]

func shapeValue(_ word: String) -> UInt32 {
    if let n = UInt32(word) { return n }
    guard let i = shapeNames.firstIndex(of: word) else { fail("no cursor shape \(word)") }
    return UInt32(i)
}

func bindCursorShapeManager(_ registry: OpaquePointer?, _ name: UInt32, _ version: UInt32) {
    guard cursorShapeVersion > 0 else { return }
    cursorShapeManager = bind(registry, name, "wp_cursor_shape_manager_v1", min(version, cursorShapeVersion))
}

func shapeManager() -> OpaquePointer {
    guard let m = cursorShapeManager else { fail("the server lacks wp_cursor_shape_manager_v1 (or no --cursor-shape)") }
    return m
}

func setShapeOnEnter(_ serial: UInt32) {
    guard let shape = shapeOnEnter, let pointer else { return }
    if pointerShapeDevice == nil {
        pointerShapeDevice = wp_cursor_shape_manager_v1_get_pointer(shapeManager(), pointer)
    }
    wp_cursor_shape_device_v1_set_shape(pointerShapeDevice, serial, shape)
    announceAfterServerSaw(
        "cursor-shape \(shapeNames.indices.contains(Int(shape)) ? shapeNames[Int(shape)] : "\(shape)")")
}

/// `shape SHAPE [stale]` and `tool-shape SHAPE`; false for any other command.
func runShapeCommand(_ words: [String]) -> Bool {
    switch (words.first, words.count) {
    case ("shape", 2), ("shape", 3):
        guard let pointer else { fail("shape: no wl_pointer") }
        if pointerShapeDevice == nil {
            pointerShapeDevice = wp_cursor_shape_manager_v1_get_pointer(shapeManager(), pointer)
        }
        let serial = words.count == 3 && words[2] == "stale" ? previousEnterSerial : lastEnterSerial
        wp_cursor_shape_device_v1_set_shape(pointerShapeDevice, serial, shapeValue(words[1]))
        return true
    case ("tool-shape", 2), ("tool-shape", 3):
        guard let tool = probeTools.first else { fail("tool-shape: no tool") }
        let device = toolShapeDevices[tool] ?? wp_cursor_shape_manager_v1_get_tablet_tool_v2(shapeManager(), tool)!
        toolShapeDevices[tool] = device
        let serials = proximitySerials[tool] ?? []
        let serial = (words.count == 3 && words[2] == "stale" ? serials.dropLast().last : serials.last) ?? 0
        wp_cursor_shape_device_v1_set_shape(device, serial, shapeValue(words[1]))
        return true
    default:
        return false
    }
}
