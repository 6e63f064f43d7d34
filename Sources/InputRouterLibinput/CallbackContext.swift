// Unsafe idioms, and why: libinput (opening and closing devices, its log handler) and libseat
// (seat enabled, disabled) call back with a `void *` context of ours. `Unmanaged` is Swift's
// one way to turn an object into that pointer and back, and nothing checks that the pointer
// still names a live object of the type read back: the callers keep each object alive for as
// long as its callback can run. Every such conversion in this module goes through this file,
// so there is one place to audit. Contexts are made once per object and read once per
// callback, never per routed event: there is no cost to measure.

/// A Swift object as the `void *` a C library hands back to its callback, and back again.
/// `unretained` when something else keeps the object alive for as long as C may call;
/// `retained` when the pointer itself owns it, until `release`.
enum CallbackContext {
    static func unretained(_ object: AnyObject) -> UnsafeMutableRawPointer {
        Unmanaged.passUnretained(object).toOpaque()
    }

    static func retained(_ object: AnyObject) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(object).toOpaque()
    }

    /// The object behind `context`, which must be a `T` made into a context here.
    static func borrowed<T: AnyObject>(_ context: UnsafeRawPointer, as type: T.Type) -> T {
        Unmanaged<T>.fromOpaque(context).takeUnretainedValue()
    }

    /// Gives up the reference `retained` took.
    static func release<T: AnyObject>(_ context: UnsafeRawPointer, as type: T.Type) {
        Unmanaged<T>.fromOpaque(context).release()
    }
}
