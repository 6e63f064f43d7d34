// A value behind a pthread mutex. Synchronization's `Mutex` locks with bare futex calls on
// Linux, which ThreadSanitizer cannot see: two threads in `withLock` are reported as a race
// (`make test-sanitizers` did, on the device description catalogue). A pthread mutex is
// one ThreadSanitizer knows. For state touched at device arrival and removal, never per
// event.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, no other thread inside at the same time.
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
