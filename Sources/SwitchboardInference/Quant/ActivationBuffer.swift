/// How a row of f32 activations is quantized before an integer dot product (llama.cpp's
/// `vec_dot_type`): Q8_0 (32-element blocks, fp16 scale) for Q4_0/Q5_0/Q8_0 weights, Q8_K
/// (256-element blocks, f32 scale, group sums) for K-quant weights.
enum ActivationKind: Sendable, Equatable {
    case q8_0, q8_K

    var blockSize: Int { self == .q8_0 ? 32 : 256 }
}

/// How a batched decode step multiplies 32-value-block weights (`MatMul`). Both give the same bits.
enum DecodeKernel: Sendable {
    /// Int16 products: 4–15 rows on a row pair decoded into scratch (`MatMul.decodedRows`), 2–3 on
    /// weights unpacked in registers (`SmallBlockDot.dotRowPair2`): tuned for AVX-512.
    case registers
    /// Q4_1 rows unpacked to bytes, `vpmaddubsw` products (`SmallBlockDot.ByteRow`), other formats
    /// on weights unpacked in registers (`SmallBlockDot.dotRowPair4`): faster on AVX2.
    case bytes

    /// `.bytes` on machines without AVX-512, `.registers` on those with it.
    static let host: DecodeKernel = ReferenceBuild.host == .avx512 ? .registers : .bytes
}

/// Quantized activations for up to `capacity` rows of `columns` values.
///
/// Layout chosen for the kernels: every 64 consecutive values (two 32-value groups) are stored as
/// 64 Int16: the even-indexed values of group 0, of group 1, then the odd-indexed values of group 0,
/// of group 1. A weight pair-of-groups unpacked into even/odd Int16 lanes (one 512-bit register
/// each) multiplies them directly: no byte shuffles, which Swift SIMD does not lower well.
/// Rows must hold a multiple of 64 values.
final class ActivationBuffer {
    let kind: ActivationKind
    let columns: Int
    let capacity: Int
    /// `capacity * columns` Int16 in the even/odd group layout.
    let planes: UnsafeMutablePointer<Int16>
    /// One dequantization scale per block (Q8_0 scale already rounded through fp16).
    let scales: UnsafeMutablePointer<Float>
    /// Q8_K only: the sum of each 32-value group's quants (for the K-quant mins term).
    let groupSums: UnsafeMutablePointer<Int32>
    /// Q8_K only: the sum of each 16-value group's quants (ggml's `bsums`, for Q6_K's −32 offset).
    let sixteenSums: UnsafeMutablePointer<Int32>
    /// Q8_0 only: each block's d·Σq rounded through fp16 (llama.cpp's Q8_1 `s`, for Q4_1's minimum).
    let blockSums: UnsafeMutablePointer<Float>
    /// Q8_0 only: every row again, per block 64 Int16: its 16 even-indexed values twice, then its
    /// 16 odd-indexed values negated, twice (the row-pair products, `SmallBlockDot+RowPair`).
    let paired: UnsafeMutablePointer<Int16>
    /// `UnpackShifts.table`, kept in memory so the decode kernels read it at run time.
    let shiftTable: UnsafeMutablePointer<UInt32>
    /// Which kernel multiplies a batched decode step's rows with Q4_1 weights.
    let decodeKernel: DecodeKernel
    /// Rows quantized for the byte-row kernel (`usesByteRows`), again as Int8 values in order.
    let bytes: UnsafeMutablePointer<Int8>

    init(kind: ActivationKind, columns: Int, capacity: Int, decodeKernel: DecodeKernel = .host) {
        self.kind = kind
        self.columns = columns
        self.capacity = capacity
        self.decodeKernel = kind == .q8_0 ? decodeKernel : .registers
        bytes = .allocate(capacity: self.decodeKernel == .bytes ? capacity * columns : 0)
        planes = .allocate(capacity: capacity * columns)
        scales = .allocate(capacity: capacity * columns / kind.blockSize)
        groupSums = .allocate(capacity: capacity * columns / 32)
        sixteenSums = .allocate(capacity: capacity * columns / 16)
        blockSums = .allocate(capacity: capacity * columns / 32)
        paired = .allocate(capacity: kind == .q8_0 ? capacity * columns * 2 : 0)
        shiftTable = .allocate(capacity: UnpackShifts.table.count)
        UnpackShifts.table.withUnsafeBufferPointer { if let base = $0.baseAddress { shiftTable.initialize(from: base, count: $0.count) } }
    }

