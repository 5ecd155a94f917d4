import Testing
import SwitchboardCore

@Suite("ProviderEventStream")
struct ProviderEventStreamTests {
    /// Reads until the end or an error: the events, and the error if one was thrown.
    private func drain(_ events: ProviderEventStream) async -> ([ProviderEvent], ProviderError?) {
        var seen: [ProviderEvent] = []
        do {
            for try await event in events { seen.append(event) }
            return (seen, nil)
        } catch {
            return (seen, error as? ProviderError)
        }
    }

    @Test("An answer in hand yields its events in order, then ends")
    func readyEvents() async {
        let events: [ProviderEvent] = [.token("a"), .token("b"), .finished(.stop, TokenUsage(promptTokens: 1, completionTokens: 2))]
        let (seen, error) = await drain(ProviderEventStream(events: events))
        #expect(seen == events)
        #expect(error == nil)
    }

    @Test("A failing answer yields its tokens, throws once, then stays ended")
    func readyEventsThenError() async throws {
        let stream = ProviderEventStream(events: [.token("partial")], thenFailing: .transport("connection reset"))
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.next() == .token("partial"))
        await #expect(throws: ProviderError.transport("connection reset")) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
        let (seen, error) = await drain(.failing(.unavailable("down")))
        #expect(seen.isEmpty)
        #expect(error == .unavailable("down"))
    }

    @Test("A wrapped stream passes its events and its error through")
    func wrappedStream() async {
        let (stream, continuation) = AsyncThrowingStream<ProviderEvent, any Error>.makeStream()
        continuation.yield(.token("x"))
        continuation.finish(throwing: ProviderError.timeout)
        let (seen, error) = await drain(ProviderEventStream(stream))
        #expect(seen == [.token("x")])
        #expect(error == .timeout)
    }

    @Test("Each iterator of an answer in hand starts from the beginning")
    func iteratorsAreIndependent() async {
        let stream = ProviderEventStream(events: [.token("a"), .finished(.stop, nil)])
        let first = await drain(stream), second = await drain(stream)
        #expect(first.0 == second.0)
        #expect(first.0.count == 2)
    }
}
