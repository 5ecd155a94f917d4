import Foundation

/// Keys and values of every processed position, per layer. Global layers keep every position up to
/// the session's context limit; sliding-window layers keep a ring of `window + batch` slots (the
/// extra `batch` slots let a whole prefill batch be written before its attention reads the window).
///
/// Keys are stored position-major, values dimension-major (each dimension's values over the slots
/// are contiguous, as llama.cpp's transposed V cache, for the attention's position-order sums).
/// Slot counts are multiples of 16 so 16-position chunks never wrap.
/// Stored as fp16 bit patterns, llama.cpp's default cache type: attention reads them back exactly
/// (`AttentionLanes.loadHalves`, one `vcvtph2ps` per vector), and a decode step at long context,
/// which streams the whole cache, reads half the bytes f32 storage did; memory is mapped up front but only
/// touched pages become resident, and `release(from:)` hands pages back (a batched engine's KV
/// budget, `KVBudget`).
final class KVCache {
    /// One cached number: an IEEE fp16 bit pattern.
    typealias Cell = UInt16

    struct Layer {
        let keys: UnsafeMutablePointer<Cell>
        let values: UnsafeMutablePointer<Cell>
        let slots: Int
        let isRing: Bool
        /// Keys and values are anonymous mappings (released with `madvise`, freed with `munmap`).
        var isMapped = false

        @inline(__always)
        func slot(_ position: Int) -> Int { isRing ? position % slots : position }

        /// The slot `n` (at most `slots`) positions after `slot`: attention walks positions in order
        /// and wraps by subtraction instead of dividing once per position.
        @inline(__always)
        func slot(_ slot: Int, advancedBy n: Int) -> Int { let next = slot + n; return next >= slots ? next - slots : next }
    }

    let layers: [Layer]
    /// Cells per position (kv heads × head length).
    let width: Int

    init(architecture a: ModelArchitecture, contextLength: Int, batch: Int) {
        width = a.headCountKV * a.keyLength
        layers = (0..<a.blockCount).map { il in
            let ring = a.isSlidingWindow(layer: il) && a.slidingWindow + batch + 32 < contextLength
            let slots = ring ? (a.slidingWindow + batch + 15) / 16 * 16 + 16 : (contextLength + 15) / 16 * 16
            let w = a.headCountKV * a.keyLength
            let keys = Self.mapZeroed(slots * w), values = Self.mapZeroed(slots * w)
            if let keys, let values { return Layer(keys: keys, values: values, slots: slots, isRing: ring, isMapped: true) }
            if let keys { munmap(keys, slots * w * MemoryLayout<Cell>.stride) }
            if let values { munmap(values, slots * w * MemoryLayout<Cell>.stride) }
            return Layer(keys: Self.allocateZeroed(slots * w), values: Self.allocateZeroed(slots * w), slots: slots, isRing: ring)
        }
    }

    deinit {
        for layer in layers {
            if layer.isMapped {
                munmap(layer.keys, bytes(layer)); munmap(layer.values, bytes(layer))
            } else {
                layer.keys.deallocate(); layer.values.deallocate()
            }
        }
    }

