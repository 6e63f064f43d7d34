// The device ids of the virtual devices the server makes (virtual pointers and keyboards,
// input methods' keyboards). Each is an input device of its seat, as a libinput device is,
// so it needs a `DeviceID` no source will ever use: they are numbered from
// `DeviceID.firstServerMade` (2³¹) up, while sources number theirs from 0 up (libinput from
// its `deviceIDBase`, recordings, the nested backend, tests). The core's per-device tables
// interleave the two ranges (`DeviceID.slot`), so both stay small. An id is free again once
// its device was removed, and the lowest free one is used next: the tables grow only as far
// as the most virtual devices present at once. One sequence for every seat.
import InputRouter

struct VirtualDeviceIDs {
    private var inUse: [Bool] = []

    /// The lowest id not in use, now in use.
    mutating func take() -> DeviceID {
        let i = inUse.firstIndex(of: false) ?? inUse.count
        if i == inUse.count { inUse.append(true) } else { inUse[i] = true }
        return DeviceID(DeviceID.firstServerMade + UInt32(i))
    }

    /// `id`'s device was removed: the id may be used again.
    mutating func give(back id: DeviceID) {
        guard id.isServerMade else { return }
        let i = Int(id.index - DeviceID.firstServerMade)
        if i < inUse.count { inUse[i] = false }
    }

    /// How many are in use (for tests and diagnostics).
    var count: Int { inUse.lazy.filter { $0 }.count }
}
