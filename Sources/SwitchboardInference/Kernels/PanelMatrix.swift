import Synchronization

/// A linear layer y = W·x + b with F32 weights packed for batched products: output rows in panels of
/// 32, each panel stored input-major (`panel[k][0..<32]` = column k of those 32 rows), so the inner
/// loop streams one panel contiguously and forms up to 8 tokens × 32 outputs per step with 16 SIMD16
/// accumulators (see `PanelTile`). The last panel is padded with zero rows.
final class PanelMatrix {
    static let width = 32
    static let maxTileRows = 8
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
    /// (stride `outputs`), split over the pool in blocks of rows × panels. With `then`, each block of
    /// rows is also folded into a residual as soon as its last panel is written (x ← LayerNorm(x + y),
    /// see `ResidualNorm`), which saves the barrier a separate normalization region would cost.
    func apply(_ x: UnsafePointer<Float>, count: Int, into y: UnsafeMutablePointer<Float>, gelu: Bool = false,
               then norm: ResidualNorm? = nil, pool: WorkerPool) {
        let job = PanelProductJob(matrix: self, x: x, y: y, count: count, gelu: gelu, norm: norm)
        norm?.counters.reset(job.rowBlocks)
        pool.run(chunks: job.chunks, job)
    }

    /// Rows `rows` of y for one panel's 32 outputs, in tiles of at most `maxTileRows` rows of nearly
    /// equal heights (15 rows are 8 + 7, so the panel is streamed twice, with no thin last tile).
    @inline(__always)
    func product(_ x: UnsafePointer<Float>, rows: Range<Int>, panel: Int, into y: UnsafeMutablePointer<Float>, gelu: Bool) {
        let count = rows.count
        guard count > 0 else { return }
        let tiles = (count + Self.maxTileRows - 1) / Self.maxTileRows
        let base = count / tiles, taller = count % tiles
        var row = rows.lowerBound
        for t in 0..<tiles {
            let height = base + (t < taller ? 1 : 0)
            let tile = PanelTile(matrix: self, x: x, y: y, row: row, panel: panel, gelu: gelu)
            switch height {
            case 1: tile.run(Rows1.self)
            case 2: tile.run(Rows2.self)
            case 3: tile.run(Rows3.self)
            case 4: tile.run(Rows4.self)
            case 5: tile.run(Rows5.self)
            case 6: tile.run(Rows6.self)
            case 7: tile.run(Rows7.self)
            default: tile.run(Rows8.self)
            }
            row += height
        }
    }
}

/// x ← LayerNorm(x + y) for a product's rows, run by whichever chunk writes a row block's last panel
/// (a per-block counter, acquire-release, so that chunk sees every other chunk's outputs).
struct ResidualNorm {
    let x: UnsafeMutablePointer<Float>
    let weight, bias: UnsafePointer<Float>
    let epsilon: Float
    /// Unowned: the caller keeps it alive for the region (see `PanelProductJob.matrix`).
    unowned(unsafe) let counters: BlockCounters
}

/// One completion counter per row block of a product, reused across products.
final class BlockCounters {
    private let counts: [Counter]
    final class Counter { let value = Atomic<Int>(0) }

    init(blocks: Int) { counts = (0..<max(1, blocks)).map { _ in Counter() } }

    func reset(_ blocks: Int) {
        for i in 0..<min(blocks, counts.count) { counts[i].value.store(0, ordering: .relaxed) }
    }

    /// Counts one finished chunk of `block`; true for the chunk that finishes it.
    func finish(_ block: Int, of total: Int) -> Bool {
        counts[block].value.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == total
    }
}

/// One product's chunks: blocks of 48 rows (6 tiles of 8) × groups of panels (2 for batches, 1 when
/// the rows fit one block, so a single sentence splits into as many chunks as there are panels and a
/// descheduled thread leaves little behind). A block's activations (≤ 48 × 1,536 floats) stay in L2
/// while its panels stream by.
struct PanelProductJob: ParallelJob {
    /// Unowned, so the job is plain data: helpers reach it through a generic witness that copies and
    /// destroys it once per chunk, which for a strong reference was an atomic retain and release (2 % of
    /// a sentence's time). The matrix outlives the region: `apply` holds it.
    unowned(unsafe) let matrix: PanelMatrix
    let x: UnsafePointer<Float>
    let y: UnsafeMutablePointer<Float>
    let count: Int
    let gelu: Bool
    let norm: ResidualNorm?
    static let blockRows = 48
    var groupPanels: Int { count <= Self.blockRows ? 1 : 2 }
    var rowBlocks: Int { (count + Self.blockRows - 1) / Self.blockRows }
    var panelGroups: Int { (matrix.panels + groupPanels - 1) / groupPanels }
    var chunks: Int { rowBlocks * panelGroups }