    deinit {
        planes.deallocate(); scales.deallocate(); groupSums.deallocate(); sixteenSums.deallocate()
        blockSums.deallocate(); paired.deallocate(); shiftTable.deallocate(); bytes.deallocate()
    }

    var blocksPerRow: Int { columns / kind.blockSize }

    @inline(__always)
    func row(_ index: Int) -> ActivationRow {
        ActivationRow(planes: planes + index * columns, scales: scales + index * blocksPerRow, groupSums: groupSums + index * (columns / 32),
                      sixteenSums: sixteenSums + index * (columns / 16),
                      blockSums: blockSums + index * (columns / 32))
    }

    /// Whether a multiply of `count` rows with Q4_1 weights takes the byte-row kernel (and so whether
    /// quantizing those rows also writes `bytes`): batched decode steps on the `.bytes` kernel.
    func usesByteRows(count: Int) -> Bool { decodeKernel == .bytes && count > 1 && count < 16 }

    /// Quantizes one row of `columns` floats into row `index` of `count` (Q8_0: also into `paired`,
    /// and into `bytes` when `usesByteRows(count:)`).
    func quantizeRow(_ index: Int, _ x: UnsafePointer<Float>, of count: Int) {
        switch kind {
        case .q8_0:
            ActivationQuantizer.q8_0(x, columns: columns, into: row(index))
            ActivationQuantizer.pair(row(index), columns: columns, into: paired + index * 2 * columns)
            if usesByteRows(count: count) { ActivationQuantizer.bytes(row(index), columns: columns, into: bytes + index * columns) }
        case .q8_K: ActivationQuantizer.q8_K(x, columns: columns, into: row(index))
        }
    }

    /// Row `index` in the paired layout.
    @inline(__always)
    func pairedRow(_ index: Int) -> PairedActivationRow {
        PairedActivationRow(values: paired + index * 2 * columns, scales: scales + index * blocksPerRow,
                            sums: blockSums + index * (columns / 32), shifts: UnpackShifts(shiftTable))
    }

    /// Quantizes `count` rows of `columns` floats (row stride `stride`).
    func quantize(_ input: UnsafePointer<Float>, rows count: Int, stride: Int) {
        for r in 0..<count { quantizeRow(r, input + r * stride, of: count) }
    }
}

/// One quantized activation row (pointers into an `ActivationBuffer`).
struct ActivationRow {
    let planes: UnsafeMutablePointer<Int16>
    let scales: UnsafeMutablePointer<Float>
    let groupSums: UnsafeMutablePointer<Int32>
    let sixteenSums: UnsafeMutablePointer<Int32>
    let blockSums: UnsafeMutablePointer<Float>
}

/// A row of a Q8_0 `ActivationBuffer` in the paired layout, with its per-block scales.
struct PairedActivationRow {
    let values: UnsafeMutablePointer<Int16>
    let scales: UnsafeMutablePointer<Float>
    /// Per block d·Σq (fp16-rounded), for formats with a minimum.
    let sums: UnsafeMutablePointer<Float>
    let shifts: UnpackShifts
}

enum ActivationQuantizer {
    /// Rewrites a quantized Q8_0 row into the paired layout.
    static func pair(_ row: ActivationRow, columns: Int, into out: UnsafeMutablePointer<Int16>) {
        for b in 0..<columns / 32 {
            let chunk = UnsafeRawPointer(row.planes + 64 * (b >> 1) + 16 * (b & 1)), block = UnsafeMutableRawPointer(out + 64 * b)
            let even = chunk.loadUnaligned(as: SIMD16<Int16>.self)
            let odd = SIMD16<Int16>() &- chunk.loadUnaligned(fromByteOffset: 64, as: SIMD16<Int16>.self)
            block.storeBytes(of: even, as: SIMD16<Int16>.self)
            block.storeBytes(of: even, toByteOffset: 32, as: SIMD16<Int16>.self)
            block.storeBytes(of: odd, toByteOffset: 64, as: SIMD16<Int16>.self)
            block.storeBytes(of: odd, toByteOffset: 96, as: SIMD16<Int16>.self)
        }
    }

