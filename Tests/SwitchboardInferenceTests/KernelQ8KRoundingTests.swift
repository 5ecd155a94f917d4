import Testing
@testable import SwitchboardInference

/// Q8_K activation values are `iscale · x` rounded ONCE to the nearest integer (ties to even), as
/// llama.cpp's native build computes `nearest_int` with a fused multiply-add — not the float product
/// rounded first. Inputs are chosen where the two differ.
@Suite struct KernelQ8KRoundingTests {
    @Test func productIsRoundedOnceToAnInteger() {
        let maxValue: Float = 3
        let iscale: Float = -127 / maxValue
        var x = [Float](repeating: 0, count: 256)
        x[0] = maxValue
        var disagreeing = 0, i = 1, n = 0
        // Candidates just around (n + ½) / iscale, where the float product can round onto the tie.
        while i < 256 && n < 120 {
            var c = Float((Double(n) + 0.5) / Double(iscale)).nextDown.nextDown
            for _ in 0..<5 where i < 256 {
                let once = (Double(iscale) * Double(c)).rounded(.toNearestOrEven)
                let twice = Double((iscale * c).rounded(.toNearestOrEven))
                if once != twice { disagreeing += 1 }
                x[i] = c; i += 1
                c = c.nextUp
            }
            n += 1
        }
        #expect(disagreeing > 0, "the inputs must include products where the two roundings differ")
        let act = ActivationBuffer(kind: .q8_K, columns: 256, capacity: 1)
        x.withUnsafeBufferPointer { act.quantize($0.baseAddress!, rows: 1, stride: 256) }
        let row = act.row(0)
        for j in 0..<256 {
            let expected = min(127, Int16((Double(iscale) * Double(x[j])).rounded(.toNearestOrEven)))
            let got = row.planes[64 * (j / 64) + ActivationQuantizer.slot(j % 64)]
            #expect(got == expected, "x[\(j)] = \(x[j])")
        }
        #expect(row.scales[0] == 1 / iscale)
    }
}
