import Foundation
import SwitchboardCore

/// The OpenAI Chat Completions replies `FaultyChatServer` sends: a healthy answer (an SSE stream or
/// one JSON document) or the same broken by a `ChatFault`.
public struct ChatFaultReplies: Sendable {
    /// The answer's pieces, one SSE delta each.
    public var answer: [String]
    /// The `Retry-After` value of `.rateLimitedRetryAfter`, in seconds.
    public var retryAfterSeconds: Int
    /// How long a timeout or a stalled stream holds the socket at most (the client normally gives up first).
    public var holdSeconds: Double
    /// Pause after the deltas of `.resetAfterFirstToken` before the reset, so the client has read them
    /// (a reset can discard bytes the client has not read yet).
    public var resetPauseMilliseconds: Int

    public init(answer: [String] = ["This", " is", " a", " loopback", " answer", "."], retryAfterSeconds: Int = 1,
                holdSeconds: Double = 30, resetPauseMilliseconds: Int = 50) {
        self.answer = answer.isEmpty ? ["ok"] : answer; self.retryAfterSeconds = max(0, retryAfterSeconds)
        self.holdSeconds = max(0, holdSeconds); self.resetPauseMilliseconds = max(0, resetPauseMilliseconds)
    }

    public func reply(_ fault: ChatFault?, streaming: Bool) -> LoopbackReply {
        switch fault {
        case nil: return streaming ? .sse(events(answer) + finishEvents) : .json(200, document(answer))
        case .rateLimitedRetryAfter: return .json(429, error("rate limited", "rate_limit_error"), headers: ["Retry-After": "\(retryAfterSeconds)"])
        case .rateLimited: return .json(429, error("rate limited", "rate_limit_error"))
        case .serverError: return .json(500, error("internal error", "server_error"))
        case .unavailable: return .json(503, error("overloaded", "server_error"))
        case .timeout: return .stall(seconds: holdSeconds)
        case .resetBeforeFirstToken: return .reset
        case .resetAfterFirstToken:
            let first = events(Array(answer.prefix(2)))
            return streaming ? .sse(first, then: [.pause(milliseconds: resetPauseMilliseconds), .reset])
                             : partialDocument(then: [.pause(milliseconds: resetPauseMilliseconds), .reset])
        case .malformedJSON:
            return streaming ? .sse(events(Array(answer.prefix(1))) + ["data: {\"choices\": [{\"delta\": {\"content\n\n", "data: [DONE]\n\n"])
                             : .json(200, #"{"id":"chatcmpl-chaos","choices": [{"message": {"content"#)
        case .truncatedStream:
            return streaming ? .sse(events(Array(answer.prefix(3)))) : partialDocument(then: [.drop])
        case .stalledStream:
            return streaming ? .sse(events(Array(answer.prefix(1))), then: [.holdOpen(seconds: holdSeconds)])
                             : partialDocument(then: [.holdOpen(seconds: holdSeconds)])
        }
    }

    private func events(_ pieces: [String]) -> [String] {
        ["data: " + chunk(#"{"role":"assistant","content":""}"#, finish: nil) + "\n\n"]
            + pieces.map { "data: " + chunk(#"{"content":\#(Self.quoted($0))}"#, finish: nil) + "\n\n" }
    }

    private var finishEvents: [String] {
        ["data: " + chunk("{}", finish: "stop") + "\n\n",
         #"data: {"id":"chatcmpl-chaos","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":\#(answer.count),"total_tokens":\#(12 + answer.count)}}"# + "\n\n",
         "data: [DONE]\n\n"]
    }

    private func chunk(_ delta: String, finish: String?) -> String {
        #"{"id":"chatcmpl-chaos","object":"chat.completion.chunk","choices":[{"index":0,"delta":\#(delta),"finish_reason":\#(finish.map(Self.quoted) ?? "null")}]}"#
    }

    private func document(_ pieces: [String]) -> String {
        #"{"id":"chatcmpl-chaos","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":\#(Self.quoted(pieces.joined()))},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":\#(pieces.count),"total_tokens":\#(12 + pieces.count)}}"#
    }

    /// The head promises the whole document; only its first half is sent before `tail`.
    private func partialDocument(then tail: [LoopbackReply.Step]) -> LoopbackReply {
        let whole = Data(document(answer).utf8)
        return LoopbackReply(status: 200, headers: ["Content-Type": "application/json", "Content-Length": "\(whole.count)"],
                             steps: [.send(whole.prefix(whole.count / 2))] + tail, chunked: false)
    }

    private func error(_ message: String, _ type: String) -> String {
        #"{"error":{"message":\#(Self.quoted(message)),"type":\#(Self.quoted(type))}}"#
    }

    /// A JSON string literal (the core's escaping).
    static func quoted(_ text: String) -> String { GeneratedContent.quoted(text) }
}