    /// Rewrites a quantized Q8_0 row as Int8 values in order.
    static func bytes(_ row: ActivationRow, columns: Int, into out: UnsafeMutablePointer<Int8>) {
        for j in 0..<columns {
            out[j] = Int8(truncatingIfNeeded: row.planes[(j & ~63) + slot(j & 63)])
        }
    }

    /// Position of value `j` (0..<64) of a 64-value chunk in the even/odd layout.
    @inline(__always)
    static func slot(_ j: Int) -> Int { (j & 1) * 32 + (j >> 5) * 16 + ((j & 31) >> 1) }

    /// `quantize_row_q8_0`: d = amax/127 stored as fp16, q = round(x·127/amax) (ties to even, as the
    /// x86 SIMD path does). `quantize_row_q8_1` rounds the same and adds s = fp16(d·Σq), with the
    /// unrounded d; both are stored, so one buffer serves Q8_0 and Q4_1 weights.
    static func q8_0(_ x: UnsafePointer<Float>, columns: Int, into out: ActivationRow) {
        for b in 0..<columns / 32 {
            let raw = UnsafeRawPointer(x + 32 * b)
            let low = raw.loadUnaligned(as: SIMD16<Float>.self), high = raw.loadUnaligned(fromByteOffset: 64, as: SIMD16<Float>.self)
            let amax = maxMagnitude(low, high)
            let d = amax / 127
            let id: Float = amax != 0 ? 127 / amax : 0
            // Values 0..<32 of the block: 16 even-indexed ones at `chunk`, the odd ones 32 further.
            let chunk = UnsafeMutableRawPointer(out.planes + 64 * (b >> 1) + 16 * (b & 1))
            let q0 = roundedToInt(low * id), q1 = roundedToInt(high * id)
            chunk.storeBytes(of: narrow(q0, from: 0), as: SIMD8<Int16>.self)
            chunk.storeBytes(of: narrow(q1, from: 0), toByteOffset: 16, as: SIMD8<Int16>.self)
            chunk.storeBytes(of: narrow(q0, from: 1), toByteOffset: 64, as: SIMD8<Int16>.self)
            chunk.storeBytes(of: narrow(q1, from: 1), toByteOffset: 80, as: SIMD8<Int16>.self)
            let scale = HalfFloat.float(fromHalf: HalfFloat.half(from: d))
            out.scales[b] = scale
            out.blockSums[b] = HalfFloat.float(fromHalf: HalfFloat.half(from: d * Float(IntegerDot.sum(q0 &+ q1))))
        }
    }

    /// `quantize_row_q8_K_ref`: scale from the signed value of largest magnitude, q clamped to 127.
    /// `nearest_int(iscale * x)` rounds twice — the product to float, then to the nearest integer
    /// (ties to even) — as llama.cpp's build computes it (its base library is compiled without FMA,
    /// and its AVX2 4-row quantizer multiplies, then rounds); a fused rounding differs when the
    /// product lands within half an ulp of a .5. The AVX2 quantizer takes the scale's sign from
    /// whether a positive value reaches the largest magnitude; with both signs present that negates
    /// q and d together, which leaves every product q·d — and so every dot product — bit-identical.
    /// The largest |x| of 32 values. Magnitudes compare as integers (whole-register compare and
    /// blend; `pointwiseMax` and `max()` are lane loops). A NaN propagates instead of trapping later.
    @inline(__always)
    static func maxMagnitude(_ a: SIMD16<Float>, _ b: SIMD16<Float>) -> Float {
        let ma = unsafeBitCast(a, to: SIMD16<UInt32>.self) & 0x7FFF_FFFF, mb = unsafeBitCast(b, to: SIMD16<UInt32>.self) & 0x7FFF_FFFF
        return maxMagnitude(ma.replacing(with: mb, where: mb .> ma))
    }

