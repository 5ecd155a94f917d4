/// LayerNorm (BERT's post-norm), sixteen lanes at a time.
extension VectorMath {
    /// x ← LayerNorm(x + y) · weight + bias over `count` values: the residual add, then the mean and
    /// a two-pass (exact) variance, in one pass over x each.
    @inline(__always)
    static func addLayerNorm(_ x: UnsafeMutablePointer<Float>, _ y: UnsafePointer<Float>?, weight: UnsafePointer<Float>,
                             bias: UnsafePointer<Float>, count d: Int, epsilon: Float) {
        let rx = UnsafeMutableRawPointer(x)
        let vectorEnd = d & ~15
        var sums = SIMD16<Float>()
        var tail: Float = 0
        if let y {
            let ry = UnsafeRawPointer(y)
            for j in stride(from: 0, to: vectorEnd, by: 16) {
                let v = rx.loadUnaligned(fromByteOffset: 4 * j, as: SIMD16<Float>.self)
                    + ry.loadUnaligned(fromByteOffset: 4 * j, as: SIMD16<Float>.self)
                rx.storeBytes(of: v, toByteOffset: 4 * j, as: SIMD16<Float>.self)
                sums += v
            }
            for j in vectorEnd..<d { x[j] += y[j]; tail += x[j] }
        } else {
            for j in stride(from: 0, to: vectorEnd, by: 16) { sums += rx.loadUnaligned(fromByteOffset: 4 * j, as: SIMD16<Float>.self) }
            for j in vectorEnd..<d { tail += x[j] }
        }
        let mean = (sums.sum() + tail) / Float(d)
        var squares = SIMD16<Float>()
        var tailSquares: Float = 0
        for j in stride(from: 0, to: vectorEnd, by: 16) {
            let c = rx.loadUnaligned(fromByteOffset: 4 * j, as: SIMD16<Float>.self) - mean
            squares.addProduct(c, c)
        }
        for j in vectorEnd..<d { let c = x[j] - mean; tailSquares += c * c }
        let inverse = 1 / ((squares.sum() + tailSquares) / Float(d) + epsilon).squareRoot()
        let rw = UnsafeRawPointer(weight), rb = UnsafeRawPointer(bias)
        for j in stride(from: 0, to: vectorEnd, by: 16) {
            let c = rx.loadUnaligned(fromByteOffset: 4 * j, as: SIMD16<Float>.self) - mean
            let v = c * inverse * rw.loadUnaligned(fromByteOffset: 4 * j, as: SIMD16<Float>.self)
                + rb.loadUnaligned(fromByteOffset: 4 * j, as: SIMD16<Float>.self)
            rx.storeBytes(of: v, toByteOffset: 4 * j, as: SIMD16<Float>.self)
        }
        for j in vectorEnd..<d { x[j] = (x[j] - mean) * inverse * weight[j] + bias[j] }
    }
}