    func run(chunk: Int, worker: Int) {
        let groups = panelGroups, width = groupPanels
        let block = chunk / groups, group = chunk % groups
        let rows = (block * Self.blockRows)..<min(count, (block + 1) * Self.blockRows)
        for panel in (group * width)..<min(matrix.panels, (group + 1) * width) {
            matrix.product(x, rows: rows, panel: panel, into: y, gelu: gelu)
        }
        if let norm, norm.counters.finish(block, of: groups) {
            for t in rows {
                VectorMath.addLayerNorm(norm.x + t * matrix.outputs, y + t * matrix.outputs, weight: norm.weight, bias: norm.bias,
                                        count: matrix.outputs, epsilon: norm.epsilon)
            }
        }
    }
}

/// `H.rows` rows × one panel's 32 outputs. The height is a type so each specialization keeps only its
/// own accumulators and FMAs (a 7-row tile costs 7 rows of work, not 8): 16 accumulators, two weight
/// registers and a broadcast fit AVX-512's 32 registers, and 8 row pointers the general registers. (A
/// 16-row tile over half a panel, which would read each weight once for a 15-token sentence, measured
/// 30 % slower: its 16 row pointers spill, and the half-panels interleave in memory.)
struct PanelTile {
    /// Unowned: a tile lives inside `product`, whose matrix is `self` (a strong reference cost a retain
    /// and a release per tile).
    unowned(unsafe) let matrix: PanelMatrix
    let x: UnsafePointer<Float>
    let y: UnsafeMutablePointer<Float>
    let row: Int
    let panel: Int
    let gelu: Bool

    @inline(__always)
    func run<H: TileHeight>(_ height: H.Type) {
        let k = matrix.inputs, n = H.rows
        let x0 = x + row * k
        let x1 = x0 + min(1, n - 1) * k, x2 = x0 + min(2, n - 1) * k, x3 = x0 + min(3, n - 1) * k
        let x4 = x0 + min(4, n - 1) * k, x5 = x0 + min(5, n - 1) * k, x6 = x0 + min(6, n - 1) * k
        let x7 = x0 + min(7, n - 1) * k
        let w = UnsafeRawPointer(matrix.weights + panel * PanelMatrix.width * k)
        var a0 = SIMD16<Float>(), b0 = SIMD16<Float>(), a1 = SIMD16<Float>(), b1 = SIMD16<Float>()
        var a2 = SIMD16<Float>(), b2 = SIMD16<Float>(), a3 = SIMD16<Float>(), b3 = SIMD16<Float>()
        var a4 = SIMD16<Float>(), b4 = SIMD16<Float>(), a5 = SIMD16<Float>(), b5 = SIMD16<Float>()
        var a6 = SIMD16<Float>(), b6 = SIMD16<Float>(), a7 = SIMD16<Float>(), b7 = SIMD16<Float>()
        for i in 0..<k {
            let lo = w.load(fromByteOffset: 128 * i, as: SIMD16<Float>.self)
            let hi = w.load(fromByteOffset: 128 * i + 64, as: SIMD16<Float>.self)
            let s0 = x0[i]
            a0.addProduct(s0, lo); b0.addProduct(s0, hi)
            if n > 1 { let s = x1[i]; a1.addProduct(s, lo); b1.addProduct(s, hi) }
            if n > 2 { let s = x2[i]; a2.addProduct(s, lo); b2.addProduct(s, hi) }
            if n > 3 { let s = x3[i]; a3.addProduct(s, lo); b3.addProduct(s, hi) }
            if n > 4 { let s = x4[i]; a4.addProduct(s, lo); b4.addProduct(s, hi) }
            if n > 5 { let s = x5[i]; a5.addProduct(s, lo); b5.addProduct(s, hi) }
            if n > 6 { let s = x6[i]; a6.addProduct(s, lo); b6.addProduct(s, hi) }
            if n > 7 { let s = x7[i]; a7.addProduct(s, lo); b7.addProduct(s, hi) }
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
        if n > 6 { store(a6 + blo, b6 + bhi, row: row + 6, column: column) }
        if n > 7 { store(a7 + blo, b7 + bhi, row: row + 7, column: column) }
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

/// A tile's row count as a type (see `PanelTile.run`).
protocol TileHeight { static var rows: Int { get } }
enum Rows1: TileHeight { static var rows: Int { 1 } }
enum Rows2: TileHeight { static var rows: Int { 2 } }
enum Rows3: TileHeight { static var rows: Int { 3 } }
enum Rows4: TileHeight { static var rows: Int { 4 } }
enum Rows5: TileHeight { static var rows: Int { 5 } }
enum Rows6: TileHeight { static var rows: Int { 6 } }
enum Rows7: TileHeight { static var rows: Int { 7 } }
enum Rows8: TileHeight { static var rows: Int { 8 } }
