/// LLVM's portable prefetch intrinsic (x86 `prefetcht0`, ARM `prfm pldl1keep`), reached by name: the
/// standard library exposes no prefetch. Decode streams each weight matrix once, and this machine's
/// hardware prefetchers leave most of the memory latency exposed; asking for rows a few steps
/// ahead keeps enough cache-line reads in flight (see Docs/Inference.md § Decode and memory).
@_silgen_name("llvm.prefetch.p0")
private func llvmPrefetch(_ address: UnsafeRawPointer, _ write: Int32, _ locality: Int32, _ cacheType: Int32)

enum Prefetch {
    /// Hints that the bytes `address..<address + count` will be read soon (one request per
    /// 64-byte line). Never faults, even past the end of a mapping.
    @inline(__always)
    static func read(_ address: UnsafeRawPointer, count: Int) {
        // The thread sanitizer's build turns this call into an `invoke`, which LLVM refuses for an
        // intrinsic (a compiler crash); Scripts/tsan.sh defines this flag, and a hint may be skipped.
        #if SWITCHBOARD_NO_PREFETCH
        return
        #else
        guard count > 0 else { return }
        var offset = 0
        while offset < count {
            llvmPrefetch(address + offset, 0, 3, 1)
            offset &+= 64
        }
        llvmPrefetch(address + (count - 1), 0, 3, 1)
        #endif
    }
}
