import Foundation

/// Keys and values of every processed position, per layer. Global layers keep every position up to
/// the session's context limit; sliding-window layers keep a ring of `window + batch` slots (the
/// extra `batch` slots let a whole prefill batch be written before its attention reads the window).
///
/// Keys are stored position-major, values dimension-major (each dimension's values over the slots
/// are contiguous, as llama.cpp's transposed V cache, for the attention's position-order sums).
/// Slot counts are multiples of 16 so 16-position chunks never wrap.
/// Stored as f32 holding fp16-rounded values (llama.cpp's default cache type is f16, and matching
/// its rounding keeps our top-1 agreement with it high); memory is allocated up front but only
/// touched pages become resident.
final class KVCache {
    struct Layer {
        let keys: UnsafeMutablePointer<Float>
        let values: UnsafeMutablePointer<Float>
        let slots: Int
        let isRing: Bool

        @inline(__always)
        func slot(_ position: Int) -> Int { isRing ? position % slots : position }
    }

    let layers: [Layer]
    /// Floats per position (kv heads × head length).
    let width: Int

    init(architecture a: ModelArchitecture, contextLength: Int, batch: Int) {
        width = a.headCountKV * a.keyLength
        layers = (0..<a.blockCount).map { il in
            let ring = a.isSlidingWindow(layer: il) && a.slidingWindow + batch + 32 < contextLength
            let slots = ring ? (a.slidingWindow + batch + 15) / 16 * 16 + 16 : (contextLength + 15) / 16 * 16
            let w = a.headCountKV * a.keyLength
            return Layer(keys: Self.zeroed(slots * w), values: Self.zeroed(slots * w), slots: slots, isRing: ring)
        }
    }

    deinit {
        for layer in layers { free(layer.keys); free(layer.values) }
    }

    /// Zero-filled without touching the pages (calloc maps fresh zero pages): attention multiplies
    /// never-written slots by probability 0, which must not meet garbage NaNs, yet unused context
    /// must not become resident.
    private static func zeroed(_ count: Int) -> UnsafeMutablePointer<Float> {
        guard let raw = calloc(count, MemoryLayout<Float>.stride) else {
            // Out of memory: fall back to an initialized allocation (fails loudly if truly exhausted).
            let p = UnsafeMutablePointer<Float>.allocate(capacity: count)
            p.initialize(repeating: 0, count: count)
            return p
        }
        return raw.bindMemory(to: Float.self, capacity: count)
    }

    /// Stores one position's key and value (rounded through fp16).
    func store(layer il: Int, position: Int, key: UnsafePointer<Float>, value: UnsafePointer<Float>) {
        let layer = layers[il]
        let base = layer.slot(position) * width
        let slot = layer.slot(position)
        for i in 0..<width {
            layer.keys[base + i] = Float(Float16(key[i]))
            layer.values[i * layer.slots + slot] = Float(Float16(value[i]))
        }
    }
}
