// The lines of a scene snapshot file as JSON values (docs/bug-reports.md, "The scene
// snapshot format"). One JSON object a line, so an error names its line and a diff of
// two snapshots reads line by line.

import InputRouter

/// Line 1: what the file is.
struct SnapshotHeader: Codable {
    var format: String
    var version: Int
    var slots: UInt32
    var free: [UInt32]
    var opacityThreshold: Float
    var serial: UInt32
}

/// `[x, y, width, height]`.
typealias RectValue = [Int32]
/// `[x, y]`.
typealias PointValue = [Double]

struct ClientLine: Codable {
    var client: UInt32
    var name: String
    var alive: Bool
    var handler: String?
}

struct NodeLine: Codable {
    var node: UInt32
    var generation: UInt32
    /// nil: detached.
    var parent: UInt32?
    var kind: String
    var name: String
    var client: UInt32
    var frame: RectValue
    var bufferScale: Int32
    var layer: String
    var mapped: Bool
    var acceptsInput: Bool
    var opacity: Float
    var clipsChildren: Bool
    var focusable: Bool
    var inputRegion: [RectValue]?
    var containmentTest: String?
    var handler: String?
    var nextResponder: UInt32?
}

/// `{"node": 3}`, `{"client": 1}` or `{"seat": 0}`.
struct ResponderValue: Codable {
    var node: UInt32?
    var client: UInt32?
    var seat: UInt32?
}

struct DeviceValue: Codable {
    var id: UInt32
    var capabilities: UInt16
}

/// A key or button held seat-wide: its code and how many presses hold it.
struct HeldValue: Codable {
    var code: UInt32
    var count: UInt8
    /// Keys: who gets the release: "none", "consumed", "grab", "inputMethod", "client",
    /// "responder".
    var recipient: String?
    var client: UInt32?
    var responder: ResponderValue?
}

/// What one device holds, oldest first.
struct DeviceHoldsValue: Codable {
    var device: UInt32
    var codes: [UInt32]
}

struct TouchValue: Codable {
    var slot: Int32
    var device: UInt32
    /// "client" (with `node`), "responder", "recognizer", "grab", "cancelled".
    var owner: String
    var node: UInt32?
    var responder: ResponderValue?
    var recognizer: Int?
    var client: UInt32
}

struct GrabValue: Codable {
    /// "popup", "move", "resize".
    var kind: String
    var client: UInt32?
    var stack: [UInt32]?
    var node: UInt32?
    var offset: PointValue?
    var edges: UInt32?
    var start: PointValue?
    var startFrame: RectValue?
}

struct BindingValue: Codable {
    var keysym: UInt32
    var modifiers: UInt32
    var whileLocked: Bool
    var name: String
}

struct SeatLine: Codable {
    var seat: String
    var devices: [DeviceValue]
    var bound: [UInt8]
    var cursor: PointValue
    var pointerFocus: ResponderValue?
    var pointerLocal: PointValue
    var heldButtons: [HeldValue]
    var deviceButtons: [DeviceHoldsValue]
    var consumedButtons: [UInt32]
    var keyboardFocus: UInt32?
    var keyboardEntered: Bool
    var focusHistory: [UInt32]
    var heldKeys: [HeldValue]
    var deviceKeys: [DeviceHoldsValue]
    /// depressed, latched, locked, group.
    var modifiers: [UInt32]
    var touchPoints: [TouchValue]
    var touchFrameClients: [UInt32]
    var grab: GrabValue?
    var keymap: [String: String]
    var bindings: [BindingValue]
    var handler: String?
    var absoluteMapping: RectValue?
    var lastTime: UInt64
}

/// The last line: what came before, counted, so a file cut at a line's end is caught.
struct EndLine: Codable {
    var end: Bool
    var nodes: Int
    var clients: Int
    var seats: Int
}
