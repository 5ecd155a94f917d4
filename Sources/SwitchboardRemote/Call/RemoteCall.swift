import Foundation
import SwitchboardCore

/// One generation against a remote API, shared by every provider: key lookup, budget reservation,
/// the HTTP exchange, SSE decoding, error mapping, usage and cost bookkeeping, logging.
struct RemoteCall<Wire: RemoteWireFormat>: Sendable {
    var id: ProviderID
    var model: String
    var wire: Wire
    var credentials: APICredentials
    var settings: RemoteProviderSettings
    var transport: any HTTPTransport

    /// The token stream is bounded by `maxTokens` (one event per streamed piece); the network side
    /// is bounded by the transport, the byte caps and the watchdog's deadlines. Ending the stream
    /// cancels the call and closes the connection.
    func start(_ request: ProviderRequest) -> ProviderEventStream {
        let (stream, continuation) = AsyncThrowingStream<ProviderEvent, any Error>.makeStream()
        let watchdog = CallWatchdog(clock: settings.clock, timers: settings.timers)
        let task = Task { await perform(request, continuation, watchdog: watchdog) }
        watchdog.attach { task.cancel() }
        continuation.onTermination = { _ in task.cancel() }
        return ProviderEventStream(stream)
    }

    private func perform(_ request: ProviderRequest, _ continuation: AsyncThrowingStream<ProviderEvent, any Error>.Continuation,
                         watchdog: CallWatchdog) async {
        defer { watchdog.finish() }
        var key: APIKey?
        var reservation: UsageReservation?
        let promptTokens = Self.estimatedPromptTokens(request)
        do {
            var reply = ReplyIntake(request.request, check: try StructuredReplyCheck(request.request.output, prefix: request.request.answerPrefix))
            key = try await resolveKey()
            let worstCase = settings.pricing.cost(of: TokenUsage(promptTokens: promptTokens, completionTokens: request.request.maxTokens))
            reservation = try await settings.ledger.reserve(provider: id, estimatedCostUSD: worstCase, budgetUSD: settings.budgetUSD)
            var http = try wire.httpRequest(for: request, key: key, streaming: settings.streaming)
            http.timeout = min(settings.requestTimeout, request.timeout ?? settings.requestTimeout)
            http.idleTimeout = settings.idleTimeout
            http.maxResponseBytes = settings.maxResponseBytes
            let errors = APIErrorMapper(dialect: wire.dialect, model: model, key: key, now: settings.now(),
                                        contextLimit: settings.maxContextTokens,
                                        requestedTokens: promptTokens.saturatingAdd(request.request.maxTokens),
                                        maxMessageLength: settings.maxErrorMessageLength)
            /// Admits one piece under the output budget; true when something was cut (stop reading).
            func receive(_ piece: String) throws -> Bool {
                let (admitted, cut) = reply.budget.admit(piece)
                if !admitted.isEmpty {
                    // Only new visible text is progress: whitespace, zero-width characters and tool calls
                    // nobody asked for cannot keep a call alive.
                    if OutputBudget.isVisible(admitted) { watchdog.progress(); reply.visible = true }
                    if try !reply.check.hold(admitted) { continuation.yield(.token(String(admitted))) }
                }
                return cut
            }
            watchdog.begin(tokenTimeout: settings.tokenTimeout, totalTimeout: settings.callDeadline(maxTokens: request.request.maxTokens))
            var ending = settings.streaming
                ? try await streamed(http, errors: errors, watchdog: watchdog, toolsRequested: reply.toolsRequested, emit: receive)
                : try await whole(http, errors: errors, emit: receive)
            // Calls of tools the request did not offer are not part of any answer.
            if !reply.toolsRequested { ending.toolCalls = [] }
            let usage = ending.usage
            let finish = ending.finish
            // Without reported usage, bill the estimate: budgets must not be bypassed by a quiet server.
            let toolTokens = ending.toolCalls.reduce(0) { $0.saturatingAdd($1.arguments.utf8.count / 4 + 1) }
            let billed = usage ?? TokenUsage(promptTokens: promptTokens, completionTokens: reply.budget.pieces.saturatingAdd(toolTokens))
            let cost = settings.pricing.cost(of: billed)
            // An invalid structured reply, or an empty one, still cost its tokens: billed, then thrown.
            var validated: [String] = []
            var rejection: ProviderError?
            do { validated = try reply.check.release(maxMessageLength: settings.maxErrorMessageLength) } catch { rejection = error }
            if rejection == nil, let empty = reply.emptiness(calls: ending.toolCalls) { rejection = empty }
            await settings.ledger.commit(reservation, record: UsageRecord(provider: id, model: model, usage: usage, costUSD: cost,
                                                                          error: rejection?.description))
            reservation = nil
            settings.log?("\(id): \(Self.loggable(http.url)) finished (\(finish.rawValue)), "
                + "\(billed.promptTokens) in / \(billed.completionTokens) out, $\(dollars(cost))")
            if let rejection { throw rejection }
            for piece in validated { continuation.yield(.token(piece)) }
            // Calls go out whole, once the reply has finished and each one parsed.
            for call in ending.toolCalls { continuation.yield(.toolCall(call)) }
            continuation.yield(.finished(finish, usage))
            continuation.finish()
        } catch {
            // The watchdog's reason first: its expiry is what cancelled this task.
            var failure = watchdog.reason ?? (Task.isCancelled ? .cancelled : ProviderError(error))
            failure = failure.scrubbed(of: key)
            if let reservation {
                await settings.ledger.commit(reservation, record: UsageRecord(provider: id, model: model, usage: nil, costUSD: 0,
                                                                              error: failure.description))
            }
            settings.log?("\(id): request failed: \(failure)")
            continuation.finish(throwing: failure)
        }
    }

