import Foundation
import WireClient

/// The file descriptors the wire fuzzer's clients pass (SCM_RIGHTS): made once per
/// process, so that a run can check it leaves as many fds open as it found.
final class FDPool: @unchecked Sendable {
    static let shared = FDPool()
    /// Bytes of the shared-memory file: a 128 × 128 ARGB buffer fits.
    let shmSize: Int32 = 65536
    private(set) var fds: [Int32] = []
    private(set) var names: [String] = []

    func prepare() {
        guard fds.isEmpty else { return }
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
    }

    private func add(_ fd: Int32, _ name: String) {
        guard fd >= 0 else { return }
        fds.append(fd)
        names.append(name)
    }
}
