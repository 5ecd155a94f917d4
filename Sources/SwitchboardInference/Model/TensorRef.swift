/// A weight tensor located in the model file: where it is and how to read it. Sendable (plain
/// numbers); sessions resolve it to a pointer into the mapping they keep alive.
struct TensorRef: Sendable {
    let info: GGUFTensorInfo
    let format: WeightFormat
    var rows: Int { info.rowCount }
    var columns: Int { info.dimensions.first ?? 0 }

    /// Looks up `name`, checking its shape (`columns`, `rows`; nil = any) and that the kernels
    /// handle its type.
    init(_ file: GGUFFile, _ name: String, columns: Int, rows: Int?) throws(InferenceError) {
        guard file.hasTensor(named: name) else { throw .missingTensor(name) }
        do { info = try file.tensor(named: name) } catch { throw .gguf(error) }
        guard let format = WeightFormat(info.type) else {
            throw .unsupportedTensor(name: name, reason: "element type \(info.type) has no kernel")
        }
        self.format = format
        guard info.dimensions.first == columns, rows == nil || info.rowCount == rows else {
            throw .unsupportedTensor(name: name, reason: "shape \(info.dimensions) does not match the hyperparameters (expected \(columns) × \(rows.map(String.init) ?? "any"))")
        }
        if let kind = format.activationKind, columns % max(64, kind.blockSize) != 0 {
            throw .unsupportedTensor(name: name,
                                     reason: "row length \(columns) is not a multiple of \(max(64, kind.blockSize)) (the integer kernels' step)")
        }
    }

    func resolve(in file: GGUFFile) -> WeightMatrix {
        WeightMatrix(base: file.tensorPointer(info), rows: rows, columns: columns, format: format)
    }

    /// An F32 vector (norm weights), copied out of the file.
    static func vector(_ file: GGUFFile, _ name: String, count: Int) throws(InferenceError) -> [Float] {
        let ref = try TensorRef(file, name, columns: count, rows: 1)
        var out = [Float](repeating: 0, count: count)
        out.withUnsafeMutableBufferPointer { buffer in
            if let base = buffer.baseAddress { ref.resolve(in: file).dequantizeRow(0, into: base) }
        }
        return out
    }
}

extension WeightFormat {
    /// Adapter from the GGUF reader's type enum; nil for types without a kernel.
    init?(_ type: GGMLType) {
        switch type {
        case .f32: self = .f32
        case .f16: self = .f16
        case .bf16: self = .bf16
        case .q8_0: self = .q8_0
        case .q4_0: self = .q4_0
        case .q4_1: self = .q4_1
        case .q5_0: self = .q5_0
        case .q4_K: self = .q4_K
        case .q6_K: self = .q6_K
        default: return nil
        }
    }
}
