import CXKBCommon
import Glibc

/// The keymap as clients receive it through `wl_keyboard.keymap`: a sealed memfd holding
/// the text and a trailing NUL (`size` counts it, as the protocol's format expects).
/// Sealed against write, shrink and grow, so one fd can be shared by every client and no
/// client can change what another maps.
public final class KeymapFile {
    /// The memfd to send with `wl_keyboard.keymap`; closed when this object goes.
    public let fd: Int32
    /// The size to send with it, in bytes, the trailing NUL included.
    public let size: Int

    init(contents: String) throws {
        var bytes = Array(contents.utf8)
        bytes.append(0)
        let fd = ir_memfd_create("xkb-keymap", Memfd.cloexec | Memfd.allowSealing)
        guard fd >= 0 else { throw KeyboardError.keymapFileFailed(step: "memfd_create", errno: errno) }
        do {
            try Self.writeAll(fd: fd, bytes)
            let seals = Seal.write | Seal.shrink | Seal.grow | Seal.seal
            guard fcntl(fd, Seal.add, seals) == 0 else {
                throw KeyboardError.keymapFileFailed(step: "F_ADD_SEALS", errno: errno)
            }
        } catch {
            close(fd)
            throw error
        }
        self.fd = fd
        self.size = bytes.count
    }

    deinit { close(fd) }

    private static func writeAll(fd: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                pwrite(fd, $0.baseAddress! + offset, bytes.count - offset, off_t(offset))
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw KeyboardError.keymapFileFailed(step: "write", errno: errno)
            }
            offset += written
        }
    }
}

// Swift's Glibc module hides the _GNU_SOURCE-only memfd API. The values are Linux ABI
// (include/uapi/linux/memfd.h and fcntl.h) and never change.
enum Memfd {
    static let cloexec: UInt32 = 0x0001
    static let allowSealing: UInt32 = 0x0002
}

enum Seal {
    static let add: Int32 = 1024 + 9 // F_ADD_SEALS
    static let get: Int32 = 1024 + 10 // F_GET_SEALS
    static let seal: Int32 = 0x0001
    static let shrink: Int32 = 0x0002
    static let grow: Int32 = 0x0004
    static let write: Int32 = 0x0008
}
