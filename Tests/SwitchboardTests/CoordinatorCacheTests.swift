import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit

@Suite("Coordinator cache path")
struct CoordinatorCacheTests {
    @Test("A second identical public request is served from the cache")
    func publicHit() async throws {
        let local = Fixture.local()
        let coordinator = Coordinator(providers: [local], configuration: Fixture.configuration(cache: true), deviceState: FixedDeviceState())
        let request = GenerationRequest(prompt: "Name three planets")
        let first = try await coordinator.respond(to: request)
        let second = try await coordinator.respond(to: GenerationRequest(prompt: "  Name three   planets "))
        #expect(!first.cached)
        #expect(second.cached)
        #expect(second.content == first.content)
        #expect(second.attempts == 0)
        #expect(await local.callCount == 1)
        let counts = coordinator.requestCounts()
        #expect(counts.cacheHits == 1 && counts.completed == 2)
        let events = await Fixture.collect(coordinator.stream(request))
        #expect(events.map(\.eventLabel) == ["analyzed", "token:local answer", "completed:local"])
    }

    @Test("Sensitive requests are never cached, personal ones not by default")
    func privateMisses() async throws {
        let local = Fixture.local()
        let coordinator = Coordinator(providers: [local], configuration: Fixture.configuration(cache: true), deviceState: FixedDeviceState())
        for prompt in ["my password is hunter2!", "email me at bob@example.com"] {
            _ = try await coordinator.respond(to: GenerationRequest(prompt: prompt))
            let again = try await coordinator.respond(to: GenerationRequest(prompt: prompt))
            #expect(!again.cached)
        }
        #expect(await local.callCount == 4)
        #expect(await coordinator.cache.statistics().entries == 0)
    }

    @Test("With the cache disabled every request routes")
    func disabled() async throws {
        let local = Fixture.local()
        let coordinator = Coordinator(providers: [local], configuration: Fixture.configuration(cache: false), deviceState: FixedDeviceState())
        for _ in 0..<3 { _ = try await coordinator.respond(to: GenerationRequest(prompt: "same")) }
        #expect(await local.callCount == 3)
    }
}
