import Foundation
@testable import SwitchboardInference

/// The forward pass written plainly (Float math, exact exp), rounding to fp16 where llama.cpp does
/// (the scaled query, cached keys and values, softmax probabilities), to check the engine's Llama
/// family on the synthetic files: a different summation order, so compared with a tolerance.
extension SyntheticLlamaModel {
    func logits(for tokens: [Int32]) -> [[Float]] {
        func weights(_ name: String) -> [Float] { tensors[name]?.values ?? [] }
        func multiply(_ name: String, _ x: [Float]) -> [Float] {
            let (shape, w) = tensors[name]!
            return (0..<shape[1]).map { r in (0..<shape[0]).reduce(Float(0)) { $0 + w[r * shape[0] + $1] * x[$1] } }
        }
        func norm(_ x: [Float], _ w: [Float]) -> [Float] {
            let mean = x.reduce(Double(0)) { $0 + Double($1 * $1) } / Double(x.count)
            let scale = 1 / (Float(mean) + eps).squareRoot()
            return zip(x, w).map { $0 * scale * $1 }
        }
        func rope(_ v: inout [Float], heads count: Int, position: Int) {
            let neox = arch != "llama", half = head / 2
            for h in 0..<count {
                for i in 0..<half {
                    let theta = Float(position) * powf(ropeBase, -2 * Float(i) / Float(head))
                    let (a, b) = neox ? (h * head + i, h * head + i + half) : (h * head + 2 * i, h * head + 2 * i + 1)
                    let (x0, x1) = (v[a], v[b])
                    v[a] = x0 * cosf(theta) - x1 * sinf(theta)
                    v[b] = x0 * sinf(theta) + x1 * cosf(theta)
                }
            }
        }
        func half(_ x: Float) -> Float { Float(Float16(x)) }
        var keys = [[[Float]]](repeating: [], count: layers), values = keys
        var out: [[Float]] = []
        for (position, token) in tokens.enumerated() {
            let embedding = tensors["token_embd.weight"]!.values
            var x = Array(embedding[(Int(token) * d)..<(Int(token) * d + d)])
            for il in 0..<layers {
                let p = "blk.\(il)."
                let n = norm(x, weights(p + "attn_norm.weight"))
                var q = multiply(p + "attn_q.weight", n), k = multiply(p + "attn_k.weight", n), v = multiply(p + "attn_v.weight", n)
                if arch == "qwen2" {
                    q = zip(q, weights(p + "attn_q.bias")).map(+); k = zip(k, weights(p + "attn_k.bias")).map(+)
                    v = zip(v, weights(p + "attn_v.bias")).map(+)
                }
                if arch == "qwen3" {
                    q = (0..<heads).flatMap { norm(Array(q[($0 * head)..<($0 * head + head)]), weights(p + "attn_q_norm.weight")) }
                    k = (0..<kvHeads).flatMap { norm(Array(k[($0 * head)..<($0 * head + head)]), weights(p + "attn_k_norm.weight")) }
                }
                rope(&q, heads: heads, position: position)
                rope(&k, heads: kvHeads, position: position)
                q = q.map { half($0 / Float(head).squareRoot()) }
                keys[il].append(k.map(half)); values[il].append(v.map(half))
                var attention = [Float](repeating: 0, count: heads * head)
                for h in 0..<heads {
                    let kv = h / (heads / kvHeads)
                    let scores = (0...position).map { t in (0..<head).reduce(Float(0)) { $0 + q[h * head + $1] * keys[il][t][kv * head + $1] } }
                    let top = scores.max() ?? 0
                    let exps = scores.map { expf($0 - top) }
                    let sum = exps.reduce(Double(0)) { $0 + Double($1) }
                    let probabilities = exps.map { half($0 * Float(1 / sum)) }
                    for i in 0..<head {
                        attention[h * head + i] = (0...position).reduce(Float(0)) { $0 + probabilities[$1] * values[il][$1][kv * head + i] }
                    }
                }
                x = zip(x, multiply(p + "attn_output.weight", attention)).map(+)
                let m = norm(x, weights(p + "ffn_norm.weight"))
                let gate = multiply(p + "ffn_gate.weight", m), up = multiply(p + "ffn_up.weight", m)
                let act = zip(gate, up).map { g, u in g / (1 + expf(-g)) * u }
                x = zip(x, multiply(p + "ffn_down.weight", act)).map(+)
            }
            out.append(multiply("token_embd.weight", norm(x, weights("output_norm.weight"))))
        }
        return out
    }
}
