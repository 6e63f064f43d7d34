import Glibc
import Testing

@testable import InputRouterKeyboard

/// The keymap clients map: sealed so no client can change it for the others.
struct KeymapFileTests {
    @Test(arguments: ["us", "de", "fr", "us,ru"])
    func contentsAndSize(_ layout: String) throws {
        let keymap = try makeState(layout).keymap
        let file = try keymap.clientFile()
        let text = keymap.asString()
        #expect(text.hasPrefix("xkb_keymap {"))
        #expect(file.size == text.utf8.count + 1)
        var info = stat()
        #expect(fstat(file.fd, &info) == 0)
        #expect(Int(info.st_size) == file.size)

        let mapped = try #require(mmap(nil, file.size, PROT_READ, MAP_PRIVATE, file.fd, 0))
        #expect(mapped != MAP_FAILED)
        defer { munmap(mapped, file.size) }
        let bytes = UnsafeRawBufferPointer(start: mapped, count: file.size)
        #expect(bytes.last == 0)
        #expect(String(decoding: bytes.dropLast(), as: UTF8.self) == text)
        // A client rebuilds the same keymap from it.
        let again = try Keymap(context: try XKBContext(), string: String(decoding: bytes.dropLast(), as: UTF8.self))
        #expect(again.asString() == text)
    }

    @Test func oneFileForAllClients() throws {
        let keymap = try makeState("us").keymap
        #expect(try keymap.clientFile() === keymap.clientFile())
        #expect(fcntl(try keymap.clientFile().fd, F_GETFD) & FD_CLOEXEC != 0)
    }

    enum Attack: CaseIterable, Sendable {
        case write, pwriteStart, shrink, grow, mapShared, addSeal, removeSealByNewSeal
    }

    @Test(arguments: Attack.allCases)
    func sealsHold(_ attack: Attack) throws {
        let keymap = try makeState("us").keymap
        let file = try keymap.clientFile()
        #expect(fcntl(file.fd, Seal.get) == Seal.write | Seal.shrink | Seal.grow | Seal.seal)
        // A client gets the fd through SCM_RIGHTS; reopening through /proc gives a
        // writable description like the one a hostile client could make.
        let fd = open("/proc/self/fd/\(file.fd)", O_RDWR)
        try #require(fd >= 0)
        defer { close(fd) }
        errno = 0
        let result: Int
        switch attack {
        case .write: result = "x".withCString { Glibc.write(fd, $0, 1) }
        case .pwriteStart: result = "x".withCString { pwrite(fd, $0, 1, 0) }
        case .shrink: result = Int(ftruncate(fd, 1))
        case .grow: result = Int(ftruncate(fd, off_t(file.size + 4096)))
        case .mapShared:
            let mapped = mmap(nil, file.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
            result = mapped == MAP_FAILED ? -1 : 0
            if mapped != MAP_FAILED { munmap(mapped, file.size) }
        case .addSeal: result = Int(fcntl(fd, Seal.add, Seal.write))
        case .removeSealByNewSeal: result = Int(fcntl(file.fd, Seal.add, Seal.grow))
        }
        #expect(result == -1)
        #expect(errno == EPERM)
        // And the contents are what they were.
        #expect(try Self.read(file) == keymap.asString())
    }

    static func read(_ file: KeymapFile) throws -> String {
        var buffer = [UInt8](repeating: 0, count: file.size)
        let count = pread(file.fd, &buffer, file.size, 0)
        try #require(count == file.size)
        return String(decoding: buffer.dropLast(), as: UTF8.self)
    }
}
