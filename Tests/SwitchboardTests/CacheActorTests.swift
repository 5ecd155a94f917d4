import Testing
@testable import Switchboard
import SwitchboardCore
import SwitchboardTestKit

@Suite struct CacheActorTests {
    func request(_ prompt: String, maxTokens: Int = 256) -> GenerationRequest {
        GenerationRequest(prompt: prompt, maxTokens: maxTokens)
    }
    func key(_ prompt: String, _ privacy: PrivacyLevel = .public) -> CacheKey {
        CacheKey(request: request(prompt), privacy: privacy)
    }
    func response(_ text: String) -> GenerationResponse {
        GenerationResponse(text: text, providerID: "remote", fallbackFrom: "local", attempts: 2,
                           timings: ResponseTimings(total: .milliseconds(40)))
    }

    @Test func hitReturnsCachedResponseWithoutAttempts() async throws {
        let cache = CacheActor(clock: ManualClock())
        #expect(await cache.lookup(key("hi")) == nil)
        #expect(await cache.store(response("hello"), for: key("hi"), privacy: .public))
        let hit = try #require(await cache.lookup(key("  hi ")))
        #expect(hit.text == "hello")
        #expect(hit.cached && hit.attempts == 0 && hit.fallbackFrom == nil)
        let stats = await cache.statistics()
        #expect(stats.hits == 1 && stats.misses == 1 && stats.entries == 1)
    }

    @Test func entriesExpireAfterTTL() async {
        let clock = ManualClock()
        let cache = CacheActor(configuration: CacheConfiguration(ttl: .seconds(10)), clock: clock)
        await cache.store(response("a"), for: key("q"), privacy: .public)
        clock.advance(by: .seconds(9))
        #expect(await cache.lookup(key("q")) != nil)
        clock.advance(by: .seconds(1))
        #expect(await cache.lookup(key("q")) == nil)
        let stats = await cache.statistics()
        #expect(stats.expirations == 1 && stats.entries == 0 && stats.bytes == 0 && stats.misses == 1)
    }

    @Test func leastRecentlyUsedIsEvictedFirst() async {
        let cache = CacheActor(configuration: CacheConfiguration(maxEntries: 3), clock: ManualClock())
        for name in ["a", "b", "c"] { await cache.store(response(name), for: key(name), privacy: .public) }
        _ = await cache.lookup(key("a"))               // a is now the most recent; b the least
        await cache.store(response("d"), for: key("d"), privacy: .public)
        #expect(await cache.lookup(key("b")) == nil)
        #expect(await cache.lookup(key("a")) != nil)
        #expect(await cache.lookup(key("c")) != nil)
        #expect(await cache.lookup(key("d")) != nil)
        #expect(await cache.keysByRecency() == [key("d"), key("c"), key("a")])
        #expect(await cache.statistics().evictions == 1)
    }

    @Test func byteBudgetEvicts() async {
        let entry = CacheActor.entryOverheadBytes + 1 + 100
        let cache = CacheActor(configuration: CacheConfiguration(maxBytes: entry * 2 + 10), clock: ManualClock())
        let body = String(repeating: "x", count: 100)
        for name in ["a", "b", "c"] { await cache.store(response(body), for: key(name), privacy: .public) }
        let stats = await cache.statistics()
        #expect(stats.entries == 2 && stats.bytes == entry * 2 && stats.evictions == 1)
        #expect(await cache.lookup(key("a")) == nil)
        let huge = String(repeating: "y", count: entry * 3)
        #expect(await cache.store(response(huge), for: key("big"), privacy: .public) == false)
    }

    @Test func sensitiveIsNeverStored() async {
        let cache = CacheActor(configuration: CacheConfiguration(storesPersonal: true), clock: ManualClock())
        #expect(await cache.store(response("x"), for: key("s", .sensitive), privacy: .sensitive) == false)
        var flagged = response("x"); flagged.privacy = .sensitive
        #expect(await cache.store(flagged, for: key("s"), privacy: .public) == false)
        #expect(await cache.statistics().entries == 0)
    }

    @Test func personalOnlyWhenConfigured() async {
        let strict = CacheActor(clock: ManualClock())
        #expect(await strict.store(response("x"), for: key("p", .personal), privacy: .personal) == false)
        let open = CacheActor(configuration: CacheConfiguration(storesPersonal: true), clock: ManualClock())
        #expect(await open.store(response("x"), for: key("p", .personal), privacy: .personal))
        #expect(await open.lookup(key("p", .personal))?.privacy == .personal)
    }

    @Test func differentSettingsMiss() async {
        let cache = CacheActor(clock: ManualClock())
        await cache.store(response("x"), for: CacheKey(request: request("q"), privacy: .public), privacy: .public)
        #expect(await cache.lookup(CacheKey(request: request("q", maxTokens: 10), privacy: .public)) == nil)
        var excluded = request("q"); excluded.excludedProviders = ["remote"]
        #expect(await cache.lookup(CacheKey(request: excluded, privacy: .public)) == nil)
        var sampled = request("q"); sampled.sampling.temperature = 1
        #expect(await cache.lookup(CacheKey(request: sampled, privacy: .public)) == nil)
        #expect(await cache.lookup(CacheKey(request: request("q\n"), privacy: .public)) != nil)
    }

    @Test func replacingAnEntryKeepsByteCountExact() async {
        let cache = CacheActor(clock: ManualClock())
        await cache.store(response("short"), for: key("q"), privacy: .public)
        await cache.store(response("a much longer answer"), for: key("q"), privacy: .public)
        let stats = await cache.statistics()
        #expect(stats.entries == 1)
        #expect(stats.bytes == CacheActor.entryOverheadBytes + 1 + "a much longer answer".utf8.count)
        await cache.removeAll()
        #expect(await cache.statistics().bytes == 0)
    }

    @Test func lruTableStaysConsistentUnderChurn() {
        var table = LRUTable<Int, Int>()
        var rng = SeededRandom(seed: 7)
        var model: [Int: Int] = [:]
        for step in 0..<2000 {
            let k = Int(rng.next() % 50)
            switch rng.next() % 3 {
            case 0: table.set(step, for: k); model[k] = step
            case 1: #expect(table.remove(k) == model.removeValue(forKey: k))
            default: #expect(table.touch(k) == model[k])
            }
        }
        #expect(table.count == model.count)
        #expect(Set(table.keysByRecency) == Set(model.keys))
    }
}
