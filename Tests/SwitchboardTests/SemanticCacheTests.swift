import Foundation
import Testing
@testable import Switchboard
import SwitchboardTestKit

@Suite("Semantic cache")
struct SemanticCacheTests {
    /// A coordinator with one scripted provider and a semantic cache over the hashing embedder, whose
    /// similarity is word overlap: reordered words are "paraphrases" here.
    static func make(threshold: Float = 0.8, clock: ManualClock = ManualClock()) -> (Coordinator, ScriptedProvider, CacheActor) {
        let provider = Fixture.local("local", clock: ImmediateClock())
        let cache = CacheActor(semantic: SemanticCacheConfiguration(embedder: HashingEmbedder(dimension: 256), threshold: threshold),
                               clock: clock)
        let coordinator = Coordinator(providers: [provider], configuration: Fixture.configuration(cache: true), clock: ImmediateClock(),
                                      deviceState: FixedDeviceState(),
                                      cache: cache)
        return (coordinator, provider, cache)
    }

    @Test("A reworded question is served from the cache; the provider is called once")
    func rewordedHit() async throws {
        let (coordinator, provider, cache) = Self.make()
        let first = try await coordinator.respond(to: GenerationRequest(prompt: "what is the capital city of france"))
        #expect(!first.cached)
        let second = try await coordinator.respond(to: GenerationRequest(prompt: "the capital city of france, what is it?"))
        #expect(second.cached)
        #expect(second.content == first.content)
        #expect(await provider.callCount == 1)
        #expect(await cache.statistics().semanticHits == 1)
    }

    @Test("The guard refuses a close prompt that negates the first or changes its numbers, and counts why")
    func guardRefusals() async throws {
        let (coordinator, provider, cache) = Self.make(threshold: 0.5)
        _ = try await coordinator.respond(to: GenerationRequest(prompt: "which foods are safe for cats to eat"))
        let negated = try await coordinator.respond(to: GenerationRequest(prompt: "which foods are not safe for cats to eat"))
        #expect(!negated.cached)
        _ = try await coordinator.respond(to: GenerationRequest(prompt: "what is 15 percent of 80 dollars"))
        let renumbered = try await coordinator.respond(to: GenerationRequest(prompt: "what is 15 percent of 90 dollars"))
        #expect(!renumbered.cached)
        #expect(await provider.callCount == 4)
        let refusals = await cache.statistics().semanticRefusals
        #expect(refusals[.negation, default: 0] >= 1)
        #expect(refusals[.number, default: 0] >= 1)
    }

    @Test("Answers are shared only within one scope and one context")
    func scopesAndContexts() async throws {
        let (coordinator, provider, _) = Self.make()
        var alice = GenerationRequest(prompt: "what is the capital city of france")
        alice.cacheScope = "alice"
        _ = try await coordinator.respond(to: alice)
        var bob = GenerationRequest(prompt: "the capital city of france, what is it?")
        bob.cacheScope = "bob"
        #expect(try await !coordinator.respond(to: bob).cached)
        let otherContext = GenerationRequest(messages: [ChatMessage(.system, "Answer in German."),
                                                        ChatMessage(.user, "the capital city of france, what is it")])
        #expect(try await !coordinator.respond(to: otherContext).cached)
        var aliceAgain = GenerationRequest(prompt: "capital city of france: what is it")
        aliceAgain.cacheScope = "alice"
        #expect(try await coordinator.respond(to: aliceAgain).cached)
        #expect(await provider.callCount == 3)
    }

    @Test("Entries expire with the cache's TTL")
    func expiry() async throws {
        let clock = ManualClock()
        let (coordinator, provider, _) = Self.make(clock: clock)
        _ = try await coordinator.respond(to: GenerationRequest(prompt: "what is the capital city of france"))
        clock.advance(by: .seconds(301))
        #expect(try await !coordinator.respond(to: GenerationRequest(prompt: "the capital city of france, what is it?")).cached)
        #expect(await provider.callCount == 2)
    }

    @Test("Off by default, and a remote embedder never turns it on")
    func offByDefault() async {
        #expect(!CacheActor().isSemantic)
        #expect(!CacheActor(semantic: SemanticCacheConfiguration(embedder: HashingEmbedder(isOnDevice: false))).isSemantic)
    }
}
