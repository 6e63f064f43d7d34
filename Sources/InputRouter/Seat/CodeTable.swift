// Fixed per-code storage for the key path. Each key transition writes the seat's count and
// recipient for its code and its held list; as arrays in the seat (a class), every write
// paid a uniqueness check and a bounds check (wayland-bench's profile: six
// `swift_isUniquelyReferenced` per routed key). Both are allocated once, when the seat is
// made, and freed by its deinit: the seat owns them, so neither counts references.

/// One entry per key code below `Seat.codeCount`, for trivial elements.
struct CodeTable<Element> {
    private let base: UnsafeMutablePointer<Element>

    init(repeating value: Element) {
        base = .allocate(capacity: Seat.codeCount)
        base.initialize(repeating: value, count: Seat.codeCount)
    }

    var count: Int { Seat.codeCount }

    /// The caller has checked `code` against `Seat.codeCount` (a code past it is dropped
    /// before it gets here); the check stays so that a mistake traps instead of writing past.
    subscript(code: Int) -> Element {
        @inline(__always) get {
            precondition(UInt(bitPattern: code) < UInt(Seat.codeCount))
            return base[code]
        }
        @inline(__always) nonmutating set {
            precondition(UInt(bitPattern: code) < UInt(Seat.codeCount))
            base[code] = newValue
        }
    }

    func deallocate() { base.deallocate() }
}

/// The codes the seat forwarded and still holds, in press order. Each code is in it at most
/// once (a press is forwarded only when its seat-wide count goes from 0 to 1), so
/// `Seat.codeCount` entries always suffice.
struct HeldCodes: Sequence {
    private let base: UnsafeMutablePointer<UInt32>
    private(set) var count = 0

    init() { base = .allocate(capacity: Seat.codeCount) }

    var isEmpty: Bool { count == 0 }

    @inline(__always) mutating func append(_ code: UInt32) {
        precondition(count < Seat.codeCount, "a code held twice")
        base[count] = code
        count += 1
    }

    /// Removes `code`: usually the newest, else found from the end and the rest shifted down.
    @inline(__always) mutating func remove(_ code: UInt32) {
        if count > 0 && base[count - 1] == code {
            count -= 1
            return
        }
        removeCode(code, from: base, count: &count)
    }

    func makeIterator() -> UnsafeBufferPointer<UInt32>.Iterator {
        UnsafeBufferPointer(start: base, count: count).makeIterator()
    }

    func deallocate() { base.deallocate() }
}

/// Removes the last occurrence of `code` from the first `count` codes at `base`, shifting
/// the rest down (nothing when it is not there): the slow side of both lists' `remove`,
/// whose fast side is the newest code.
@inline(never) func removeCode(_ code: UInt32, from base: UnsafeMutablePointer<UInt32>, count: inout Int) {
    var i = count - 1
    while i >= 0 && base[i] != code { i -= 1 }
    guard i >= 0 else { return }
    (base + i).update(from: base + i + 1, count: count - i - 1)
    count -= 1
}
