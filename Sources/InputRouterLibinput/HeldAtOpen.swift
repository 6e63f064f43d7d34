// Modifier keys already down when libinput opens a keyboard, which libinput never reports:
// it sends no press for a key held at open, and drops the key's release later as one it
// never saw pressed. After a VT switch back every keyboard is opened anew, so a Shift held
// across the switch would type lower case on return, and nothing would say when it is let
// go. The source reads the device's key state itself (EVIOCGKEY, on the fd it opened for
// libinput: the kernel's bitmap, no event taken from the queue), routes a press for each
// modifier held, and routes its release once the bitmap shows it up (checked after each
// dispatch, while any device has such a key: its release wakes libinput's fd).
//
// Modifiers only: another key held at open is most often the end of the chord that made
// the switch (Ctrl+Alt+F1), and a press of it now would have the focused client act on it.

import CLibinputShim

enum HeldAtOpen {
    /// evdev's modifier keys: Ctrl, Shift, Alt and Meta (Super), left and right.
    static let modifierKeys: [UInt32] = [29, 42, 54, 56, 97, 100, 125, 126]

    /// The kernel's key bitmap covers KEY_MAX (0x2ff): 96 bytes.
    static let bitmapBytes = 96

    /// Which of `keys` the device behind `fd` has down now (none when it cannot be read).
    static func down(_ keys: [UInt32], fd: Int32) -> [UInt32] {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bitmapBytes) { bits in
            bits.initialize(repeating: 0)
            guard ir_evdev_keys_down(fd, bits.baseAddress, UInt(bitmapBytes)) >= 0 else { return [] }
            return keys.filter { Int($0) / 8 < bitmapBytes && bits[Int($0) / 8] & (1 << ($0 % 8)) != 0 }
        }
    }
}
