/// Dot products of K-quant weights (Q4_K, Q6_K; 256-value blocks) with Q8_K activations.
enum KQuantDot {
    /// Q4_K's eight 6-bit (scale, min) pairs.
    @inline(__always)
    static func q4KScales(_ block: UnsafeRawPointer) -> (scales: SIMD8<Int32>, mins: SIMD8<Int32>) {
        var s = SIMD8<Int32>(), m = SIMD8<Int32>()
        for j in 0..<8 {
            let (sc, mn) = Dequantize.scaleMinK4(j, block + 4)
            s[j] = Int32(sc); m[j] = Int32(mn)
        }
        return (s, m)
    }

    /// Σ over one Q4_K block with one activation block: (integer part, minimum part), unscaled.
    @inline(__always)
    static func q4KBlock(_ block: UnsafeRawPointer, _ planes: UnsafePointer<Int16>, _ groupSums: UnsafePointer<Int32>, _ sm: (scales: SIMD8<Int32>, mins: SIMD8<Int32>)) -> (Int32, Int32) {
        var acc = SIMD8<Int32>()
        for c in 0..<4 {
            let q = block.loadUnaligned(fromByteOffset: 16 + 32 * c, as: SIMD8<UInt32>.self)
            let lo = IntegerDot.split(q & IntegerDot.lowNibbles, offset: 0)
            let hi = IntegerDot.split((q &>> 4) & IntegerDot.lowNibbles, offset: 0)
            acc &+= IntegerDot.group(lo, planes + 64 * c) &* sm.scales[2 * c]
            acc &+= IntegerDot.group(hi, planes + 64 * c + 32) &* sm.scales[2 * c + 1]
        }
        let sums = UnsafeRawPointer(groupSums).loadUnaligned(as: SIMD8<Int32>.self)
        return (acc.wrappedSum(), (sums &* sm.mins).wrappedSum())
    }

    static func q4K(_ w: UnsafeRawPointer, _ a: ActivationRow, blocks: Int) -> Float {
        var total: Float = 0
        for b in 0..<blocks {
            let block = w + 144 * b
            let (i, m) = q4KBlock(block, a.planes + 256 * b, a.groupSums + 8 * b, q4KScales(block))
            total += a.scales[b] * (HalfFloat.load(block, 0) * Float(i) - HalfFloat.load(block, 2) * Float(m))
        }
        return total
    }

    static func q4K4(_ w: UnsafeRawPointer, _ a: (ActivationRow, ActivationRow, ActivationRow, ActivationRow), blocks: Int) -> SIMD4<Float> {
        var total = SIMD4<Float>()
        for b in 0..<blocks {
            let block = w + 144 * b
            let sm = q4KScales(block)
            let d = HalfFloat.load(block, 0), dmin = HalfFloat.load(block, 2)
            let r0 = q4KBlock(block, a.0.planes + 256 * b, a.0.groupSums + 8 * b, sm)
            let r1 = q4KBlock(block, a.1.planes + 256 * b, a.1.groupSums + 8 * b, sm)
            let r2 = q4KBlock(block, a.2.planes + 256 * b, a.2.groupSums + 8 * b, sm)
            let r3 = q4KBlock(block, a.3.planes + 256 * b, a.3.groupSums + 8 * b, sm)
            let ints = SIMD4<Float>(Float(r0.0), Float(r1.0), Float(r2.0), Float(r3.0))
            let mins = SIMD4<Float>(Float(r0.1), Float(r1.1), Float(r2.1), Float(r3.1))
            let scales = SIMD4<Float>(a.0.scales[b], a.1.scales[b], a.2.scales[b], a.3.scales[b])
            total += scales * (d * ints - dmin * mins)
        }
        return total
    }

    /// The 32-value run k (0..<4) of half n of a Q6_K block as even/odd lanes of (q - 32).
    @inline(__always)
    static func q6KRun(_ block: UnsafeRawPointer, half n: Int, run k: Int) -> (SIMD16<Int16>, SIMD16<Int16>) {
        let l = block.loadUnaligned(fromByteOffset: 64 * n + 32 * (k & 1), as: SIMD8<UInt32>.self)
        let h = block.loadUnaligned(fromByteOffset: 128 + 32 * n, as: SIMD8<UInt32>.self)
        let low = (l &>> UInt32(4 * (k >> 1))) & IntegerDot.lowNibbles
        let high = ((h &>> UInt32(2 * k)) & 0x0303_0303) &<< 4
        return IntegerDot.split(low | high, offset: 32)
    }

    /// Per-16-value scales of run k of half n, spread over the 8 partial-sum lanes.
    @inline(__always)
    static func q6KScales(_ block: UnsafeRawPointer, half n: Int, run k: Int) -> SIMD8<Int32> {
        let s0 = Int32(block.load(fromByteOffset: 192 + 8 * n + 2 * k, as: Int8.self))
        let s1 = Int32(block.load(fromByteOffset: 192 + 8 * n + 2 * k + 1, as: Int8.self))
        return SIMD8(s0, s0, s0, s0, s1, s1, s1, s1)
    }

    static func q6K(_ w: UnsafeRawPointer, _ a: ActivationRow, blocks: Int) -> Float {
        var total: Float = 0
        for b in 0..<blocks {
            let block = w + 210 * b
            var acc = SIMD8<Int32>()
            for n in 0..<2 {
                for k in 0..<4 {
                    let run = q6KRun(block, half: n, run: k)
                    acc &+= IntegerDot.group(run, a.planes + 256 * b + 128 * n + 32 * k) &* q6KScales(block, half: n, run: k)
                }
            }
            total += a.scales[b] * HalfFloat.load(block, 208) * Float(acc.wrappedSum())
        }
        return total
    }

    static func q6K4(_ w: UnsafeRawPointer, _ a: (ActivationRow, ActivationRow, ActivationRow, ActivationRow), blocks: Int) -> SIMD4<Float> {
        var total = SIMD4<Float>()
        for b in 0..<blocks {
            let block = w + 210 * b
            var acc0 = SIMD8<Int32>(), acc1 = SIMD8<Int32>(), acc2 = SIMD8<Int32>(), acc3 = SIMD8<Int32>()
            for n in 0..<2 {
                for k in 0..<4 {
                    let run = q6KRun(block, half: n, run: k)
                    let sc = q6KScales(block, half: n, run: k)
                    let off = 256 * b + 128 * n + 32 * k
                    acc0 &+= IntegerDot.group(run, a.0.planes + off) &* sc
                    acc1 &+= IntegerDot.group(run, a.1.planes + off) &* sc
                    acc2 &+= IntegerDot.group(run, a.2.planes + off) &* sc
                    acc3 &+= IntegerDot.group(run, a.3.planes + off) &* sc
                }
            }
            let ints = SIMD4<Float>(Float(acc0.wrappedSum()), Float(acc1.wrappedSum()), Float(acc2.wrappedSum()), Float(acc3.wrappedSum()))
            let scales = SIMD4<Float>(a.0.scales[b], a.1.scales[b], a.2.scales[b], a.3.scales[b])
            total += scales * HalfFloat.load(block, 208) * ints
        }
        return total
    }
}