    /// Zero-filled without touching the pages (fresh anonymous pages read as zero): attention
    /// multiplies never-written slots by probability 0, which must not meet garbage NaNs, yet unused
    /// context must not become resident. Pages released with `madvise` read as zero again.
    private static func mapZeroed(_ count: Int) -> UnsafeMutablePointer<Cell>? {
        let raw = mmap(nil, max(1, count) * MemoryLayout<Cell>.stride, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let raw, raw != UnsafeMutableRawPointer(bitPattern: -1) else { return nil }
        return raw.bindMemory(to: Cell.self, capacity: count)
    }

    /// Out of address space for a mapping: an initialized allocation (fails loudly if memory is
    /// truly exhausted); its pages are never released early.
    private static func allocateZeroed(_ count: Int) -> UnsafeMutablePointer<Cell> {
        let p = UnsafeMutablePointer<Cell>.allocate(capacity: max(1, count))
        p.initialize(repeating: 0, count: max(1, count))
        return p
    }

    /// Hands back the memory of positions `position..<end` (whole pages inside that range; they read
    /// as zero afterwards). A ring layer is released only as a whole (`position` 0). `end` bounds the
    /// work to what was written: each value row is its own range, one `madvise` per touched row.
    func release(from position: Int, upTo end: Int = .max) {
        let cell = MemoryLayout<Cell>.stride
        for layer in layers where layer.isMapped {
            if layer.isRing || position <= 0 {
                if position <= 0 { Self.discard(layer.keys, from: 0, to: bytes(layer)); Self.discard(layer.values, from: 0, to: bytes(layer)) }
                continue
            }
            let first = min(position, layer.slots), last = min(max(first, end), layer.slots)
            guard last > first else { continue }
            // The page holding `last` has nothing older than `first` in it (that page starts after
            // `first`'s), so it goes too: up to the page end, within the array or the value row.
            Self.discard(layer.keys, from: first * width * cell, through: last * width * cell, within: bytes(layer))
            for d in 0..<width {
                let row = d * layer.slots
                Self.discard(layer.values, from: (row + first) * cell, through: (row + last) * cell, within: (row + layer.slots) * cell)
            }
        }
    }

    /// Resident bytes once positions `0..<positions` are written: keys by whole pages, and values by
    /// whole pages of every dimension's row (the dimension-major layout touches one page per row).
    func residentBytes(positions: Int) -> Int {
        let cell = MemoryLayout<Cell>.stride, page = Self.pageSize
        func pages(_ bytes: Int) -> Int { (bytes + page - 1) / page * page }
        return layers.reduce(0) { sum, layer in
            let p = max(0, min(positions, layer.slots))
            let values = min(width * pages(p * cell), pages(bytes(layer)))
            return sum &+ pages(p * width * cell) &+ values
        }
    }

    /// Bytes of one layer's keys (and of its values).
    private func bytes(_ layer: Layer) -> Int { layer.slots * width * MemoryLayout<Cell>.stride }

    /// `madvise(DONTNEED)` on the whole pages within bytes `start..<end` of `base`.
    private static func discard(_ base: UnsafeMutablePointer<Cell>, from start: Int, to end: Int) {
        let page = Self.pageSize
        let address = Int(bitPattern: UnsafeRawPointer(base))
        let low = (address + start + page - 1) / page * page, high = (address + end) / page * page
        guard high > low, let pointer = UnsafeMutableRawPointer(bitPattern: low) else { return }
        _ = madvise(pointer, high - low, Int32(MADV_DONTNEED))
    }

    /// `discard` from `start` to the end of the page holding byte `end - 1`, but not past `limit`.
    private static func discard(_ base: UnsafeMutablePointer<Cell>, from start: Int, through end: Int, within limit: Int) {
        let page = Self.pageSize
        let address = Int(bitPattern: UnsafeRawPointer(base))
        let pageEnd = (address + end + page - 1) / page * page - address
        discard(base, from: start, to: min(pageEnd, limit))
    }

    private static let pageSize = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))

    /// Copies positions `0..<count` of every layer from `source`, a cache of the same shape (another
    /// slot of the same session). Only for models without ring layers (`BatchedSession.sharesPrefixes`).
    func copyPrefix(_ count: Int, from source: KVCache) {
        assert(width == source.width && layers.count == source.layers.count, "caches of one session share a shape")
        for (layer, from) in zip(layers, source.layers) {
            assert(!layer.isRing && layer.slots == from.slots, "prefixes are shared only without ring layers")
            let n = max(0, min(count, layer.slots, from.slots))
            layer.keys.update(from: from.keys, count: n * width)
            for d in 0..<width { (layer.values + d * layer.slots).update(from: from.values + d * from.slots, count: n) }
        }
    }

    /// Stores one position's key and value, rounded to fp16.
    func store(layer il: Int, position: Int, key: UnsafePointer<Float>, value: UnsafePointer<Float>) {
        let layer = layers[il]
        let base = layer.slot(position) * width
        let slot = layer.slot(position)
        for i in 0..<width {
            layer.keys[base + i] = Float16(key[i]).bitPattern
            layer.values[i * layer.slots + slot] = Float16(value[i]).bitPattern
        }
    }
}

/// Keys and values of a run of positions of every layer, copied out of a `KVCache` (the prefix
/// cache's payload, `PrefixCache`): per layer, keys position-major and values dimension-major, as in
/// the cache. Heap memory of this process only; never written anywhere.
final class KVBlock {
    let count: Int
    let keys: [KVCache.Cell]
    let values: [KVCache.Cell]
    var bytes: Int { (keys.count + values.count) * MemoryLayout<KVCache.Cell>.stride }

    init(count: Int, keys: [KVCache.Cell], values: [KVCache.Cell]) { self.count = count; self.keys = keys; self.values = values }

    /// Bytes of a block of `count` positions of a cache of `layers` layers and `width` cells per position.
    static func bytes(count: Int, layers: Int, width: Int) -> Int {
        let (cells, overflow) = count.multipliedReportingOverflow(by: layers &* width &* 2 &* MemoryLayout<KVCache.Cell>.stride)
        return overflow ? .max : cells
    }
}

extension KVCache {
    /// Positions `range` of every layer, copied out. Only without ring layers (`BatchedSession.sharesPrefixes`).
    func block(_ range: Range<Int>) -> KVBlock {
        let n = range.count, w = width
        var keys = [Cell](repeating: 0, count: layers.count * n * w), values = keys
        keys.withUnsafeMutableBufferPointer { k in
            values.withUnsafeMutableBufferPointer { v in
                guard let k = k.baseAddress, let v = v.baseAddress else { return }
                for (il, layer) in layers.enumerated() {
                    precondition(!layer.isRing && range.upperBound <= layer.slots, "blocks are copied only from global layers")
                    (k + il * n * w).update(from: layer.keys + range.lowerBound * w, count: n * w)
                    for d in 0..<w { (v + (il * w + d) * n).update(from: layer.values + d * layer.slots + range.lowerBound, count: n) }
                }
            }
        }
        return KVBlock(count: n, keys: keys, values: values)
    }

    /// Writes the first `count` positions of `block` at positions `position...` of every layer.
    func load(_ block: KVBlock, count: Int, at position: Int) {
        let n = block.count, w = width, m = max(0, min(count, n))
        block.keys.withUnsafeBufferPointer { k in
            block.values.withUnsafeBufferPointer { v in
                guard let k = k.baseAddress, let v = v.baseAddress else { return }
                for (il, layer) in layers.enumerated() {
                    precondition(!layer.isRing && position + m <= layer.slots, "blocks are loaded only into global layers")
                    (layer.keys + position * w).update(from: k + il * n * w, count: m * w)
                    for d in 0..<w { (layer.values + d * layer.slots + position).update(from: v + (il * w + d) * n, count: m) }
                }
            }
        }
    }
}