    private func streamed(_ http: HTTPRequest, errors: APIErrorMapper, watchdog: CallWatchdog, toolsRequested: Bool,
                          emit: (String) throws -> Bool) async throws -> Ending {
        let response = try await transport.stream(http)
        watchdog.progress()  // the body begins: from now on a token must come every tokenTimeout
        settings.log?("\(id): \(http.method) \(Self.loggable(http.url)) → \(response.status)")
        guard (200..<300).contains(response.status) else {
            let body = (try? await response.collectBody(limit: 64 << 10)) ?? Data()
            throw errors.map(status: response.status, headers: response.headers, body: body)
        }
        if response.header("content-type")?.lowercased().contains("application/json") == true {
            // A server that ignored `stream: true` answered with one JSON document.
            let reply = try wire.decodeReply(try await response.collectBody(limit: min(16 << 20, settings.maxResponseBytes)), errors: errors,
                                             maxToolArgumentBytes: settings.maxToolArgumentBytes)
            return try Self.whole(reply, emit: emit)
        }
        var parser = SSEParser(maxLineBytes: settings.maxLineBytes)
        var decoder = wire.makeDecoder(maxToolArgumentBytes: settings.maxToolArgumentBytes)
        var received = 0
        reading: for try await chunk in response.body {
            // Any transport, not only ours, stops at the cap.
            received = received.saturatingAdd(chunk.count)
            if received > settings.maxResponseBytes {
                throw ProviderError.responseTooLarge(what: "the response body", limit: settings.maxResponseBytes)
            }
            for event in try parser.feed(chunk) {
                let toolBytes = decoder.toolBytesReceived
                for piece in try decoder.decode(event, errors: errors) where !piece.isEmpty {
                    // `maxTokens` reached: stop reading (leaving the loop closes the connection). The
                    // reply so far is the answer, cut where an honest server would have stopped.
                    if try emit(piece) { return Ending(finish: .length, usage: nil, toolCalls: []) }
                }
                // A long tool call streams arguments, not text: progress, when the request offered tools.
                if toolsRequested, decoder.toolBytesReceived > toolBytes { watchdog.progress() }
                if decoder.isDone { break reading }
            }
        }
        try Task.checkCancellation()
        if !decoder.isDone { _ = parser.finish() }
        let (finish, usage) = try decoder.result()
        let calls = try decoder.toolCalls()
        return Ending(finish: ToolCallAssembler.finish(finish, calls: calls), usage: usage, toolCalls: calls)
    }

    private func whole(_ http: HTTPRequest, errors: APIErrorMapper, emit: (String) throws -> Bool) async throws -> Ending {
        let response = try await transport.send(http)
        settings.log?("\(id): \(http.method) \(Self.loggable(http.url)) → \(response.status)")
        guard (200..<300).contains(response.status) else {
            throw errors.map(status: response.status, headers: response.headers, body: response.body)
        }
        return try Self.whole(try wire.decodeReply(response.body, errors: errors, maxToolArgumentBytes: settings.maxToolArgumentBytes),
                              emit: emit)
    }

    /// A whole reply's text goes through the same budget as streamed pieces: past it, cut, `.length`.
    private static func whole(_ reply: RemoteReply, emit: (String) throws -> Bool) throws -> Ending {
        let cut = try emit(reply.text)
        return Ending(finish: cut ? .length : reply.finish, usage: reply.usage, toolCalls: reply.toolCalls)
    }

    /// How a reply ended: the reason, the usage reported, the tool calls assembled.
    struct Ending: Sendable {
        var finish: FinishReason
        var usage: TokenUsage?
        var toolCalls: [ToolCall]
    }

    /// The analyzer's estimate, or about four characters per token, plus a flat cost per image.
    static func estimatedPromptTokens(_ request: ProviderRequest) -> Int {
        if request.analysis.estimatedPromptTokens > 0 { return request.analysis.estimatedPromptTokens }
        let characters = request.request.allText.reduce(0) { $0 + $1.count }
        return characters / 4 + 1 + request.request.images.count * 258
    }

    /// Scheme, host, port and path only: no user info, no query.
    static func loggable(_ url: URL) -> String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.user = nil; components?.password = nil; components?.query = nil
        return components?.string ?? "(url)"
    }
}
