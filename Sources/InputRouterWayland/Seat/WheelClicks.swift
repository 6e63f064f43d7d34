// Wheel clicks for `wl_pointer` before version 8, which has no `axis_value120`. libinput
// may spread one click over several hi-res events (three of value120 = 40); sending
// `value120 / 120` per event would lose every such click. Instead the value120 amounts and
// their scroll values are summed per axis, and an old client is sent one `axis_discrete` +
// `axis` when a whole click is complete, carrying the summed value: nothing in between.
// The sums restart when the direction changes, on `axis_stop`, and on a new enter (half a
// click never carries over to another surface). What wlroots does for old clients, too.
import InputRouter

struct WheelClicks {
    private struct Sum {
        var value120: Int64 = 0
        var value: Double = 0
    }
    private var vertical = Sum()
    private var horizontal = Sum()

    /// Adds one wheel event. Returns the whole clicks now complete and the scroll value
    /// they carry, or nil while the sum is still less than a click.
    mutating func add(_ axis: Axis, value120: Int32, value: Double) -> (clicks: Int32, value: Double)? {
        var s = axis == .vertical ? vertical : horizontal
        defer { if axis == .vertical { vertical = s } else { horizontal = s } }
        if (s.value120 > 0 && value120 < 0) || (s.value120 < 0 && value120 > 0) { s = Sum() }
        s.value120 += Int64(value120)
        s.value += value
        let clicks = s.value120 / 120
        guard clicks != 0 else { return nil }
        s.value120 -= clicks * 120
        let carried = s.value
        s.value = 0
        return (Int32(clamping: clicks), carried)
    }

    mutating func reset(_ axis: Axis) {
        if axis == .vertical { vertical = Sum() } else { horizontal = Sum() }
    }

    mutating func resetAll() { self = WheelClicks() }
}
