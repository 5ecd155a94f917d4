import Foundation

/// The numbers that shape a BERT encoder, from `config.json` or GGUF metadata, checked before any
/// buffer is sized from them.
struct BertHyperparameters: Sendable, Equatable {
    var hidden: Int
    var layers: Int
    var heads: Int
    var feedForward: Int
    var positions: Int
    var layerNormEpsilon: Float
    var headDimension: Int { hidden / heads }

    func validated() throws(BertError) -> BertHyperparameters {
        func check(_ ok: Bool, _ what: String) throws(BertError) { if !ok { throw .unsupportedConfiguration(what) } }
        try check((1...16_384).contains(hidden), "hidden size \(hidden)")
        try check((1...256).contains(layers), "\(layers) layers")
        try check((1...1_024).contains(heads) && hidden % heads == 0, "\(heads) heads for hidden size \(hidden)")
        try check((1...262_144).contains(feedForward), "feed-forward size \(feedForward)")
        try check((2...1_048_576).contains(positions), "\(positions) positions")
        try check(layerNormEpsilon.isFinite && layerNormEpsilon > 0 && layerNormEpsilon < 1, "LayerNorm epsilon \(layerNormEpsilon)")
        return self
    }

    /// Hugging Face `config.json` of a `BertModel`; only the exact erf GELU is accepted (`gelu_new`
    /// and friends are the tanh form, which this encoder does not compute).
    init(configJSON data: Data) throws(BertError) {
        struct Config: Decodable {
            let hidden_size, num_hidden_layers, num_attention_heads, intermediate_size, max_position_embeddings: Int
            let layer_norm_eps: Double?
            let hidden_act: String?
            let position_embedding_type: String?
        }
        let c: Config
        do { c = try JSONDecoder().decode(Config.self, from: data) } catch {
            throw .unsupportedConfiguration("config.json lacks an integer hidden_size, num_hidden_layers, num_attention_heads, "
                                            + "intermediate_size or max_position_embeddings")
        }
        guard (c.hidden_act ?? "gelu") == "gelu" else { throw .unsupportedConfiguration("hidden_act \(c.hidden_act ?? "") (only gelu)") }
        guard (c.position_embedding_type ?? "absolute") == "absolute" else {
            throw .unsupportedConfiguration("position_embedding_type \(c.position_embedding_type ?? "") (only absolute)")
        }
        self = try BertHyperparameters(hidden: c.hidden_size, layers: c.num_hidden_layers, heads: c.num_attention_heads,
                                       feedForward: c.intermediate_size, positions: c.max_position_embeddings,
                                       layerNormEpsilon: Float(c.layer_norm_eps ?? 1e-12)).validated()
    }

    init(hidden: Int, layers: Int, heads: Int, feedForward: Int, positions: Int, layerNormEpsilon: Float) {
        self.hidden = hidden; self.layers = layers; self.heads = heads
        self.feedForward = feedForward; self.positions = positions; self.layerNormEpsilon = layerNormEpsilon
    }

    /// llama.cpp `bert` metadata (`bert.embedding_length`, …).
    init(gguf file: GGUFFile) throws(BertError) {
        do {
            let architecture = try file.architecture
            guard architecture == "bert" else { throw BertError.unsupportedConfiguration("GGUF architecture \(architecture) (expected bert)") }
            if let pooling = try file.optionalInt("bert.pooling_type"), pooling != 1 {
                throw BertError.unsupportedConfiguration("pooling type \(pooling) (only mean pooling, 1)")
            }
            if let causal = try file.optionalBool("bert.attention.causal"), causal {
                throw BertError.unsupportedConfiguration("causal attention (a BERT encoder is bidirectional)")
            }
            self = try BertHyperparameters(
                hidden: file.int("bert.embedding_length"), layers: file.int("bert.block_count"),
                heads: file.int("bert.attention.head_count"), feedForward: file.int("bert.feed_forward_length"),
                positions: file.int("bert.context_length"),
                layerNormEpsilon: file.optionalFloat("bert.attention.layer_norm_epsilon") ?? 1e-12).validated()
        } catch let error as BertError {
            throw error
        } catch let error as GGUFError {
            throw .gguf(error)
        } catch {
            throw .unsupportedConfiguration("\(error)")
        }
    }
}
