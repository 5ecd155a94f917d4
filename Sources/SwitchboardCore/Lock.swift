import Synchronization

#if SWITCHBOARD_TSAN
// The thread sanitizer's runtime entry points: a build with it (`Scripts/tsan.sh`) links them in.
@usableFromInline @_silgen_name("__tsan_acquire") func tsanAcquire(_ address: UnsafeMutableRawPointer)
@usableFromInline @_silgen_name("__tsan_release") func tsanRelease(_ address: UnsafeMutableRawPointer)
#endif

/// `Synchronization.Mutex` with one addition: in the thread sanitizer's build, each critical section
/// tells the sanitizer it acquires and releases the lock. On Linux, `Mutex` locks with atomics and a
/// futex the sanitizer does not see, so every access it protects is reported as a race (a ten-line
/// program shows it; the same code under `NSLock` reports nothing).
///
/// Elsewhere `Lock` *is* `Mutex` (a type alias). A wrapper struct, even `@inlinable`, was not inlined
/// across modules: every `withLock` (317 call sites in the bench binary) became a call to the generic,
/// unspecialized function, which looked up `Mutex<Value>`'s metadata at run time (5 % of the route
/// benchmark's samples in `_swift_getGenericMetadata`, ~7 locks per request). `Mutex.withLock` is
/// emitted into its callers and specialized there.
#if !SWITCHBOARD_TSAN
package typealias Lock<Value: ~Copyable> = Mutex<Value>
#else
package struct Lock<Value: ~Copyable>: ~Copyable, @unchecked Sendable {
    @usableFromInline let mutex: Mutex<Value>

    @inlinable package init(_ initialValue: consuming sending Value) { mutex = Mutex(initialValue) }

    @inlinable @inline(__always)
    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        // The mutex's own address names the lock: taking the value's would be an access before the acquire.
        let address = withUnsafePointer(to: mutex) { UnsafeMutableRawPointer(mutating: $0) }
        return try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            tsanAcquire(address)
            defer { tsanRelease(address) }
            return try body(&value)
        }
    }
}
#endif
