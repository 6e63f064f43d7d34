import Foundation
import InputRouterWireClient

/// The file descriptors the wire fuzzer's clients pass (SCM_RIGHTS): made once per
/// process, so that a run can check it leaves as many fds open as it found.
final class FDPool: @unchecked Sendable {
    static let shared = FDPool()
    /// Bytes of the shared-memory file: a 128 × 128 ARGB buffer fits.
    let shmSize: Int32 = 65536
    private(set) var fds: [Int32] = []
    private(set) var names: [String] = []

    /// Makes the pool the first time `shared` is read: Swift makes a static `let` once,
    /// whichever thread gets there first. (Filled by the first `prepare()` call instead,
    /// two suites' wire runs in parallel filled it at once: ThreadSanitizer, in CI.)
    private init() {
        // A shm file of the right size, an empty one, /dev/null (cannot be mapped
        // shared), and both ends of a pipe (a data offer's target, or nonsense as a pool).
        add(WireSession.memfd(size: Int(shmSize)), "shm 64 KiB")
        add(WireSession.memfd(size: 0), "empty file")
        add(open("/dev/null", O_RDWR | O_CLOEXEC), "/dev/null")
        var p: [Int32] = [-1, -1]
        if pipe(&p) == 0 {
            _ = fcntl(p[1], F_SETFL, fcntl(p[1], F_GETFL) | O_NONBLOCK)
            add(p[0], "pipe read end")
            add(p[1], "pipe write end")
        }
        // Last, so that the older seeds' fd choices keep their meaning: a keymap
        // (zwp_virtual_keyboard_v1.keymap), NUL-terminated as a wl_keyboard keymap is.
        add(Self.file(holding: Array(Self.keymapText.utf8) + [0]), "xkb keymap")
    }

    /// Makes sure the pool exists (its fds count as the process's from then on).
    func prepare() {}

    /// A small xkb keymap (xkbcommon resolves the includes), for virtual keyboards.
    static let keymapText = """
        xkb_keymap {
            xkb_keycodes { include "evdev" };
            xkb_types { include "complete" };
            xkb_compat { include "complete" };
            xkb_symbols { include "pc+us" };
        };
        """
    /// The size a `keymap` request gives for `keymapText`: the text and its NUL.
    public static var keymapSize: UInt32 { UInt32(keymapText.utf8.count + 1) }
    /// The keymap's index in `fds`.
    public static let keymapIndex = 5

    private static func file(holding bytes: [UInt8]) -> Int32 {
        let fd = WireSession.memfd(size: 0)
        guard fd >= 0 else { return -1 }
        let written = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        guard written == bytes.count else {
            close(fd)
            return -1
        }
        return fd
    }

    private func add(_ fd: Int32, _ name: String) {
        guard fd >= 0 else { return }
        fds.append(fd)
        names.append(name)
    }
}
