// route-demo: builds the scene a script describes, routes the script's events through
// InputRouter's core, and prints what every client and compositor node is told.
//
//   route-demo SCRIPT     (make demo runs it on scene.txt beside this file)
//
// Every line of the script is a command; `#` starts a comment. Scene commands:
//   output NAME x,y,w,h
//   client NAME [pointer] [keyboard] [touch]        the devices the client binds
//   node KIND NAME parent=P client=C frame=x,y,w,h [below] [clips=yes|no] [takes=EVENTS]
//        KIND: compositor, toplevel, subsurface, popup; takes: a compositor node's handler
//        takes these events (pointer.button, pointer.enter...) and prints them
//   region NAME add=x,y,w,h subtract=x,y,w,h ...    the node's input region
//   map NAME | unmap NAME | destroy NAME | raise NAME | move NAME x,y | focus NAME
//   bind KEYCODE [super] action=NAME                a binding (keysyms are key codes here)
// Input commands:
//   warp x,y | motion dx,dy | button left|right|middle pressed|released | scroll dy
//   key CODE pressed|released | touch down|motion|up SLOT [x,y] | frame | action NAME
import Foundation
import InputRouter

struct ScriptError: Error, CustomStringConvertible {
    var description: String
}

final class Demo {
    let router = Router()
    let seat: Seat
    var nodes: [String: NodeID] = [:]
    var clients: [String: ClientID] = [:]
    var trace: TraceSink
    var checker: InvariantChecker<NullSink>

    init() {
        seat = router.addSeat(name: "seat0")
        seat.keyTranslator = CodeTranslator()
        trace = TraceSink(router: router)
        checker = InvariantChecker(wrapping: NullSink(), router: router)
    }

