import Foundation

/// Rotary position embedding. `.neox` rotates halves (dimension i pairs with i + d/2: Gemma, Qwen),
/// `.norm` rotates adjacent pairs (2i, 2i+1: llama). cos/sin are tabulated for the first
/// `tabulated` positions and computed beyond.
public struct RotaryEmbedding: Sendable {
    public enum Style: String, Sendable, Equatable { case norm, neox }

    let dimensions: Int
    let base: Float
    let style: Style
    /// `tabulated × dimensions/2` cosines then the same count of sines.
    private let cosTable: [Float]
    private let sinTable: [Float]
    let tabulated: Int

    init(dimensions: Int, base: Float, style: Style = .neox, tabulated: Int) {
        self.dimensions = dimensions
        self.base = base
        self.style = style
        self.tabulated = tabulated
        let half = dimensions / 2
        var c = [Float](repeating: 0, count: tabulated * half), s = c
        for p in 0..<tabulated {
            Self.angles(position: p, base: base, dimensions: dimensions) { i, cosine, sine in
                c[p * half + i] = cosine; s[p * half + i] = sine
            }
        }
        cosTable = c; sinTable = s
    }

    /// ggml's rope cache: θ starts at the position and is multiplied by base^(−2/d) in f32 for each
    /// pair; cos/sin in f32. Reproduced exactly, since the model amplifies tiny differences.
    static func angles(position: Int, base: Float, dimensions: Int, _ body: (Int, Float, Float) -> Void) {
        let thetaScale = powf(base, -2 / Float(dimensions))
        var theta = Float(position)
        for i in 0..<(dimensions / 2) {
            body(i, cosf(theta), sinf(theta))
            theta *= thetaScale
        }
    }

    /// Rotates `heads` consecutive head vectors of `x` for `position`.
    func apply(_ x: UnsafeMutablePointer<Float>, heads: Int, position: Int, stride: Int) {
        let half = dimensions / 2
        if position < tabulated {
            cosTable.withUnsafeBufferPointer { c in
                sinTable.withUnsafeBufferPointer { s in
                    rotate(x, heads: heads, stride: stride, cos: c.baseAddress.unsafelyUnwrapped + position * half,
                           sin: s.baseAddress.unsafelyUnwrapped + position * half)
                }
            }
            return
        }
        withUnsafeTemporaryAllocation(of: Float.self, capacity: dimensions) { buffer in
            guard let c = buffer.baseAddress else { return }
            let s = c + half
            Self.angles(position: position, base: base, dimensions: dimensions) { i, cosine, sine in c[i] = cosine; s[i] = sine }
            rotate(x, heads: heads, stride: stride, cos: c, sin: s)
        }
    }

    private func rotate(_ x: UnsafeMutablePointer<Float>, heads: Int, stride: Int, cos c: UnsafePointer<Float>, sin s: UnsafePointer<Float>) {
        let half = dimensions / 2
        // Pair i is (v[first(i)], v[first(i) + offset]).
        let (step, offset) = style == .neox ? (1, half) : (2, 1)
        for h in 0..<heads {
            let v = x + h * stride
            for i in 0..<half {
                let j = i * step
                let a = v[j], b = v[j + offset]
                // The contraction GCC applies to ggml's `x0*cos - x1*sin` and `x0*sin + x1*cos`.
                v[j] = (-(b * s[i])).addingProduct(a, c[i])
                v[j + offset] = (b * c[i]).addingProduct(a, s[i])
            }
        }
    }
}
