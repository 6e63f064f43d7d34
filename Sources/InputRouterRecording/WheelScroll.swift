// Wheel scrolling from REL_WHEEL_HI_RES / REL_HWHEEL_HI_RES. libinput's legacy
// POINTER_AXIS (all that `libinput record` 1.22 prints) fires only on whole detents; the
// hi-res counts in the same evdev frame carry the value120 a Wayland client wants.
// Sign: the kernel's wheel is positive "up", libinput's and Wayland's vertical scroll is
// positive "down"; horizontal is positive "right" in both.

import InputRouter

enum WheelScroll {
    /// A wheel axis event for the given value120 amounts (already in Wayland's sign);
    /// the scroll value is `value120 / 120` detents times the click angle, as libinput's
    /// scroll-wheel value is.
    static func event(vertical120: Int64, horizontal120: Int64, degreesPerDetent: Double) -> InputEvent.Kind {
        func axis(_ amount: Int64) -> AxisValue? {
            guard amount != 0 else { return nil }
            let clamped = Int32(clamping: amount)
            return AxisValue(value: Double(clamped) * degreesPerDetent / 120, value120: clamped)
        }
        return .pointerAxis(source: .wheel, vertical: axis(vertical120), horizontal: axis(horizontal120))
    }
}
