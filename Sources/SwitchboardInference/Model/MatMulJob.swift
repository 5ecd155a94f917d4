/// The parallel region of `ForwardContext.multiply`: up to three products sharing one quantized
/// input, cut into chunks of whole rows, several per worker so a stalled worker's share is picked
/// up by the others.
struct MatMulJob: ParallelJob {
    typealias Product = ForwardContext.Product

    let products: (Product, Product?, Product?)
    let threads: Int
    let input: UnsafePointer<Float>
    let quantized: ActivationBuffer?
    let kind: ActivationKind?
    let count: Int
    let batch: Int?

    static func rowsPerChunk(_ product: Product?, threads: Int) -> Int {
        product.map { max(16, ($0.matrix.rows / (threads * 8) + 15) / 16 * 16) } ?? 1
    }

    static func chunks(_ product: Product?, threads: Int) -> Int {
        product.map { ($0.matrix.rows + rowsPerChunk($0, threads: threads) - 1) / rowsPerChunk($0, threads: threads) } ?? 0
    }

    var totalChunks: Int { Self.chunks(products.0, threads: threads) + Self.chunks(products.1, threads: threads) + Self.chunks(products.2, threads: threads) }

    func run(chunk: Int, worker: Int) {
        var index = chunk
        var product: Product? = products.0
        let firstChunks = Self.chunks(products.0, threads: threads)
        if index >= firstChunks {
            index -= firstChunks
            let secondChunks = Self.chunks(products.1, threads: threads)
            product = index < secondChunks ? products.1 : products.2
            if index >= secondChunks { index -= secondChunks }
        }
        guard let product else { return }
        let w = product.matrix, step = Self.rowsPerChunk(product, threads: threads)
        let rows = index * step..<min(w.rows, (index + 1) * step)
        // A matrix needing a different activation kind than the first (mixed types) takes the float path.
        let act = w.format.activationKind == kind ? quantized : nil
        MatMul.multiply(w, input: input, quantized: act, count: count, batch: batch, rows: rows, out: product.output, outStride: w.rows)
    }
}
