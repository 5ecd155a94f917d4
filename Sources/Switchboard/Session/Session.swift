import Synchronization
import SwitchboardCore

/// A conversation with the runtime, in the shape of Apple's `LanguageModelSession`: instructions, a
/// transcript, and `respond` that sends the whole conversation and appends the answer.
///
/// - **Privacy follows the conversation.** Each turn is analyzed with the whole transcript, and once
///   the session has seen personal or sensitive content, every later turn carries that level as its
///   floor (`GenerationRequest.privacyFloor`): it stays on device, retries and fallbacks included.
/// - **Warm cache.** The next turn prefers the provider that answered the last one; an on-device
///   provider then finds the earlier turns in its KV cache and evaluates only the new tokens.
/// - **Context.** `contextTokens` bounds the transcript sent: with `.trimOldest` the oldest turns go
///   first (instructions are kept); with `.fail` a turn that does not fit throws
///   `SessionError.contextExceeded`.
public actor Session {
    public enum Overflow: Sendable { case trimOldest, fail }

    public struct Options: Sendable {
        public var maxTokens: Int
        public var priority: Priority
        public var latencyBudget: Duration?
        public var sampling: SamplingOptions
        /// Estimated tokens (about 4 bytes each) the transcript may take.
        public var contextTokens: Int
        public var overflow: Overflow
        /// Tried first when eligible (after the provider that answered the last turn).
        public var preferredProviders: [ProviderID]
        public init(maxTokens: Int = 256, priority: Priority = .normal, latencyBudget: Duration? = nil,
                    sampling: SamplingOptions = .greedy, contextTokens: Int = 3072, overflow: Overflow = .trimOldest,
                    preferredProviders: [ProviderID] = []) {
            self.maxTokens = maxTokens; self.priority = priority; self.latencyBudget = latencyBudget
            self.sampling = sampling; self.contextTokens = max(1, contextTokens); self.overflow = overflow
            self.preferredProviders = preferredProviders
        }
    }

    /// One entry of the conversation, oldest first.
    public enum Entry: Sendable, Hashable {
        case instructions(String)
        case prompt(String)
        case response(String, provider: ProviderID)
        /// A tool the model asked for, with its arguments as JSON (and the provider's call id when it
        /// called natively), and what it returned: `isError` when the tool threw or its arguments
        /// were refused before it ran (the output then says why).
        case toolCall(name: String, arguments: String, id: String? = nil)
        case toolResult(name: String, output: String, id: String? = nil, isError: Bool = false)
    }

    public let coordinator: Coordinator
    public var options: Options
    public internal(set) var transcript: [Entry]
    /// Tools the model may call (`Session+Tools`); each turn runs at most `maxToolRounds` calls.
    public let tools: [any Tool]
    public let maxToolRounds: Int
    /// The most private level any turn has had.
    public private(set) var privacy: PrivacyLevel = .public
    private var lastProvider: ProviderID?
    /// Tags this session's requests (`GenerationRequest.prefixOwner`), so `reset()` can clear what an
    /// on-device engine cached of its prompts.
    package nonisolated let owner: UInt64 = Session.owners.add(1, ordering: .relaxed).newValue
    private static let owners = Atomic<UInt64>(0)

    public init(coordinator: Coordinator, instructions: String? = nil, tools: [any Tool] = [], maxToolRounds: Int = 3,
                options: Options = Options()) {
        self.coordinator = coordinator
        self.options = options
        self.tools = tools
        self.maxToolRounds = max(0, maxToolRounds)
        transcript = instructions.map { [.instructions($0)] } ?? []
    }

    /// Sends `prompt` with the conversation so far; appends both to the transcript. `options`
    /// override the session's own (`Options`) for this turn.
    public func respond(to prompt: String, options: GenerationOptions = GenerationOptions()) async throws -> Response<String> {
        Response(try await generate(prompt, options: options))
    }

    /// `respond`, streamed: snapshots of the answer so far, the routing and the tool calls on
    /// `events`; the turn is recorded in the transcript when it completes. With tools, the snapshots
    /// show the current round's text (each round starts over with its own `RoutingEvent.analyzed`).
    /// A turn that cannot be sent (`SessionError.contextExceeded`) ends the stream with that error.
    public func streamResponse(to prompt: String, options: GenerationOptions = GenerationOptions()) -> ResponseStream<String> {
        do { return ResponseStream(text: try events(for: prompt, options: options)) } catch { return ResponseStream(failing: error) }
    }

    /// The answer to `prompt` as the coordinator gives it (`respond` wraps it).
    func generate(_ prompt: String, options: GenerationOptions = GenerationOptions()) async throws -> GenerationResponse {
        if !tools.isEmpty { return try await respondUsingTools(to: prompt, options: options, events: nil) }
        let request = try request(for: prompt, options: options)
        let response = try await coordinator.generate(request)
        record(prompt: prompt, response: response)
        return response
    }

    /// The turn's events, recorded in the transcript when it completes. With tools, every round's
    /// events come through, with a `toolCall` for each call and a `toolResult` for each result, and
    /// one `completed` (or `failed`) at the end.
    func events(for prompt: String, options: GenerationOptions = GenerationOptions()) throws -> SwitchboardEventStream {
        let request = try request(for: prompt, options: options)
        if !tools.isEmpty { return streamUsingTools(prompt, options: options, maxTokens: request.maxTokens) }
        return recording(prompt, coordinator.stream(request), maxTokens: request.maxTokens) { _ in true }
    }

    /// `events` of one request, recorded when it completes with an answer `keep` accepts.
    func recording(_ prompt: String, _ events: SwitchboardEventStream, maxTokens: Int,
                   keep: @escaping @Sendable (GenerationResponse) -> Bool) -> SwitchboardEventStream {
        SwitchboardEventStream(bufferingPolicy: .bufferingOldest(max(1, maxTokens) + 16)) { continuation in
            for await event in events {
                if case .completed(let response) = event, keep(response) { await self.record(prompt: prompt, response: response) }
                continuation.yield(event)
            }
        }
    }

    /// Starts the conversation over: the transcript goes back to the instructions, and every on-device
    /// provider drops the prompt keys and values it cached for this session's requests that no other
    /// session's requests share (`SessionStateHolder`). The privacy level stays: what was said has
    /// been seen, and later turns keep its floor.
    public func reset() async {
        transcript = transcript.filter { if case .instructions = $0 { true } else { false } }
        lastProvider = nil
        await coordinator.forgetSession(owner)
    }

    /// Loads what the next turn will need (a local model), so the first answer does not wait for it.
    public func prewarm() async {
        var request = GenerationRequest(prompt: "Hello", priority: .low, maxTokens: 1)
        request.privacyFloor = privacy > .public ? privacy : nil
        _ = try? await coordinator.generate(request)
    }

    /// The request for the next turn: instructions (with the tools), earlier turns (trimmed to fit),
    /// the new prompt (none: the transcript already ends with what the model answers). `native`:
    /// tool calls and results as native messages, and the tools as definitions, not instructions.
    func request(for prompt: String?, native: Bool = false, options generation: GenerationOptions = GenerationOptions())
        throws -> GenerationRequest {
        let maxTokens = generation.maximumResponseTokens ?? options.maxTokens
        var messages = Self.messages(transcript, native: native) + (prompt.map { [ChatMessage(.user, $0)] } ?? [])
        if !tools.isEmpty, !native {
            if let i = messages.firstIndex(where: { $0.role == .system }) {
                messages[i].content += "\n\n" + toolInstructions
            } else {
                messages.insert(ChatMessage(.system, toolInstructions), at: 0)
            }
        }
        while Self.estimatedTokens(messages) + maxTokens > options.contextTokens {
            // The new prompt (last) is never dropped; instructions neither.
            guard options.overflow == .trimOldest, let first = messages.firstIndex(where: { $0.role != .system }),
                  first < messages.count - 1 else {
                throw SessionError.contextExceeded(estimatedTokens: Self.estimatedTokens(messages) + maxTokens,
                                                   limit: options.contextTokens)
            }
            // Drop the oldest prompt and its answer together (with any tool calls and results between).
            messages.remove(at: first)
            while first < messages.count - 1, messages[first].role == .assistant || messages[first].role == .tool {
                messages.remove(at: first)
            }
        }
        var request = GenerationRequest(messages: messages, priority: options.priority, latencyBudget: options.latencyBudget,
                                        maxTokens: maxTokens, sampling: options.sampling)
        generation.apply(to: &request)
        request.privacyFloor = privacy > .public ? privacy : nil
        request.prefixOwner = owner
        request.preferredProviders = (lastProvider.map { [$0] } ?? []) + options.preferredProviders.filter { $0 != lastProvider }
        if native { request.tools = tools.map(ToolDefinition.init) }
        return request
    }

    func record(prompt: String, response: GenerationResponse) {
        transcript.append(.prompt(prompt))
        transcript.append(.response(response.text, provider: response.providerID))
        note(response)
    }

    /// What every answer teaches the session: its privacy level and the provider with the warm cache.
    func note(_ response: GenerationResponse) {
        privacy = max(privacy, response.privacy)
        lastProvider = response.providerID
    }

    /// The transcript as chat messages. A tool call and its result become one user message (the
    /// model reads what the tool returned; an assistant message of the call would be imitated), or,
    /// `native`, the assistant's tool-call turn and a `.tool` message per result.
    static func messages(_ transcript: [Entry], native: Bool = false) -> [ChatMessage] {
        if native { return nativeMessages(transcript) }
        var messages: [ChatMessage] = []
        var pendingCall: (name: String, arguments: String)?
        for entry in transcript {
            switch entry {
            case .instructions(let text): messages.append(ChatMessage(.system, text))
            case .prompt(let text): messages.append(ChatMessage(.user, text))
            case .response(let text, _): messages.append(ChatMessage(.assistant, text))
            case .toolCall(let name, let arguments, _): pendingCall = (name, arguments)
            case .toolResult(let name, let output, _, _):
                let call = pendingCall.map { $0.name == name ? " \($0.arguments)" : "" } ?? ""
                messages.append(ChatMessage(.user, "The \(name) tool\(call) returned: \(output)"))
                pendingCall = nil
            }
        }
        return messages
    }

    static func estimatedTokens(_ messages: [ChatMessage]) -> Int {
        messages.reduce(0) { total, message in
            let calls = message.toolCalls.reduce(0) { $0.saturatingAdd(($1.name.utf8.count + $1.arguments.utf8.count) / 4 + 4) }
            return total.saturatingAdd(message.content.utf8.count / 4 + 4).saturatingAdd(calls)
        }
    }
}

/// Why a session turn could not be sent.
public enum SessionError: Error, Sendable, Equatable, CustomStringConvertible {
    case contextExceeded(estimatedTokens: Int, limit: Int)

    public var description: String {
        switch self {
        case .contextExceeded(let estimated, let limit):
            "the conversation needs about \(estimated) tokens but the session allows \(limit); raise Options.contextTokens, lower maxTokens, or use .trimOldest"
        }
    }
}
