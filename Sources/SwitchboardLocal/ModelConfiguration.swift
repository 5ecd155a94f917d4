import SwitchboardInference

/// Everything Switchboard knows about one on-device model before opening it: which file, how to check
/// it, how much it needs, and how to phrase prompts for it.
public struct ModelConfiguration: Sendable, Hashable, Identifiable {
    /// How requests become the text the model sees.
    public enum PromptFormat: Sendable, Hashable {
        /// A base model continues text: prompts are sent as they are (messages, when a request has
        /// them, in Gemma turns).
        case completion
        /// An instruction model: every request becomes a conversation in this template.
        case chat(ChatTemplate)

        /// An instruction model trained on Gemma's `<start_of_turn>role … <end_of_turn>` turns.
        public static let gemmaTurns = PromptFormat.chat(.gemmaTurns)

        public var isChat: Bool { if case .chat = self { true } else { false } }
    }

    public enum Platform: String, Sendable, Hashable, CaseIterable {
        case macOS, iOS, iPadOS, visionOS, linux
    }

    /// What the model produces: text (a GGUF decoder) or sentence vectors (a BERT encoder).
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case generation, embedding
    }

    /// Also the provider id of the provider that serves it (always starts with `local`).
    public var id: String
    /// File name inside the model folder.
    public var fileName: String
    /// Lower-case hex SHA-256 of the whole file, checked before every load; nil: not checked (a file
    /// of your own, `LocalModelProvider(file:)`).
    public var sha256: String?
    /// `general.architecture` in the GGUF metadata.
    public var architecture: String
    public var quantization: String
    public var parameterCount: Int
    /// The context Switchboard runs the model with (prompt + output tokens).
    public var contextLength: Int
    /// Weights plus a full KV cache and working buffers, roughly.
    public var memoryRequiredBytes: UInt64
    public var promptFormat: PromptFormat
    public var recommendedPlatforms: Set<Platform>
    public var kind: Kind

    public init(id: String, fileName: String, sha256: String?, architecture: String, quantization: String,
                parameterCount: Int, contextLength: Int, memoryRequiredBytes: UInt64,
                promptFormat: PromptFormat, recommendedPlatforms: Set<Platform>, kind: Kind = .generation) {
        self.id = id; self.fileName = fileName; self.sha256 = sha256?.lowercased()
        self.architecture = architecture; self.quantization = quantization
        self.parameterCount = parameterCount; self.contextLength = contextLength
        self.memoryRequiredBytes = memoryRequiredBytes; self.promptFormat = promptFormat
        self.recommendedPlatforms = recommendedPlatforms
        self.kind = kind
    }

    /// Gemma 3 270M, Q4_K_M, base (pre-trained) model: it continues text rather than following
    /// instructions, so prompts go in as plain completions.
    ///
    /// Context: the file declares 32768 tokens, but the KV cache grows linearly with it (18 layers × one
    /// 256-wide K and V head × 4 bytes ≈ 36 KB per token: ~1.2 GB at 32K, more than four times the
    /// weights). 8192 keeps weights + cache near 600 MB, which fits phones; when a file declares less, the
    /// provider uses the file's value.
    public static let gemma3_270m = ModelConfiguration(
        id: "local-gemma-3-270m",
        fileName: "gemma-3-270m-q4_k_m.gguf",
        sha256: "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818",
        architecture: "gemma3",
        quantization: "Q4_K_M",
        parameterCount: 268_098_176,
        contextLength: 8192,
        memoryRequiredBytes: 600 << 20,
        promptFormat: .completion,
        recommendedPlatforms: [.macOS, .iOS, .iPadOS, .visionOS, .linux]
    )

    /// SmolLM2 135M Instruct, Q4_1: the default model for chat requests. It answers rather than
    /// continues, in ChatML with its own default system line.
    ///
    /// Context: the file declares 8192 tokens; the KV cache takes 30 layers × three 64-wide K and V
    /// heads × 4 bytes ≈ 46 KB per token, ~380 MB at 8192 (allocated lazily: only the context used
    /// becomes resident). 4096 keeps weights + cache near 300 MB.
    public static let smolLM2_135mInstruct = ModelConfiguration(
        id: "local-smollm2-135m-instruct",
        fileName: "SmolLM2-135M-Instruct.Q4_1.gguf",
        sha256: "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        architecture: "llama",
        quantization: "Q4_1",
        parameterCount: 134_515_008,
        contextLength: 4096,
        memoryRequiredBytes: 300 << 20,
        promptFormat: .chat(.chatML(defaultSystem: "You are a helpful AI assistant named SmolLM, trained by Hugging Face")),
        recommendedPlatforms: [.macOS, .iOS, .iPadOS, .visionOS, .linux]
    )

    /// all-MiniLM-L6-v2 (sentence-transformers), F32 safetensors: 384-dimensional sentence embeddings
    /// (`BertEncoder`). `fileName` is the weights inside the model folder that `Scripts/fetch-model.sh
    /// minilm` fills (with `tokenizer.json` and `config.json` beside it); `sha256` is the weights'.
    /// Inputs are truncated to 256 tokens. Memory: 91 MB of weights read once into 89 MB of packed
    /// panels and embeddings (the mapping is released after loading) plus ≤ 16 MB of activations.
    public static let miniLM_L6_v2 = ModelConfiguration(
        id: "local-minilm-l6-v2",
        fileName: "all-MiniLM-L6-v2/model.safetensors",
        sha256: "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
        architecture: "bert",
        quantization: "F32",
        parameterCount: 22_713_216,
        contextLength: 256,
        memoryRequiredBytes: 128 << 20,
        promptFormat: .completion,
        recommendedPlatforms: [.macOS, .iOS, .iPadOS, .visionOS, .linux],
        kind: .embedding
    )
}
