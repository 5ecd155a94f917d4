/// SiLU-gated products as ggml's CPU backend computes them on AVX-512 machines (`ggml_vec_swiglu_f32`
/// → `ggml_v_silu` → `ggml_v_expf`, 16 lanes): x / (1 + e^−x), with e^t from a degree-5 polynomial
/// on the reduced argument and an exact power-of-two scaling (`vscalefps`). llama.cpp's AVX2 build
/// uses the same polynomial but forms k + k·j instead of scaling (1 + j): the two differ in the last
/// bit for some inputs, so results match the AVX-512 build exactly and the AVX2 build within 1 ulp.
extension VectorMath {
    /// gate[i] ← silu(gate[i]) · up[i] for i in `range` (16 lanes at a time, then one by one).
    static func swiglu(gate: UnsafeMutablePointer<Float>, up: UnsafePointer<Float>, range: Range<Int>) {
        var i = range.lowerBound
        while i + 16 <= range.upperBound {
            let x = UnsafeRawPointer(gate + i).loadUnaligned(as: SIMD16<Float>.self)
            let g = UnsafeRawPointer(up + i).loadUnaligned(as: SIMD16<Float>.self)
            UnsafeMutableRawPointer(gate + i).storeBytes(of: silu(x) * g, as: SIMD16<Float>.self)
            i += 16
        }
        while i < range.upperBound {
            gate[i] = silu(SIMD16(repeating: gate[i]))[0] * up[i]
            i += 1
        }
    }

    @inline(__always)
    static func silu(_ x: SIMD16<Float>) -> SIMD16<Float> {
        x / (SIMD16<Float>(repeating: 1) + exp(SIMD16<Float>() - x))
    }

    /// `ggml_v_expf` (AVX-512 form): n = round(x·log2 e) by the 1.5·2²³ trick, b = x − n·ln 2 in two
    /// fused steps, j = 1 + b·p(b), result j·2ⁿ; |n| > 192 gives 0 or +∞.
    @inline(__always)
    static func exp(_ x: SIMD16<Float>) -> SIMD16<Float> {
        let r = SIMD16<Float>(repeating: 0x1.8p23)
        let z = r.addingProduct(x, SIMD16(repeating: 0x1.715476p+0))
        let n = z - r
        let b = x.addingProduct(-n, SIMD16(repeating: 0x1.62e4p-1)).addingProduct(-n, SIMD16(repeating: 0x1.7f7d1cp-20))
        let u = b * b
        let high = SIMD16<Float>(repeating: 0x1.573e2ep-5).addingProduct(SIMD16(repeating: 0x1.0e4020p-7), b)
        let low = SIMD16<Float>(repeating: 0x1.fffdb6p-2).addingProduct(SIMD16(repeating: 0x1.555e66p-3), b)
        let one = SIMD16<Float>(repeating: 1).addingProduct(SIMD16(repeating: 0x1.ffffecp-1), b)
        let j = one.addingProduct(low.addingProduct(high, u), u)
        // 2ⁿ as a float is exact for −126 ≤ n ≤ 127; outside, each lane is scaled one at a time.
        let magnitude = n.replacing(with: -n, where: n .< 0)
        if all(magnitude .<= 126) {
            // z's low mantissa bits hold n: shifted into the exponent field of 1.0 they make 2ⁿ.
            let power = (unsafeBitCast(z, to: SIMD16<UInt32>.self) &<< 23) &+ SIMD16(repeating: Float(1).bitPattern)
            return j * unsafeBitCast(power, to: SIMD16<Float>.self)
        }
        var result = SIMD16<Float>()
        for lane in 0..<16 {
            let e = n[lane]
            if magnitude[lane] > 192 || e.isNaN {
                result[lane] = e.isNaN ? .nan : (e > 0 ? .infinity : 0)
            } else {
                result[lane] = Float(sign: .plus, exponent: Int(e), significand: j[lane])
            }
        }
        return result
    }
}
