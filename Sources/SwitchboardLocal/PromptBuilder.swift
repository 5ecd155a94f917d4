import SwitchboardCore
import SwitchboardInference

/// The text handed to the model for one request, and how to tokenize it.
public struct BuiltPrompt: Sendable, Hashable {
    public var text: String
    /// `text` as template markup and caller text: the engine parses control tokens in the markup
    /// only, so a message cannot inject a turn (`Tokenizer.encode(_:addBOS:)`).
    public var segments: [PromptSegment]
    /// Whether `text` has template markup (control tokens such as `<start_of_turn>`).
    public var parseSpecial: Bool
    /// Tokens including the BOS token the provider prepends.
    public var tokenCount: Int
    public var includedMemoryItems: Int
    public var droppedMemoryItems: Int
    /// The start of the answer already given (a resumed request): the prompt ends with it and a
    /// schema's constraint continues after it.
    public var answerPrefix: String?
}

/// Counts the tokens of a text as the model's tokenizer would, without BOS. A closure so prompt
/// building is tested without a model.
public struct TokenCounter: Sendable {
    private let count: @Sendable (_ text: String, _ parseSpecial: Bool) -> Int
    public init(_ count: @escaping @Sendable (_ text: String, _ parseSpecial: Bool) -> Int) { self.count = count }
    public func callAsFunction(_ text: String, parseSpecial: Bool) -> Int { count(text, parseSpecial) }
}

/// Turns a request into model input: plain text for a base model's completion, the model's chat
/// template for an instruction model or a request with messages. Memory goes in within the token
/// budget left after the prompt and `maxTokens`, least relevant first out. A prompt that cannot fit at
/// all is a `contextLengthExceeded`, so the router can fall back to a provider with a larger context.
public struct PromptBuilder: Sendable {
    public var format: ModelConfiguration.PromptFormat
    public var contextLength: Int
    public var counter: TokenCounter

    public init(format: ModelConfiguration.PromptFormat, contextLength: Int, counter: TokenCounter) {
        self.format = format; self.contextLength = contextLength; self.counter = counter
    }

    public func build(_ request: GenerationRequest) throws(ProviderError) -> BuiltPrompt {
        guard request.maxTokens >= 1 else { throw .invalidRequest("maxTokens must be at least 1") }
        guard request.images.isEmpty else { throw .invalidRequest("the on-device model cannot take images") }
        let hasPrompt = !(request.prompt ?? "").isEmpty
        guard hasPrompt || !request.messages.isEmpty else {
            throw .invalidRequest("the request has neither a prompt nor messages")
        }
        let template: ChatTemplate? = switch format {
        case .chat(let template): template
        case .completion: request.messages.isEmpty ? nil : .gemmaTurns
        }
        let useTurns = template != nil
        // A resumed answer goes on from its prefix: the reply (or the text to continue) starts with it,
        // as caller text, so markup in it stays text.
        let prefix = (request.answerPrefix ?? "").isEmpty ? [] : [PromptSegment.text(request.answerPrefix ?? "")]
        let render: ([String]) -> [PromptSegment] = { memory in
            (template.map { Self.turns(request, memory: memory, template: $0) } ?? [.text(Self.completion(request, memory: memory))]) + prefix
        }
        let outputRoom = contextLength.saturatingAdd(-max(request.maxTokens, 0))
        let base = render([]).text
        let baseTokens = tokens(base, useTurns)
        guard baseTokens <= outputRoom else {
            throw .contextLengthExceeded(limit: contextLength, requested: baseTokens.saturatingAdd(request.maxTokens))
        }

        let candidates = Self.memoryCandidates(request.memory)
        var kept = selectByBudget(candidates, budget: outputRoom - baseTokens, useTurns: useTurns)
        var segments = render(Self.inOriginalOrder(kept))
        var count = tokens(segments.text, useTurns)
        // Per-line estimates can miss merges at line joins: drop more until the real count fits.
        while count > outputRoom, !kept.isEmpty {
            kept.removeLast()
            segments = render(Self.inOriginalOrder(kept))
            count = tokens(segments.text, useTurns)
        }
        return BuiltPrompt(text: segments.text, segments: segments, parseSpecial: useTurns, tokenCount: count,
                           includedMemoryItems: kept.count, droppedMemoryItems: candidates.count - kept.count,
                           answerPrefix: request.answerPrefix.flatMap { $0.isEmpty ? nil : $0 })
    }

    private func tokens(_ text: String, _ parseSpecial: Bool) -> Int { counter(text, parseSpecial: parseSpecial) + 1 }

    /// The most relevant candidates whose lines fit in `budget` tokens (a prefix of the relevance order).
    private func selectByBudget(_ candidates: [MemoryCandidate], budget: Int, useTurns: Bool) -> [MemoryCandidate] {
        let ranked = candidates.enumerated().sorted {
            $0.element.relevance != $1.element.relevance ? $0.element.relevance > $1.element.relevance : $0.offset < $1.offset
        }.map(\.element)
        var used = counter(Self.memoryHeader + "\n\n", parseSpecial: useTurns)
        var kept: [MemoryCandidate] = []
        for candidate in ranked {
            used += counter(candidate.line + "\n", parseSpecial: useTurns)
            if used > budget { break }
            kept.append(candidate)
        }
        return kept
    }
}
