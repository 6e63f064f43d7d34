// The process-wide catalogue behind `DeviceDescription.Reference` (DeviceDescription.swift
// says who refers to an entry). An entry lives while it is held (a `Hold`, a seat's device
// table) or in flight (handed out, not yet taken by a seat), and goes with the last of
// these: nothing else keeps it. In-flight hand-outs are bounded, oldest dropped first, so
// events nobody routes cannot grow it without end. Only device arrival and removal touch
// it, under a lock (sources and readers may run on any thread; Locked.swift says why not
// Synchronization's Mutex).

struct DeviceDescriptionCatalogue {
    struct Entry {
        var description: DeviceDescription
        /// Holds and seat device tables that keep it.
        var holds = 0
        /// Hand-outs no seat has taken yet (each also in `inFlight`).
        var handOuts = 0
    }

    private var entries: [UInt32: Entry] = [:]
    private var numbers: [DeviceDescription: UInt32] = [:]
    /// The hand-outs not yet taken, oldest first, with when each was made.
    private var inFlight: [(number: UInt32, made: ContinuousClock.Instant)] = []
    private var lastNumber: UInt32 = 0

    static let shared = Locked(DeviceDescriptionCatalogue())

    var descriptions: [DeviceDescription] { entries.values.map(\.description) }

    func description(_ reference: DeviceDescription.Reference) -> DeviceDescription? {
        entries[reference.number]?.description
    }

    /// The live entry for `d`, made when there is none. A number is never given twice
    /// while it is live; counting up, it would take 2³² device arrivals to come back.
    private mutating func number(for d: DeviceDescription) -> UInt32 {
        if let n = numbers[d] { return n }
        repeat { lastNumber &+= 1 } while lastNumber == 0 || entries[lastNumber] != nil
        entries[lastNumber] = Entry(description: d)
        numbers[d] = lastNumber
        return lastNumber
    }

    mutating func handOut(_ d: DeviceDescription) -> DeviceDescription.Reference {
        let n = number(for: d)
        entries[n]!.handOuts += 1
        let now = ContinuousClock.now
        inFlight.append((n, now))
        // Past the limit the oldest go, but none younger than the grace: an event on its way
        // to a seat (its thread preempted, say) keeps its description whatever else is made.
        while inFlight.count > DeviceDescription.inFlightLimit, now - inFlight[0].made > DeviceDescription.inFlightGrace {
            let oldest = inFlight.removeFirst().number
            entries[oldest]!.handOuts -= 1
            forgetIfUnused(oldest)
        }
        return DeviceDescription.Reference(number: n)
    }

    mutating func hold(_ d: DeviceDescription) -> DeviceDescription.Reference {
        let n = number(for: d)
        entries[n]!.holds += 1
        return DeviceDescription.Reference(number: n)
    }

    /// One more hold of a live entry; false for `.none` or a forgotten one.
    mutating func hold(_ r: DeviceDescription.Reference) -> Bool {
        guard entries[r.number] != nil else { return false }
        entries[r.number]!.holds += 1
        return true
    }

    /// A seat routed a `deviceAdded` carrying `r`: one hand-out of it (if any is still in
    /// flight) becomes the seat's hold. nil for `.none` or a forgotten entry.
    mutating func take(_ r: DeviceDescription.Reference) -> DeviceDescription? {
        guard var entry = entries[r.number] else { return nil }
        if entry.handOuts > 0, let k = inFlight.firstIndex(where: { $0.number == r.number }) {
            inFlight.remove(at: k)
            entry.handOuts -= 1
        }
        entry.holds += 1
        entries[r.number] = entry
        return entry.description
    }

    mutating func release(_ r: DeviceDescription.Reference) {
        guard entries[r.number] != nil else { return }
        entries[r.number]!.holds -= 1
        forgetIfUnused(r.number)
    }

    private mutating func forgetIfUnused(_ n: UInt32) {
        guard let entry = entries[n], entry.holds <= 0, entry.handOuts <= 0 else { return }
        entries[n] = nil
        numbers[entry.description] = nil
    }
}
