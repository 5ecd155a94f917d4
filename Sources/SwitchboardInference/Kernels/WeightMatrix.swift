/// A row-major weight matrix in one of the `WeightFormat`s, resolved to memory (for instance a
/// tensor inside the memory-mapped model file). `rows` outputs of `columns` inputs each.
struct WeightMatrix {
    let base: UnsafeRawPointer
    let rows: Int
    let columns: Int
    let format: WeightFormat

    var rowBytes: Int { format.rowBytes(columns: columns) }

    func row(_ r: Int) -> UnsafeRawPointer { base + r * rowBytes }

    /// How many rows ahead the one-row kernels prefetch: about 3 KB (4 rows of the 680-byte Q8_0
    /// output matrix), enough cache lines in flight to cover memory latency; prefetching further
    /// ahead evicts rows still in use and costs decode speed (the measurements are in git history).
    var prefetchRows: Int { max(2, 3072 / rowBytes) }

    /// Dequantizes row `r` (for embedding lookups).
    func dequantizeRow(_ r: Int, into out: UnsafeMutablePointer<Float>) {
        Dequantize.row(format, row(r), count: columns, into: out)
    }
}
