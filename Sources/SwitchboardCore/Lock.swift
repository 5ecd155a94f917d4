import Synchronization

#if SWITCHBOARD_TSAN
// The thread sanitizer's runtime entry points: a build with it (`Scripts/tsan.sh`) links them in.
@usableFromInline @_silgen_name("__tsan_acquire") func tsanAcquire(_ address: UnsafeMutableRawPointer)
@usableFromInline @_silgen_name("__tsan_release") func tsanRelease(_ address: UnsafeMutableRawPointer)
#endif

/// `Synchronization.Mutex` with one addition: in the thread sanitizer's build, each critical section
/// tells the sanitizer it acquires and releases the lock. On Linux, `Mutex` locks with atomics and a
/// futex the sanitizer does not see, so every access it protects is reported as a race (a ten-line
/// program shows it; the same code under `NSLock` reports nothing). Elsewhere this is the `Mutex`,
/// inlined into its callers like the `Mutex` itself (the coordinator takes it several times per request).
package struct Lock<Value: ~Copyable>: ~Copyable, @unchecked Sendable {
    @usableFromInline let mutex: Mutex<Value>

    @inlinable package init(_ initialValue: consuming sending Value) { mutex = Mutex(initialValue) }

    @inlinable @inline(__always)
    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        #if SWITCHBOARD_TSAN
        // The mutex's own address names the lock: taking the value's would be an access before the acquire.
        let address = withUnsafePointer(to: mutex) { UnsafeMutableRawPointer(mutating: $0) }
        return try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            tsanAcquire(address)
            defer { tsanRelease(address) }
            return try body(&value)
        }
        #else
        return try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in try body(&value) }
        #endif
    }
}
