/// `vpmaddwd` from plain Swift: LLVM's X86 backend matches `add(mul(sext(even lanes of x), sext(even
/// lanes of y)), mul(sext(odd x), sext(odd y)))` when it sees exactly that expression (shuffles + sext
/// + mul + add). Found by inspecting `swiftc -O -target-cpu native -emit-assembly`:
/// - two such results must not be ADDED (nor offset by a constant before they are combined): the IR
///   reassociation pass flattens the sum of four products and only one pair stays a `vpmaddwd`; a
///   SUBTRACTION of two results is left alone, so the odd weights are stored negated;
/// - both operands should be loaded from memory: lanes of a vector computed with 32-bit ops feeding
///   the extracts get scalarized by instcombine, which is why prefill decodes each weight row into
///   a scratch row first (`SmallBlockDot.DecodedRowPair`, `KQuantDecodedRow`).
extension IntegerDot {
    /// Lanes 0, 2, 4, … sign-extended (element by element: a lane-type conversion of the whole vector
    /// is lowered to a scalar loop, these become one shuffle + extend).
    @inline(__always)
    static func evenLanes(_ x: SIMD32<Int16>) -> SIMD16<Int32> {
        SIMD16(Int32(x[0]), Int32(x[2]), Int32(x[4]), Int32(x[6]), Int32(x[8]), Int32(x[10]), Int32(x[12]), Int32(x[14]), Int32(x[16]), Int32(x[18]),
               Int32(x[20]), Int32(x[22]), Int32(x[24]), Int32(x[26]), Int32(x[28]), Int32(x[30]))
    }

    @inline(__always)
    static func oddLanes(_ x: SIMD32<Int16>) -> SIMD16<Int32> {
        SIMD16(Int32(x[1]), Int32(x[3]), Int32(x[5]), Int32(x[7]), Int32(x[9]), Int32(x[11]), Int32(x[13]), Int32(x[15]), Int32(x[17]), Int32(x[19]),
               Int32(x[21]), Int32(x[23]), Int32(x[25]), Int32(x[27]), Int32(x[29]), Int32(x[31]))
    }

    /// Lane i = x[2i]·y[2i] + x[2i+1]·y[2i+1] (one `vpmaddwd`).
    @inline(__always)
    static func multiplyAdd(_ x: SIMD32<Int16>, _ y: SIMD32<Int16>) -> SIMD16<Int32> {
        evenLanes(x) &* evenLanes(y) &+ oddLanes(x) &* oddLanes(y)
    }

    /// `float(pair((even, odd), a))`, bit for bit, from the even weights and the NEGATED odd weights
    /// (64 Int16 at `w`): two `vpmaddwd`, one `vpsubd`, then the exact magic-number conversion.
    @inline(__always)
    static func pairFloat(_ w: UnsafePointer<Int16>, _ a: UnsafePointer<Int16>) -> SIMD16<Float> {
        float(pairInt(w, a))
    }

    /// `pairFloat` before the conversion: exact Int32 lane sums.
    @inline(__always)
    static func pairInt(_ w: UnsafePointer<Int16>, _ a: UnsafePointer<Int16>) -> SIMD16<Int32> {
        let raw = UnsafeRawPointer(a), weights = UnsafeRawPointer(w)
        let m0 = multiplyAdd(weights.loadUnaligned(as: SIMD32<Int16>.self), raw.loadUnaligned(as: SIMD32<Int16>.self))
        let m1 = multiplyAdd(weights.loadUnaligned(fromByteOffset: 64, as: SIMD32<Int16>.self), raw.loadUnaligned(fromByteOffset: 64,
            as: SIMD32<Int16>.self))
        return m0 &- m1
    }
}
