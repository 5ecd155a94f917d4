/// SiLU-gated products as ggml's CPU backend computes them (`ggml_vec_swiglu_f32` → `ggml_v_silu`):
/// silu(x)·g with silu(x) = x / (1 + e^−x), e^−x from `ggml_v_expf` in the reference build's form.
extension VectorMath {
    /// gate[i] ← silu(gate[i]) · up[i] for i in `range` (16 lanes at a time, then one by one).
    static func swiglu(gate: UnsafeMutablePointer<Float>, up: UnsafePointer<Float>, range: Range<Int>, build: ReferenceBuild) {
        var i = range.lowerBound
        while i + 16 <= range.upperBound {
            let x = UnsafeRawPointer(gate + i).loadUnaligned(as: SIMD16<Float>.self)
            let g = UnsafeRawPointer(up + i).loadUnaligned(as: SIMD16<Float>.self)
            UnsafeMutableRawPointer(gate + i).storeBytes(of: silu(x, build) * g, as: SIMD16<Float>.self)
            i += 16
        }
        while i < range.upperBound {
            gate[i] = silu(SIMD16(repeating: gate[i]), build)[0] * up[i]
            i += 1
        }
    }

    @inline(__always)
    static func silu(_ x: SIMD16<Float>, _ build: ReferenceBuild) -> SIMD16<Float> {
        x / (SIMD16<Float>(repeating: 1) + exp(SIMD16<Float>() - x, build))
    }
}
