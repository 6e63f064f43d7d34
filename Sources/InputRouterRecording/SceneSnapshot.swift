// Scene snapshots as text: `SceneState` (the core's capture) written and read as JSON
// lines, version 1 (docs/bug-reports.md). Every problem is a `RecordingError` naming the
// line: a file cut short, an edited value, an unknown version, a node whose parent is
// missing. Nothing in a snapshot can crash the reader or the rebuild.

import Foundation
import InputRouter

/// Writes and reads scene snapshot files.
public enum SceneSnapshot {
    /// The `format` of line 1.
    public static let format = "inputrouter-scene"
    /// The version this code writes and reads.
    public static let version = 1

    // MARK: Writing

    /// The snapshot as text: a header line, one line per client, per node (parents first,
    /// siblings bottom to top) and per seat, and an end line. Keys sorted, so the same
    /// scene gives the same bytes.
    public static func write(_ scene: SceneState) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var out = ""
        func line<T: Encodable>(_ value: T) {
            // Encoding these plain values cannot fail (no non-finite floats are written:
            // positions are finite, checked where they are read).
            let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
            out += String(decoding: data, as: UTF8.self)
            out += "\n"
        }
        line(
            SnapshotHeader(
                format: format, version: version, slots: scene.slotCount, free: scene.freeSlots,
                opacityThreshold: scene.opacityThreshold, serial: scene.serialCounter))
        for (i, c) in scene.clients.enumerated() {
            line(ClientLine(client: UInt32(i + 1), name: c.name, alive: c.alive, handler: c.handler))
        }
        for n in scene.nodes { line(nodeLine(n)) }
        for s in scene.seats { line(seatLine(s)) }
        line(EndLine(end: true, nodes: scene.nodes.count, clients: scene.clients.count, seats: scene.seats.count))
        return out
    }

    static func rect(_ r: Rect) -> RectValue { [r.x, r.y, r.width, r.height] }
    static func point(_ p: Point) -> PointValue { [p.x, p.y] }

    static func nodeLine(_ n: NodeState) -> NodeLine {
        NodeLine(
            node: n.slot, generation: n.generation, parent: n.parent, kind: n.kind.description, name: n.name,
            client: n.client, frame: rect(n.frame), bufferScale: n.bufferScale,
            layer: n.layer == .above ? "above" : "below", mapped: n.mapped, acceptsInput: n.acceptsInput,
            opacity: n.opacity, clipsChildren: n.clipsChildren, focusable: n.canBecomeFirstResponder,
            inputRegion: n.inputRegion?.map(rect), containmentTest: n.containmentTest, handler: n.handler,
            nextResponder: n.nextResponder)
    }

    static func responder(_ r: ResponderState) -> ResponderValue {
        switch r {
        case .node(let n): ResponderValue(node: n)
        case .client(let c): ResponderValue(client: c)
        case .seat(let s): ResponderValue(seat: s)
        }
    }

    static func seatLine(_ s: SeatState) -> SeatLine {
        let keys = s.heldKeys.map { k -> HeldValue in
            var v = HeldValue(code: k.code, count: k.count)
            switch k.recipient {
            case .none: v.recipient = "none"
            case .consumed: v.recipient = "consumed"
            case .grab: v.recipient = "grab"
            case .inputMethod: v.recipient = "inputMethod"
            case .client(let c):
                v.recipient = "client"
                v.client = c
            case .responder(let r):
                v.recipient = "responder"
                v.responder = responder(r)
            }
            return v
        }
        let touches = s.touchPoints.map { t -> TouchValue in
            var v = TouchValue(slot: t.slot, device: t.device, owner: "", client: t.client)
            switch t.owner {
            case .client(let n):
                v.owner = "client"
                v.node = n
            case .responder(let r):
                v.owner = "responder"
                v.responder = responder(r)
            case .recognizer(let i):
                v.owner = "recognizer"
                v.recognizer = i
            case .grab: v.owner = "grab"
            case .cancelled: v.owner = "cancelled"
            }
            return v
        }
        var grab: GrabValue?
        switch s.pointerGrab {
        case nil: grab = nil
        case .popup(let client, let stack): grab = GrabValue(kind: "popup", client: client, stack: stack)
        case .move(let node, let offset): grab = GrabValue(kind: "move", node: node, offset: point(offset))
        case .resize(let node, let edges, let start, let frame):
            grab = GrabValue(
                kind: "resize", node: node, edges: edges, start: point(start), startFrame: rect(frame))
        case .other(let type): grab = GrabValue(kind: "other:" + type)
        }
        let m = s.modifiers
        return SeatLine(
            seat: s.name, devices: s.devices.map { DeviceValue(id: $0.id, capabilities: $0.capabilities) },
            bound: s.bound, cursor: point(s.cursor), pointerFocus: s.pointerFocus.map(responder),
            pointerLocal: point(s.pointerLocal),
            heldButtons: s.heldButtons.map { HeldValue(code: $0.code, count: $0.count) },
            deviceButtons: s.deviceButtons.map { DeviceHoldsValue(device: $0.device, codes: $0.codes) },
            consumedButtons: s.consumedButtons, keyboardFocus: s.keyboardFocus, keyboardEntered: s.keyboardEntered,
            focusHistory: s.focusHistory, heldKeys: keys,
            deviceKeys: s.deviceKeys.map { DeviceHoldsValue(device: $0.device, codes: $0.codes) },
            modifiers: [m.depressed, m.latched, m.locked, m.group], touchPoints: touches,
            touchFrameClients: s.touchFrameClients, grab: grab, keymap: s.keymap,
            bindings: s.bindings.map {
                BindingValue(keysym: $0.keysym, modifiers: $0.modifiers, whileLocked: $0.whileLocked, name: $0.name)
            },
            handler: s.handler, absoluteMapping: s.absoluteMapping.map(rect), lastTime: s.lastTime)
    }
}
