import Foundation
import Testing
@testable import SwitchboardInference

@Suite("BERT kernels")
struct BertKernelTests {
    @Test("SIMD erf within 4e-7 (about 3 float ulps near ±1) of libm's double erf on [-6, 6]")
    func erfAccuracy() {
        var worst = 0.0
        for i in 0..<12_000 {
            let x = Float(i - 6_000) / 1_000
            let got = VectorMath.erf(SIMD16(repeating: x))[0]
            worst = max(worst, abs(Double(got) - Foundation.erf(Double(x))))
        }
        #expect(worst < 4e-7)
        let g = VectorMath.geluErf(SIMD16(repeating: 1))[3]
        #expect(abs(Double(g) - 0.841_344_746) < 1e-6)
    }

    @Test("panel products equal a plain matrix product for any row count and a ragged last panel", arguments: [1, 2, 3, 4, 5, 6, 7, 15, 49, 100])
    func panelProduct(rows: Int) {
        let inputs = 40, outputs = 70
        var seed: UInt64 = 7
        func next() -> Float {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: seed >> 11) % 2000) / 1000 - 1
        }
        let w = (0..<(inputs * outputs)).map { _ in next() }, b = (0..<outputs).map { _ in next() }
        let x = (0..<(rows * inputs)).map { _ in next() }
        let matrix = PanelMatrix(rowMajor: w, bias: b, outputs: outputs, inputs: inputs)
        var y = [Float](repeating: .nan, count: rows * outputs)
        let pool = WorkerPool(threads: 2)
        x.withUnsafeBufferPointer { xb in y.withUnsafeMutableBufferPointer { yb in
            matrix.apply(xb.baseAddress!, count: rows, into: yb.baseAddress!, pool: pool)
        } }
        var worst: Float = 0
        for t in 0..<rows {
            for o in 0..<outputs {
                var s = Double(b[o])
                for k in 0..<inputs { s += Double(x[t * inputs + k]) * Double(w[o * inputs + k]) }
                worst = max(worst, abs(Float(s) - y[t * outputs + o]))
            }
        }
        #expect(worst < 1e-4)
    }
}
