// The configure serials an xdg_surface sent and its client has not acknowledged, oldest
// first, at most the newest 64. A ring inside the object: a client that never acks (the
// benchmark's, a frozen one) made each configure shift an array by one (`removeFirst`);
// here a configure is a store and two additions, and an ack drops the acked serial and
// every older one, as xdg-shell says ("the client may send multiple ack_configure ...
// only the last one counts"; older configures are implicitly acknowledged).
struct ConfigureSerials {
    static let capacity = 64
    private var ring = InlineArray<64, UInt32>(repeating: 0)
    /// Index of the oldest serial kept.
    private var start = 0
    private(set) var count = 0

    /// A configure went out with `serial`; the oldest is forgotten when 64 are waiting.
    @inline(__always) mutating func append(_ serial: UInt32) {
        if count == ConfigureSerials.capacity {
            ring[start] = serial
            start = (start + 1) & (ConfigureSerials.capacity - 1)
        } else {
            ring[(start + count) & (ConfigureSerials.capacity - 1)] = serial
            count += 1
        }
    }

    /// The ack of `serial`: it and every older serial are dropped. False, and nothing
    /// dropped, when `serial` is not waiting (never sent, already acked, or forgotten).
    mutating func acknowledge(_ serial: UInt32) -> Bool {
        for i in 0..<count where ring[(start + i) & (ConfigureSerials.capacity - 1)] == serial {
            start = (start + i + 1) & (ConfigureSerials.capacity - 1)
            count -= i + 1
            return true
        }
        return false
    }

    /// Whether `serial` was sent and is still waiting for its ack.
    func contains(_ serial: UInt32) -> Bool {
        for i in 0..<count where ring[(start + i) & (ConfigureSerials.capacity - 1)] == serial { return true }
        return false
    }

    /// The waiting serials, oldest first (for tests and traces; allocates).
    var serials: [UInt32] { (0..<count).map { ring[(start + $0) & (ConfigureSerials.capacity - 1)] } }
}
