import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit

/// Answers with fixed events, either in hand (`ProviderEventStream(events:)`, read by the coordinator
/// in a plain loop) or through a live stream (read event by event): the two must route alike.
actor TwinProvider: Provider {
    enum Delivery: Sendable { case inHand, streamed }
    nonisolated let id: ProviderID
    nonisolated let capabilities: ProviderCapabilities
    let delivery: Delivery
    let events: [ProviderEvent]
    let failure: ProviderError?

    init(_ id: ProviderID, _ delivery: Delivery, events: [ProviderEvent], failing failure: ProviderError? = nil) {
        self.id = id; self.delivery = delivery; self.events = events; self.failure = failure
        capabilities = ProviderCapabilities(isOnDevice: true, maxContextTokens: 8192)
    }

    func availability() -> ProviderAvailability { .ready }

    func generate(_ request: ProviderRequest) -> ProviderEventStream {
        switch delivery {
        case .inHand:
            return ProviderEventStream(events: events, thenFailing: failure)
        case .streamed:
            let (events, failure) = (self.events, self.failure)
            return ProviderEventStream(AsyncThrowingStream { continuation in
                for event in events { continuation.yield(event) }
                continuation.finish(throwing: failure)
            })
        }
    }
}

@Suite("Route path: fast paths behave as the general ones")
struct RoutePathTests {
    static let answer: [ProviderEvent] = [.token("Fine"), .token(" thanks"), .finished(.stop, TokenUsage(promptTokens: 3, completionTokens: 2))]

    /// The response of `first` (falling back to a plain scripted provider when it fails).
    func respond(_ first: TwinProvider, maxTokens: Int = 16) async -> Result<GenerationResponse, SwitchboardError> {
        let coordinator = Coordinator(providers: [first, Fixture.local("fallback", tokens: ["fallback"])],
                                      configuration: Fixture.configuration(retry: RetryPolicy(maxAttemptsPerProvider: 1)),
                                      deviceState: FixedDeviceState())
        let request = GenerationRequest(prompt: "How are you?", maxTokens: maxTokens, preferredProviders: [first.id])
        do { return .success(try await coordinator.generate(request)) } catch { return .failure(error) }
    }

    func summary(_ result: Result<GenerationResponse, SwitchboardError>) -> String {
        switch result {
        case .success(let r): "\(r.providerID) \(r.text) \(r.finishReason) \(r.attempts) \(r.usage.completionTokens) \(r.fallbackFrom.map(\.rawValue) ?? "-")"
        case .failure(let error): "error \(error)"
        }
    }

    @Test("An answer in hand and the same events streamed give the same response",
          arguments: [
              ("whole answer", RoutePathTests.answer, ProviderError?.none),
              ("fails after a token", [ProviderEvent.token("Fi")], ProviderError.transport("reset")),
              ("ends without a finish", [ProviderEvent.token("Fi")], ProviderError?.none),
              ("no events at all", [ProviderEvent](), ProviderError.timeout),
          ])
    func inHandEqualsStreamed(_ name: String, _ events: [ProviderEvent], _ failure: ProviderError?) async {
        let inHand = await respond(TwinProvider("twin", .inHand, events: events, failing: failure))
        let streamed = await respond(TwinProvider("twin", .streamed, events: events, failing: failure))
        #expect(summary(inHand) == summary(streamed), "\(name)")
    }

    @Test("A provider past the token cap is cut off the same way in hand and streamed")
    func tokenCapInHandAndStreamed() async {
        // maxTokens 1 allows 1·8 + 64 tokens; 100 is past it: a malformed response, then the fallback.
        let flood = Array(repeating: ProviderEvent.token("x"), count: 100) + [.finished(.stop, nil)]
        let inHand = await respond(TwinProvider("twin", .inHand, events: flood), maxTokens: 1)
        let streamed = await respond(TwinProvider("twin", .streamed, events: flood), maxTokens: 1)
        #expect(summary(inHand) == summary(streamed))
        #expect((try? inHand.get().providerID) == "fallback")
    }

    @Test("More than eight providers: routing, slots and records still find each one (indexed lookups)")
    func manyProviders() async throws {
        let providers = (0..<12).map { Fixture.local(ProviderID("p\($0)"), tokens: ["from p\($0)"]) }
        let coordinator = Coordinator(providers: providers, configuration: Fixture.configuration(concurrency: 1), deviceState: FixedDeviceState())
        for target in [0, 7, 8, 11] {
            let id = ProviderID("p\(target)")
            let response = try await coordinator.respond(to: GenerationRequest(prompt: "hello", maxTokens: 4, preferredProviders: [id]))
            #expect(response.providerID == id)
            #expect(response.content == "from p\(target)")
            #expect(coordinator.estimate(for: id)?.samples == 1, "the outcome was recorded on \(id)'s entry")
            #expect(await coordinator.loadBalancer.status(of: id).inFlight == 0, "\(id)'s slot was given back")
        }
        // Limits set per provider land on the right lane past the linear search too.
        await coordinator.loadBalancer.setLimit(3, for: "p10")
        #expect(await coordinator.loadBalancer.limit(for: "p10") == 3)
        #expect(await coordinator.loadBalancer.limit(for: "p2") == 1)
        #expect(coordinator.requestCounts().completed == 4)

        // Removing one re-indexes the rest; adding it back puts it last.
        coordinator.unregister("p3")
        let afterRemoval = try await coordinator.respond(to: GenerationRequest(prompt: "hello", maxTokens: 4, preferredProviders: ["p11"]))
        #expect(afterRemoval.providerID == "p11")
        #expect(coordinator.providerIDs.contains("p3") == false)
        await coordinator.register(Fixture.local("p3", tokens: ["back"]))
        #expect(coordinator.providerIDs.last == "p3")
        let back = try await coordinator.respond(to: GenerationRequest(prompt: "hello", maxTokens: 4, preferredProviders: ["p3"]))
        #expect(back.content == "back")
    }
}