    func run(_ text: String, file: String) throws {
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line =
                raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let words = line.split(separator: " ").map(String.init)
            guard let command = words.first else { continue }
            do {
                print("> " + words.joined(separator: " "))
                try execute(command, Array(words.dropFirst()))
            } catch let e as ScriptError {
                throw ScriptError(description: "\(file):\(number + 1): \(e.description)")
            }
            flush()
        }
        print(
            "dropped: "
                + EventKind.allCases.filter { seat.dropCount($0) > 0 }
                .map { "\($0)=\(seat.dropCount($0))" }.joined(separator: " "))
        print(
            checker.isClean
                ? "invariants: clean" : "invariants violated:\n" + checker.violations.joined(separator: "\n"))
    }

    func flush() {
        var pair = Pair(a: trace, b: checker)
        router.flush(into: &pair)
        for line in pair.a.lines.dropFirst(trace.lines.count) { print("  " + line) }
        trace = pair.a
        checker = pair.b
    }

    func execute(_ command: String, _ args: [String]) throws {
        let t = UInt64(ticks) * 10_000
        ticks += 1
        switch command {
        case "output":
            let name = try arg(args, 0)
            nodes[name] = router.tree.createNode(.output, name: name, frame: try rect(try arg(args, 1)))
        case "client":
            let name = try arg(args, 0)
            let c = router.addClient(name: name)
            clients[name] = c
            var devices: BoundDevices = []
            if args.contains("pointer") { devices.insert(.pointer) }
            if args.contains("keyboard") { devices.insert(.keyboard) }
            if args.contains("touch") { devices.insert(.touch) }
            seat.setBound(devices, for: c, true)
        case "node": try makeNode(args)
        case "region":
            var region = Region()
            for a in args.dropFirst() {
                let (key, value) = try keyValue(a)
                if key == "add" {
                    region.add(try rect(value))
                } else if key == "subtract" {
                    region.subtract(try rect(value))
                }
            }
            router.tree.setInputRegion(try node(try arg(args, 0)), region)
        case "map": router.tree.setMapped(try node(try arg(args, 0)), true)
        case "unmap": router.tree.setMapped(try node(try arg(args, 0)), false)
        case "destroy": router.tree.destroy(try node(try arg(args, 0)))
        case "raise": router.tree.raiseToTop(try node(try arg(args, 0)))
        case "move":
            let p = try numbers(try arg(args, 1), 2)
            router.tree.move(try node(try arg(args, 0)), to: (Int32(p[0]), Int32(p[1])))
        case "focus":
            if !seat.setKeyboardFocus(try node(try arg(args, 0))) { print("  (cannot take keyboard focus)") }
        case "bind":
            let code = try number(try arg(args, 0))
            let action = args.dropFirst().first { $0.hasPrefix("action=") }.map { String($0.dropFirst(7)) } ?? "binding"
            let modifiers: ModifierMask = args.contains("super") ? .superKey : []
            seat.addBinding(KeyBinding(keysym: UInt32(code), modifiers: modifiers)) {
                print("  (binding runs \(action))")
            }
        case "warp":
            let p = try numbers(try arg(args, 0), 2)
            seat.notifyPointerWarp(time: t, to: Point(p[0], p[1]))
        case "motion":
            let p = try numbers(try arg(args, 0), 2)
            seat.notifyPointerMotion(time: t, dx: p[0], dy: p[1])
        case "button":
            let codes = ["left": UInt32(0x110), "right": 0x111, "middle": 0x112]
            guard let b = codes[try arg(args, 0)] else { throw ScriptError(description: "unknown button \(args[0])") }
            seat.notifyPointerButton(time: t, button: b, state: try arg(args, 1) == "pressed" ? .pressed : .released)
        case "scroll":
            let dy = try number(try arg(args, 0))
            seat.notifyPointerAxis(
                time: t, source: .wheel, vertical: AxisValue(value: dy, value120: Int32(dy / 15 * 120)), horizontal: nil
            )
        case "key":
            seat.notifyKey(
                time: t, key: UInt32(try number(try arg(args, 0))),
                state: try arg(args, 1) == "pressed" ? .pressed : .released)
        case "touch":
            let slot = Int32(try number(try arg(args, 1)))
            switch try arg(args, 0) {
            case "down":
                let p = try numbers(try arg(args, 2), 2)
                seat.notifyTouchDown(time: t, slot: slot, at: Point(p[0], p[1]))
            case "motion":
                let p = try numbers(try arg(args, 2), 2)
                seat.notifyTouchMotion(time: t, slot: slot, at: Point(p[0], p[1]))
            default: seat.notifyTouchUp(time: t, slot: slot)
            }
        case "frame": seat.notifyTouchFrame()
        case "action": seat.sendAction(try arg(args, 0))
        default: throw ScriptError(description: "unknown command \(command)")
        }
    }
    var ticks = 0

    func makeNode(_ args: [String]) throws {
        let kinds: [String: NodeKind] = [
            "compositor": .compositor, "toplevel": .toplevel, "subsurface": .subsurface, "popup": .popup,
        ]
        guard let kind = kinds[try arg(args, 0)] else { throw ScriptError(description: "unknown node kind \(args[0])") }
        let name = try arg(args, 1)
        var parent: NodeID?
        var client = ClientID.compositor
        var frame = Rect(0, 0, 0, 0)
        var takes: [String] = []
        var clips: Bool?
        for a in args.dropFirst(2) where a != "below" {
            let (key, value) = try keyValue(a)
            switch key {
            case "parent": parent = try node(value)
            case "client":
                guard let c = clients[value] else { throw ScriptError(description: "unknown client \(value)") }
                client = c
            case "frame": frame = try rect(value)
            case "takes": takes = value.split(separator: ",").map(String.init)
            case "clips": clips = value == "yes"
            default: throw ScriptError(description: "unknown node attribute \(key)")
            }
        }
        let n = router.tree.createNode(
            kind, name: name, client: client, parent: parent, frame: frame,
            layer: args.contains("below") ? .below : .above)
        if let clips { router.tree.setClipsChildren(n, clips) }
        if !takes.isEmpty {
            router.tree.setHandler(n) { event in
                guard takes.contains(event.kind.description) else { return .notHandled }
                print("  (\(name) handles \(event.kind))")
                return .handled
            }
        }
        nodes[name] = n
    }

    func arg(_ args: [String], _ i: Int) throws -> String {
        guard i < args.count else { throw ScriptError(description: "missing argument \(i + 1)") }
        return args[i]
    }
    func node(_ name: String) throws -> NodeID {
        guard let n = nodes[name] else { throw ScriptError(description: "unknown node \(name)") }
        return n
    }
    func keyValue(_ a: String) throws -> (String, String) {
        let parts = a.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw ScriptError(description: "expected key=value, got \(a)") }
        return (parts[0], parts[1])
    }
    func number(_ s: String) throws -> Double {
        guard let v = Double(s), v.isFinite else { throw ScriptError(description: "not a number: \(s)") }
        return v
    }
    func numbers(_ s: String, _ count: Int) throws -> [Double] {
        let v = try s.split(separator: ",").map { try number(String($0)) }
        guard v.count == count else { throw ScriptError(description: "expected \(count) numbers, got \(s)") }
        return v
    }
    func rect(_ s: String) throws -> Rect {
        let v = try numbers(s, 4)
        return Rect(Int32(v[0]), Int32(v[1]), Int32(v[2]), Int32(v[3]))
    }
}

/// The demo's stand-in for the xkbcommon layer: a key's keysym is its evdev code, and
/// the usual modifier keys set the usual modifier bits.
final class CodeTranslator: KeyTranslator {
    var depressed: UInt32 = 0
    let modifierBits: [UInt32: UInt32] = [42: 1, 54: 1, 29: 4, 97: 4, 56: 8, 125: 64, 126: 64]
    func translate(key: UInt32, state: KeyState) -> KeyMeaning {
        if let bit = modifierBits[key] { if state == .pressed { depressed |= bit } else { depressed &= ~bit } }
        return KeyMeaning(keysym: key, baseKeysym: key, modifiers: Modifiers(depressed: depressed))
    }
    func releaseAll() -> Modifiers {
        depressed = 0
        return Modifiers()
    }
}

/// Feeds both the trace and the invariant checker.
struct Pair: DeliverySink {
    var a: TraceSink
    var b: InvariantChecker<NullSink>
    mutating func deliver(_ d: Delivery, from queue: DeliveryQueue) {
        a.deliver(d, from: queue)
        b.deliver(d, from: queue)
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    print("usage: route-demo SCRIPT")
    exit(2)
}
do {
    let path = arguments[1]
    guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
        throw ScriptError(description: "\(path): cannot read")
    }
    try Demo().run(text, file: path)
} catch {
    print("error: \(error)")
    exit(1)
}
