/// Keys and values of every processed position, per layer. Global layers keep every position up to
/// the session's context limit; sliding-window layers keep a ring of `window + batch` slots (the
/// extra `batch` slots let a whole prefill batch be written before its attention reads the window).
///
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
            let ring = a.isSlidingWindow(layer: il) && a.slidingWindow + batch < contextLength
            let slots = ring ? a.slidingWindow + batch : contextLength
            let w = a.headCountKV * a.keyLength
            return Layer(keys: .allocate(capacity: slots * w), values: .allocate(capacity: slots * w), slots: slots, isRing: ring)
        }
    }

    deinit {
        for layer in layers { layer.keys.deallocate(); layer.values.deallocate() }
    }

    /// Stores one position's key and value (rounded through fp16).
    func store(layer il: Int, position: Int, key: UnsafePointer<Float>, value: UnsafePointer<Float>) {
        let layer = layers[il]
        let base = layer.slot(position) * width
        for i in 0..<width {
            layer.keys[base + i] = Float(Float16(key[i]))
            layer.values[base + i] = Float(Float16(value[i]))
        }
    }
}
