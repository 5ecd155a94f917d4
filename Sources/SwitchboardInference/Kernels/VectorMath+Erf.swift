/// The exact (erf) GELU of BERT, sixteen lanes at a time: 0.5·x·(1 + erf(x/√2)).
///
/// erf is the rational approximation Eigen and XLA use for float: x·P(x²)/Q(x²) on x clamped to
/// [−4, 4] (erf is ±1 in float outside). Its error is a few float ulps (tested against libm's double
/// `erf`); a scalar `erff` per element would cost more than the FFN's matrix products.
extension VectorMath {
    @inline(__always)
    static func erf(_ a: SIMD16<Float>) -> SIMD16<Float> {
        // Two selects rather than `clamped`, whose generic min/max the optimizer leaves as calls (7 % of
        // an embedding's time in a profile); NaN lanes stay NaN.
        var x = a
        x.replace(with: 4, where: x .> 4)
        x.replace(with: -4, where: x .< -4)
        let x2 = x * x
        var p = SIMD16<Float>(repeating: 2.77068142495902e-08).addingProduct(x2, SIMD16(repeating: -2.72614225801306e-10))
        p = SIMD16<Float>(repeating: -2.10102402082508e-06).addingProduct(x2, p)
        p = SIMD16<Float>(repeating: -5.69250639462346e-05).addingProduct(x2, p)
        p = SIMD16<Float>(repeating: -7.34990630326855e-04).addingProduct(x2, p)
        p = SIMD16<Float>(repeating: -2.95459980854025e-03).addingProduct(x2, p)
        p = SIMD16<Float>(repeating: -1.60960333262415e-02).addingProduct(x2, p)
        p *= x
        var q = SIMD16<Float>(repeating: -2.13374055278905e-04).addingProduct(x2, SIMD16(repeating: -1.45660718464996e-05))
        q = SIMD16<Float>(repeating: -1.68282697438203e-03).addingProduct(x2, q)
        q = SIMD16<Float>(repeating: -7.37332916720468e-03).addingProduct(x2, q)
        q = SIMD16<Float>(repeating: -1.42647390514189e-02).addingProduct(x2, q)
        return p / q
    }

    @inline(__always)
    static func geluErf(_ x: SIMD16<Float>) -> SIMD16<Float> {
        0.5 * x * (1 + erf(x * 0.707_106_77))
    }
}
