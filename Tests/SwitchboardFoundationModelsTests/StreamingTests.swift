import Testing
import SwitchboardCore
@testable import SwitchboardFoundationModels

@Suite("Foundation Models snapshots to tokens")
struct StreamingTests {
    @Test("Cumulative snapshots become deltas whose concatenation is the last snapshot, nothing lost or repeated")
    func deltas() {
        // Seeded pseudo-random splits of texts with multi-scalar characters, so the cut points fall
        // everywhere, including inside a grapheme cluster.
        let texts = ["Hello, world!", "naïve café — 東京 👩‍👩‍👧 e\u{301}", "", "line\nbreak\ttab", String(repeating: "ab🇫🇷", count: 40)]
        var random = SeededRandom(seed: 7)
        for text in texts {
            let scalars = Array(text.unicodeScalars)
            for _ in 0..<20 {
                var cuts = (0..<min(6, scalars.count)).map { _ in Int(random.next() % UInt64(scalars.count + 1)) }.sorted()
                cuts.append(scalars.count)
                var deltas = SnapshotDeltas()
                var joined = ""
                var previousCut = -1
                for cut in cuts {
                    var snapshot = String.UnicodeScalarView()
                    snapshot.append(contentsOf: scalars[..<cut])
                    guard case .delta(let piece) = deltas.next(String(snapshot)) else { Issue.record("rewrite on a prefix"); return }
                    if cut == previousCut { #expect(piece.isEmpty) }
                    previousCut = cut
                    joined += piece
                }
                #expect(joined.unicodeScalars.elementsEqual(text.unicodeScalars))
                #expect(deltas.sent.unicodeScalars.elementsEqual(text.unicodeScalars))
            }
        }
    }

    @Test("A combining mark added to the last character comes out as a delta")
    func combiningMark() {
        var deltas = SnapshotDeltas()
        #expect(deltas.next("cafe") == .delta("cafe"))
        #expect(deltas.next("cafe\u{301}") == .delta("\u{301}"))
    }

    @Test("A snapshot that rewrites sent text, or drops part of it, is a rewrite and sends nothing")
    func rewrite() {
        var deltas = SnapshotDeltas()
        #expect(deltas.next("The cat") == .delta("The cat"))
        #expect(deltas.next("The dog sat") == .rewrite(sentLength: 7, divergesAt: 4))
        #expect(deltas.sent == "The cat")
        #expect(deltas.next("The") == .rewrite(sentLength: 7, divergesAt: 3))
        #expect(deltas.next("The cat sat") == .delta(" sat"))
    }

    static func events(_ model: ScriptedSystemModel, _ request: GenerationRequest) async throws -> [ProviderEvent] {
        let provider = FoundationModelsProvider(id: "fm", model: model)
        var events: [ProviderEvent] = []
        for try await event in await provider.generate(ProviderRequest(request: request, analysis: RequestAnalysis(privacy: .public))) {
            events.append(event)
        }
        return events
    }

    @Test("The provider streams text as deltas and ends with finished, with the OS's usage when it reports one")
    func providerText() async throws {
        let usage = TokenUsage(promptTokens: 12, completionTokens: 3)
        let model = ScriptedSystemModel { _ in .init([.snapshot("Hel"), .snapshot("Hello"), .snapshot("Hello"), .snapshot("Hello!"), .usage(usage)]) }
        let events = try await Self.events(model, GenerationRequest(prompt: "hi"))
        #expect(events == [.token("Hel"), .token("lo"), .token("!"), .finished(.stop, usage)])
    }

    @Test("A rewrite mid-stream fails the call with a retryable malformedResponse after the text already sent")
    func providerRewrite() async {
        let model = ScriptedSystemModel { _ in .init([.snapshot("Yes, "), .snapshot("No.")]) }
        let provider = FoundationModelsProvider(id: "fm", model: model)
        var tokens: [ProviderEvent] = []
        do {
            for try await event in await provider.generate(ProviderRequest(request: GenerationRequest(prompt: "?"),
                                                                           analysis: RequestAnalysis(privacy: .public))) {
                tokens.append(event)
            }
            Issue.record("no error")
        } catch {
            let failure = ProviderError(error)
            guard case .malformedResponse = failure else { Issue.record("\(failure)"); return }
            #expect(failure.isRetryable)
        }
        #expect(tokens == [.token("Yes, ")])
    }

    @Test("Structured content is sent once, whole, at the end (partial JSON is re-rendered, not extended)")
    func providerStructured() async throws {
        let model = ScriptedSystemModel { _ in .init([.snapshot(#"{"a":"x"}"#), .snapshot(#"{"a":"xy"}"#), .snapshot(#"{"a":"xyz","b":1}"#)]) }
        var request = GenerationRequest(prompt: "json")
        request.output = .schema(.object([.init("a", .string()), .init("b", .integer())]))
        let events = try await Self.events(model, request)
        #expect(events == [.token(#"{"a":"xyz","b":1}"#), .finished(.stop, nil)])
        #expect(model.calls.first?.schema != nil)
    }

    @Test("Framework errors come out of the stream as the mapped ProviderError")
    func providerFailure() async {
        let model = ScriptedSystemModel { _ in .init([], then: SystemModelFailure.guardrailViolation) }
        await #expect(throws: ProviderError.contentPolicy("the system model's guardrails stopped the request")) {
            _ = try await Self.events(model, GenerationRequest(prompt: "x"))
        }
    }

    @Test("A captured tool call is reported with its arguments, and the call finishes with .toolCalls")
    func providerToolCall() async throws {
        let model = ScriptedSystemModel { request in
            .init([.snapshot("")], then: ToolCallCaptured(name: "weather", argumentsJSON: #"{"city":"Oslo"}"#,
                                                          sequence: request.firstToolCallSequence))
        }
        let earlier = ToolCall(id: "x", name: "weather", arguments: "{}")
        var request = GenerationRequest(messages: [ChatMessage(.user, "before"), .assistant(toolCalls: [earlier]),
                                                   .tool(ToolResult(callID: "x", name: "weather", output: "rain")),
                                                   ChatMessage(.user, "and Oslo?")])
        request.tools = [ToolDefinition(name: "weather", description: "forecast", parameters: .object([.init("city", .string())]))]
        let events = try await Self.events(model, request)
        #expect(events == [.toolCall(ToolCall(id: "fm-call-1", name: "weather", arguments: #"{"city":"Oslo"}"#)), .finished(.toolCalls, nil)])
        #expect(model.calls.first?.tools.map(\.name) == ["weather"])
        request.toolChoice = .none
        _ = try? await Self.events(model, request)
        #expect(model.calls.last?.tools.isEmpty == true)
    }
}
