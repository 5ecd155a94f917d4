import Foundation

/// NEOX-style rotary position embedding ("rotate halves"): dimension i pairs with i + d/2.
/// cos/sin are tabulated for the first `tabulated` positions and computed beyond.
struct RotaryEmbedding: Sendable {
    let dimensions: Int
    let base: Float
    /// `tabulated × dimensions/2` cosines then the same count of sines.
    private let cosTable: [Float]
    private let sinTable: [Float]
    private let inverseFrequencies: [Double]
    let tabulated: Int

    init(dimensions: Int, base: Float, tabulated: Int) {
        self.dimensions = dimensions
        self.base = base
        self.tabulated = tabulated
        let half = dimensions / 2
        let inv = (0..<half).map { pow(Double(base), -2 * Double($0) / Double(dimensions)) }
        inverseFrequencies = inv
        var c = [Float](repeating: 0, count: tabulated * half), s = c
        for p in 0..<tabulated {
            for i in 0..<half {
                let theta = Double(p) * inv[i]
                c[p * half + i] = Float(cos(theta)); s[p * half + i] = Float(sin(theta))
            }
        }
        cosTable = c; sinTable = s
    }

    /// Rotates `heads` consecutive head vectors of `x` for `position`.
    func apply(_ x: UnsafeMutablePointer<Float>, heads: Int, position: Int) {
        let half = dimensions / 2
        if position < tabulated {
            cosTable.withUnsafeBufferPointer { c in
                sinTable.withUnsafeBufferPointer { s in
                    rotate(x, heads: heads, cos: c.baseAddress.unsafelyUnwrapped + position * half, sin: s.baseAddress.unsafelyUnwrapped + position * half)
                }
            }
            return
        }
        withUnsafeTemporaryAllocation(of: Float.self, capacity: dimensions) { buffer in
            guard let c = buffer.baseAddress else { return }
            let s = c + half
            for i in 0..<half {
                let theta = Double(position) * inverseFrequencies[i]
                c[i] = Float(cos(theta)); s[i] = Float(sin(theta))
            }
            rotate(x, heads: heads, cos: c, sin: s)
        }
    }

    private func rotate(_ x: UnsafeMutablePointer<Float>, heads: Int, cos c: UnsafePointer<Float>, sin s: UnsafePointer<Float>) {
        let half = dimensions / 2
        for h in 0..<heads {
            let v = x + h * dimensions
            for i in 0..<half {
                let a = v[i], b = v[i + half]
                v[i] = a * c[i] - b * s[i]
                v[i + half] = a * s[i] + b * c[i]
            }
        }
    }
}
