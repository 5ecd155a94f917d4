/// What to generate and when to stop.
public struct GenerationOptions: Sendable, Equatable {
    /// Upper bound on generated tokens (end-of-generation tokens not counted).
    public var maxTokens: Int
    public var sampler: SamplerConfiguration
    /// Generation ends when the text contains one of these; the stop string itself is not emitted.
    public var stopSequences: [String]
    /// Prepend BOS when tokenizing a text prompt (the model's default is yes).
    public var addBOS: Bool
    /// Turn control-token text such as `<start_of_turn>` in a prompt into single ids.
    public var parseSpecial: Bool
    /// When set, the output is a JSON document of this shape, complete within `maxTokens`; the
    /// generation ends when the document does.
    public var constraint: JSONConstraint?
    /// Draft tokens from the prompt and the text so far (and a schema's forced text) and verify them
    /// in one forward pass. The output is the same token for token (each drafted row is computed as
    /// a step of its own and sampled as plain decoding samples it); off, every token takes a pass.
    public var speculative: Bool

    public init(maxTokens: Int = 256, sampler: SamplerConfiguration = .greedy, stopSequences: [String] = [],
                addBOS: Bool = true, parseSpecial: Bool = true, constraint: JSONConstraint? = nil, speculative: Bool = true) {
        self.maxTokens = maxTokens
        self.sampler = sampler
        self.stopSequences = stopSequences
        self.addBOS = addBOS
        self.parseSpecial = parseSpecial
        self.constraint = constraint
        self.speculative = speculative
    }
}

/// One generated token and the text it completed.
public struct GeneratedToken: Sendable, Equatable {
    public var id: Int32
    /// Newly completed UTF-8 text (may be empty while a character or possible stop string is pending).
    /// A last event may repeat the final id to carry text that was held back until the end.
    public var text: String
    /// Time since the generation started.
    public var elapsed: Duration

    public init(id: Int32, text: String, elapsed: Duration) {
        self.id = id
        self.text = text
        self.elapsed = elapsed
    }
}

/// Why a generation ended, as the engine knows it.
///
/// Not `SwitchboardCore.FinishReason`: SwitchboardInference stands alone (no dependency on the runtime's
/// layers, see Package.swift), and Core must not depend on the engine (it holds values and policies
/// that remote-only apps use). Neither direction keeps the layering, so the engine keeps this richer
/// reason (which stop sequence, context versus token limit, cancellation) and `LocalEngine` maps it
/// to Core's `stop`/`length` in one place, the only boundary a local token crosses between them.
public enum FinishReason: Sendable, Equatable {
    /// The model produced an end-of-generation token (EOS or end-of-turn).
    case endOfGeneration
    case stopSequence(String)
    case maxTokens
    /// The session's context window filled up.
    case contextLength
    case cancelled
}

/// Counts and timings of a finished generation.
public struct GenerationSummary: Sendable, Equatable {
    public var finishReason: FinishReason
    public var promptTokens: Int
    /// Generated tokens, not counting a final end-of-generation token.
    public var completionTokens: Int
    public var generatedIDs: [Int32]
    public var timeToFirstToken: Duration
    public var prefillDuration: Duration
    public var decodeDuration: Duration
    /// Leading prompt tokens whose keys and values a previous request had left in the cache (only
    /// the rest were evaluated).
    public var reusedPromptTokens: Int = 0
    /// Forward passes this sequence took part in after its prompt (plain decoding: one per token
    /// after the first).
    public var decodePasses: Int = 0
    /// Tokens drafted for the model to verify, and those its own choice confirmed (each saved a pass).
    public var draftedTokens: Int = 0
    public var acceptedDraftTokens: Int = 0

    public var prefillTokensPerSecond: Double { Self.rate(promptTokens, prefillDuration) }
    /// Tokens per second after the first one (each needs one decode step).
    public var decodeTokensPerSecond: Double { Self.rate(max(0, generatedIDs.count - 1), decodeDuration) }

    static func rate(_ count: Int, _ duration: Duration) -> Double {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        return seconds > 0 ? Double(count) / seconds : 0
    }
}

/// A generation as a sequence of events: tokens, then exactly one `finished`.
public enum GenerationEvent: Sendable, Equatable {
    case token(GeneratedToken)
    case finished(GenerationSummary)
}
