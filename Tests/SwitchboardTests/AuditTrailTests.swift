import Foundation
import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit

@Suite("Routing audit trail")
struct AuditTrailTests {
    @Test func sensitiveRequestIsExplainedWithoutItsText() async throws {
        let audit = AuditTrail()
        let coordinator = Coordinator(providers: [Fixture.local(), Fixture.remote()], configuration: Fixture.configuration(),
                                      clock: ImmediateClock(), deviceState: FixedDeviceState(), audit: audit)
        let prompt = "My card is 4111 1111 1111 1111, can you help?"
        _ = try await coordinator.respond(to: GenerationRequest(prompt: prompt, preferredProviders: ["remote"]))
        let record = try #require(await audit.recent().first)
        #expect(record.requestID == 1)
        #expect(record.privacy == .sensitive)
        #expect(record.categories == [.paymentCard])
        #expect(record.excluded.map(\.provider) == ["remote"] && record.excluded.first?.reason == "privacy")
        #expect(record.chosen == "local" && record.outcome == .completed)
        #expect(record.attempts == [RoutingAuditRecord.Attempt(provider: "local", onDevice: true)])
        #expect(!record.leftDevice)
        let line = String(decoding: await audit.jsonLines(), as: UTF8.self)
        #expect(line.contains("\"left_device\":false") && line.contains("\"privacy\":\"sensitive\""))
        #expect(!line.contains("4111") && !line.contains("card is"))
        let decoded = try JSONDecoder().decode(RoutingAuditRecord.self, from: Data(line.utf8.dropLast()))
        #expect(decoded == record)
    }

    @Test func everyFallbackIsRecordedWithItsReasonKind() async throws {
        let audit = AuditTrail()
        let remote = Fixture.remote(fault: .error(.authentication("key sk-secret-from-server rejected")))
        let coordinator = Coordinator(providers: [remote, Fixture.local()], configuration: Fixture.configuration(),
                                      clock: ImmediateClock(), deviceState: FixedDeviceState(), audit: audit)
        let response = try await coordinator.respond(to: GenerationRequest(prompt: "Why is the sky blue?", preferredProviders: ["remote"]))
        #expect(response.providerID == "local")
        let record = try #require(await audit.recent().first)
        #expect(record.attempts == [RoutingAuditRecord.Attempt(provider: "remote", onDevice: false, failure: "authentication"),
                                    RoutingAuditRecord.Attempt(provider: "local", onDevice: true)])
        #expect(record.leftDevice && record.chosen == "local" && record.privacy == .public)
        #expect(!String(decoding: await audit.jsonLines(), as: UTF8.self).contains("sk-secret"))
    }

    @Test func subscribersReceiveRecordsAndStreamsAlwaysFinish() async throws {
        let audit = AuditTrail(capacity: 2)
        let stream = await audit.subscribe(buffer: 8)
        let coordinator = Coordinator(providers: [Fixture.local()], configuration: Fixture.configuration(),
                                      clock: ImmediateClock(), deviceState: FixedDeviceState(), audit: audit)
        for prompt in ["one", "two", "three"] { _ = try await coordinator.respond(to: GenerationRequest(prompt: prompt)) }
        await audit.finish()
        var received: [UInt64] = []
        for await record in stream { received.append(record.requestID) }
        #expect(received == [1, 2, 3])
        #expect(await audit.recent().map(\.requestID) == [2, 3], "only the newest `capacity` records are kept")
        var late = 0
        for await _ in await audit.subscribe() { late += 1 }
        #expect(late == 0)
    }

    @Test func invalidRequestsAreNotRouted() async {
        let audit = AuditTrail()
        let coordinator = Coordinator(providers: [Fixture.local()], configuration: Fixture.configuration(),
                                      deviceState: FixedDeviceState(), audit: audit)
        _ = await Fixture.failure { try await coordinator.respond(to: GenerationRequest(prompt: "")) }
        #expect(await audit.recent().isEmpty)
    }
}
