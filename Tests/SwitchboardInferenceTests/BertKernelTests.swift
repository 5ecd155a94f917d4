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

    @Test("a product that folds its rows into a residual (x ← LayerNorm(x + W·h + b)) equals the two steps done apart",
          arguments: [1, 8, 15, 48, 49, 100])
    func residualNormEpilogue(rows: Int) {
        let inputs = 24, outputs = 90
        var seed: UInt64 = 11
        func next() -> Float {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: seed >> 11) % 2000) / 1000 - 1
        }
        let w = (0..<(inputs * outputs)).map { _ in next() }, b = (0..<outputs).map { _ in next() }
        let h = (0..<(rows * inputs)).map { _ in next() }, residual = (0..<(rows * outputs)).map { _ in next() }
        let gamma = (0..<outputs).map { _ in 1 + next() / 2 }, beta = (0..<outputs).map { _ in next() }
        let matrix = PanelMatrix(rowMajor: w, bias: b, outputs: outputs, inputs: inputs)
        var x = residual, y = [Float](repeating: .nan, count: rows * outputs)
        let pool = WorkerPool(threads: 2)
        let counters = BlockCounters(blocks: (rows + PanelProductJob.blockRows - 1) / PanelProductJob.blockRows)
        h.withUnsafeBufferPointer { hb in y.withUnsafeMutableBufferPointer { yb in x.withUnsafeMutableBufferPointer { xb in
            gamma.withUnsafeBufferPointer { gb in beta.withUnsafeBufferPointer { bb in
                let norm = ResidualNorm(x: xb.baseAddress!, weight: gb.baseAddress!, bias: bb.baseAddress!, epsilon: 1e-12, counters: counters)
                matrix.apply(hb.baseAddress!, count: rows, into: yb.baseAddress!, then: norm, pool: pool)
            } }
        } } }
        var worst = 0.0
        for t in 0..<rows {
            var sum = [Double](repeating: 0, count: outputs)
            for o in 0..<outputs {
                var s = Double(b[o])
                for k in 0..<inputs { s += Double(h[t * inputs + k]) * Double(w[o * inputs + k]) }
                sum[o] = s + Double(residual[t * outputs + o])
            }
            let mean = sum.reduce(0, +) / Double(outputs)
            let variance = sum.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(outputs)
            for o in 0..<outputs {
                let expected = (sum[o] - mean) / (variance + 1e-12).squareRoot() * Double(gamma[o]) + Double(beta[o])
                worst = max(worst, abs(expected - Double(x[t * outputs + o])))
            }
        }
        #expect(worst < 1e-4)
    }
}
