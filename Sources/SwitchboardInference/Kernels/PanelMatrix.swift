/// A linear layer y = W·x + b with F32 weights packed for batched products: output rows in panels of
/// 32, each panel stored input-major (`panel[k][0..<32]` = column k of those 32 rows), so the inner
/// loop streams one panel contiguously and forms 6 tokens × 32 outputs per step with 12 SIMD16
/// accumulators (AVX-512: one zmm FMA per broadcast input and half-panel). The last panel is padded
/// with zero rows.
final class PanelMatrix {
    static let width = 32
    static let tileRows = 6
    let outputs: Int
    let inputs: Int
    let panels: Int
    let weights: UnsafeMutablePointer<Float>
    let bias: UnsafeMutablePointer<Float>

    /// `rowMajor` is `outputs × inputs` (PyTorch's `[out, in]`, GGUF's ne0 = in), `bias` `outputs` long.
    init(rowMajor w: [Float], bias b: [Float], outputs: Int, inputs: Int) {
        precondition(w.count == outputs * inputs && b.count == outputs, "checked by the loader")
        self.outputs = outputs
        self.inputs = inputs
        panels = (outputs + Self.width - 1) / Self.width
        let size = panels * Self.width * inputs
        let raw = UnsafeMutableRawPointer.allocate(byteCount: 4 * max(size, 1), alignment: 64)
        weights = raw.initializeMemory(as: Float.self, repeating: 0, count: max(size, 1))
        bias = UnsafeMutablePointer<Float>.allocate(capacity: panels * Self.width)
        bias.initialize(repeating: 0, count: panels * Self.width)
        for o in 0..<outputs {
            let panel = weights + (o / Self.width) * Self.width * inputs, lane = o % Self.width
            for k in 0..<inputs { panel[k * Self.width + lane] = w[o * inputs + k] }
            bias[o] = b[o]
        }
    }

    deinit {
        weights.deallocate()
        bias.deallocate()
    }

    /// y[t] = W·x[t] + b (then GELU when asked) for `count` rows of x (stride `inputs`) into y
    /// (stride `outputs`), split over the pool in blocks of rows × pairs of panels.
    func apply(_ x: UnsafePointer<Float>, count: Int, into y: UnsafeMutablePointer<Float>, gelu: Bool = false, pool: WorkerPool) {
        let job = PanelProductJob(matrix: self, x: x, y: y, count: count, gelu: gelu)
        pool.run(chunks: job.chunks, job)
    }
}

/// One product's chunks: blocks of 48 rows (8 tiles) × groups of 2 panels. A block's activations
/// (≤ 48 × 1,536 floats) stay in L2 while its panels stream by.
struct PanelProductJob: ParallelJob {
    let matrix: PanelMatrix
    let x: UnsafePointer<Float>
    let y: UnsafeMutablePointer<Float>
    let count: Int
    let gelu: Bool
    static let blockRows = 48, groupPanels = 2
    var rowBlocks: Int { (count + Self.blockRows - 1) / Self.blockRows }
    var panelGroups: Int { (matrix.panels + Self.groupPanels - 1) / Self.groupPanels }
    var chunks: Int { rowBlocks * panelGroups }

    func run(chunk: Int, worker: Int) {
        let block = chunk / panelGroups, group = chunk % panelGroups
        let rows = (block * Self.blockRows)..<min(count, (block + 1) * Self.blockRows)
        let panels = (group * Self.groupPanels)..<min(matrix.panels, (group + 1) * Self.groupPanels)
        for panel in panels {
            var row = rows.lowerBound
            while row + PanelMatrix.tileRows <= rows.upperBound {
                tile(row: row, panel: panel, height: Rows6.self)
                row += PanelMatrix.tileRows
            }
            switch rows.upperBound - row {
            case 1: tile(row: row, panel: panel, height: Rows1.self)
            case 2: tile(row: row, panel: panel, height: Rows2.self)
            case 3: tile(row: row, panel: panel, height: Rows3.self)
            case 4: tile(row: row, panel: panel, height: Rows4.self)
            case 5: tile(row: row, panel: panel, height: Rows5.self)
            default: break
            }
        }
    }

