import Foundation

/// Float vector helpers used by the forward pass (SIMD16 = one AVX-512 register).
enum VectorMath {
    @inline(__always)
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        var acc = SIMD16<Float>()
        var i = 0
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        while i + 16 <= count {
            acc.addProduct(ra.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<Float>.self), rb.loadUnaligned(fromByteOffset: 4 * i,
                as: SIMD16<Float>.self))
            i += 16
        }
        var s = acc.sum()
        while i < count { s += a[i] * b[i]; i += 1 }
        return s
    }

    /// y += alpha · x
    @inline(__always)
    static func axpy(_ alpha: Float, _ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, count: Int) {
        var i = 0
        let rx = UnsafeRawPointer(x), ry = UnsafeMutableRawPointer(y)
        while i + 16 <= count {
            var v = ry.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<Float>.self)
            v.addProduct(alpha, rx.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<Float>.self))
            ry.storeBytes(of: v, toByteOffset: 4 * i, as: SIMD16<Float>.self)
            i += 16
        }
        while i < count { y[i] += alpha * x[i]; i += 1 }
    }

    /// y = x / sqrt(mean(x²) + eps) · weight, in place allowed.
    static func rmsNorm(_ x: UnsafePointer<Float>, weight: UnsafePointer<Float>, eps: Float, count: Int, into y: UnsafeMutablePointer<Float>) {
        var sum: Double = 0
        for i in 0..<count { sum += Double(x[i] * x[i]) }
        let scale = 1 / (Float(sum / Double(count)) + eps).squareRoot()
        for i in 0..<count { y[i] = x[i] * scale * weight[i] }
    }

    /// GELU tabulated over every fp16 input, rounded to fp16 (what ggml's CPU backend uses by default,
    /// `GGML_GELU_FP16`): index = fp16 bit pattern.
    static func geluHalfTable() -> [Float] {
        (0..<65536).map { bits in
            let x = HalfFloat.float(fromHalf: UInt16(bits))
            return x.isFinite ? Float(Float16(geluTanh(x))) : 0
        }
    }

    /// gelu(x) · g the way ggml computes it: through the fp16 table for -10 < x < 10.
    @inline(__always)
    static func gatedGelu(_ x: Float, _ g: Float, table: UnsafePointer<Float>) -> Float {
        if x <= -10 { return 0 }
        if x >= 10 { return x * g }
        return table[Int(Float16(x).bitPattern)] * g
    }

    /// GELU (tanh approximation) evaluated as ggml's `ggml_gelu_f32` builds its table:
    /// `0.5·x·(1 + tanh(√(2/π)·x·(1 + a·x·x)))`, with the fused multiply-add GCC forms for
    /// `1 + (a·x)·x`. Other groupings (e.g. `x + a·x³`) round differently and flip table entries
    /// (x = −0.2498 did, moving the next layer by one fp16 ulp).
    @inline(__always)
    static func geluTanh(_ x: Float) -> Float {
        let inner = Float(1).addingProduct(0.044_715 * x, x)
        return 0.5 * x * (1 + tanhf(0.797_884_56 * x * inner))
    }
}
