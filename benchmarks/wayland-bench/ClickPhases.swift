// The routed click's own instructions by what it does. The profiles by function (Profile.swift,
// InlinedProfile.swift) are flat: some two hundred functions, none over a few hundred
// instructions a click. This groups them by the click's steps, each the program's own
// instructions while one function runs (callgrind's `--toggle-collect` on it), libwayland's
// and libc's left out: what the raw way's 15 posts do not do at all, against what the
// sender adds to posting them. Per event, as for the other tables: the long run minus the
// short one (the `--only` warm-up cancels out).
import Foundation

enum ClickPhases {
    /// The sender's pass (`WaylandServer.sendDeliveries`).
    static let sender = "$s13WaylandServerAAC14sendDeliveriesyyF"
    static let button =
        "$s11InputRouter4SeatC19notifyPointerButton4time6button5state6deviceys6UInt64V_s6UInt32VAA0F5StateOAA8DeviceIDVtF"

    /// The steps, each a function that runs once or twice a click; `inside`: the function it
    /// runs within (another step's, or the sender's pass), whose own share is then its count
    /// less the steps' inside it. Focus on click runs in the press's capture phase, inside
    /// `notifyPointerButton`. Mangled: a signature change makes the name miss, and the table
    /// says so.
    static let steps: [(what: String, symbol: String, inside: String?)] = [
        (
            "the motion across: hit test, pointer focus, leave and enter queued (Seat.notifyPointerWarp)",
            "$s11InputRouter4SeatC17notifyPointerWarp4time2toys6UInt64V_AA5PointVtF", nil
        ),
        (
            "press and release in the seat less the two steps below: counts, holds, serials recorded, implicit grab (Seat.notifyPointerButton)",
            button, nil
        ),
        (
            "the raise, in the press's capture phase: restack, child grid, hit index (SurfaceTree.raiseToTop)",
            "$s11InputRouter11SurfaceTreeC10raiseToTopyyAA6NodeIDVF", button
        ),
        (
            "the keyboard's move, in the press's capture phase: leave, enter, modifiers queued (Seat.setKeyboardFocus)",
            "$s11InputRouter4SeatC16setKeyboardFocusySbAA6NodeIDVSgF", button
        ),
        (
            "the activation: text input, selections, two toplevels' configures (WaylandServer.keyboardFocusMoved)",
            "$s13WaylandServerAAC18keyboardFocusMoved6onSeat2toySi_11InputRouter6NodeIDVSgtF", sender
        ),
    ]

    /// Code of the program's that runs inside libwayland's posts, as many times either way:
    /// the benchmark's allocation counter (its calloc, malloc and realloc, which count and
    /// call glibc's; it leaves free alone) and the server's protocol logger
    /// (ShmStrideCheck.swift, called for every message). Counted apart, so that a step's count
    /// is its own work.
    static func sharedCode(_ symbol: String) -> Bool {
        ["calloc", "malloc", "realloc"].contains(symbol) || symbol.contains("14shmStrideCheck")
    }

    /// The program's own instructions per click while `symbol` runs: its own work, and the
    /// shared code's (`sharedCode`).
    static func ownPerClick(
        _ way: String, inside symbol: String, short: Int, long: Int,
        symbols: [(start: UInt64, name: String)]
    ) -> (work: Double, shared: Double)? {
        let options = ["--collect-atstart=no", "--toggle-collect=\(symbol)"]
        guard let a = InlinedProfile.run(["--only", "click", way, "\(short)"], options: options),
            let b = InlinedProfile.run(["--only", "click", way, "\(long)"], options: options)
        else { return nil }
        let own = Callgrind.binary
        var work = 0.0
        var shared = 0.0
        for (counts, sign) in [(b, 1.0), (a, -1.0)] {
            for (address, count) in counts.byAddress[own] ?? [:] {
                let name = InlinedProfile.symbol(containing: address, in: symbols) ?? ""
                if sharedCode(name) { shared += sign * count } else { work += sign * count }
            }
        }
        let events = Double(long - short)
        return (work / events, shared / events)
    }

    /// Prints the table; false when a step's function is no longer in the program.
    static func print(short: Int, long: Int) -> Bool {
        let symbols = InlinedProfile.symbolTable(of: Callgrind.binary)
        let defined = Set(symbols.map(\.name))
        func count(_ way: String, _ symbol: String) -> (work: Double, shared: Double)? {
            defined.contains(symbol)
                ? ownPerClick(way, inside: symbol, short: short, long: long, symbols: symbols) : nil
        }
        guard let routed = count("routed", EndToEnd.loopSymbol), let raw = count("raw", EndToEnd.loopSymbol) else {
            Swift.print("(callgrind gave no per-instruction counts)")
            return true
        }
        Swift.print(
            "\nThe routed click's own instructions by step (this program's code, libwayland's and libc's left out),")
        Swift.print("each counted while one function runs; the raw way posts the same 15 events:\n")
        Swift.print("| routed | raw | step |\n|---:|---:|---|")
        var ok = true
        var work: [String: Double] = [:]
        for step in steps {
            guard let c = count("routed", step.symbol) else {
                Swift.print("| FAIL | | \(step.what): \(step.symbol) is not in the program (renamed?) |")
                ok = false
                continue
            }
            work[step.symbol] = c.work
        }
        /// A function's count less the steps' that run inside it.
        func own(_ symbol: String, _ total: Double) -> Double {
            total - steps.filter { $0.inside == symbol }.reduce(0) { $0 + (work[$1.symbol] ?? 0) }
        }
        var sum = 0.0
        for step in steps {
            guard let total = work[step.symbol] else { continue }
            let mine = own(step.symbol, total)
            sum += mine
            Swift.print(String(format: "| %.0f | | %@ |", mine, step.what))
        }
        if let pass = count("routed", sender) {
            sum += own(sender, pass.work)
            Swift.print(
                String(
                    format:
                        "| %.0f | | the sender's pass less the activation: 11 deliveries out of the queue, each to its surface's client and resources (WaylandServer.sendDeliveries) |",
                    own(sender, pass.work)))
        } else {
            Swift.print("| FAIL | | the sender's pass: \(sender) is not in the program (renamed?) |")
            ok = false
        }
        Swift.print(
            String(
                format:
                    "| %.0f | %.0f | the rest: the events' way in (server.handle, Seat.handleEvent), the benchmark's loop; raw: the benchmark's posts |",
                routed.work - sum, raw.work))
        Swift.print(
            String(
                format:
                    "| %.0f | %.0f | inside libwayland's posts either way: the server's protocol logger, the benchmark's allocation counter |",
                routed.shared, raw.shared))
        Swift.print(String(format: "| %.0f | %.0f | in all |", routed.work + routed.shared, raw.work + raw.shared))
        return ok
    }
}