    /// `H.rows` rows × 32 outputs. The height is a type so each specialization keeps only its own
    /// accumulators and FMAs (a 15-token sentence costs 15 rows of work, not 18).
    @inline(__always)
    private func tile<H: TileHeight>(row: Int, panel: Int, height: H.Type) {
        let k = matrix.inputs, n = H.rows
        let x0 = x + row * k, x1 = x0 + min(1, n - 1) * k, x2 = x0 + min(2, n - 1) * k
        let x3 = x0 + min(3, n - 1) * k, x4 = x0 + min(4, n - 1) * k, x5 = x0 + min(5, n - 1) * k
        let w = UnsafeRawPointer(matrix.weights + panel * PanelMatrix.width * k)
        var a0 = SIMD16<Float>(), b0 = SIMD16<Float>(), a1 = SIMD16<Float>(), b1 = SIMD16<Float>()
        var a2 = SIMD16<Float>(), b2 = SIMD16<Float>(), a3 = SIMD16<Float>(), b3 = SIMD16<Float>()
        var a4 = SIMD16<Float>(), b4 = SIMD16<Float>(), a5 = SIMD16<Float>(), b5 = SIMD16<Float>()
        for i in 0..<k {
            let lo = w.load(fromByteOffset: 128 * i, as: SIMD16<Float>.self)
            let hi = w.load(fromByteOffset: 128 * i + 64, as: SIMD16<Float>.self)
            let s0 = x0[i]
            a0.addProduct(s0, lo); b0.addProduct(s0, hi)
            if n > 1 { let s1 = x1[i]; a1.addProduct(s1, lo); b1.addProduct(s1, hi) }
            if n > 2 { let s2 = x2[i]; a2.addProduct(s2, lo); b2.addProduct(s2, hi) }
            if n > 3 { let s3 = x3[i]; a3.addProduct(s3, lo); b3.addProduct(s3, hi) }
            if n > 4 { let s4 = x4[i]; a4.addProduct(s4, lo); b4.addProduct(s4, hi) }
            if n > 5 { let s5 = x5[i]; a5.addProduct(s5, lo); b5.addProduct(s5, hi) }
        }
        let bias = UnsafeRawPointer(matrix.bias + panel * PanelMatrix.width)
        let blo = bias.loadUnaligned(as: SIMD16<Float>.self), bhi = bias.loadUnaligned(fromByteOffset: 64, as: SIMD16<Float>.self)
        let column = panel * PanelMatrix.width
        store(a0 + blo, b0 + bhi, row: row, column: column)
        if n > 1 { store(a1 + blo, b1 + bhi, row: row + 1, column: column) }
        if n > 2 { store(a2 + blo, b2 + bhi, row: row + 2, column: column) }
        if n > 3 { store(a3 + blo, b3 + bhi, row: row + 3, column: column) }
        if n > 4 { store(a4 + blo, b4 + bhi, row: row + 4, column: column) }
        if n > 5 { store(a5 + blo, b5 + bhi, row: row + 5, column: column) }
    }

    @inline(__always)
    private func store(_ low: SIMD16<Float>, _ high: SIMD16<Float>, row: Int, column: Int) {
        var lo = low, hi = high
        if gelu { lo = VectorMath.geluErf(lo); hi = VectorMath.geluErf(hi) }
        let out = y + row * matrix.outputs + column
        let width = min(PanelMatrix.width, matrix.outputs - column)
        if width == PanelMatrix.width {
            UnsafeMutableRawPointer(out).storeBytes(of: lo, as: SIMD16<Float>.self)
            UnsafeMutableRawPointer(out).storeBytes(of: hi, toByteOffset: 64, as: SIMD16<Float>.self)
        } else {
            for j in 0..<width { out[j] = j < 16 ? lo[j] : hi[j - 16] }
        }
    }
}

/// A tile's row count as a type (see `PanelProductJob.tile`).
protocol TileHeight { static var rows: Int { get } }
enum Rows1: TileHeight { static var rows: Int { 1 } }
enum Rows2: TileHeight { static var rows: Int { 2 } }
enum Rows3: TileHeight { static var rows: Int { 3 } }
enum Rows4: TileHeight { static var rows: Int { 4 } }
enum Rows5: TileHeight { static var rows: Int { 5 } }
enum Rows6: TileHeight { static var rows: Int { 6 } }
