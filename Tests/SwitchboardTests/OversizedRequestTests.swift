import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit

/// Sizes from a caller at the ends of `Int`: routing refuses or serves them, nothing traps.
@Suite("Requests with sizes near Int.max")
struct OversizedRequestTests {
    @Test func maxTokensNearIntMaxFitsNoContextAndIsRefusedByRouting() async {
        let coordinator = Coordinator(providers: [Fixture.local(), Fixture.remote()], configuration: Fixture.configuration(),
                                      deviceState: FixedDeviceState())
        let error = await Fixture.failure { try await coordinator.respond(to: GenerationRequest(prompt: "hi", maxTokens: .max)) }
        guard case .noEligibleProvider(let reasons)? = error else { Issue.record("expected noEligibleProvider, got \(String(describing: error))"); return }
        #expect(reasons.allSatisfy { $0.reason == .contextTooSmall })
    }

    @Test func aProviderWhoseContextIsIntMaxTakesIntMaxTokens() async throws {
        // Scoring predicts latency from maxTokens (seconds far past Duration's range) and the runtime
        // caps tokens at a multiple of it: both saturate.
        let huge = Fixture.remote("huge", context: .max)
        let coordinator = Coordinator(providers: [huge], configuration: Fixture.configuration(), deviceState: FixedDeviceState())
        let response = try await coordinator.respond(to: GenerationRequest(prompt: "hi", maxTokens: .max - 1))
        #expect(response.providerID == "huge")
    }

    @Test func saturatingArithmetic() {
        #expect(Int.max.saturatingAdd(1) == .max)
        #expect(Int.min.saturatingAdd(-1) == .min)
        #expect(Int.max.saturatingMultiply(8) == .max)
        #expect(Int.min.saturatingMultiply(2) == .min)
        #expect((-3).saturatingMultiply(-Int.max) == .max)
        #expect(7.saturatingMultiply(6).saturatingAdd(-2) == 40)
    }
}