    @inline(__always)
    static func maxMagnitude(_ m: SIMD16<UInt32>) -> Float {
        var half = m.lowHalf
        half.replace(with: m.highHalf, where: m.highHalf .> half)
        var quarter = half.lowHalf
        quarter.replace(with: half.highHalf, where: half.highHalf .> quarter)
        return Float(bitPattern: Swift.max(Swift.max(quarter[0], quarter[1]), Swift.max(quarter[2], quarter[3])))
    }

    /// Nearest integer, ties to even, by adding 1.5·2^23 (as llama.cpp's x86 paths round): exact
    /// for |x| < 2^22, and unlike `Int16(_:)` it cannot trap on a NaN or infinite activation.
    @inline(__always)
    static func roundedToInt(_ x: SIMD16<Float>) -> SIMD16<Int32> {
        let biased: SIMD16<Float> = x + SIMD16<Float>(repeating: 12_582_912)
        return unsafeBitCast(biased, to: SIMD16<Int32>.self) &- SIMD16<Int32>(repeating: 0x4B40_0000)
    }

    /// Lanes first, first + 2, …, first + 14 of `q` as Int16 (lane by lane: LLVM makes it one shuffle).
    @inline(__always)
    static func narrow(_ q: SIMD16<Int32>, from first: Int) -> SIMD8<Int16> {
        var r = SIMD8<Int16>()
        for i in 0..<8 { r[i] = Int16(truncatingIfNeeded: q[first + 2 * i]) }
        return r
    }

    static func q8_K(_ x: UnsafePointer<Float>, columns: Int, into out: ActivationRow) {
        for b in 0..<columns / 256 {
            let xb = x + 256 * b
            @inline(__always) func group(_ g: Int) -> SIMD16<Float> { UnsafeRawPointer(xb + 16 * g).loadUnaligned(as: SIMD16<Float>.self) }
            // The largest magnitude, then the first value that has it (its sign sets the scale's).
            var magnitudes = SIMD16<UInt32>()
            for g in 0..<16 {
                let m = unsafeBitCast(group(g), to: SIMD16<UInt32>.self) & 0x7FFF_FFFF  // |x|, ordered as integers
                magnitudes.replace(with: m, where: m .> magnitudes)
            }
            let amax = maxMagnitude(magnitudes)
            var maxValue: Float = 0
            if amax > 0 {
                for j in 0..<256 where abs(xb[j]) == amax { maxValue = xb[j]; break }
            }
            let iscale: Float = maxValue == 0 ? 0 : -127 / maxValue
            let scale = SIMD16<Float>(repeating: iscale)
            for g in 0..<16 {
                // Product rounded to float, then to the nearest integer: rounded twice, as llama.cpp.
                let product: SIMD16<Float> = group(g) * scale
                let rounded = roundedToInt(product)
                // min(127, ·) in whole-register integer ops (`replacing(with:where:)` on Int32 lanes
                // is a lane loop): subtracts q − 127 where 127 − q is negative.
                let excess = rounded &- 127
                let q = rounded &- (excess & ((0 &- excess) &>> 31))
                out.sixteenSums[16 * b + g] = IntegerDot.sum(q)
                // Values 16·(g%4)..<16·(g%4)+16 of a 64-value chunk: 8 even-indexed ones, then 8 odd.
                let offset: Int = 256 * b + 64 * (g >> 2) + 16 * ((g & 3) >> 1) + 8 * (g & 1)
                let chunk = out.planes + offset
                UnsafeMutableRawPointer(chunk).storeBytes(of: narrow(q, from: 0), as: SIMD8<Int16>.self)
                UnsafeMutableRawPointer(chunk + 32).storeBytes(of: narrow(q, from: 1), as: SIMD8<Int16>.self)
            }
            for g in 0..<8 { out.groupSums[8 * b + g] = out.sixteenSums[16 * b + 2 * g] &+ out.sixteenSums[16 * b + 2 * g + 1] }
            out.scales[b] = maxValue == 0 ? 0 : 1 / iscale
        }
    }
}
