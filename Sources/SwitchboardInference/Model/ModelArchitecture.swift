/// Hyperparameters of a decoder-only transformer, read from GGUF metadata (`<arch>.*` keys).
public struct ModelArchitecture: Sendable, Equatable {
    /// `general.architecture`, e.g. "gemma3".
    public var name: String
    public var embeddingLength: Int
    public var blockCount: Int
    public var feedForwardLength: Int
    public var headCount: Int
    public var headCountKV: Int
    public var keyLength: Int
    public var valueLength: Int
    public var rmsEpsilon: Float
    /// RoPE base of global (full-attention) layers.
    public var ropeBase: Float
    /// RoPE base of sliding-window layers.
    public var ropeBaseLocal: Float
    /// Keys older than this many positions are invisible to sliding-window layers (0: none).
    public var slidingWindow: Int
    /// Every `slidingWindowPattern`-th layer (il % pattern == pattern - 1) is global.
    public var slidingWindowPattern: Int
    public var contextLength: Int
    public var vocabularySize: Int
    /// How query/key pairs are rotated: adjacent pairs (`llama`) or halves (Gemma, Qwen).
    public var ropeStyle: RotaryEmbedding.Style

    /// What a family assumes where the file's metadata says nothing, and what it fixes.
    struct Defaults {
        var rmsEpsilon: Float
        var ropeBase: Float
        /// Gemma 3's local RoPE base is fixed in llama.cpp (`rope_freq_base_train_swa`), not read.
        var ropeBaseLocal: Float? = nil
        var slidingWindowPattern: Int = 0
        /// RoPE style per `general.architecture` (llama.cpp's `llama_model_rope_type`).
        var ropeStyles: [String: RotaryEmbedding.Style]
    }

    public func isSlidingWindow(layer: Int) -> Bool {
        slidingWindow > 0 && slidingWindowPattern > 1 && layer % slidingWindowPattern < slidingWindowPattern - 1
    }

    public var queryLength: Int { headCount * keyLength }

    /// Hyperparameters given directly (tests, hand-built models).
    public init(name: String, embeddingLength: Int, blockCount: Int, feedForwardLength: Int, headCount: Int, headCountKV: Int,
                keyLength: Int, valueLength: Int, rmsEpsilon: Float, ropeBase: Float, ropeBaseLocal: Float, slidingWindow: Int,
                slidingWindowPattern: Int, contextLength: Int, vocabularySize: Int, ropeStyle: RotaryEmbedding.Style = .neox) {
        self.name = name
        self.embeddingLength = embeddingLength
        self.blockCount = blockCount
        self.feedForwardLength = feedForwardLength
        self.headCount = headCount
        self.headCountKV = headCountKV
        self.keyLength = keyLength
        self.valueLength = valueLength
        self.rmsEpsilon = rmsEpsilon
        self.ropeBase = ropeBase
        self.ropeBaseLocal = ropeBaseLocal
        self.slidingWindow = slidingWindow
        self.slidingWindowPattern = slidingWindowPattern
        self.contextLength = contextLength
        self.vocabularySize = vocabularySize
        self.ropeStyle = ropeStyle
    }

    /// Reads the hyperparameters of architecture `arch` (`general.architecture`), with its family's
    /// `defaults` for absent keys.
    init(file: GGUFFile, arch: String, defaults: Defaults) throws(InferenceError) {
        guard let style = defaults.ropeStyles[arch] else { throw .unsupportedArchitecture(arch) }
        ropeStyle = style
        do {
            name = arch
            embeddingLength = try file.int("\(arch).embedding_length")
            blockCount = try file.int("\(arch).block_count")
            feedForwardLength = try file.int("\(arch).feed_forward_length")
            headCount = try file.int("\(arch).attention.head_count")
            headCountKV = try file.optionalInt("\(arch).attention.head_count_kv") ?? headCount
            keyLength = try file.optionalInt("\(arch).attention.key_length") ?? (headCount > 0 ? embeddingLength / headCount : 0)
            valueLength = try file.optionalInt("\(arch).attention.value_length") ?? keyLength
            rmsEpsilon = try file.optionalFloat("\(arch).attention.layer_norm_rms_epsilon") ?? defaults.rmsEpsilon
            ropeBase = try file.optionalFloat("\(arch).rope.freq_base") ?? defaults.ropeBase
            ropeBaseLocal = defaults.ropeBaseLocal ?? ropeBase
            slidingWindowPattern = defaults.slidingWindowPattern
            slidingWindow = slidingWindowPattern > 1 ? try file.optionalInt("\(arch).attention.sliding_window") ?? 0 : 0
            contextLength = try file.optionalInt("\(arch).context_length") ?? 8192
            vocabularySize = try file.tensor(named: "token_embd.weight").rowCount
        } catch {
            if case .missingTensor(let name) = error { throw .missingTensor(name) }
            throw .gguf(error)
        }
        // Sizes are multiplied together later (head count × head length, context × width): bounded
        // here so a corrupt header is an error, not an overflow trap.
        let limit = 1 << 20
        guard [embeddingLength, blockCount, feedForwardLength, headCount, headCountKV, keyLength, valueLength].allSatisfy({ $0 <= limit }),
              contextLength <= 1 << 24, slidingWindow >= 0, slidingWindow <= 1 << 24
        else { throw .unsupportedTensor(name: "\(arch) hyperparameters", reason: "a size in the metadata is implausibly large") }
        guard embeddingLength > 0, blockCount > 0, headCount > 0, headCountKV > 0, headCount % headCountKV == 0,
              keyLength > 0, valueLength == keyLength, feedForwardLength > 0, contextLength > 0, vocabularySize > 0,
              keyLength % 2 == 0, rmsEpsilon.isFinite, rmsEpsilon >= 0, ropeBase.isFinite, ropeBase > 0
        else { throw .unsupportedTensor(name: "\(arch) hyperparameters", reason: "inconsistent head counts or sizes in the metadata") }
        // The attention kernels run 16 lanes at a time over a head (llama.cpp's F16 tiles need the same).
        guard keyLength % 16 == 0 else {
            throw .unsupportedTensor(name: "\(arch) hyperparameters",
                                     reason: "head length \(keyLength) is not a multiple of 16, which the attention kernels need")
        }
    }
}
