/// Scratch buffers sized once per session for batches of up to `batch` tokens: no allocation in the
/// forward pass.
final class ForwardScratch {
    let batch: Int
    let x, normed, q, k, v, attention, projected, gate, up: UnsafeMutablePointer<Float>
    /// Attention scores, two rows of `scoreCapacity` floats per worker (a pair of heads, `Attention.headPair`).
    let scores: UnsafeMutablePointer<Float>
    let scoreCapacity: Int
    /// Rows of logits computed at once (`logitRows × vocabulary`).
    let logits: UnsafeMutablePointer<Float>
    let logitRows: Int
    private var buffers: [ActivationBuffer] = []
    private var owned: [UnsafeMutablePointer<Float>] = []

    init(architecture a: ModelArchitecture, batch: Int, contextLength: Int, threads: Int, vocabulary: Int, matrices: [WeightMatrix]) {
        self.batch = batch
        var owned: [UnsafeMutablePointer<Float>] = []
        func make(_ count: Int) -> UnsafeMutablePointer<Float> {
            let p = UnsafeMutablePointer<Float>.allocate(capacity: count)
            p.initialize(repeating: 0, count: count)
            owned.append(p)
            return p
        }
        let d = a.embeddingLength, kv = a.headCountKV * a.keyLength, widest = max(d, a.queryLength, a.feedForwardLength)
        x = make(batch * d); normed = make(batch * widest); q = make(batch * a.queryLength)
        k = make(batch * kv); v = make(batch * kv); attention = make(batch * a.queryLength)
        projected = make(batch * d); gate = make(batch * a.feedForwardLength); up = make(batch * a.feedForwardLength)
        scoreCapacity = contextLength + 32
        scores = make(threads * 2 * scoreCapacity)
        // Scoring computes logits for many rows per pass over the 262k-row output matrix; the buffer is
        // left uninitialized so untouched rows never become resident.
        logitRows = 32
        logits = .allocate(capacity: logitRows * vocabulary)
        owned.append(logits)
        self.owned = owned
        for m in matrices {
            guard let kind = m.format.activationKind, !buffers.contains(where: { $0.kind == kind && $0.columns == m.columns }) else { continue }
            buffers.append(ActivationBuffer(kind: kind, columns: m.columns, capacity: max(batch, logitRows)))
        }
    }

    deinit { for p in owned { p.deallocate() } }

    func activations(kind: ActivationKind, columns: Int) -> ActivationBuffer? {
        buffers.first { $0.kind == kind && $0.columns == columns }
    }
}
