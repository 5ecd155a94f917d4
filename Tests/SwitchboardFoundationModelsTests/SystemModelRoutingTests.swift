import Testing
import Switchboard
import SwitchboardTestKit
@testable import SwitchboardFoundationModels

/// The system model beside the engine, Private Cloud Compute and a third-party cloud, through a real
/// `Coordinator`: routing, fallback and the privacy rule end to end.
@Suite("Foundation Models routing")
struct SystemModelRoutingTests {
    static let schema = GenerationSchema.object([.init("city", .string())])

    struct Fleet {
        let system: ScriptedSystemModel
        let fm: FoundationModelsProvider
        let engine: ScriptedProvider
        let pcc: ScriptedProvider
        let remote: ScriptedProvider
        var all: [any Provider] { [remote, pcc, engine, fm] }

        init() {
            system = ScriptedSystemModel { request in
                .init([.snapshot(request.schema == nil ? "system answer" : #"{"city":"Oslo"}"#)])
            }
            fm = FoundationModelsProvider(id: "apple-system-model", model: system)
            let structured = ProviderCapabilities(isOnDevice: true, maxContextTokens: 8192, supportsStructuredOutput: true)
            engine = ScriptedProvider(id: "engine", capabilities: structured, output: .tokens([#"{"city":"#, #""Bergen"}"#]))
            var pccCapabilities = structured
            pccCapabilities.locality = .privateCloudCompute
            pcc = ScriptedProvider(id: "pcc", capabilities: pccCapabilities, output: .tokens([#"{"city":"Paris"}"#]))
            var cloud = structured
            cloud.locality = .thirdPartyCloud
            remote = ScriptedProvider(id: "remote", capabilities: cloud, output: .tokens([#"{"city":"Rome"}"#]))
        }

        func coordinator(_ privacy: PrivacyPolicy = PrivacyPolicy()) -> Coordinator {
            Coordinator(providers: all, configuration: SwitchboardConfiguration(privacy: privacy, cacheEnabled: false, stateRefreshInterval: .zero))
        }
    }

    /// A structured request the app routes to the system model first (the scorer has no term for
    /// the quality of structured output, so the preference is the app's, as `preferredProviders`).
    static func structured(_ prompt: String, preferring: [ProviderID] = ["apple-system-model"]) -> GenerationRequest {
        var request = GenerationRequest(prompt: prompt, output: .schema(schema), maxTokens: 64)
        request.preferredProviders = preferring
        return request
    }

    @Test("A structured request goes to the system model when it is available")
    func prefersSystemModel() async throws {
        let fleet = Fleet()
        let response = try await fleet.coordinator().respond(to: Self.structured("Capital of Norway?"))
        #expect(response.providerID == "apple-system-model")
        #expect(fleet.system.calls.count == 1 && fleet.system.calls[0].schema != nil)
        #expect(await fleet.engine.callCount == 0)
    }

    @Test("While the model is not ready (downloading) the request falls back to the engine; once ready it is served again")
    func fallsBackWhileNotReady() async throws {
        let fleet = Fleet()
        fleet.system.setAvailability(.modelNotReady)
        let coordinator = fleet.coordinator()
        let response = try await coordinator.respond(to: Self.structured("Capital of Norway?"))
        #expect(response.providerID == "engine")
        #expect(fleet.system.calls.isEmpty)
        #expect(await fleet.engine.callCount == 1)
        fleet.system.setAvailability(.available)
        #expect(try await coordinator.respond(to: Self.structured("Capital of Norway?")).providerID == "apple-system-model")
        fleet.system.setAvailability(.appleIntelligenceNotEnabled)
        #expect(try await coordinator.respond(to: Self.structured("Capital of Norway?")).providerID == "engine")
    }

    static let sensitivePrompts = [
        "My card is 4111 1111 1111 1111, which city is on the bill?",
        "SSN 123-45-6789: which city issued it?",
        "I was diagnosed with depression last year; which city has the best clinic?",
    ]

    @Test("A sensitive request never reaches Private Cloud Compute or the remote, even when they are preferred and the device fails")
    func sensitiveStaysOnDevice() async throws {
        let fleet = Fleet()
        let permissive = PrivacyPolicy(allowPersonalRemote: true, allowPersonalPrivateCloudCompute: true)
        for prompt in Self.sensitivePrompts {
            let response = try await fleet.coordinator(permissive).respond(to: Self.structured(prompt, preferring: ["pcc", "remote"]))
            #expect(["apple-system-model", "engine"].contains(response.providerID))
        }
        fleet.system.setAvailability(.modelNotReady)
        await fleet.engine.setPersistentFault(.error(.unavailable("engine down")))
        for prompt in Self.sensitivePrompts {
            do {
                let response = try await fleet.coordinator(permissive).respond(to: Self.structured(prompt, preferring: ["pcc", "remote"]))
                Issue.record("answered by \(response.providerID)")
            } catch {
                guard case .allProvidersFailed(let attempts) = error else { Issue.record("\(error)"); continue }
                #expect(attempts.allSatisfy { ["apple-system-model", "engine"].contains($0.provider) })
            }
        }
        #expect(await fleet.pcc.callCount == 0)
        #expect(await fleet.remote.callCount == 0)
    }

    @Test("Personal data goes to Private Cloud Compute only when the app allows it, and never to the third-party cloud")
    func personalOnPrivateCloudCompute() async throws {
        let fleet = Fleet()
        fleet.system.setAvailability(.deviceNotEligible)
        await fleet.engine.setPersistentFault(.error(.unavailable("engine down")))
        let request = Self.structured("Email bob@example.com the name of the city", preferring: ["remote", "pcc"])
        await #expect(throws: SwitchboardError.self) { try await fleet.coordinator().respond(to: request) }
        #expect(await fleet.pcc.callCount == 0)
        let response = try await fleet.coordinator(PrivacyPolicy(allowPersonalPrivateCloudCompute: true)).respond(to: request)
        #expect(response.providerID == "pcc")
        #expect(await fleet.remote.callCount == 0)
    }
}
