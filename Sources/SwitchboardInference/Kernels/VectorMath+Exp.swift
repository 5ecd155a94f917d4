/// `ggml_v_expf`, the polynomial e^x behind ggml's softmax and SiLU, reproduced operation by operation
/// in either build's form (`ReferenceBuild`): n = round(x·log2 e) by the 1.5·2²³ trick, b = x − n·ln 2
/// in two fused steps, then a degree-5 polynomial. AVX-512 scales j = 1 + b·p(b) by 2ⁿ (`vscalefps`);
/// AVX2 forms k + k·(b·p(b)) with k = 2ⁿ, which rounds differently in the last bit for some inputs.
/// Lanes are independent, so 16 lanes here give the 8-lane AVX2 results too.
extension VectorMath {
    @inline(__always)
    static func exp(_ x: SIMD16<Float>, _ build: ReferenceBuild) -> SIMD16<Float> {
        let r = SIMD16<Float>(repeating: 0x1.8p23)
        let z = r.addingProduct(x, SIMD16(repeating: 0x1.715476p+0))
        let n = z - r
        let b = x.addingProduct(-n, SIMD16(repeating: 0x1.62e4p-1)).addingProduct(-n, SIMD16(repeating: 0x1.7f7d1cp-20))
        let u = b * b
        let high = SIMD16<Float>(repeating: 0x1.573e2ep-5).addingProduct(SIMD16(repeating: 0x1.0e4020p-7), b)
        let low = SIMD16<Float>(repeating: 0x1.fffdb6p-2).addingProduct(SIMD16(repeating: 0x1.555e66p-3), b)
        let middle = low.addingProduct(high, u)
        // z's low mantissa bits hold n: shifted into the exponent field of 1.0 they make k = 2ⁿ.
        let k = unsafeBitCast((unsafeBitCast(z, to: SIMD16<UInt32>.self) &<< 23) &+ SIMD16(repeating: Float(1).bitPattern), to: SIMD16<Float>.self)
        let j: SIMD16<Float>
        var result: SIMD16<Float>
        switch build {
        case .avx512:
            j = SIMD16<Float>(repeating: 1).addingProduct(SIMD16(repeating: 0x1.ffffecp-1), b).addingProduct(middle, u)
            result = j * k
        case .avx2:
            j = (SIMD16<Float>(repeating: 0x1.ffffecp-1) * b).addingProduct(middle, u)
            result = k.addingProduct(j, k)
        }
        // Far below the range e^x underflows to exactly 0 in both builds; the rare lanes whose 2ⁿ is
        // not a normal float (x < −87.3 or x > 88.0) take the exact per-lane form.
        result.replace(with: 0, where: x .< -103.97)
        let outside = (n .< -126 .| n .> 126) .& (x .>= -103.97)
        if any(outside) {
            for lane in 0..<16 where outside[lane] { result[lane] = wideExp(n: n[lane], j: j[lane], z: z[lane], build) }
        }
        return result
    }

    /// One lane with |n| > 126 as each build computes it: `vscalefps` (j·2ⁿ, one rounding) on
    /// AVX-512; on AVX2, 2ⁿ split into two powers s1·s2 so each is a normal float.
    private static func wideExp(n: Float, j: Float, z: Float, _ build: ReferenceBuild) -> Float {
        if n.isNaN { return .nan }
        switch build {
        case .avx512:
            return abs(n) > 192 ? (n > 0 ? .infinity : 0) : Float(sign: .plus, exponent: Int(n), significand: j)
        case .avx2:
            let e = z.bitPattern &<< 23, g: UInt32 = n <= 0 ? 0x8200_0000 : 0
            let s1 = Float(bitPattern: g &+ 0x7F00_0000), s2 = Float(bitPattern: e &- g)
            return abs(n) > 192 ? s1 * s1 : s2.addingProduct(s2, j) * s1
        }
    }
}
