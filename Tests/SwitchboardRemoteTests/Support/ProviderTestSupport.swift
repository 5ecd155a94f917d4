import Foundation
import Synchronization
import SwitchboardCore
@testable import SwitchboardRemote
import SwitchboardTestKit

/// What a provider stream produced.
struct Collected: Sendable {
    var text = ""
    var pieces: [String] = []
    var finish: FinishReason?
    var usage: TokenUsage?
    var toolCalls: [ToolCall] = []
}

func collect(_ stream: ProviderEventStream) async throws -> Collected {
    var result = Collected()
    for try await event in stream {
        switch event {
        case .token(let piece): result.text += piece; result.pieces.append(piece)
        case .finished(let reason, let usage): result.finish = reason; result.usage = usage
        case .toolCall(let call): result.toolCalls.append(call)
        }
    }
    return result
}

/// Runs the stream and returns its `ProviderError`, or nil if it succeeded.
func failure(of stream: ProviderEventStream) async -> ProviderError? {
    do {
        _ = try await collect(stream)
        return nil
    } catch {
        return error as? ProviderError ?? .transport("not a ProviderError: \(type(of: error))")
    }
}

func providerRequest(_ prompt: String = "Say hello", messages: [ChatMessage] = [], memory: MemoryContext? = nil,
                     images: [ImageAttachment] = [], output: OutputFormat = .text, maxTokens: Int = 64,
                     sampling: SamplingOptions = .greedy, promptTokens: Int = 0) -> ProviderRequest {
    ProviderRequest(request: GenerationRequest(prompt: prompt, messages: messages, memory: memory, images: images,
                                               output: output, maxTokens: maxTokens, sampling: sampling),
                    analysis: RequestAnalysis(privacy: .public, estimatedPromptTokens: promptTokens))
}

/// Collects log lines from a provider.
final class LogSink: Sendable {
    private let lines = Lock<[String]>([])
    var handler: @Sendable (String) -> Void { { line in self.lines.withLock { $0.append(line) } } }
    var all: [String] { lines.withLock { $0 } }
}

func settings(streaming: Bool = true, idleTimeout: Duration = .seconds(5), pricing: TokenPricing = .free,
              budget: Double? = nil, ledger: UsageLedger = UsageLedger(), log: LogSink? = nil,
              now: Date = Date(timeIntervalSince1970: 1_700_000_000)) -> RemoteProviderSettings {
    RemoteProviderSettings(maxContextTokens: 4096, supportsImages: true, supportsStructuredOutput: true, pricing: pricing,
                           streaming: streaming, requestTimeout: .seconds(10), idleTimeout: idleTimeout, budgetUSD: budget,
                           ledger: ledger, log: log?.handler, now: { now })
}

func openAI(_ server: LoopbackHTTPServer, key: String? = nil, settings: RemoteProviderSettings = settings(),
            includeStreamUsage: Bool = true) -> RemoteProvider {
    .openAI(model: "gemma", baseURL: server.baseURL.appendingPathComponent("v1"),
            credentials: key.flatMap(APIKey.init).map { .key($0) } ?? .none,
            options: .init(includeStreamUsage: includeStreamUsage), settings: settings)
}

func anthropic(_ server: LoopbackHTTPServer, key: String? = "ant-test-key-0123456789abcdef",
               settings: RemoteProviderSettings = settings()) -> RemoteProvider {
    .anthropic(model: "claude-test", credentials: key.flatMap(APIKey.init).map { .key($0) } ?? .none,
               baseURL: server.baseURL.appendingPathComponent("v1"), settings: settings)
}

func gemini(_ server: LoopbackHTTPServer, key: String? = "gem-test-key-0123456789abcdef",
            settings: RemoteProviderSettings = settings()) -> RemoteProvider {
    .gemini(model: "gemini-test", credentials: key.flatMap(APIKey.init).map { .key($0) } ?? .none,
            baseURL: server.baseURL.appendingPathComponent("v1beta"), settings: settings)
}

/// `data: <json>\n\n`
func sseData(_ json: String) -> String { "data: \(json)\n\n" }
func sseEvent(_ type: String, _ json: String) -> String { "event: \(type)\ndata: \(json)\n\n" }
