/// Where a BERT encoder's tensors come from: a safetensors file under Hugging Face names, or a
/// llama.cpp `bert` GGUF under its own names. Both are read as Float, F16 and BF16 widened, with
/// the shape checked (in PyTorch's order, outermost first).
protocol BertWeightSource {
    func floats(_ name: String, shape: [Int]) throws(BertError) -> [Float]
    /// The stored shape, outermost first.
    func shape(_ name: String) throws(BertError) -> [Int]
}

/// A safetensors file from `transformers`, with or without the `bert.` prefix on its names.
struct SafetensorsBertWeights: BertWeightSource {
    let file: SafetensorsFile
    let prefix: String

    init(_ file: SafetensorsFile) {
        self.file = file
        prefix = file.hasTensor(named: "bert.embeddings.word_embeddings.weight") ? "bert." : ""
    }

    func floats(_ name: String, shape: [Int]) throws(BertError) -> [Float] {
        do { return try file.floats(prefix + name, shape: shape) } catch { throw .safetensors(error) }
    }

    func shape(_ name: String) throws(BertError) -> [Int] {
        do { return try file.tensor(named: prefix + name).shape } catch { throw .safetensors(error) }
    }
}

/// A GGUF laid out by llama.cpp's converter (`token_embd`, `blk.N.attn_q`, …; ne0 first, so shapes
/// are compared reversed).
struct GGUFBertWeights: BertWeightSource {
    let file: GGUFFile

    func floats(_ name: String, shape: [Int]) throws(BertError) -> [Float] {
        let ggufName = Self.name(for: name)
        do {
            let info = try file.tensor(named: ggufName)
            guard info.dimensions == Array(shape.reversed()) || (shape.count == 1 && info.dimensions == shape) else {
                throw BertError.unsupportedConfiguration("tensor \(ggufName) has dimensions \(info.dimensions), expected \(Array(shape.reversed()))")
            }
            let dtype: SafetensorsDType
            switch info.type {
            case .f32: dtype = .f32
            case .f16: dtype = .f16
            case .bf16: dtype = .bf16
            default: throw BertError.unsupportedConfiguration("tensor \(ggufName) is \(info.type) (F32, F16 or BF16 only)")
            }
            return file.withTensorBytes(info) { bytes in
                guard let base = bytes.baseAddress else { return [] }
                return SafetensorsFile.convert(base, dtype: dtype, count: info.elementCount)
            }
        } catch let error as BertError {
            throw error
        } catch let error as GGUFError {
            throw .gguf(error)
        } catch {
            throw .unsupportedConfiguration("\(error)")
        }
    }

    func shape(_ name: String) throws(BertError) -> [Int] {
        do { return try file.tensor(named: Self.name(for: name)).dimensions.reversed() } catch { throw .gguf(error) }
    }

    /// The converter's renaming (`shared/tools/minilm_to_gguf.py`, llama.cpp's `MODEL_TENSOR` table).
    static func name(for hf: String) -> String {
        let fixed = [
            "embeddings.word_embeddings.weight": "token_embd.weight",
            "embeddings.token_type_embeddings.weight": "token_types.weight",
            "embeddings.position_embeddings.weight": "position_embd.weight",
            "embeddings.LayerNorm.weight": "token_embd_norm.weight",
            "embeddings.LayerNorm.bias": "token_embd_norm.bias",
        ]
        if let name = fixed[hf] { return name }
        let parts = [
            "attention.self.query": "attn_q", "attention.self.key": "attn_k", "attention.self.value": "attn_v",
            "attention.output.dense": "attn_output", "attention.output.LayerNorm": "attn_output_norm",
            "intermediate.dense": "ffn_up", "output.dense": "ffn_down", "output.LayerNorm": "layer_output_norm",
        ]
        // encoder.layer.N.<part>.<weight|bias>
        let fields = hf.split(separator: ".", maxSplits: 3).map(String.init)
        guard fields.count == 4, fields[0] == "encoder", fields[1] == "layer", let dot = fields[3].lastIndex(of: ".") else { return hf }
        let part = String(fields[3][..<dot]), suffix = String(fields[3][dot...])
        guard let short = parts[part] else { return hf }
        return "blk.\(fields[2]).\(short)\(suffix)"
    }
}
