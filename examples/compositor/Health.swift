// What a long run (`make soak`) reads of the compositor while it runs: a stats line on
// standard error every --stats-every seconds, and with --check-invariants every delivery
// through the core's invariant checker and a model of what each client believes is held,
// asked again each time --loop-inputs has unplugged every replayed device.
import Foundation
import InputRouter
import InputRouterFuzzing
import InputRouterWayland

/// The checker and the client model in front of nothing: they only watch.
@MainActor final class HealthChecks {
    let server: WaylandServer
    var checker: InvariantChecker<ClientModel<NullSink>>
    /// Violations already printed, and what every check found in all.
    var printed = 0
    var stuckFound = 0
    /// Unplugs after which nothing was held (`checkNothingHeld` ran), and those it waited out.
    var heldChecks = 0
    var heldChecksDeferred = 0

    init(server: WaylandServer) {
        self.server = server
        checker = InvariantChecker(
            wrapping: ClientModel(wrapping: NullSink(), router: server.router), router: server.router)
    }

    func deliver(_ d: Delivery, from queue: DeliveryQueue) {
        checker.deliver(d, from: queue)
        // Each new violation once, as it comes (at most 100: a broken rule repeats).
        while printed < checker.violations.count, printed < 100 {
            report("violation: \(checker.violations[printed])")
            printed += 1
        }
    }

    /// Once no device is plugged in: nothing may be held, as any client or the seat sees it.
    /// A client's virtual keyboard or pointer (wl-hostile makes them) may still be plugged in
    /// when the replayed devices go, and what it holds is held for real, released when it
    /// goes: then the check waits for the next unplug. In a 60-minute soak, keys a hostile
    /// client's virtual keyboard held were reported stuck on the window that had them.
    func checkNothingHeld() {
        guard server.router.seats.allSatisfy({ $0.presentCapabilities.isEmpty }) else {
            heldChecksDeferred += 1
            return
        }
        heldChecks += 1
        var problems = checker.inner.stuck()
        for seat in server.router.seats {
            if seat.activeTouchCount != 0 {
                problems.append("\(seat.name): \(seat.activeTouchCount) touch points still active")
            }
            if seat.tabletToolsInProximity != 0 {
                problems.append("\(seat.name): \(seat.tabletToolsInProximity) tablet tools still in proximity")
            }
            if seat.keyTranslator != nil, seat.modifiers.depressed != 0 {
                problems.append("\(seat.name): modifiers \(seat.modifiers) still depressed")
            }
        }
        for p in problems { report("stuck: \(p)") }
        stuckFound += problems.count
    }

    /// Keeps the models at the size of what is alive now.
    func forgetGone() {
        checker.forgetGone()
        checker.inner.forgetGone()
    }
}

func report(_ line: String) { FileHandle.standardError.write(Data("ir-compositor: \(line)\n".utf8)) }

/// One stats line: `ir-compositor: stats t=SECONDS clients=N objects=N departed-clients=N
/// departed-objects=N nodes=N client-nodes=N [events=N loops=N] [violations=N stuck=N held-checks=N
/// held-checks-deferred=N]` (docs/soak.md reads it); `input`: the replayed events and the loops of
/// --loop-inputs so far.
@MainActor func reportStats(server: WaylandServer, health: HealthChecks?, since start: Date, input: (Int, Int)?) {
    let census = server.objectCensus()
    var line = String(format: "stats t=%.1f", Date().timeIntervalSince(start))
    line += " clients=\(census.clients) objects=\(census.objects)"
    line += " departed-clients=\(census.departedClients) departed-objects=\(census.departedObjects)"
    line += " nodes=\(server.router.tree.nodeCount) client-nodes=\(server.router.tree.clientNodeCount)"
    if let (events, loops) = input { line += " events=\(events) loops=\(loops)" }
    if let health {
        health.forgetGone()
        line += " violations=\(health.checker.violations.count) stuck=\(health.stuckFound)"
        line += " held-checks=\(health.heldChecks) held-checks-deferred=\(health.heldChecksDeferred)"
    }
    report(line)
}
