/// The parallel region of `ForwardContext.multiply`: up to three products sharing one quantized
/// input, cut into chunks of whole rows, several per worker so a stalled worker's share is picked
/// up by the others.
struct MatMulJob: ParallelJob {
    typealias Product = ForwardContext.Product

    let products: (Product, Product?, Product?)
    let input: UnsafePointer<Float>
    let quantized: ActivationBuffer?
    let kind: ActivationKind?
    let count: Int
    let batch: Int?
    /// Rows per chunk and chunk count of each product, worked out once per region.
    private let steps: (Int, Int, Int)
    private let chunks: (Int, Int, Int)

    init(products: (Product, Product?, Product?), threads: Int, input: UnsafePointer<Float>, quantized: ActivationBuffer?,
         kind: ActivationKind?, count: Int, batch: Int?) {
        func step(_ product: Product?) -> Int { product.map { max(16, ($0.matrix.rows / (threads * 8) + 15) / 16 * 16) } ?? 1 }
        func chunks(_ product: Product?) -> Int { product.map { ($0.matrix.rows + step($0) - 1) / step($0) } ?? 0 }
        self.products = products
        self.input = input
        self.quantized = quantized
        self.kind = kind
        self.count = count
        self.batch = batch
        steps = (step(products.0), step(products.1), step(products.2))
        self.chunks = (chunks(products.0), chunks(products.1), chunks(products.2))
    }

    var totalChunks: Int { chunks.0 + chunks.1 + chunks.2 }

    func run(chunk: Int, worker: Int) {
        let product: Product?, index: Int, step: Int
        if chunk < chunks.0 {
            (product, index, step) = (products.0, chunk, steps.0)
        } else if chunk < chunks.0 + chunks.1 {
            (product, index, step) = (products.1, chunk - chunks.0, steps.1)
        } else {
            (product, index, step) = (products.2, chunk - chunks.0 - chunks.1, steps.2)
        }
        guard let product else { return }
        let w = product.matrix
        let rows = index * step..<min(w.rows, (index + 1) * step)
        // A matrix needing a different activation kind than the first (mixed types) takes the float path.
        let act = w.format.activationKind == kind ? quantized : nil
        MatMul.multiply(w, input: input, quantized: act, count: count, batch: batch, rows: rows, out: product.output, outStride: w.rows)
    }
}
