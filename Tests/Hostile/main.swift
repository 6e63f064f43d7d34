// wl-hostile: a Wayland client that writes the wire format itself and breaks the rules on
// purpose, for a seed and a mode. It sets up like a real client (registry, binds by the
// names announced, some valid noise), then attacks; it reports what it sent and the
// protocol error it got back, on one `result` line, and exits. See
// docs/hostile-clients.md.
//
//   wl-hostile --seed N [--mode MODE|random] [--variant N] [--list]
//
// Output (line-buffered stdout):
//   attack MODE/VARIANT expect=EXPECTATION       what it is about to do
//   waiting-for-press                            (grab modes) press a button on my window
//   result mode=… variant=… seed=… requests=… bytes=… events=… expect=… outcome=…
// outcome: `error interface=I object=N code=C message="…"`, `disconnected` (closed with
// no error) or `none` (still connected when it gave up and hung up itself).
// expect: `I:C` (that error), `error` (some error), `disconnect` (an error or a close),
// `none` (nothing wrong was sent), `any` (no prediction: only the server's survival counts).
import Foundation
import InputRouterWireClient

setvbuf(stdout, nil, _IOLBF, 0)

var seed: UInt64 = 1
var modeName = "random"
var forcedVariant: Int?
var argv = Array(CommandLine.arguments.dropFirst())
while !argv.isEmpty {
    let a = argv.removeFirst()
    switch a {
    case "--seed": seed = UInt64(argv.isEmpty ? "1" : argv.removeFirst()) ?? 1
    case "--mode": modeName = argv.isEmpty ? "random" : argv.removeFirst()
    case "--variant": forcedVariant = Int(argv.isEmpty ? "" : argv.removeFirst())
    case "--list":
        print(Mode.allCases.map(\.rawValue).joined(separator: " "))
        exit(0)
    default:
        print("usage: wl-hostile --seed N [--mode \(Mode.allCases.map(\.rawValue).joined(separator: "|"))|random]")
        exit(2)
    }
}

var rng = SplitMix64(seed: seed)
let mode: Mode
if modeName == "random" {
    mode = Mode.allCases[rng.int(Mode.allCases.count)]
} else if let m = Mode(rawValue: modeName) {
    mode = m
} else {
    print("unknown mode \(modeName)")
    exit(2)
}

let wire: WireConnection
do { wire = try WireConnection() } catch {
    print("fatal: cannot connect: \(error)")
    exit(2)
}
let session = WireSession(wire)
guard session.start() else {
    print("fatal: no registry")
    exit(2)
}
for (interface, version) in [
    ("wl_compositor", 5), ("wl_subcompositor", 1), ("wl_shm", 1), ("wl_seat", 8),
    ("xdg_wm_base", 5), ("wl_output", 4), ("wl_data_device_manager", 3),
    // This round's globals (mode new-globals).
    ("zwlr_layer_shell_v1", 4), ("zxdg_output_manager_v1", 3), ("zwp_input_method_manager_v2", 1),
    ("zwp_virtual_keyboard_manager_v1", 1), ("wp_cursor_shape_manager_v1", 2),
] {
    session.bind(interface, version: UInt32(version))
}
session.roundtrip()

var attacker = Attacker(session: session, rng: rng)
attacker.forcedVariant = forcedVariant
attacker.noise(count: attacker.rng.int(120))
let plan = attacker.attack(mode)
print("attack \(mode.rawValue)/\(plan.variant) expect=\(plan.expect)")
if !plan.neverRead {
    _ = session.waitFor(timeoutMS: plan.patienceMS) { _ in false }
} else {
    // It never read; now it looks at what the server did to it.
    _ = wire.readUntilClosed(timeoutMS: 2000)
}

var outcome = "none"
if let e = wire.error {
    let interface = wire.interfaces[e.object] ?? "unknown"
    let message = e.message.replacingOccurrences(of: "\"", with: "'")
    outcome = "error interface=\(interface) object=\(e.object) code=\(e.code) message=\"\(message)\""
} else if wire.closed {
    outcome = "disconnected"
}
print(
    "result mode=\(mode.rawValue) variant=\(plan.variant) seed=\(seed) requests=\(wire.requestsSent) bytes=\(wire.bytesSent)"
        + " events=\(session.eventCount) expect=\(plan.expect) outcome=\(outcome)")
exit(0)
