// The keys and the buttons each device holds, in press order, for releasing them when the
// device goes away. In `Seat.DeviceState` they were an array inside an array: a press or
// release paid two uniqueness checks and two bounds checks (~35 instructions per key, and
// per button until buttons moved here too). Here each device's list is a plain buffer that
// grows like an array (by reallocation, only past its capacity), in a table the seat owns
// and its deinit frees; the seat has one table for keys and one for buttons.

/// One device's held codes in press order; a code pressed twice without a release (a broken
/// or hostile device) is in it twice, so it grows.
struct CodeList {
    private var base: UnsafeMutablePointer<UInt32>
    private(set) var count = 0
    private var capacity: Int

    /// Room for a few held keys up front, so that a press never allocates.
    init() {
        capacity = 8
        base = .allocate(capacity: capacity)
    }

    @inline(__always) mutating func append(_ code: UInt32) {
        if count == capacity { grow() }
        base[count] = code
        count += 1
    }

    @inline(never) private mutating func grow() {
        let bigger = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity *= 2
    }

    /// Removes the last occurrence of `code`: usually the newest key, then no search.
    @inline(__always) mutating func remove(_ code: UInt32) {
        if count > 0 && base[count - 1] == code {
            count -= 1
            return
        }
        removeCode(code, from: base, count: &count)
    }

    /// A copy, to release from while the list changes.
    var codes: [UInt32] { Array(UnsafeBufferPointer(start: base, count: count)) }

    mutating func removeAll() { count = 0 }

    func deallocate() { base.deallocate() }
}

/// Every device's `CodeList`, indexed by `DeviceID.slot`; the first
/// `Seat.preallocatedDevices` made up front. A device first seen by a press gets its list
/// then (a release from a device that pressed nothing has nothing to remove).
struct DeviceHolds {
    private var lists: UnsafeMutablePointer<CodeList>
    private var count: Int

    init(devices: Int) {
        count = devices
        lists = .allocate(capacity: devices)
        for i in 0..<devices { (lists + i).initialize(to: CodeList()) }
    }

    @inline(__always) mutating func track(device: DeviceID, code: UInt32, pressed: Bool) {
        let i = device.slot
        if i >= count {
            guard pressed else { return }
            grow(to: i + 1)
        }
        if pressed { lists[i].append(code) } else { lists[i].remove(code) }
    }

    @inline(never) private mutating func grow(to n: Int) {
        let bigger = UnsafeMutablePointer<CodeList>.allocate(capacity: n)
        bigger.moveInitialize(from: lists, count: count)
        for i in count..<n { (bigger + i).initialize(to: CodeList()) }
        lists.deallocate()
        lists = bigger
        count = n
    }

    /// What `device` holds, oldest first (a copy).
    func held(by device: DeviceID) -> [UInt32] {
        let i = device.slot
        return i < count ? lists[i].codes : []
    }

    /// Every device's holds by `DeviceID.slot`, for snapshots (a copy; devices holding nothing left out).
    var allHeld: [(slot: Int, codes: [UInt32])] {
        (0..<count).compactMap { i in lists[i].count == 0 ? nil : (i, lists[i].codes) }
    }

    mutating func forget(_ device: DeviceID) {
        let i = device.slot
        if i < count { lists[i].removeAll() }
    }

    func deallocate() {
        for i in 0..<count { lists[i].deallocate() }
        lists.deallocate()
    }
}
